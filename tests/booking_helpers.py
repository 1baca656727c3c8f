"""Builders for the date bookings' tests: a giant game bookable for dates, and days counted from today."""

import datetime

from django.utils import timezone

from catalogue.models import Game
from tests.loan_helpers import make_copy, make_game


def day(offset: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=offset)


def make_bookable_game(title: str = "Puissance 4 géant", barcodes: tuple[str, ...] = ("G001",)) -> Game:
    """A title flagged « réservable à date », with a copy per barcode."""
    game = make_game(title)
    game.date_bookable = True
    game.save()
    for barcode in barcodes:
        make_copy(game, barcode)
    return game
