from django.contrib import admin

from ludotheque.access import ReadOnlyHistoryMixin

from .models import OfflineAction


@admin.register(OfflineAction)
class OfflineActionAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    """The offline desk's actions as replayed; settled on the desk's conflicts page, never here."""

    list_display = ["__str__", "kind", "location", "recorded_at", "status", "reason_code", "sent_by"]
    list_filter = ["status", "kind", "location"]
    list_select_related = ["location", "sent_by"]
    date_hierarchy = "recorded_at"
    search_fields = ["id", "reason"]
