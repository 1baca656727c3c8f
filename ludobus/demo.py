"""Demo ludobus: a « Ludobus » site with its own copies on board, ready for « Préparer la tournée », and
one action of its last tour that the desk refused on replay (a loan to a family whose membership had
ended), to settle on the conflicts page. Runs after the loans demo (families, the volunteer account);
safe to run again (a Ludobus site that already exists is left as it is)."""

import datetime
import uuid

from django.contrib.auth import get_user_model
from django.utils import timezone

from catalogue.models import Copy, Game, ItemKind, Location
from loans.transfer_demo import load_transfers
from opening.demo import WEEK
from opening.models import OpeningHours

from .replay import action_replay

SITE = {"name": "Ludobus", "address": "Le bus s'arrête sur les places des villages, un mercredi sur deux."}
# (game title, barcode): the copies that live in the bus.
ON_BOARD = [
    ("Quarto", "95001"),
    ("Les colons de Catane", "95002"),
    ("Biblios", "95003"),
    ("7 Wonders", "95004"),
    ("La chasse aux monstres", "95005"),
    ("L'or des Dragons", "95006"),
]
# A giant game for the village squares: its kind (« Grand jeu », catalogue/demo.py) asks a deposit and
# allows one per family, which the offline desk applies too.
GIANT = ("Quarto", "95007", "Grand jeu")
# A fixed id: the demo's conflict is the same action each time it would be loaded.
CONFLICT_ID = uuid.UUID("6f1d0a52-5a7e-4c57-9a57-1d0b05b11001")


def load(*, stdout) -> None:
    _load_bus(stdout=stdout)
    # The sites' transfers (the annex) come last: the other demos lend and return the main site's
    # copies first (loans/transfer_demo.py).
    volunteer = get_user_model().objects.filter(username="benevole").first()
    if volunteer is not None:
        load_transfers(staff=volunteer, stdout=stdout)


def _load_bus(*, stdout) -> None:
    volunteer = get_user_model().objects.filter(username="benevole").first()
    if volunteer is None or Location.objects.filter(name=SITE["name"]).exists():
        return
    site = Location.objects.create(**SITE)
    # Its stops follow the demo's week, as every site's (the opening calendar's demo ran before this one).
    for weekday, opens_at, closes_at in WEEK:
        OpeningHours.objects.create(location=site, weekday=weekday, opens_at=opens_at, closes_at=closes_at)
    games = {game.title: game for game in Game.objects.filter(title__in=[title for title, _ in ON_BOARD])}
    Copy.objects.bulk_create(
        Copy(game=games[title], cote="BUS", location=site, barcode=barcode)
        for title, barcode in ON_BOARD
        if title in games and not Copy.objects.filter(barcode=barcode).exists()
    )
    title, barcode, kind = GIANT
    kind = ItemKind.objects.filter(name=kind).first()
    if title in games and kind is not None and not Copy.objects.filter(barcode=barcode).exists():
        Copy.objects.create(game=games[title], cote="BUS-G", location=site, barcode=barcode, kind=kind)
    lent = Copy.objects.filter(location=site).order_by("barcode").first()
    if lent is not None:
        # At the last stop, offline: a family whose membership had ended borrowed a game.
        action_replay(
            staff=volunteer,
            id=CONFLICT_ID,
            kind="lend",
            location=site,
            sequence=1,
            recorded_at=timezone.now() - datetime.timedelta(days=1),
            payload={"card": "M0004", "barcode": lent.barcode},
        )
    stdout.write(
        f"Ludobus: {Copy.objects.filter(location=site).count()} copies on board, one conflict to settle."
    )
