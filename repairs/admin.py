"""Repairs in the admin: read-only history (the desk sends copies to repair and brings them back)."""

from django.contrib import admin

from ludotheque.access import ReadOnlyHistoryMixin

from .models import Repair


@admin.register(Repair)
class RepairAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["copy", "reason", "opened_at", "opened_by", "closed_at", "cost", "charged_to"]
    list_filter = ["charged_to", "opened_at", "closed_at"]
    search_fields = ["copy__barcode", "copy__game__title", "reason", "notes"]
    list_select_related = ["copy__game", "opened_by"]
    date_hierarchy = "opened_at"
    raw_id_fields = ["copy", "loan", "entry"]
