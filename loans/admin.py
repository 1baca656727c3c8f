"""Admin for loans, holds, date bookings and missing pieces: read-only history.

Lending, returning and holds go through the desk (loans/services.py), which enforces the rules;
the admin shows their history and never deletes it.
"""

from django.contrib import admin

from ludotheque.access import ReadOnlyHistoryMixin

from .models import DateBooking, Hold, Loan, MissingPiece


class MissingPieceInline(ReadOnlyHistoryMixin, admin.TabularInline):
    model = MissingPiece
    fk_name = "loan"
    extra = 0
    fields = ["component", "quantity", "recorded_at", "recovered_at"]
    readonly_fields = fields


@admin.register(Loan)
class LoanAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["copy", "member", "lent_at", "due_on", "renewals", "returned_at", "return_check"]
    list_filter = ["return_check", "lent_at", "due_on"]
    search_fields = ["copy__barcode", "copy__game__title", "member__name", "member__card_barcode"]
    list_select_related = ["copy__game", "member"]
    date_hierarchy = "lent_at"
    inlines = [MissingPieceInline]


@admin.register(Hold)
class HoldAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["game", "member", "position", "status", "created_at", "copy", "ready_until"]
    list_filter = ["status"]
    search_fields = ["game__title", "member__name", "member__card_barcode"]
    list_select_related = ["game", "member", "copy__game"]


@admin.register(MissingPiece)
class MissingPieceAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["copy", "component", "quantity", "recorded_at", "recovered_at"]
    list_filter = ["recovered_at"]
    search_fields = ["copy__barcode", "copy__game__title", "component__label"]
    list_select_related = ["copy__game", "component"]


@admin.register(DateBooking)
class DateBookingAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    """Booked, cancelled and handed out at the desk (/comptoir/reservations-a-date/), which checks the dates."""

    list_display = ["copy", "member", "starts_on", "ends_on", "status", "by_title", "note", "created_at"]
    list_filter = ["status", "by_title", "starts_on"]
    search_fields = ["copy__barcode", "copy__game__title", "member__name", "member__card_barcode", "note"]
    list_select_related = ["copy__game", "member"]
    date_hierarchy = "starts_on"
