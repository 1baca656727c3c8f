"""The demo's second site and its transfers: the Annexe des Tilleuls, a copy on its way there in a
crate, and the Tartempion family's hold to collect there (its copy waits at the Maison des Enfants,
« à envoyer »). Run once, by the last demo (ludobus/demo.py), after the others lent and returned."""

from catalogue.models import Copy, Location
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


def load_transfers(*, staff, stdout) -> None:
    """Create the annex with the main site's hours, send it one copy, reserve one to collect there
    (after the other demo loans and returns: the copies still on the shelf are free)."""
    main = Location.objects.filter(name=MAIN_SITE).first()
    member = Member.objects.filter(card_barcode=HOLD_CARD).first()
    if main is None or member is None or Location.objects.filter(name=ANNEX["name"]).exists():
        return
    held = Hold.objects.active().values("game")
    shelf = list(
        Copy.objects.filter(location=main)
        .available()
        .exclude(game__in=held)
        .exclude(game__in=member.loans.open().values("copy__game"))
        .select_related("game")
        .order_by("barcode")[:2]
    )
    if len(shelf) < 2:
        return
    annex = Location.objects.create(**ANNEX)
    OpeningHours.objects.bulk_create(
        OpeningHours(
            location=annex, weekday=hours.weekday, opens_at=hours.opens_at, closes_at=hours.closes_at
        )
        for hours in OpeningHours.objects.filter(location=main)
    )
    hold = services.hold_create(game=shelf[0].game, member=member, staff=staff, pickup_site=annex)
    transfers.transfer_send(
        copies=[shelf[1]], from_site=main, to_site=annex, staff=staff, note="Caisse pour l'annexe"
    )
    stdout.write(
        f"  Transfers: « {shelf[1].game.title} » in transit to {annex.name}; "
        f"{member.name}'s hold on « {hold.game.title} » to collect there, to send from {main.name}."
    )
