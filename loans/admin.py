"""Admin for loans, holds, date bookings, missing pieces and copies' moves between sites: read-only history.

Lending, returning and holds go through the desk (loans/services.py), which enforces the rules;
the admin shows their history and never deletes it.
"""

from django.contrib import admin

from ludotheque.access import ReadOnlyHistoryMixin

from .models import DateBooking, Hold, Loan, MissingPiece, Shipment, Transfer


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
    list_display = [
        "game",
        "member",
        "position",
        "status",
        "pickup_site",
        "created_at",
        "copy",
        "ready_until",
    ]
    list_filter = ["status", "pickup_site"]
    search_fields = ["game__title", "member__name", "member__card_barcode"]
    list_select_related = ["game", "member", "copy__game", "pickup_site"]


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


class TransferInline(ReadOnlyHistoryMixin, admin.TabularInline):
    model = Transfer
    extra = 0
    fields = ["copy", "reason", "hold", "received_at", "received_by"]
    readonly_fields = fields


@admin.register(Shipment)
class ShipmentAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["sent_at", "from_site", "to_site", "sent_by", "note"]
    list_filter = ["from_site", "to_site"]
    list_select_related = ["from_site", "to_site", "sent_by"]
    date_hierarchy = "sent_at"
    inlines = [TransferInline]


@admin.register(Transfer)
class TransferAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["copy", "reason", "from_site", "to_site", "requested_at", "shipment", "received_at"]
    list_filter = ["reason", "from_site", "to_site"]
    search_fields = ["copy__barcode", "copy__game__title"]
    list_select_related = ["copy__game", "from_site", "to_site", "shipment__from_site", "shipment__to_site"]
    date_hierarchy = "requested_at"
