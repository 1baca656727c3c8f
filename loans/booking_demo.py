"""Demo date bookings: the demo's giant games are bookable for dates, and one is booked for a family.

The giant game is the lending app's to add (the seed notices hold none): « Puissance 4 géant », two
copies at the demo's site, marked « réservable à date » like every title named « … géant ». The
Tartempion family (`famille`) books it from the next opening day to the one after; the Bidule family
for a neighbourhood party from that last day on (the title's other copy). Safe to run again: nothing is booked twice.
"""

import datetime

from django.core.exceptions import ValidationError
from django.utils import timezone

from catalogue import registry
from catalogue.models import Copy, Game, Location
from members.models import Member
from opening.schedule import site_calendar

from . import services
from .models import DateBooking

GIANT = {"title": "Puissance 4 géant", "slug": "puissance-4-geant", "barcodes": ["G0001", "G0002"]}
SITE = "Maison des Enfants"
# (family card, which coming opening day it starts on, note); each booking lasts until the next opening day.
BOOKINGS = [("M0001", 1, ""), ("M0002", 2, "Fête de quartier")]


def load(*, stdout, staff) -> None:
    location = Location.objects.filter(name=SITE).first()
    if location is None:
        return
    game, _created = Game.objects.get_or_create(
        slug=GIANT["slug"],
        defaults={
            "title": GIANT["title"],
            "players_min": 2,
            "players_max": 4,
            "age_min": 5,
            "duration_minutes": 15,
            "summary": "Le Puissance 4 en grand : un cadre d'un mètre et des jetons à saisir à deux mains.",
        },
    )
    if _created:
        registry.catalogued([game.pk])  # its rules page, « à compléter », as for a title added in the admin
    for barcode in GIANT["barcodes"]:
        Copy.objects.get_or_create(
            barcode=barcode, defaults={"game": game, "cote": "JG", "location": location}
        )
    Game.objects.filter(title__icontains="géant", date_bookable=False).update(date_bookable=True)
    if DateBooking.objects.exists():
        return
    today = timezone.localdate()
    calendar = site_calendar(location, from_day=today)
    openings = _opening_days(calendar, today + datetime.timedelta(days=1), 8)
    members = Member.objects.in_bulk([card for card, _n, _note in BOOKINGS], field_name="card_barcode")
    for card, index, note in BOOKINGS:
        if card not in members or index + 1 >= len(openings):
            continue
        try:
            booking = services.booking_create(
                member=members[card],
                game=game,
                starts_on=openings[index],
                ends_on=openings[index + 1],
                note=note,
                user=staff,
            )
        except ValidationError as refusal:
            stdout.write(f"  {members[card].name}: demo date booking skipped ({' '.join(refusal.messages)})")
        else:
            stdout.write(
                f"  {booking.copy.game.title} booked for {booking.member.name} "
                f"from {booking.starts_on:%d/%m/%Y} to {booking.ends_on:%d/%m/%Y}."
            )


def _opening_days(calendar, day: datetime.date, count: int) -> list[datetime.date]:
    """The site's next `count` opening days from `day` on, within four months (past Christmas closures)."""
    days = (day + datetime.timedelta(days=offset) for offset in range(120))
    return [candidate for candidate in days if calendar.is_open(candidate)][:count]
