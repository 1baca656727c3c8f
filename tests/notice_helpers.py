"""Builders for the notices' tests: a site with a week of openings, loans and holds at chosen dates."""

import datetime

from django.utils import timezone

from catalogue.models import Copy, Location
from loans.models import Hold, Loan
from members.models import Member
from opening.models import OpeningHours, Weekday
from tests.loan_helpers import make_copy, make_game

# The fixed clock of the schedule tests: a Wednesday the ludothèque opens.
TODAY = datetime.date(2027, 3, 10)


def days(count: int) -> datetime.timedelta:
    return datetime.timedelta(days=count)


def at_noon(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))


def open_wednesdays_and_saturdays(location: Location | None = None) -> Location:
    """The demo's week: Wednesday 14–18, Saturday 10–12 and 14–17."""
    location = location or Location.objects.get_or_create(name="Maison des Enfants")[0]
    for weekday, opens_at, closes_at in [
        (Weekday.WEDNESDAY, datetime.time(14), datetime.time(18)),
        (Weekday.SATURDAY, datetime.time(10), datetime.time(12)),
        (Weekday.SATURDAY, datetime.time(14), datetime.time(17)),
    ]:
        OpeningHours.objects.create(
            location=location, weekday=weekday, opens_at=opens_at, closes_at=closes_at
        )
    return location


def lend(copy: Copy, member: Member, staff, *, lent_on: datetime.date, due_on: datetime.date) -> Loan:
    """A loan made on `lent_on`, due on `due_on` (written as it is: the clock of these tests is fixed)."""
    return Loan.objects.create(
        copy=copy, member=member, lent_by=staff, lent_at=at_noon(lent_on), due_on=due_on
    )


def set_aside(
    copy: Copy, member: Member, staff, *, ready_on: datetime.date, until: datetime.date, position: int = 1
) -> Hold:
    """A hold whose copy was set aside on `ready_on`, to collect by `until`."""
    return Hold.objects.create(
        game=copy.game,
        member=member,
        position=position,
        created_by=staff,
        created_at=at_noon(ready_on - days(3)),
        status=Hold.Status.READY,
        copy=copy,
        ready_at=at_noon(ready_on),
        ready_until=until,
    )


def game_copy(title: str, barcode: str) -> Copy:
    return make_copy(make_game(title), barcode)
