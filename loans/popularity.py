"""The sort by popularity: each game's loans of the last twelve months, counted by a daily step."""

import datetime

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from catalogue.models import Game

from .models import Loan

# The sort by popularity counts the loans of the last twelve months (Game.loans_last_year).
POPULARITY_DAYS = 365


def popularity_count(*, today: datetime.date) -> str:
    """Write on each game how often it was lent in the twelve months before `today` (a daily step).

    Only the games whose count changed are written, by count (one UPDATE per value and thousand
    games): run twice, the second run writes nothing.
    """
    start = today - datetime.timedelta(days=POPULARITY_DAYS)
    since = timezone.make_aware(datetime.datetime.combine(start, datetime.time.min))
    until = timezone.make_aware(
        datetime.datetime.combine(today + datetime.timedelta(days=1), datetime.time.min)
    )
    loans = Loan.objects.filter(lent_at__gte=since, lent_at__lt=until).order_by()
    counts = dict(loans.values_list("copy__game").annotate(n=Count("pk")))
    current = dict(Game.objects.filter(loans_last_year__gt=0).values_list("pk", "loans_last_year"))
    changed: dict[int, list[int]] = {}
    for game in counts.keys() | current.keys():
        if counts.get(game, 0) != current.get(game, 0):
            changed.setdefault(counts.get(game, 0), []).append(game)
    with transaction.atomic():
        for count, games in changed.items():
            for start_at in range(0, len(games), 1000):
                Game.objects.filter(pk__in=games[start_at : start_at + 1000]).update(loans_last_year=count)
    updated = sum(len(games) for games in changed.values())
    return f"{updated} game(s) with a new loan count over twelve months"
