"""Notices in the admin: history, read-only (the daily run writes them, the desk marks letters printed)."""

from django.contrib import admin

from catalogue.access import ReadOnlyHistoryMixin

from .models import Notice, NoticeItem


class NoticeItemInline(ReadOnlyHistoryMixin, admin.TabularInline):
    model = NoticeItem
    extra = 0
    fields = ["kind", "level", "loan", "hold", "about_date"]
    readonly_fields = fields


@admin.register(Notice)
class NoticeAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = [
        "member",
        "subject",
        "channel",
        "status",
        "created_at",
        "sent_at",
        "printed_at",
        "attempts",
    ]
    list_filter = ["channel", "status", "items__kind", "language", "run_on"]
    search_fields = ["member__name", "member__card_barcode", "recipient", "items__loan__copy__barcode"]
    list_select_related = ["member"]
    date_hierarchy = "created_at"
    inlines = [NoticeItemInline]
    fields = [
        "member",
        "channel",
        "status",
        "language",
        "run_on",
        "recipient",
        "subject",
        "body_text",
        "created_at",
        "sent_at",
        "printed_at",
        "printed_by",
        "attempts",
        "error",
    ]
