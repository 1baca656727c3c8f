"""Demo events: next Saturday's family games evening with families booked (one not a member), a
members' tournament full with a family on its waiting list, and last month's giant games afternoon with its
attendance ticked (the on-site statistics count it). Runs after the loans and ledger demos; safe to
run again (nothing is added once an event exists)."""

import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from catalogue.models import Game, Location
from members.models import Member, MembershipType

from . import services
from .models import Booking, Event


def _at(day: datetime.date, hour: int) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=timezone.get_current_timezone())


def load(*, stdout) -> None:
    location = Location.objects.filter(name="Maison des Enfants").first() or Location.objects.first()
    volunteer = get_user_model().objects.filter(username="benevole").first()
    # Families whose membership is valid through the tournament (a members' event).
    valid_until = timezone.localdate() + datetime.timedelta(days=15)
    families = list(
        Member.objects.filter(
            erased_at__isnull=True,
            membership_expiry__gte=valid_until,
            membership_type__kind=MembershipType.Kind.FAMILY,
        ).order_by("card_barcode")[:3]
    )
    if location is None or volunteer is None or len(families) < 3 or Event.objects.exists():
        return
    today = timezone.localdate()
    saturday = today + datetime.timedelta(days=(5 - today.weekday()) % 7 or 7)
    games = list(Game.objects.order_by("title")[:3])

    evening = Event.objects.create(
        title="Soirée jeux en famille",
        description="Venez découvrir les nouveautés de la ludothèque et jouer en famille. Goûter offert.",
        location=location,
        starts_at=_at(saturday, 17),
        ends_at=_at(saturday, 20),
        places=24,
        age_min=6,
    )
    evening.games.set(games)
    for family, children, adults in zip(families[:3], [2, 1, 3], [1, 2, 1], strict=True):
        services.booking_create(
            event=evening, member=family, children=children, adults=adults, staff=volunteer
        )
    services.booking_create(
        event=evening, name="Camille Martin", contact="0470 12 34 56", children=2, adults=1, staff=volunteer
    )

    tournament = Event.objects.create(
        title="Tournoi de jeux de stratégie",
        description="Un tournoi amical pour les 10 ans et plus, par équipes de deux.",
        location=location,
        starts_at=_at(saturday + datetime.timedelta(days=7), 14),
        ends_at=_at(saturday + datetime.timedelta(days=7), 18),
        places=4,
        age_min=10,
        members_only=True,
    )
    tournament.games.set(games[:1])
    services.booking_create(event=tournament, member=families[0], children=1, adults=1, staff=volunteer)
    services.booking_create(event=tournament, member=families[1], children=2, adults=0, staff=volunteer)
    services.booking_create(event=tournament, member=families[2], children=1, adults=1, staff=volunteer)

    past_day = today - datetime.timedelta(days=30)
    giant = Event.objects.create(
        title="Après-midi jeux géants",
        location=location,
        starts_at=_at(past_day, 14),
        ends_at=_at(past_day, 17),
        created_at=_at(past_day - datetime.timedelta(days=20), 10),
    )
    booked_at = _at(past_day - datetime.timedelta(days=7), 10)
    for family, attendance in zip(families[:3], ["present", "present", "absent"], strict=True):
        booking = services.booking_create(
            event=giant, member=family, children=2, adults=1, staff=volunteer, now=booked_at
        )
        services.attendance_mark(booking=booking, attendance=attendance, staff=volunteer)
    Booking.objects.create(
        event=giant,
        name="Famille de passage",
        children=3,
        adults=2,
        status=Booking.Status.CONFIRMED,
        walk_in=True,
        attendance=Booking.Attendance.PRESENT,
        created_at=_at(past_day, 15),
        created_by=volunteer,
    )
    stdout.write("Animations: 3 events with bookings (one full, with its waiting list)")
