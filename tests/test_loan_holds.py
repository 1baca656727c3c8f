"""Holds on a game: the queue, copies set aside, cancellation and expiry (loans.services.hold_*)."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import timezone

from catalogue.models import Copy
from loans import services
from loans.models import Hold
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return make_game("Morgenland")


@pytest.fixture
def copy_out(staff_user, game):
    """Morgenland's only copy, at the Tartempion family's."""
    copy = make_copy(game, "90476")
    services.loan_create(copy=copy, member=make_member("M0", "Alex Tartempion"), staff=staff_user)
    return copy


def test_families_queue_in_order_for_a_game_on_loan(staff_user, game, copy_out):
    first = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    second = services.hold_create(game=game, member=make_member("M2"), staff=staff_user)
    assert (first.status, second.status) == (Hold.Status.WAITING, Hold.Status.WAITING)
    assert first.position < second.position
    assert list(Hold.objects.waiting().filter(game=game)) == [first, second]


def test_a_hold_on_a_game_on_the_shelf_sets_a_copy_aside_at_once(staff_user, game):
    copy = make_copy(game, "90476")
    hold = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    assert hold.status == Hold.Status.READY
    assert hold.copy == copy
    assert hold.ready_until == timezone.localdate() + datetime.timedelta(days=7)
    assert list(Copy.objects.set_aside()) == [copy]
    assert not Copy.objects.available().exists()


def test_it_refuses_a_second_hold_of_the_same_game_by_a_family(staff_user, game, copy_out):
    member = make_member("M1", "Sam Bidule")
    services.hold_create(game=game, member=member, staff=staff_user)
    with pytest.raises(ValidationError) as excinfo:
        services.hold_create(game=game, member=member, staff=staff_user)
    error = excinfo.value.error_dict["game"][0]
    assert error.code == "already_held"
    assert "Sam Bidule a déjà une réservation en cours pour « Morgenland »" in error.messages[0]
    assert Hold.objects.count() == 1


def test_a_family_may_queue_for_a_game_whose_only_copy_is_in_repair(staff_user, game):
    make_copy(game, "90476", status=Copy.Status.IN_REPAIR)
    hold = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    assert hold.status == Hold.Status.WAITING


def test_it_refuses_a_hold_on_a_game_without_a_lendable_copy(staff_user, game):
    make_copy(game, "90476", status=Copy.Status.WITHDRAWN)
    with pytest.raises(ValidationError) as excinfo:
        services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    error = excinfo.value.error_dict["game"][0]
    assert error.code == "no_lendable_copy"
    assert "« Morgenland » n'a aucun exemplaire prêtable" in error.messages[0]
    assert not Hold.objects.exists()


def test_it_refuses_a_hold_on_a_game_the_family_has_at_home(staff_user, game, copy_out):
    borrower = copy_out.loans.get().member
    with pytest.raises(ValidationError) as excinfo:
        services.hold_create(game=game, member=borrower, staff=staff_user)
    assert excinfo.value.error_dict["game"][0].code == "already_borrowed"


def test_it_refuses_a_hold_for_an_expired_membership(staff_user, game, copy_out):
    today = timezone.localdate()
    member = make_member(
        "M1", start=today - datetime.timedelta(days=400), expiry=today - datetime.timedelta(days=35)
    )
    with pytest.raises(ValidationError) as excinfo:
        services.hold_create(game=game, member=member, staff=staff_user)
    assert excinfo.value.error_dict["member"][0].code == "membership_expired"


def test_cancelling_a_ready_hold_passes_the_copy_to_the_next_family(staff_user, game):
    copy = make_copy(game, "90476")
    first = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    second = services.hold_create(game=game, member=make_member("M2"), staff=staff_user)

    next_hold = services.hold_cancel(hold=first)

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Hold.Status.CANCELLED and first.closed_at is not None
    assert next_hold == second
    assert second.status == Hold.Status.READY and second.copy == copy


def test_cancelling_the_last_ready_hold_puts_the_copy_back_on_the_shelf(staff_user, game):
    copy = make_copy(game, "90476")
    hold = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    assert services.hold_cancel(hold=hold) is None
    assert list(Copy.objects.available()) == [copy]


def test_a_closed_hold_cannot_be_cancelled_again(staff_user, game, copy_out):
    hold = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    services.hold_cancel(hold=hold)
    with pytest.raises(ValidationError) as excinfo:
        services.hold_cancel(hold=hold)
    assert excinfo.value.code == "hold_closed"
    assert "déjà close (annulée)" in excinfo.value.messages[0]


def test_a_hold_not_collected_in_time_expires_and_the_copy_passes_on(staff_user, game):
    copy = make_copy(game, "90476")
    late = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    waiting = services.hold_create(game=game, member=make_member("M2"), staff=staff_user)
    Hold.objects.filter(pk=late.pk).update(ready_until=timezone.localdate() - datetime.timedelta(days=1))
    assert list(Hold.objects.past_pickup()) == [late]

    services.hold_expire(hold=late)

    late.refresh_from_db()
    waiting.refresh_from_db()
    assert late.status == Hold.Status.EXPIRED
    assert waiting.status == Hold.Status.READY and waiting.copy == copy


def test_a_hold_still_in_its_pickup_time_does_not_expire(staff_user, game):
    make_copy(game, "90476")
    hold = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    with pytest.raises(ValidationError) as excinfo:
        services.hold_expire(hold=hold)
    assert excinfo.value.code == "hold_not_expired"
    hold.refresh_from_db()
    assert hold.status == Hold.Status.READY


@pytest.mark.postgresql
def test_the_database_allows_one_active_hold_per_family_and_game(staff_user, game):
    member = make_member("M1")
    Hold.objects.create(game=game, member=member, position=1, created_by=staff_user)
    with pytest.raises(IntegrityError, match="loans_hold_one_active_per_member_game"):
        Hold.objects.create(game=game, member=member, position=2, created_by=staff_user)


def test_the_database_refuses_a_ready_hold_without_a_copy(staff_user, game):
    with pytest.raises(IntegrityError, match="loans_hold_ready_has_copy"):
        Hold.objects.create(
            game=game, member=make_member("M1"), position=1, created_by=staff_user, status=Hold.Status.READY
        )


def test_the_daily_command_expires_the_holds_not_collected(staff_user, game):
    import io

    from django.core.management import call_command

    copy = make_copy(game, "90476")
    late = services.hold_create(game=game, member=make_member("M1"), staff=staff_user)
    waiting = services.hold_create(game=game, member=make_member("M2", "Sam Bidule"), staff=staff_user)
    Hold.objects.filter(pk=late.pk).update(ready_until=timezone.localdate() - datetime.timedelta(days=2))
    out = io.StringIO()

    call_command("run_daily", stdout=out)

    assert "expire_holds: 1 hold(s) expired, 1 copy(ies) set aside for the next family" in out.getvalue()
    waiting.refresh_from_db()
    assert waiting.status == Hold.Status.READY and waiting.copy == copy
    call_command("run_daily", stdout=out)
    assert "expire_holds: 0 hold(s) expired" in out.getvalue()
