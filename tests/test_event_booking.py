"""Booking an event: places, the waiting list moving up, the cancellation deadline, fees and refunds."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from events import services
from events.models import Booking
from ledger.models import Entry
from tests.event_helpers import make_event
from tests.loan_helpers import make_member

pytestmark = pytest.mark.django_db


def codes(error: ValidationError) -> set[str]:
    if hasattr(error, "error_dict"):
        return {item.code for items in error.error_dict.values() for item in items}
    return {item.code for item in error.error_list}


def book(event, member, staff, children=1, adults=1, **kwargs) -> Booking:
    return services.booking_create(
        event=event, member=member, children=children, adults=adults, staff=staff, **kwargs
    )


def test_bookings_take_places_until_full_then_go_to_the_waiting_list(staff_user):
    event = make_event(places=5)
    first = book(event, make_member("M1", "Famille Un"), staff_user, children=2, adults=1)
    second = book(event, make_member("M2", "Famille Deux"), staff_user, children=1, adults=1)
    third = book(event, make_member("M3", "Famille Trois"), staff_user, children=0, adults=1)

    assert [first.status, second.status, third.status] == ["confirmed", "confirmed", "waiting"]
    assert event.places_left() == 0
    assert list(event.bookings.waiting()) == [third]


def test_a_booking_larger_than_the_places_left_waits_whole(staff_user):
    event = make_event(places=4)
    book(event, make_member("M1"), staff_user, children=1, adults=1)
    big = book(event, make_member("M2"), staff_user, children=3, adults=1)
    assert big.status == Booking.Status.WAITING
    assert event.places_left() == 2


def test_unlimited_places_never_fill(staff_user):
    event = make_event(places=None)
    for index in range(4):
        assert book(event, make_member(f"M{index}"), staff_user, children=5, adults=5).status == "confirmed"
    assert event.places_left() is None


def test_a_cancellation_moves_the_waiting_list_up_in_order_skipping_a_family_too_large(staff_user):
    event = make_event(places=4)
    leaving = book(event, make_member("M1", "Famille Un"), staff_user, children=2, adults=1)
    book(event, make_member("M2", "Famille Deux"), staff_user, children=0, adults=1)
    too_large = book(event, make_member("M3", "Famille Trois"), staff_user, children=3, adults=1)
    small = book(event, make_member("M4", "Famille Quatre"), staff_user, children=1, adults=1)

    promoted = services.booking_cancel(booking=leaving, staff=staff_user, by_family=True)

    assert promoted == [small]
    small.refresh_from_db()
    too_large.refresh_from_db()
    assert small.status == "confirmed" and small.promoted_at is not None
    assert too_large.status == "waiting"
    assert event.places_left() == 1


def test_a_family_books_once_per_event(staff_user):
    event = make_event()
    family = make_member("M1")
    book(event, family, staff_user)
    with pytest.raises(ValidationError) as refused:
        book(event, family, staff_user)
    assert codes(refused.value) == {"already_booked"}


def test_a_family_may_book_again_after_cancelling(staff_user):
    event = make_event()
    family = make_member("M1")
    services.booking_cancel(booking=book(event, family, staff_user), staff=staff_user, by_family=True)
    assert book(event, family, staff_user).status == "confirmed"


def test_a_started_or_cancelled_event_takes_no_booking(staff_user):
    event = make_event()
    later = event.starts_at + datetime.timedelta(minutes=1)
    with pytest.raises(ValidationError) as refused:
        book(event, make_member("M1"), staff_user, now=later)
    assert codes(refused.value) == {"started"}
    services.event_cancel(event=event, staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        book(event, make_member("M2"), staff_user)
    assert codes(refused.value) == {"event_cancelled"}


@pytest.mark.parametrize(
    ("children", "adults", "code"), [(0, 0, "nobody"), (-1, 2, "negative"), (15, 6, "too_many")]
)
def test_bad_numbers_of_people_are_refused_on_their_field(staff_user, children, adults, code):
    with pytest.raises(ValidationError) as refused:
        book(make_event(), make_member("M1"), staff_user, children=children, adults=adults)
    assert codes(refused.value) == {code}


def test_the_desk_books_a_non_member_for_a_free_event_open_to_all(staff_user):
    booking = services.booking_create(
        event=make_event(), name="Camille Martin", contact="0470 12 34 56", children=2, staff=staff_user
    )
    assert booking.member is None and booking.who == "Camille Martin" and booking.people == 3


@pytest.mark.parametrize(
    ("values", "name", "code"),
    [
        ({"members_only": True}, "Camille Martin", "members_only"),
        ({"price": "2.00"}, "Camille Martin", "paid_needs_family"),
        ({}, "  ", "name_required"),
    ],
)
def test_a_non_member_is_refused_where_only_a_family_can_book(staff_user, values, name, code):
    with pytest.raises(ValidationError) as refused:
        services.booking_create(event=make_event(**values), name=name, staff=staff_user)
    assert codes(refused.value) == {code}


def test_a_family_cancels_until_the_deadline_not_after(staff_user):
    event = make_event(cancellation_hours=48)
    booking = book(event, make_member("M1"), staff_user)
    too_late = event.cancellation_deadline + datetime.timedelta(minutes=1)
    with pytest.raises(ValidationError) as refused:
        services.booking_cancel(booking=booking, staff=staff_user, by_family=True, now=too_late)
    assert codes(refused.value) == {"too_late"}
    services.booking_cancel(
        booking=booking, staff=staff_user, by_family=True, now=event.cancellation_deadline
    )
    booking.refresh_from_db()
    assert booking.status == "cancelled" and booking.cancelled_at == event.cancellation_deadline


def test_a_family_leaves_the_waiting_list_after_the_deadline_but_not_after_the_start(staff_user):
    event = make_event(places=1, cancellation_hours=48)
    book(event, make_member("M1"), staff_user, children=0, adults=1)
    waiting = book(event, make_member("M2"), staff_user)
    with pytest.raises(ValidationError):
        services.booking_cancel(booking=waiting, staff=staff_user, by_family=True, now=event.starts_at)
    services.booking_cancel(
        booking=waiting, staff=staff_user, by_family=True, now=event.starts_at - datetime.timedelta(hours=1)
    )


def test_the_fee_is_charged_per_person_or_per_family(staff_user):
    per_person = book(make_event(price="2.50"), make_member("M1"), staff_user, children=2, adults=1)
    per_family = book(
        make_event(price="5.00", price_basis="family"), make_member("M2"), staff_user, children=3
    )
    free = book(make_event(), make_member("M3"), staff_user)

    assert per_person.charge.amount == Decimal("7.50") and per_person.charge.kind == "other"
    assert "Soirée jeux" in per_person.charge.note
    assert per_family.charge.amount == Decimal("5.00")
    assert free.charge is None
    assert Entry.objects.filter(member=per_person.member).balance() == Decimal("7.50")


def test_the_waiting_list_is_charged_only_when_it_moves_up(staff_user):
    event = make_event(places=2, price="3.00")
    first = book(event, make_member("M1"), staff_user)
    waiting = book(event, make_member("M2"), staff_user)
    assert waiting.charge is None and Entry.objects.filter(member=waiting.member).balance() == 0

    services.booking_cancel(booking=first, staff=staff_user, by_family=True)

    waiting.refresh_from_db()
    assert waiting.charge.amount == Decimal("6.00")
    assert Entry.objects.filter(member=first.member).balance() == 0  # refunded: reversed in time


def test_the_fee_paid_at_the_desk_and_refunded_in_time_leaves_a_credit_to_give_back(staff_user):
    event = make_event(price="4.00")
    family = make_member("M1")
    booking = book(event, family, staff_user, children=1, adults=0, method="cash")
    assert Entry.objects.filter(member=family).balance() == 0
    assert Entry.objects.filter(member=family, kind="payment").get().amount == Decimal("4.00")

    services.booking_cancel(booking=booking, staff=staff_user, by_family=True)

    assert Entry.objects.filter(member=family).balance() == Decimal("-4.00")  # the ludothèque owes it
    assert Entry.objects.get(reverses=booking.charge).amount == Decimal("-4.00")


def test_a_late_cancellation_at_the_desk_keeps_the_fee(staff_user):
    event = make_event(price="4.00", cancellation_hours=48)
    booking = book(event, make_member("M1"), staff_user, children=1, adults=0)
    late = event.cancellation_deadline + datetime.timedelta(hours=1)
    services.booking_cancel(booking=booking, staff=staff_user, now=late)
    assert Entry.objects.filter(member=booking.member).balance() == Decimal("4.00")


def test_an_event_cancelled_refunds_every_fee_once(staff_user):
    event = make_event(price="2.00", places=2)
    booked = book(event, make_member("M1"), staff_user)
    waiting = book(event, make_member("M2"), staff_user)

    services.event_cancel(event=event, staff=staff_user)

    assert Entry.objects.filter(member=booked.member).balance() == 0
    assert Entry.objects.filter(member=waiting.member).count() == 0
    with pytest.raises(ValidationError) as refused:
        services.event_cancel(event=event, staff=staff_user)
    assert codes(refused.value) == {"event_cancelled"}
    assert Entry.objects.filter(reverses__isnull=False).count() == 1


def test_the_attendance_sheet_ticks_confirmed_bookings_and_counts_walk_ins(staff_user):
    event = make_event(places=2, in_days=0)
    event.starts_at = timezone.now() - datetime.timedelta(minutes=30)
    event.save()
    came = book(event, make_member("M1"), staff_user, now=event.starts_at - datetime.timedelta(days=2))
    services.attendance_mark(booking=came, attendance="present", staff=staff_user)
    walk_in = services.booking_create(
        event=event, name="Famille de passage", children=4, walk_in=True, staff=staff_user
    )

    assert walk_in.status == "confirmed" and walk_in.attendance == "present"  # beyond the places: they came
    came.refresh_from_db()
    assert came.attendance == "present"
    services.attendance_mark(booking=came, attendance="absent", staff=staff_user)
    came.refresh_from_db()
    assert came.attendance == "absent"


def test_a_waiting_booking_is_not_ticked(staff_user):
    event = make_event(places=1)
    book(event, make_member("M1"), staff_user, children=0, adults=1)
    waiting = book(event, make_member("M2"), staff_user)
    with pytest.raises(ValidationError) as refused:
        services.attendance_mark(booking=waiting, attendance="present", staff=staff_user)
    assert codes(refused.value) == {"not_confirmed"}


def test_a_walk_in_is_only_counted_on_the_day(staff_user):
    with pytest.raises(ValidationError) as refused:
        services.booking_create(event=make_event(in_days=3), name="X", walk_in=True, staff=staff_user)
    assert codes(refused.value) == {"not_the_day"}


def test_a_members_only_event_wants_a_membership_valid_on_its_day(staff_user):
    event = make_event(members_only=True, in_days=10)
    lapsed = make_member(
        "M1", start=timezone.localdate() - datetime.timedelta(days=300), expiry=timezone.localdate()
    )
    with pytest.raises(ValidationError) as refused:
        book(event, lapsed, staff_user)
    assert codes(refused.value) == {"membership_expired"}
    assert book(event, make_member("M2"), staff_user).status == "confirmed"
