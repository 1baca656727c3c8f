"""The ledger in the admin: read only, like all history (no add, no edit, no delete).

Entries are written at the desk or through the API (ledger/services.py); a mistake is corrected by a
reversing entry from the family's ledger page.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from ludotheque.access import ReadOnlyHistoryMixin

from .models import Entry, Membership, TillClosure, TillClosureReversal


@admin.register(Entry)
class EntryAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["recorded_at", "member", "kind", "amount", "method", "waived", "receipt", "site", "clerk"]
    list_filter = ["kind", "method", "waived", "site", "recorded_at"]
    search_fields = ["member__name", "member__card_barcode", "cheque_number", "note", "=receipt_number"]
    list_select_related = ["member", "site", "clerk"]
    date_hierarchy = "recorded_at"
    raw_id_fields = ["member", "loan", "copy", "missing_piece", "deposit", "reverses"]

    @admin.display(description=_("reçu"))
    def receipt(self, entry: Entry) -> str:
        return entry.receipt


@admin.register(Membership)
class MembershipAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["member", "membership_type", "start", "end", "price", "created_at", "created_by"]
    list_filter = ["membership_type", "start"]
    search_fields = ["member__name", "member__card_barcode"]
    list_select_related = ["member", "membership_type", "created_by"]
    raw_id_fields = ["member", "charge"]


@admin.register(TillClosure)
class TillClosureAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = [
        "closed_at",
        "site",
        "cash_expected",
        "cash_counted",
        "difference",
        "float_kept",
        "closed_by",
    ]
    list_filter = ["site", "closed_at"]
    list_select_related = ["site", "closed_by"]


@admin.register(TillClosureReversal)
class TillClosureReversalAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["reversed_at", "closure", "reversed_by", "note"]
    list_select_related = ["closure__site", "reversed_by"]
