"""What families booked at an event must be told (the daily run's notices step reads this).

A booking confirmed at once, one moved up from the waiting list, the day before the event, the event
cancelled: each is said once per booking (NoticeItem's `booking`), to families (a non-member booked at
the desk left a contact, not an address for notices), for events not over by the run's day.
"""

import datetime

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from events.models import Booking

from .models import NoticeItem

Kind = NoticeItem.Kind


def _start_day(booking: Booking) -> datetime.date:
    return timezone.localtime(booking.event.starts_at).date()


def plan_events(plan: dict, today: datetime.date, planned) -> None:
    """Add to `plan` (family id → items) the bookings' news not told yet; `planned` builds an item."""
    tz = timezone.get_current_timezone()
    from_moment = datetime.datetime.combine(today, datetime.time.min, tzinfo=tz)
    tomorrow = today + datetime.timedelta(days=1)
    told = NoticeItem.objects.filter(booking=OuterRef("pk"))
    bookings = (
        Booking.objects.active()
        .filter(member__isnull=False, walk_in=False, event__starts_at__gte=from_moment)
        .annotate(
            booked_told=Exists(told.filter(kind=Kind.EVENT_BOOKED)),
            promoted_told=Exists(told.filter(kind=Kind.EVENT_PROMOTED)),
            tomorrow_told=Exists(told.filter(kind=Kind.EVENT_TOMORROW)),
            cancelled_told=Exists(told.filter(kind=Kind.EVENT_CANCELLED)),
        )
        .filter(
            Q(event__cancelled_at__isnull=False, cancelled_told=False)
            | Q(event__cancelled_at__isnull=True, status=Booking.Status.CONFIRMED)
        )
        .select_related("event__location")
        .order_by("event__starts_at", "pk")
    )
    for booking in bookings:
        day = _start_day(booking)
        if booking.event.cancelled_at is not None:
            plan[booking.member_id].append(planned(Kind.EVENT_CANCELLED, day, booking=booking))
            continue
        if booking.promoted_at is None and not booking.booked_told:
            plan[booking.member_id].append(planned(Kind.EVENT_BOOKED, day, booking=booking))
        if booking.promoted_at is not None and not booking.promoted_told:
            plan[booking.member_id].append(planned(Kind.EVENT_PROMOTED, day, booking=booking))
        if day == tomorrow and not booking.tomorrow_told:
            plan[booking.member_id].append(planned(Kind.EVENT_TOMORROW, day, booking=booking))


def event_context(by_kind: dict) -> dict:
    """The notice templates' event sections; the day before is not said beside a fresh confirmation."""
    fresh = {item.booking.pk for kind in (Kind.EVENT_BOOKED, Kind.EVENT_PROMOTED) for item in by_kind[kind]}
    return {
        "events_booked": by_kind[Kind.EVENT_BOOKED],
        "events_promoted": by_kind[Kind.EVENT_PROMOTED],
        "events_tomorrow": [item for item in by_kind[Kind.EVENT_TOMORROW] if item.booking.pk not in fresh],
        "events_cancelled": by_kind[Kind.EVENT_CANCELLED],
    }
