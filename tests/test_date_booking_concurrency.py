"""Two clerks (or a family and a clerk) booking the last free dates of a giant game at the same moment,
on real PostgreSQL: each booking locks the game's row, then its copy, so one gets the dates and the
other is refused with them; never two bookings of one copy on the same day."""

import pytest
from django.core.exceptions import ValidationError

from loans import services
from loans.models import DateBooking, Loan
from tests.booking_helpers import day
from tests.loan_helpers import make_copy, make_game, make_member, run_at_once

ROUNDS = 5

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]  # row locks


def giant(title: str):
    game = make_game(title)
    game.date_bookable = True
    game.save()
    return game


def test_two_bookings_of_the_last_free_dates_at_once_one_wins(staff_user):
    for round_ in range(ROUNDS):
        game = giant(f"Mikado géant {round_}")
        first, last = make_copy(game, f"G{round_}1"), make_copy(game, f"G{round_}2")
        services.booking_create(
            member=make_member(f"A{round_}"), copy=first, starts_on=day(3), ends_on=day(5), user=staff_user
        )
        families = [make_member(f"B{round_}", "Famille B"), make_member(f"C{round_}", "Famille C")]

        outcomes = run_at_once(
            [
                lambda family=family, game=game, by_family=by_family: services.booking_create(
                    member=family,
                    game=game,
                    starts_on=day(4),
                    ends_on=day(6),
                    user=staff_user,
                    by_family=by_family,
                )
                for family, by_family in zip(families, [True, False], strict=True)
            ]
        )

        won = [outcome for outcome in outcomes if isinstance(outcome, DateBooking)]
        refused = [outcome for outcome in outcomes if isinstance(outcome, ValidationError)]
        assert len(won) == 1 and len(refused) == 1, outcomes
        assert won[0].copy == last
        assert f"du {day(4):%d/%m/%Y} au {day(6):%d/%m/%Y}" in " ".join(refused[0].messages)
        assert DateBooking.objects.active().filter(copy__game=game).count() == 2


def test_a_booking_and_a_loan_of_the_same_copy_at_once_never_both_hold_today(staff_user):
    for round_ in range(ROUNDS):
        game = giant(f"Jenga géant {round_}")
        copy = make_copy(game, f"J{round_}")
        booker, borrower = make_member(f"D{round_}"), make_member(f"E{round_}")

        run_at_once(
            [
                lambda booker=booker, copy=copy: services.booking_create(
                    member=booker, copy=copy, starts_on=day(0), ends_on=day(1), user=staff_user
                ),
                lambda copy=copy, borrower=borrower: services.loan_create(
                    copy=copy, member=borrower, staff=staff_user
                ),
            ]
        )

        booked = DateBooking.objects.active().filter(copy=copy).exists()
        lent = Loan.objects.open().filter(copy=copy).exists()
        assert booked != lent, (booked, lent)
