"""Demo data of the ledger: one deposit held (the late fee owed is the loans demo's, which charges it).

Runs after the families' and the loans' demos (load_demo loads apps in INSTALLED_APPS order) and uses
their families and volunteer account. Safe to run again: the deposit is received once.
"""

from decimal import Decimal

from django.contrib.auth import get_user_model

from catalogue.models import Location
from members.demo import STAFF_USERNAME
from members.models import Member

from . import services
from .models import Entry, Kind, Method, owing

# Alex Tartempion's cheque is held.
DEPOSIT = {"card": "M0001", "amount": Decimal("50.00"), "cheque_number": "0012345"}


def load(*, stdout) -> None:
    """Record a deposit held, once."""
    staff = get_user_model().objects.filter(username=STAFF_USERNAME).first()
    site = Location.objects.order_by("name").first()
    holder = Member.objects.filter(card_barcode=DEPOSIT["card"]).first()
    if None not in (staff, site, holder) and not Entry.objects.filter(kind=Kind.DEPOSIT_RECEIVED).exists():
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
