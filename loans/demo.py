"""Demo data of the loan desk: current and late loans, holds, an incomplete copy, a giant game booked
for dates (booking_demo.py), and the fees of the yearly membership with a late return that charged one.

Runs after the catalogue's and the families' demos (load_demo loads apps in INSTALLED_APPS order) and
uses their copies by barcode and families by card. Safe to run again: a family that already has loans
is left as it is.
"""

import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalogue.models import Component, Copy
from ledger.models import Entry
from members.demo import DEMO_PASSWORD, FAMILY_USERNAME, STAFF_USERNAME
from members.models import Member, MembershipType

from . import booking_demo, services
from .models import Hold, Loan, MissingPiece

# The yearly membership charges late returns, missing pieces and lost games; the 3-month one nothing.
FEES = {
    "Famille (1 an)": {
        "late_fee_per_day": Decimal("0.20"),
        "late_fee_cap": Decimal("5.00"),
        "charge_missing_pieces": True,
        "charge_lost_games": True,
        "debt_limit": Decimal("20.00"),
    },
}
# Replacement values of the demo copies by title, and the price of a piece of some games.
REPLACEMENT_VALUES = {
    "7 Wonders": Decimal("39.90"),
    "Les colons de Catane": Decimal("35.00"),
    "Quarto": Decimal("29.90"),
    "Biblios": Decimal("19.90"),
    "La chasse aux monstres": Decimal("14.90"),
    "Morgenland": Decimal("34.90"),
}
PIECE_PRICES = {"La chasse aux monstres": Decimal("0.50"), "Biblios": Decimal("1.00")}
# Charlie Machin returns one of these (the first free one) nine days late.
LATE_RETURN = {"card": "M0003", "barcodes": ["90901", "91025", "90408"], "days_late": 9}
# By family card. loans: (barcode, lent how many days ago); holds: games by a copy's barcode;
# incomplete_return: a copy lent earlier that came back with a piece missing.
FAMILY_LOANS = {
    "M0001": {
        "loans": [("90461", 5), ("91233", 32)],  # the second one a week late: a first reminder
        "holds": ["90901"],  # on the shelf: set aside at once, the family is told
    },
    "M0002": {
        "loans": [("90476", 14)],  # due today or at one of the next openings: reminded
        "holds": ["91233"],
    },
    "M0003": {
        "loans": [("90468", 45)],  # three weeks late: a second reminder, by letter
        "incomplete_return": "91684",
    },
}


def _backdate(loan: Loan, *, days_ago: int) -> None:
    lent_at = timezone.now() - datetime.timedelta(days=days_ago)
    period = loan.member.membership_type.loan_period_days
    Loan.objects.filter(pk=loan.pk).update(
        lent_at=lent_at,
        due_on=services.due_date(copy=loan.copy, start=timezone.localdate(lent_at), days=period),
    )


def load(*, stdout) -> None:
    """Lend and reserve for the demo families once; print the demo accounts."""
    staff = get_user_model().objects.get(username=STAFF_USERNAME)
    today = timezone.localdate()
    copies = {copy.barcode: copy for copy in Copy.objects.select_related("game")}
    members = Member.objects.select_related("membership_type").in_bulk(
        FAMILY_LOANS, field_name="card_barcode"
    )
    for card, family in FAMILY_LOANS.items():
        member = members.get(card)
        if member is None or member.loans.exists() or member.holds.exists():
            continue
        try:
            if family.get("incomplete_return") in copies:
                _lend_and_return_incomplete(copies[family["incomplete_return"]], member=member, staff=staff)
            for barcode, days_ago in family["loans"]:
                if barcode in copies:
                    loan = services.loan_create(copy=copies[barcode], member=member, staff=staff)
                    _backdate(loan, days_ago=days_ago)
            for barcode in family.get("holds", []):
                if barcode in copies:
                    services.hold_create(game=copies[barcode].game, member=member, staff=staff)
        except ValidationError as refusal:
            stdout.write(f"  {member.name}: demo loans skipped ({' '.join(refusal.messages)})")

    booking_demo.load(stdout=stdout, staff=staff)
    services.popularity_count(today=today)  # the daily run's count, for the sort by popularity
    _money(staff=staff, stdout=stdout)
    stdout.write(f"  {Loan.objects.open().count()} open loans ({Loan.objects.overdue().count()} late).")
    stdout.write(
        f"  Desk demo account (demo only): {STAFF_USERNAME} / {DEMO_PASSWORD} — "
        f"family account for /compte/: {FAMILY_USERNAME} / {DEMO_PASSWORD}."
    )


def _lend_and_return_incomplete(copy: Copy, *, member: Member, staff) -> None:
    """An earlier loan that came back with a piece missing: the copy is now incomplete."""
    component = copy.game.components.filter(quantity__gte=2).first() or copy.game.components.first()
    if component is None:
        return
    loan = services.loan_create(copy=copy, member=member, staff=staff)
    _backdate(loan, days_ago=40)
    services.loan_return(loan=loan, staff=staff, missing=[(component, 1)])
    returned_at = timezone.now() - datetime.timedelta(days=18)
    Loan.objects.filter(pk=loan.pk).update(returned_at=returned_at)
    MissingPiece.objects.filter(loan=loan).update(recorded_at=returned_at)


def _money(*, staff, stdout) -> None:
    """Fees on the yearly membership, prices in the catalogue, and a late return that charges a fee, once."""
    if Entry.objects.exists():
        return
    for name, fees in FEES.items():
        MembershipType.objects.filter(name=name).update(**fees)
    for title, value in REPLACEMENT_VALUES.items():
        Copy.objects.filter(game__title=title, replacement_value__isnull=True).update(replacement_value=value)
    for title, price in PIECE_PRICES.items():
        Component.objects.filter(game__title=title, unit_price__isnull=True).update(unit_price=price)
    late = Member.objects.filter(card_barcode=LATE_RETURN["card"]).first()
    copy = (
        Copy.objects.available()
        .filter(barcode__in=LATE_RETURN["barcodes"])
        .exclude(game__in=Hold.objects.active().values("game"))
        .order_by("barcode")
        .first()
    )
    if late is not None and copy is not None:
        _return_late(copy, member=late, staff=staff, days_late=LATE_RETURN["days_late"])
        stdout.write(f"  {late.name}: a game returned {LATE_RETURN['days_late']} days late, its fee owed.")


def _return_late(copy: Copy, *, member: Member, staff, days_late: int) -> None:
    """A loan brought back today, `days_late` days after its due date: the late fee is charged."""
    loan = services.loan_create(copy=copy, member=member, staff=staff)
    period = member.membership_type.loan_period_days
    lent_at = timezone.now() - datetime.timedelta(days=period + days_late)
    Loan.objects.filter(pk=loan.pk).update(
        lent_at=lent_at, due_on=timezone.localdate() - datetime.timedelta(days=days_late)
    )
    services.loan_return(loan=loan, staff=staff)
