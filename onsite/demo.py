"""Demo on-site play: the past two weeks' opening days of the Maison des Enfants as closed sessions,
with the families who came (members by their card, and families that are not members), games taken
to a table and back complete, and plays counted, so the statistics show something. Runs after the
loans demo (families, the volunteer account) and the opening calendar; safe to run again (a site
that already has sessions is left as it is)."""

import datetime
import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from catalogue.models import Copy, Location
from members.models import Member
from opening.schedule import site_calendar
from rules.models import RulePage

from .models import Play, Session, TableUse, Visit

DAYS = 14


def load(*, stdout) -> None:
    location = Location.objects.filter(name="Maison des Enfants").first() or Location.objects.first()
    volunteer = get_user_model().objects.filter(username="benevole").first()
    if location is None or volunteer is None or Session.objects.filter(location=location).exists():
        return
    rng = random.Random(14)  # the same demo every time
    today = timezone.localdate()
    calendar = site_calendar(location, from_day=today - datetime.timedelta(days=DAYS))
    families = list(Member.objects.order_by("card_barcode")[:4])
    copies = list(
        Copy.objects.available().filter(location=location).select_related("game").order_by("barcode")[:12]
    )
    scored = [page.game for page in RulePage.objects.filter(game__isnull=False).select_related("game")]
    tz = timezone.get_current_timezone()
    sessions = 0
    for offset in range(DAYS, 0, -1):
        day = today - datetime.timedelta(days=offset)
        hours = (
            calendar.hours.get(day.weekday())
            if calendar.has_hours
            else [(datetime.time(14), datetime.time(17))]
        )
        if not hours or not calendar.is_open(day):
            continue
        opens = datetime.datetime.combine(day, hours[0][0], tzinfo=tz)
        closes = datetime.datetime.combine(day, hours[-1][1], tzinfo=tz)
        session = Session.objects.create(
            location=location,
            opened_at=opens,
            opened_by=volunteer,
            planned_from=hours[0][0],
            planned_until=hours[-1][1],
            closed_at=closes,
            closed_by=volunteer,
        )
        sessions += 1
        arrivals = opens + datetime.timedelta(minutes=10)
        for member in rng.sample(families, k=min(len(families), rng.randint(1, 3))):
            Visit.objects.create(
                session=session,
                member=member,
                children=rng.randint(1, 3),
                adults=rng.randint(1, 2),
                arrived_at=arrivals,
                recorded_by=volunteer,
            )
            arrivals += datetime.timedelta(minutes=rng.randint(5, 40))
        for _ in range(rng.randint(2, 4)):
            Visit.objects.create(
                session=session,
                children=rng.randint(1, 4),
                adults=rng.randint(1, 2),
                arrived_at=arrivals,
                recorded_by=volunteer,
            )
            arrivals += datetime.timedelta(minutes=rng.randint(5, 40))
        for copy in rng.sample(copies, k=min(len(copies), rng.randint(2, 4))):
            taken = opens + datetime.timedelta(minutes=rng.randint(15, 60))
            TableUse.objects.create(
                session=session,
                copy=copy,
                taken_at=taken,
                taken_by=volunteer,
                returned_at=taken + datetime.timedelta(minutes=rng.randint(30, 90)),
                returned_by=volunteer,
                return_check=TableUse.ReturnCheck.COMPLETE,
            )
        for game in rng.sample(scored, k=min(len(scored), rng.randint(1, 3))):
            Play.objects.create(
                session=session,
                game=game,
                players=rng.randint(2, 4),
                recorded_at=opens + datetime.timedelta(minutes=rng.randint(30, 150)),
                recorded_by=volunteer,
            )
    stdout.write(
        f"  {sessions} séance(s) de jeu sur place à {location.name}, "
        f"{Visit.objects.filter(session__location=location).count()} famille(s) venue(s) jouer."
    )
