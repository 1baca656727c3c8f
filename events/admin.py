from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from ludotheque.access import LibrarianAccessMixin, ReadOnlyHistoryMixin
from ludotheque.money import PlainDecimalField

from . import services
from .models import Booking, Event


class BookingInline(ReadOnlyHistoryMixin, admin.TabularInline):
    model = Booking
    fields = ["member", "name", "contact", "children", "adults", "status", "attendance", "walk_in", "charge"]
    readonly_fields = fields
    extra = 0


@admin.register(Event)
class EventAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["title", "starts_at", "location", "places", "price", "members_only", "cancelled_at"]
    list_filter = ["location", "members_only"]
    search_fields = ["title"]
    date_hierarchy = "starts_at"
    autocomplete_fields = ["games"]
    formfield_overrides = {models.DecimalField: {"form_class": PlainDecimalField, "localize": True}}
    fieldsets = [
        (None, {"fields": ["title", "description", "location", "starts_at", "ends_at", "games"]}),
        (
            _("Réservation"),
            {"fields": ["places", "age_min", "age_max", "members_only", "cancellation_hours"]},
        ),
        (_("Prix"), {"fields": ["price", "price_basis"]}),
    ]
    inlines = [BookingInline]
    actions = ["cancel_events"]

    def has_delete_permission(self, request, obj=None) -> bool:
        # An event with bookings is history (the bookings, their fees): it is cancelled, not deleted.
        return super().has_delete_permission(request, obj) and (obj is None or not obj.bookings.exists())

    @admin.action(description=_("Annuler les animations choisies (rembourse et prévient les familles)"))
    def cancel_events(self, request, queryset) -> None:
        for event in queryset:
            try:
                services.event_cancel(event=event, staff=request.user)
            except ValidationError as error:
                self.message_user(request, f"{event.title} : {' '.join(error.messages)}", messages.WARNING)
            else:
                self.message_user(request, _("« %(title)s » annulée.") % {"title": event.title})


@admin.register(Booking)
class BookingAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["__str__", "children", "adults", "status", "attendance", "created_at"]
    list_filter = ["status", "attendance", "walk_in"]
    search_fields = ["member__name", "name", "event__title"]
    list_select_related = ["member", "event"]
