"""The demo's money: one family owes a late fee, one has a deposit held; running it twice adds nothing."""

import io
from decimal import Decimal

import pytest
from django.core.management import call_command

from ledger.models import Entry, Kind, owing
from loans.models import Loan
from members.models import Member, MembershipType

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_late_fee_owed_and_a_deposit_held():
    call_command("load_demo", "--force", stdout=io.StringIO())
    family = owing(Member.objects.all()).get()
    assert family.card_barcode == "M0003"
    late_fee = Entry.objects.get(kind=Kind.LATE_FEE)
    assert (late_fee.member, late_fee.amount, late_fee.waived) == (family, Decimal("1.80"), False)
    assert late_fee.loan.returned_at is not None
    deposit = Entry.objects.deposits_held().get()
    assert (deposit.member.card_barcode, deposit.amount, deposit.method) == (
        "M0001",
        Decimal("50.00"),
        "cheque",
    )
    # The loans demo is as it was: the money demo's late loan is closed.
    families = Loan.objects.filter(member__membership_type__kind=MembershipType.Kind.FAMILY)
    assert families.open().count() == 4 and families.overdue().count() == 2

    call_command("load_demo", "--force", stdout=io.StringIO())
    # The late fee, the deposit, and the demo repair's cost (an expense of the ludothèque: no family).
    assert Entry.objects.count() == 3 and Entry.objects.filter(member__isnull=True).count() == 1
