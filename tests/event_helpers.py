"""Builders for the events' tests: an event at the Maison des Enfants, days from now."""

import datetime
from decimal import Decimal

from django.utils import timezone

from catalogue.models import Location
from events.models import Event


def make_event(
    title: str = "Soirée jeux",
    *,
    in_days: int = 7,
    places: int | None = 10,
    price: str = "0",
    price_basis: str = Event.PriceBasis.PERSON,
    members_only: bool = False,
    cancellation_hours: int = 48,
    **values,
) -> Event:
    location, _ = Location.objects.get_or_create(name="Maison des Enfants")
    starts_at = timezone.now().replace(microsecond=0) + datetime.timedelta(days=in_days)
    return Event.objects.create(
        title=title,
        location=location,
        starts_at=starts_at,
        ends_at=starts_at + datetime.timedelta(hours=3),
        places=places,
        price=Decimal(price),
        price_basis=price_basis,
        members_only=members_only,
        cancellation_hours=cancellation_hours,
        **values,
    )
