"""`{% next_events %}` (the home page's next animations) and `{% family_events member %}` (a family's
bookings on /compte/): other apps' templates show events through these tags, importing nothing of them."""

from django import template
from django.utils import timezone

from ..models import Booking, Event

register = template.Library()

HOME_EVENTS = 3


@register.inclusion_tag("events/includes/next_events.html")
def next_events() -> dict:
    events = Event.objects.upcoming().not_cancelled().select_related("location")[:HOME_EVENTS]
    return {"events": list(events)}


@register.inclusion_tag("events/includes/family_events.html")
def family_events(member) -> dict:
    now = timezone.now()
    bookings = (
        Booking.objects.active()
        .filter(member=member, event__ends_at__gte=now)
        .select_related("event__location", "charge")
        .order_by("event__starts_at", "pk")
    )
    return {"bookings": list(bookings), "now": now}
