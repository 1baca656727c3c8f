"""The demo's second site and its transfers: the Annexe des Tilleuls, a new copy of « Morgenland » on
its way there in a crate, and the Tartempion family's hold to collect there (its copy waits at the
Maison des Enfants, « à envoyer »). Run once, by the last demo (ludobus/demo.py), after the others
lent and returned."""

from catalogue.models import Copy, Game, Location
from members.models import Member
from opening.models import OpeningHours

from . import services, transfers
from .models import Hold

ANNEX = {
    "name": "Annexe des Tilleuls",
    "address": "Avenue des Tilleuls 3\n1000 Bruxelles",
    "phone": "02 000 00 01",
}
MAIN_SITE = "Maison des Enfants"
HOLD_CARD = "M0001"
# The annex's own copy, sent in a crate: (title, barcode, cote).
CRATE = ("Morgenland", "90477", "MOR")


def load_transfers(*, staff, stdout) -> None:
    """Create the annex with the main site's hours, send it one copy, reserve one to collect there
    (after the other demo loans and returns: the copies still on the shelf are free)."""
    main = Location.objects.filter(name=MAIN_SITE).first()
    member = Member.objects.filter(card_barcode=HOLD_CARD).first()
    if main is None or member is None or Location.objects.filter(name=ANNEX["name"]).exists():
        return
    held = Hold.objects.active().values("game")
    copy = (
        Copy.objects.filter(location=main)
        .available()
        .exclude(game__in=held)
        .exclude(game__in=member.loans.open().values("copy__game"))
        .select_related("game")
        .order_by("barcode")
        .first()
    )
    crated_game = Game.objects.filter(title=CRATE[0]).first()
    if copy is None or crated_game is None or Copy.objects.filter(barcode=CRATE[1]).exists():
        return
    annex = Location.objects.create(**ANNEX)
    OpeningHours.objects.bulk_create(
        OpeningHours(
            location=annex, weekday=hours.weekday, opens_at=hours.opens_at, closes_at=hours.closes_at
        )
        for hours in OpeningHours.objects.filter(location=main)
    )
    hold = services.hold_create(game=copy.game, member=member, staff=staff, pickup_site=annex)
    # A second copy for the annex's shelves, in the crate that left the Maison des Enfants.
    crated = Copy.objects.create(game=crated_game, cote=CRATE[2], location=main, barcode=CRATE[1])
    transfers.transfer_send(
        copies=[crated], from_site=main, to_site=annex, staff=staff, note="Caisse pour l'annexe"
    )
    stdout.write(
        f"  Transfers: « {crated_game.title} » {crated.barcode} in transit to {annex.name}; "
        f"{member.name}'s hold on « {hold.game.title} » to collect there, to send from {main.name}."
    )
