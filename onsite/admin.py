from django.contrib import admin

from ludotheque.access import ReadOnlyHistoryMixin

from .models import Play, Session, TableUse, Visit


class VisitInline(admin.TabularInline):
    model = Visit
    extra = 0
    fields = ["member", "children", "adults", "arrived_at", "recorded_by"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Session)
class SessionAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["__str__", "location", "opened_at", "opened_by", "closed_at"]
    list_filter = ["location"]
    list_select_related = ["location", "opened_by"]
    date_hierarchy = "opened_at"
    inlines = [VisitInline]


@admin.register(Visit)
class VisitAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["__str__", "session", "member", "children", "adults", "arrived_at"]
    list_filter = ["session__location"]
    list_select_related = ["session__location", "member"]
    search_fields = ["member__name", "member__card_barcode"]


@admin.register(TableUse)
class TableUseAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["copy", "session", "taken_at", "returned_at", "return_check"]
    list_filter = ["return_check", "session__location"]
    list_select_related = ["copy__game", "session__location"]
    search_fields = ["copy__barcode", "copy__game__title"]


@admin.register(Play)
class PlayAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["game", "players", "source", "session", "recorded_at", "recorded_by"]
    list_filter = ["source", "session__location"]
    list_select_related = ["game", "session__location", "recorded_by"]
    search_fields = ["game__title"]
