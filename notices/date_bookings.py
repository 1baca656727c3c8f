"""What families who booked a giant game for dates are told: the day before its first day, once per booking
(NoticeItem's `date_booking`), in the family's language like every notice of the daily run."""

import datetime

from django.db.models import Exists, OuterRef

from loans.models import DateBooking

from .models import NoticeItem


def plan_date_bookings(plan: dict, today: datetime.date, planned) -> None:
    """Add to `plan` (family id → items) the bookings that start tomorrow and were not told yet."""
    tomorrow = today + datetime.timedelta(days=1)
    told = NoticeItem.objects.filter(date_booking=OuterRef("pk"), kind=NoticeItem.Kind.DATE_BOOKING_EVE)
    bookings = (
        DateBooking.objects.active()
        .filter(starts_on=tomorrow, member__isnull=False)
        .exclude(Exists(told))
        .select_related("copy__game", "copy__location")
        .order_by("pk")
    )
    for booking in bookings:
        plan[booking.member_id].append(
            planned(NoticeItem.Kind.DATE_BOOKING_EVE, booking.starts_on, date_booking=booking)
        )
