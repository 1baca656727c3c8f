"""Demo opening calendar: every site open Wednesday 14–18 and Saturday 10–12 and 14–17, closed for the
Christmas holidays (21 December – 3 January, as Belgian schools). Safe to run again."""

import datetime

from django.utils import timezone

from catalogue.models import Location

from .models import Closure, OpeningHours, Weekday

WEEK = [
    (Weekday.WEDNESDAY, datetime.time(14), datetime.time(18)),
    (Weekday.SATURDAY, datetime.time(10), datetime.time(12)),
    (Weekday.SATURDAY, datetime.time(14), datetime.time(17)),
]
CHRISTMAS = "Vacances de Noël"


def christmas_holidays(today: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The Christmas holidays still to come or under way on `today`: 21 December to 3 January."""
    year = today.year - 1 if today <= datetime.date(today.year, 1, 3) else today.year
    return datetime.date(year, 12, 21), datetime.date(year + 1, 1, 3)


def load(*, stdout) -> None:
    for location in Location.objects.all():
        for weekday, opens_at, closes_at in WEEK:
            OpeningHours.objects.get_or_create(
                location=location, weekday=weekday, opens_at=opens_at, defaults={"closes_at": closes_at}
            )
    first_day, last_day = christmas_holidays(timezone.localdate())
    Closure.objects.get_or_create(
        location=None, first_day=first_day, last_day=last_day, defaults={"reason": CHRISTMAS}
    )
    stdout.write(
        f"  {Location.objects.count()} site(s) open Wednesday 14–18 and Saturday 10–12, 14–17; "
        f"closed {first_day:%d/%m/%Y}–{last_day:%d/%m/%Y} ({CHRISTMAS})."
    )
