"""Demo data of the ledger: fees on the yearly membership, one family owing a late fee, one deposit held.

Runs after the loans demo (load_demo loads apps in INSTALLED_APPS order) and uses its families, its
volunteer account and the catalogue's copies by barcode. Safe to run again: once the ledger has an
entry, nothing more is written.
"""

import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from catalogue.models import Component, Copy, Location
from loans import services as loans_services
from loans.models import Hold, Loan
from members.demo import STAFF_USERNAME
from members.models import Member, MembershipType

from . import services
from .models import Entry, Method, owing

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
# Charlie Machin returns one of these (the first free one) nine days late; Alex Tartempion's cheque is held.
LATE_RETURN = {"card": "M0003", "barcodes": ["90901", "91025", "90408"], "days_late": 9}
DEPOSIT = {"card": "M0001", "amount": Decimal("50.00"), "cheque_number": "0012345"}


def load(*, stdout) -> None:
    """Set the demo fees and prices, then record a late fee owed and a deposit held, once."""
    if Entry.objects.exists():
        stdout.write(f"  {Entry.objects.count()} ledger entries already there.")
        return
    staff = get_user_model().objects.filter(username=STAFF_USERNAME).first()
    site = Location.objects.order_by("name").first()
    if staff is None or site is None:
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

    holder = Member.objects.filter(card_barcode=DEPOSIT["card"]).first()
    if holder is not None:
        services.deposit_receive(
            member=holder,
            amount=DEPOSIT["amount"],
            method=Method.CHEQUE,
            cheque_number=DEPOSIT["cheque_number"],
            staff=staff,
            site=site,
            note="Caution annuelle",
        )
    stdout.write(
        f"  {Entry.objects.count()} ledger entries: {owing(Member.objects.all()).count()} family owing money, "
        f"{Entry.objects.deposits_held().count()} deposit held."
    )


def _return_late(copy: Copy, *, member: Member, staff, days_late: int) -> None:
    """A loan brought back today, `days_late` days after its due date: the late fee is charged."""
    loan = loans_services.loan_create(copy=copy, member=member, staff=staff)
    period = member.membership_type.loan_period_days
    lent_at = timezone.now() - datetime.timedelta(days=period + days_late)
    Loan.objects.filter(pk=loan.pk).update(
        lent_at=lent_at, due_on=timezone.localdate() - datetime.timedelta(days=days_late)
    )
    loans_services.loan_return(loan=loan, staff=staff)
