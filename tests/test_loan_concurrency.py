"""Clerks scanning at the same moment, on real PostgreSQL: the row locks make exactly one loan."""

import pytest
from django.core.exceptions import ValidationError

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan
from members.models import Member
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type, run_at_once

CLERKS = 12

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]  # row locks


def codes(error: ValidationError) -> set[str]:
    if hasattr(error, "error_dict"):
        return {item.code for items in error.error_dict.values() for item in items}
    return {item.code for item in error.error_list}


def test_many_clerks_lending_the_same_copy_at_once_make_exactly_one_loan(staff_user):
    game = make_game("Les colons de Catane")
    copy = make_copy(game, "90461")
    families = [make_member(f"M{i}", f"Famille {i}") for i in range(CLERKS)]

    outcomes = run_at_once(
        [
            lambda member=member: services.loan_create(copy=copy, member=member, staff=staff_user)
            for member in families
        ]
    )

    loans = [outcome for outcome in outcomes if isinstance(outcome, Loan)]
    refusals = [outcome for outcome in outcomes if isinstance(outcome, ValidationError)]
    assert len(loans) == 1, outcomes
    assert len(refusals) == CLERKS - 1, outcomes
    assert all(codes(refusal) == {"already_on_loan"} for refusal in refusals)
    assert all("déjà en prêt" in refusal.messages[0] for refusal in refusals)
    # Nothing else changed: one open loan in the database, the copy's status untouched, no hold.
    assert Loan.objects.count() == 1
    assert Loan.objects.open().get() == loans[0]
    assert Copy.objects.get(pk=copy.pk).status == Copy.Status.ON_SHELF
    assert not Hold.objects.exists()
    assert Member.objects.filter(loans__isnull=False).distinct().count() == 1


def test_clerks_lending_different_games_to_one_family_at_once_respect_its_quota(staff_user):
    game = make_game("Quarto")
    copies = [make_copy(game, f"9040{i}") for i in range(8)]
    member = make_member("M1", membership_type=make_membership_type(loan_quota=3))

    outcomes = run_at_once(
        [
            lambda copy=copy: services.loan_create(copy=copy, member=member, staff=staff_user)
            for copy in copies
        ]
    )

    refusals = [outcome for outcome in outcomes if isinstance(outcome, ValidationError)]
    assert sum(isinstance(outcome, Loan) for outcome in outcomes) == 3, outcomes
    assert len(refusals) == 5 and all(codes(refusal) == {"quota_reached"} for refusal in refusals)
    assert member.loans.open().count() == 3
