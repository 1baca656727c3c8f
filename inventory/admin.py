from django.contrib import admin

from catalogue.access import ReadOnlyHistoryMixin

from .models import Scan, Stocktake, StocktakeChange


@admin.register(Scan)
class ScanAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["scanned_at", "barcode", "copy", "stocktake", "scanned_by"]
    list_filter = ["stocktake"]
    list_select_related = ["copy__game", "stocktake__location", "scanned_by"]
    search_fields = ["barcode"]


@admin.register(Stocktake)
class StocktakeAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["__str__", "location", "started_at", "started_by", "closed_at"]
    list_filter = ["location"]
    list_select_related = ["location", "started_by"]


@admin.register(StocktakeChange)
class StocktakeChangeAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["copy", "kind", "before", "after", "stocktake", "made_at", "made_by"]
    list_filter = ["kind"]
    list_select_related = ["copy", "stocktake__location", "made_by"]
    search_fields = ["copy__barcode"]
