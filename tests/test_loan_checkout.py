"""Lending a copy: the due date, and every reason the desk refuses (loans.services.loan_create)."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import timezone

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


def refusal(excinfo) -> tuple[str, str, str]:
    """(argument, code, message) of a service's refusal."""
    error = excinfo.value
    if hasattr(error, "error_dict"):
        ((name, errors),) = error.error_dict.items()
        return name, errors[0].code, errors[0].messages[0]
    return "", error.error_list[0].code, error.messages[0]


@pytest.fixture
def catane():
    return make_game(
        "Les colons de Catane", pieces=[(37, "hexagones Terrains"), (95, "cartes Matières Premières")]
    )


def test_a_loan_is_due_after_the_membership_type_period(staff_user, catane):
    member = make_member("M1", membership_type=make_membership_type(loan_period_days=14))
    copy = make_copy(catane, "90461")

    loan = services.loan_create(copy=copy, member=member, staff=staff_user)

    assert loan.due_on == timezone.localdate() + datetime.timedelta(days=14)
    assert loan.lent_by == staff_user
    assert loan.returned_at is None
    assert Copy.objects.on_loan().get() == copy
    assert not Copy.objects.available().exists()


def test_it_refuses_an_expired_membership(staff_user, catane):
    today = timezone.localdate()
    member = make_member(
        "M1",
        "Dominique Chose",
        start=today - datetime.timedelta(days=400),
        expiry=today - datetime.timedelta(days=1),
    )
    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=make_copy(catane, "90461"), member=member, staff=staff_user)
    field, code, message = refusal(excinfo)
    assert (field, code) == ("member", "membership_expired")
    assert "Dominique Chose" in message and "a expiré" in message
    assert not Loan.objects.exists()


def test_it_lends_on_the_last_day_of_the_membership(staff_user, catane):
    member = make_member("M1", expiry=timezone.localdate())
    assert services.loan_create(copy=make_copy(catane, "90461"), member=member, staff=staff_user).pk


def test_it_refuses_a_membership_that_has_not_started(staff_user, catane):
    today = timezone.localdate()
    member = make_member(
        "M1", start=today + datetime.timedelta(days=3), expiry=today + datetime.timedelta(days=300)
    )
    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=make_copy(catane, "90461"), member=member, staff=staff_user)
    assert refusal(excinfo)[:2] == ("member", "membership_not_started")


@pytest.mark.parametrize(
    "status",
    [
        Copy.Status.IN_REPAIR,
        Copy.Status.INCOMPLETE,
        Copy.Status.LOST,
        Copy.Status.WITHDRAWN,
        Copy.Status.NOT_FOR_LOAN,
    ],
)
def test_it_refuses_a_copy_whose_status_does_not_allow_lending(staff_user, catane, status):
    copy = make_copy(catane, "90461", status=status)
    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=copy, member=make_member("M1"), staff=staff_user)
    field, code, message = refusal(excinfo)
    assert (field, code) == ("copy", "copy_not_lendable")
    assert str(Copy.Status(status).label) in message and "90461" in message
    assert not Loan.objects.exists()


def test_it_refuses_a_copy_already_on_loan_and_names_the_family(staff_user, catane):
    copy = make_copy(catane, "90461")
    services.loan_create(copy=copy, member=make_member("M1", "Alex Tartempion"), staff=staff_user)

    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=copy, member=make_member("M2", "Sam Bidule"), staff=staff_user)

    field, code, message = refusal(excinfo)
    assert (field, code) == ("copy", "already_on_loan")
    assert "déjà en prêt chez Alex Tartempion" in message
    assert Loan.objects.count() == 1


def test_scanning_the_same_copy_twice_for_a_family_says_it_already_has_it(staff_user, catane):
    copy = make_copy(catane, "90461")
    member = make_member("M1")
    services.loan_create(copy=copy, member=member, staff=staff_user)
    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=copy, member=member, staff=staff_user)
    field, code, message = refusal(excinfo)
    assert code == "already_on_loan" and "déjà prêté à cette famille" in message


