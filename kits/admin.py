"""Admin of the kits: a kit and its copies (a copy in at most one kit); its loans, read only."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from ludotheque.access import LibrarianAccessMixin, ReadOnlyHistoryMixin

from .models import Kit, KitItem, KitLoan, KitLoanCopy


class KitItemInline(LibrarianAccessMixin, admin.TabularInline):
    model = KitItem
    raw_id_fields = ["copy"]
    extra = 3


@admin.register(Kit)
class KitAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["name", "barcode", "site", "loan_period_days"]
    list_filter = ["site"]
    search_fields = ["name", "barcode", "items__copy__barcode", "items__copy__game__title"]
    fieldsets = [
        (None, {"fields": ["name", "barcode", "site", "description"]}),
        (_("Prêt"), {"fields": ["loan_period_days"]}),
        (_("Matériel"), {"fields": ["material", "material_missing"]}),
    ]
    inlines = [KitItemInline]

    def has_delete_permission(self, request, obj=None) -> bool:
        # A kit that was lent is history: its loans keep it.
        return super().has_delete_permission(request, obj) and (obj is None or not obj.loans.exists())


class KitLoanCopyInline(ReadOnlyHistoryMixin, admin.TabularInline):
    model = KitLoanCopy
    fields = ["copy", "loan"]
    readonly_fields = fields
    extra = 0


@admin.register(KitLoan)
class KitLoanAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["kit", "member", "lent_at", "due_on", "returned_at", "material_missing"]
    list_filter = ["kit"]
    list_select_related = ["kit", "member"]
    date_hierarchy = "lent_at"
    inlines = [KitLoanCopyInline]
    readonly_fields = [
        "kit",
        "member",
        "lent_at",
        "lent_by",
        "due_on",
        "returned_at",
        "returned_by",
        "material_missing",
    ]
