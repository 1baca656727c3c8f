"""Demo repairs: « La chasse aux monstres » 91025 in repair (its board torn), and « Quarto » 90408
back from repair, its 12 € glue and box corners an expense of the ludothèque (a ledger entry without a
family). Runs after the loans' and the ledger's demos (their copies and volunteer account); safe to run
again (nothing is added once a repair exists)."""

from decimal import Decimal

from django.contrib.auth import get_user_model

from catalogue.models import Copy
from members.demo import STAFF_USERNAME

from . import services
from .models import Repair

IN_REPAIR = ("91025", "Plateau déchiré le long du pli, à recoller")
REPAIRED = (
    "90408",
    "Boîte enfoncée, deux coins décollés",
    "Coins recollés, boîte renforcée au kraft.",
    "12.00",
)


def load(*, stdout) -> None:
    staff = get_user_model().objects.filter(username=STAFF_USERNAME).first()
    if staff is None or Repair.objects.exists():
        return
    copies = {copy.barcode: copy for copy in Copy.objects.filter(barcode__in=[IN_REPAIR[0], REPAIRED[0]])}
    if REPAIRED[0] in copies:
        barcode, reason, notes, cost = REPAIRED
        repair = services.repair_open(copy=copies[barcode], reason=reason, staff=staff)
        services.repair_close(repair=repair, staff=staff, notes=notes, cost=Decimal(cost))
    if IN_REPAIR[0] in copies:
        services.repair_open(copy=copies[IN_REPAIR[0]], reason=IN_REPAIR[1], staff=staff)
    stdout.write(
        f"  {Repair.objects.open().count()} exemplaire en réparation, {Repair.objects.closed().count()} réparé."
    )
