"""Renewing a loan: the new due date, and the refusals (loans.services.loan_renew)."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from loans import services
from loans.models import Loan
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return make_game("7 Wonders")


def lend(staff_user, game, *, renewals_allowed=1, period=21, **member):
    membership_type = make_membership_type(
        name="Famille (1 an)", renewals_allowed=renewals_allowed, loan_period_days=period
    )
    member = make_member("M1", membership_type=membership_type, **member)
    return services.loan_create(copy=make_copy(game, "91233"), member=member, staff=staff_user)


def test_a_renewal_adds_one_period_to_the_due_date(staff_user, game):
    loan = lend(staff_user, game, period=21)
    due = loan.due_on

    renewed = services.loan_renew(loan=loan)

    assert renewed.due_on == due + datetime.timedelta(days=21)
    assert renewed.renewals == 1
    loan.refresh_from_db()
    assert loan.due_on == renewed.due_on


def test_a_late_loan_is_renewed_from_today(staff_user, game):
    loan = lend(staff_user, game, period=21)
    Loan.objects.filter(pk=loan.pk).update(due_on=timezone.localdate() - datetime.timedelta(days=5))

    renewed = services.loan_renew(loan=loan, staff=staff_user)  # at the desk: a family may not

    assert renewed.due_on == timezone.localdate() + datetime.timedelta(days=21)


def test_it_refuses_a_renewal_beyond_the_count_allowed(staff_user, game):
    loan = lend(staff_user, game, renewals_allowed=1)
    services.loan_renew(loan=loan)
    due = Loan.objects.get(pk=loan.pk).due_on

    with pytest.raises(ValidationError) as excinfo:
        services.loan_renew(loan=loan)

    assert excinfo.value.code == "renewal_limit"
    assert "déjà été prolongé 1 fois" in excinfo.value.messages[0]
    assert "Famille (1 an)" in excinfo.value.messages[0]
    assert Loan.objects.get(pk=loan.pk).due_on == due


def test_a_membership_without_renewals_says_so(staff_user, game):
    loan = lend(staff_user, game, renewals_allowed=0)
    with pytest.raises(ValidationError) as excinfo:
        services.loan_renew(loan=loan)
    assert excinfo.value.code == "renewal_limit"
    assert "ne permet pas de prolonger" in excinfo.value.messages[0]


def test_it_refuses_a_renewal_when_another_family_waits_for_the_game(staff_user, game):
    loan = lend(staff_user, game)
    services.hold_create(game=game, member=make_member("M2", "Sam Bidule"), staff=staff_user)

    with pytest.raises(ValidationError) as excinfo:
        services.loan_renew(loan=loan)

    assert excinfo.value.code == "hold_waiting"
    assert "réservé par une autre famille" in excinfo.value.messages[0]
    assert Loan.objects.get(pk=loan.pk).renewals == 0


def test_a_cancelled_hold_no_longer_blocks_the_renewal(staff_user, game):
    loan = lend(staff_user, game)
    hold = services.hold_create(game=game, member=make_member("M2"), staff=staff_user)
    services.hold_cancel(hold=hold)
    assert services.loan_renew(loan=loan).renewals == 1


def test_it_refuses_to_renew_a_returned_loan(staff_user, game):
    loan = lend(staff_user, game)
    services.loan_return(loan=loan, staff=staff_user)
    with pytest.raises(ValidationError) as excinfo:
        services.loan_renew(loan=loan)
    assert excinfo.value.code == "not_on_loan"


def test_it_refuses_to_renew_for_a_family_whose_membership_expired(staff_user, game):
    loan = lend(staff_user, game)
    loan.member.membership_expiry = timezone.localdate() - datetime.timedelta(days=1)
    loan.member.save()
    with pytest.raises(ValidationError) as excinfo:
        services.loan_renew(loan=loan)
    assert excinfo.value.error_dict["member"][0].code == "membership_expired"