def test_it_refuses_a_family_at_its_quota(staff_user, catane):
    member = make_member(
        "M1", "Sam Bidule", membership_type=make_membership_type(name="Découverte", loan_quota=2)
    )
    services.loan_create(copy=make_copy(catane, "1"), member=member, staff=staff_user)
    services.loan_create(copy=make_copy(catane, "2"), member=member, staff=staff_user)

    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=make_copy(catane, "3"), member=member, staff=staff_user)

    field, code, message = refusal(excinfo)
    assert (field, code) == ("member", "quota_reached")
    assert "2 jeux" in message and "Découverte" in message
    assert member.loans.open().count() == 2


def test_a_returned_game_frees_a_place_in_the_quota(staff_user, catane):
    member = make_member("M1", membership_type=make_membership_type(loan_quota=1))
    first = services.loan_create(copy=make_copy(catane, "1"), member=member, staff=staff_user)
    services.loan_return(loan=first, staff=staff_user, missing=[])
    assert services.loan_create(copy=make_copy(catane, "2"), member=member, staff=staff_user).pk


def test_it_refuses_a_copy_set_aside_for_another_familys_hold(staff_user, catane):
    copy = make_copy(catane, "90461")
    waiting = make_member("M1", "Sam Bidule")
    hold = services.hold_create(game=catane, member=waiting, staff=staff_user)
    assert hold.status == Hold.Status.READY and hold.copy == copy
    assert not Copy.objects.available().exists()

    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=copy, member=make_member("M2"), staff=staff_user)

    field, code, message = refusal(excinfo)
    assert (field, code) == ("copy", "set_aside")
    assert "Sam Bidule" in message


def test_lending_the_copy_set_aside_to_its_family_fulfils_the_hold(staff_user, catane):
    copy = make_copy(catane, "90461")
    member = make_member("M1")
    hold = services.hold_create(game=catane, member=member, staff=staff_user)

    services.loan_create(copy=copy, member=member, staff=staff_user)

    hold.refresh_from_db()
    assert hold.status == Hold.Status.FULFILLED
    assert hold.closed_at is not None


def test_taking_another_copy_than_the_one_set_aside_passes_that_one_to_the_next_family(staff_user, catane):
    kept = make_copy(catane, "1")
    first = make_member("M1", "Alex Tartempion")
    second = make_member("M2", "Sam Bidule")
    first_hold = services.hold_create(game=catane, member=first, staff=staff_user)
    second_hold = services.hold_create(game=catane, member=second, staff=staff_user)
    assert first_hold.copy == kept and second_hold.status == Hold.Status.WAITING
    other = make_copy(catane, "2")  # a second copy comes back from repair, straight to the shelf

    services.loan_create(copy=other, member=first, staff=staff_user)

    first_hold.refresh_from_db()
    second_hold.refresh_from_db()
    assert first_hold.status == Hold.Status.FULFILLED and first_hold.copy == other
    assert second_hold.status == Hold.Status.READY and second_hold.copy == kept


@pytest.mark.postgresql
def test_the_database_allows_one_open_loan_per_copy(staff_user, catane):
    copy = make_copy(catane, "90461")
    member = make_member("M1")
    Loan.objects.create(copy=copy, member=member, lent_by=staff_user, due_on=timezone.localdate())
    with pytest.raises(IntegrityError, match="loans_loan_one_open_per_copy"):
        Loan.objects.create(copy=copy, member=member, lent_by=staff_user, due_on=timezone.localdate())


def test_a_copy_or_a_family_with_loans_cannot_be_deleted(staff_user, catane):
    from django.db.models import ProtectedError

    copy = make_copy(catane, "90461")
    member = make_member("M1")
    services.loan_create(copy=copy, member=member, staff=staff_user)
    with pytest.raises(ProtectedError):
        copy.delete()
    with pytest.raises(ProtectedError):
        member.delete()
