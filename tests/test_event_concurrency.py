"""Two families booking an event's last place at the same moment, on real PostgreSQL: each booking locks
the event's row first, so one gets the place and the other the waiting list, never both the place."""

import pytest

from events import services
from events.models import Booking
from tests.event_helpers import make_event
from tests.loan_helpers import make_member, run_at_once

ROUNDS = 5

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]  # row locks


def test_two_families_booking_the_last_place_at_once_get_one_place_and_one_waiting_list_entry(staff_user):
    for round_ in range(ROUNDS):
        event = make_event(f"Soirée {round_}", places=3)
        services.booking_create(
            event=event, member=make_member(f"A{round_}"), children=1, adults=1, staff=staff_user
        )
        families = [make_member(f"B{round_}", "Famille B"), make_member(f"C{round_}", "Famille C")]

        outcomes = run_at_once(
            [
                lambda family=family, event=event: services.booking_create(
                    event=event, member=family, children=0, adults=1, staff=staff_user
                )
                for family in families
            ]
        )

        assert all(isinstance(outcome, Booking) for outcome in outcomes), outcomes
        assert sorted(outcome.status for outcome in outcomes) == ["confirmed", "waiting"]
        assert event.places_left() == 0
        assert event.seats_taken() == 3


def test_a_cancellation_and_a_booking_at_once_leave_the_places_right(staff_user):
    for round_ in range(ROUNDS):
        event = make_event(f"Atelier {round_}", places=2)
        leaving = services.booking_create(
            event=event, member=make_member(f"A{round_}"), children=1, adults=1, staff=staff_user
        )
        waiting = services.booking_create(
            event=event, member=make_member(f"B{round_}"), children=0, adults=1, staff=staff_user
        )
        newcomer = make_member(f"C{round_}")

        run_at_once(
            [
                lambda leaving=leaving: services.booking_cancel(
                    booking=leaving, staff=staff_user, by_family=True
                ),
                lambda event=event, newcomer=newcomer: services.booking_create(
                    event=event, member=newcomer, children=0, adults=1, staff=staff_user
                ),
            ]
        )

        waiting.refresh_from_db()
        assert waiting.status == "confirmed"  # first in the queue: it moved up, whoever came first
        assert event.seats_taken() == 2
