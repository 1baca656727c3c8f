"""Demo kits: a school class (a group membership, its teacher as contact) with « Malle jeux de
coopération » out for six weeks, lent ten days ago, and « Malle petite enfance » at home, its mat
noted missing at its last return. Runs after the loans demo; safe to run again (nothing is added
once a kit exists)."""

import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.utils import timezone

from catalogue.models import Copy, Location
from loans.models import Hold, Loan
from members.demo import STAFF_USERNAME
from members.models import Member, MembershipType

from . import services
from .models import Kit, KitItem, KitLoan

GROUP_TYPE = {
    "name": "Collectivité (1 an)",
    "kind": MembershipType.Kind.GROUP,
    "duration_days": 365,
    "price": Decimal("60.00"),
    "public": False,
    "loan_quota": 30,
    "loan_period_days": 42,
    "renewals_allowed": 1,
}

SCHOOL = {
    "card_barcode": "C0001",
    "name": "École Jules Ferry — CE1",
    "email": "ecole.julesferry@example.org",
    "phone": "02 000 00 10",
    "address": "10 rue de l'École, 1000 Bruxelles",
    "contact_name": "Mme Durand",
    "contact_phone": "0470 00 00 10",
    "contact_email": "durand@example.org",
}

KITS = [
    ("Malle jeux de coopération", "MAL001", "1 tapis de jeu\n2 sacs de transport\n1 livret d'animation", 4),
    ("Malle petite enfance", "MAL002", "1 tapis d'éveil\n1 sac", 3),
]


def _free_copies(count: int, taken: set[int]) -> list[Copy]:
    """Copies on the shelf whose game keeps another copy for the families, nobody waiting for it."""
    games_with_spares = Copy.objects.values("game").annotate(n=Count("pk")).filter(n__gte=2).values("game")
    copies = (
        Copy.objects.available()
        .filter(game__in=games_with_spares)
        .exclude(game__in=Hold.objects.active().values("game"))
        .exclude(pk__in=taken)
        .order_by("game__title", "barcode")
    )
    chosen, games = [], set()
    for copy in copies:
        if copy.game_id not in games:
            chosen.append(copy)
            games.add(copy.game_id)
        if len(chosen) == count:
            break
    return chosen


def load(*, stdout) -> None:
    staff = get_user_model().objects.filter(username=STAFF_USERNAME).first()
    site = Location.objects.filter(name="Maison des Enfants").first() or Location.objects.first()
    if staff is None or site is None or Kit.objects.exists():
        return
    group_type, _ = MembershipType.objects.get_or_create(name=GROUP_TYPE["name"], defaults=GROUP_TYPE)
    today = timezone.localdate()
    school, _ = Member.objects.get_or_create(
        card_barcode=SCHOOL["card_barcode"],
        defaults=SCHOOL
        | {
            "membership_type": group_type,
            "membership_start": today - datetime.timedelta(days=60),
            "membership_expiry": today + datetime.timedelta(days=305),
        },
    )
    taken: set[int] = set()
    kits = []
    for name, barcode, material, games in KITS:
        kit = Kit.objects.create(name=name, barcode=barcode, site=site, material=material)
        copies = _free_copies(games, taken)
        taken.update(copy.pk for copy in copies)
        KitItem.objects.bulk_create(KitItem(kit=kit, copy=copy) for copy in copies)
        kits.append(kit)
    try:
        # A copy of the kit whose kind asks a deposit: the school pays it by bank transfer.
        kit_loan = services.kit_lend(kit=kits[0], member=school, staff=staff, deposit_method="transfer")
    except ValidationError as refusal:
        out = f"not lent ({' '.join(refusal.messages)})"
    else:
        lent_at = timezone.now() - datetime.timedelta(days=10)
        due_on = services.kit_due_date(kits[0], school, timezone.localdate(lent_at))
        KitLoan.objects.filter(pk=kit_loan.pk).update(lent_at=lent_at, due_on=due_on)
        Loan.objects.filter(kit_line__kit_loan=kit_loan).update(lent_at=lent_at, due_on=due_on)
        out = f"out at {school.borrower_label}"
    Kit.objects.filter(pk=kits[1].pk).update(material_missing="1 tapis d'éveil")
    stdout.write(f"  {len(kits)} kits, « {kits[0].name} » {out}.")
