"""A copy scanned at the lending desk and at the on-site table at the same moment, on real PostgreSQL:
both lock the copy's game and row first, so exactly one wins and the other is refused with its reason."""

import pytest
from django.core.exceptions import ValidationError

from catalogue.models import Location
from loans import services as loans
from loans.models import Loan
from onsite import services
from onsite.models import TableUse
from tests.loan_helpers import make_copy, make_game, make_member, run_at_once

ROUNDS = 6

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]  # row locks


def code(outcome: ValidationError) -> str:
    return next(iter(outcome.error_dict.values()))[0].code


def test_a_copy_goes_either_to_a_table_or_on_loan_never_both(staff_user):
    game = make_game("Les colons de Catane")
    copies = [make_copy(game, f"9046{i}") for i in range(ROUNDS)]
    session = services.session_open(location=Location.objects.get(), staff=staff_user)
    families = [make_member(f"M{i}", f"Famille {i}") for i in range(ROUNDS)]

    calls = []
    for copy, family in zip(copies, families, strict=True):
        calls.append(lambda copy=copy: services.table_take(session=session, copy=copy, staff=staff_user))
        calls.append(
            lambda copy=copy, family=family: loans.loan_create(copy=copy, member=family, staff=staff_user)
        )
    outcomes = run_at_once(calls)

    for copy in copies:
        at_table = TableUse.objects.filter(copy=copy).count()
        lent = Loan.objects.filter(copy=copy).count()
        assert at_table + lent == 1, (copy.barcode, outcomes)
    refusals = [outcome for outcome in outcomes if isinstance(outcome, ValidationError)]
    assert len(refusals) == ROUNDS, outcomes
    assert {code(refusal) for refusal in refusals} <= {"on_loan", "copy_elsewhere"}
