"""Demo data of the loan desk: current and late loans, holds, an incomplete copy.

Runs after the catalogue's and the families' demos (load_demo loads apps in INSTALLED_APPS order) and
uses their copies by barcode and families by card. Safe to run again: a family that already has loans
is left as it is.
"""

import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalogue.models import Copy
from members.demo import DEMO_PASSWORD, FAMILY_USERNAME, STAFF_USERNAME
from members.models import Member

from . import services
from .models import Loan, MissingPiece

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

    services.popularity_count(today=today)  # the daily run's count, for the sort by popularity
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
