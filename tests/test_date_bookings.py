"""Date bookings (réservation à date): a giant game booked from one date to another holds its copy for
those days; the desk cannot lend it into them and lends it to the booking's family on its first day."""

import datetime
import io

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction

from catalogue.models import Copy
from loans import services
from loans.bookings import bookings_close_uncollected
from loans.models import DateBooking, Hold, Loan
from opening.models import Closure, OpeningHours
from opening.schedule import weekday_date
from tests.booking_helpers import day, make_bookable_game
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def giant():
    return make_bookable_game(barcodes=())


@pytest.fixture
def family():
    return make_member("M0001", "Alex Tartempion")


@pytest.fixture
def other():
    return make_member("M0002", "Sam Bidule")


def book(member, start, end, staff, *, copy=None, game=None, **more):
    return services.booking_create(
        member=member, starts_on=start, ends_on=end, user=staff, copy=copy, game=game, **more
    )


def messages(error: ValidationError) -> str:
    return " ".join(error.messages)


# Overlap


def test_two_bookings_sharing_a_day_on_one_copy_are_refused_with_the_clashing_dates(
    giant, family, other, staff_user
):
    copy = make_copy(giant, "G001")
    book(family, day(10), day(12), staff_user, copy=copy)

    with pytest.raises(ValidationError) as refused:
        book(other, day(12), day(14), staff_user, copy=copy)

    assert refused.value.error_dict["starts_on"][0].code == "dates_clash"
    text = messages(refused.value)
    assert f"réservé du {day(10):%d/%m/%Y} au {day(12):%d/%m/%Y} (Alex Tartempion)" in text
    assert DateBooking.objects.count() == 1


def test_the_same_single_day_twice_is_refused(giant, family, other, staff_user):
    copy = make_copy(giant, "G001")
    book(family, day(5), day(5), staff_user, copy=copy)
    with pytest.raises(ValidationError, match="Dates en conflit"):
        book(other, day(5), day(5), staff_user, copy=copy)


def test_touching_ranges_do_not_clash(giant, family, other, staff_user):
    copy = make_copy(giant, "G001")
    book(family, day(10), day(12), staff_user, copy=copy)

    before = book(other, day(7), day(9), staff_user, copy=copy)
    after = book(other, day(13), day(15), staff_user, copy=copy)

    assert (before.starts_on, after.ends_on) == (day(7), day(15))


def test_a_cancelled_booking_does_not_block_its_dates_and_stays_in_the_history(
    giant, family, other, staff_user
):
    copy = make_copy(giant, "G001")
    first = book(family, day(10), day(12), staff_user, copy=copy)
    services.booking_cancel(booking=first, by_family=True)

    second = book(other, day(10), day(12), staff_user, copy=copy)

    first.refresh_from_db()
    assert first.status == DateBooking.Status.CANCELLED and first.cancelled_at is not None
    assert second.status == DateBooking.Status.BOOKED
    assert DateBooking.objects.count() == 2


@pytest.mark.postgresql
def test_postgresql_itself_refuses_two_overlapping_active_bookings_of_one_copy(
    giant, family, other, staff_user
):
    copy = make_copy(giant, "G001")
    book(family, day(10), day(12), staff_user, copy=copy)
    with pytest.raises(IntegrityError, match="loans_datebooking_no_overlap"), transaction.atomic():
        DateBooking.objects.create(
            copy=copy, member=other, starts_on=day(11), ends_on=day(20), created_by=staff_user
        )
    # Cancelled ones are left out of the constraint.
    DateBooking.objects.create(
        copy=copy, member=other, starts_on=day(11), ends_on=day(20), created_by=staff_user, status="cancelled"
    )


@pytest.mark.postgresql
def test_postgresql_refuses_to_delete_a_booking(giant, family, staff_user):
    booking = book(family, day(10), day(12), staff_user, copy=make_copy(giant, "G001"))
    with pytest.raises(IntegrityError, match="history"), transaction.atomic():
        DateBooking.objects.filter(pk=booking.pk).delete()


# A title booking picks a free copy


def test_a_title_booking_takes_a_free_copy_and_is_refused_when_none_is_left(giant, family, other, staff_user):
    first_copy = make_copy(giant, "G001")
    second_copy = make_copy(giant, "G002")

    first = book(family, day(3), day(4), staff_user, game=giant)
    second = book(other, day(4), day(6), staff_user, game=giant)

    assert {first.copy, second.copy} == {first_copy, second_copy}
    assert first.by_title and second.by_title
    with pytest.raises(ValidationError) as refused:
        book(make_member("M0003", "Charlie Machin"), day(4), day(4), staff_user, game=giant)
    text = messages(refused.value)
    assert "G001 : réservé du" in text and "G002 : réservé du" in text


def test_a_family_is_not_told_whose_booking_clashes(giant, family, other, staff_user):
    make_copy(giant, "G001")
    book(family, day(10), day(12), staff_user, game=giant)
    with pytest.raises(ValidationError) as refused:
        book(other, day(11), day(11), staff_user, game=giant, by_family=True)
    text = messages(refused.value)
    assert f"du {day(10):%d/%m/%Y} au {day(12):%d/%m/%Y}" in text
    assert "Tartempion" not in text


def test_only_titles_marked_bookable_for_dates_are_booked(family, staff_user):
    game = make_game("Quarto")
    make_copy(game, "90468")
    with pytest.raises(ValidationError) as refused:
        book(family, day(3), day(4), staff_user, game=game)
    assert refused.value.error_dict["game"][0].code == "not_date_bookable"


def test_bad_dates_are_refused_on_their_field(giant, family, staff_user):
    copy = make_copy(giant, "G001")
    cases = [
        ((day(-1), day(2)), "starts_on", "date_past"),
        ((day(5), day(4)), "ends_on", "dates_order"),
        ((day(1), day(40)), "ends_on", "too_long"),
        ((day(400), day(401)), "starts_on", "too_far"),
    ]
    for (start, end), field, code in cases:
        with pytest.raises(ValidationError) as refused:
            book(family, start, end, staff_user, copy=copy)
        assert refused.value.error_dict[field][0].code == code


def test_a_booking_starts_and_ends_on_days_the_site_opens(giant, family, staff_user):
    copy = make_copy(giant, "G001")
    start = day(7)
    OpeningHours.objects.create(
        location=copy.location,
        weekday=start.weekday(),
        opens_at=datetime.time(14),
        closes_at=datetime.time(18),
    )
    Closure.objects.create(location=copy.location, first_day=start, last_day=start, reason="Fête")
    with pytest.raises(ValidationError) as refused:
        book(family, start, day(14), staff_user, copy=copy)
    assert refused.value.error_dict["starts_on"][0].code == "site_closed"
    assert f"« Maison des Enfants » est fermé le {weekday_date(start)}" in messages(refused.value)
    assert f"le {weekday_date(day(14))}, par exemple" in messages(refused.value)
    book(family, day(14), day(14), staff_user, copy=copy)


def test_a_copy_on_loan_until_after_the_first_day_cannot_be_booked(giant, family, other, staff_user):
    copy = make_copy(giant, "G001")
    giant.date_bookable = False
    giant.save()
    loan = services.loan_create(copy=copy, member=other, staff=staff_user)
    giant.date_bookable = True
    giant.save()
    with pytest.raises(ValidationError, match="en prêt jusqu'au"):
        book(family, loan.due_on, loan.due_on + datetime.timedelta(days=1), staff_user, copy=copy)
    booking = book(
        family,
        loan.due_on + datetime.timedelta(days=1),
        loan.due_on + datetime.timedelta(days=2),
        staff_user,
        copy=copy,
    )
    assert booking.status == DateBooking.Status.BOOKED


def test_a_family_cancels_until_the_day_before_its_first_day(giant, family, staff_user):
    copy = make_copy(giant, "G001")
    today = DateBooking.objects.create(
        copy=copy, member=family, starts_on=day(0), ends_on=day(2), created_by=staff_user
    )
    with pytest.raises(ValidationError) as refused:
        services.booking_cancel(booking=today, by_family=True)
    assert refused.value.code == "booking_started"
    services.booking_cancel(booking=today)  # the desk may
    with pytest.raises(ValidationError):
        services.booking_cancel(booking=today)  # once


# Loans around bookings


def test_the_desk_cannot_lend_a_copy_booked_by_another_family_today(giant, family, other, staff_user):
    copy = make_copy(giant, "G001")
    book(family, day(0), day(2), staff_user, copy=copy)

    with pytest.raises(ValidationError) as refused:
        services.loan_create(copy=copy, member=other, staff=staff_user)

    assert refused.value.error_dict["copy"][0].code == "date_booked"
    assert f"Alex Tartempion du {day(0):%d/%m/%Y} au {day(2):%d/%m/%Y}" in messages(refused.value)
    assert not Loan.objects.exists()


def test_a_loan_that_would_run_into_a_booking_is_shortened_to_the_day_before(
    giant, family, other, staff_user
):
    copy = make_copy(giant, "G001")
    booking = book(family, day(5), day(6), staff_user, copy=copy)

    loan = services.loan_create(copy=copy, member=other, staff=staff_user)

    assert loan.due_on == day(4)
    assert loan.shortened_for == booking
    assert Loan.objects.get().due_on == day(4)


def test_a_loan_is_refused_when_the_booking_starts_tomorrow(giant, family, other, staff_user):
    copy = make_copy(giant, "G001")
    book(family, day(1), day(3), staff_user, copy=copy)
    with pytest.raises(ValidationError, match="est réservé à date pour Alex Tartempion"):
        services.loan_create(copy=copy, member=other, staff=staff_user)


def test_a_loan_due_before_the_booking_is_untouched(giant, family, other, staff_user):
    copy = make_copy(giant, "G001")
    book(family, day(60), day(61), staff_user, copy=copy)
    loan = services.loan_create(copy=copy, member=other, staff=staff_user)
    assert loan.due_on == day(other.membership_type.loan_period_days)


def test_a_renewal_into_a_booking_is_refused(giant, family, other, staff_user):
    copy = make_copy(giant, "G001")
    loan = services.loan_create(copy=copy, member=other, staff=staff_user)
    book(
        family,
        loan.due_on + datetime.timedelta(days=3),
        loan.due_on + datetime.timedelta(days=4),
        staff_user,
        copy=copy,
    )
    with pytest.raises(ValidationError, match="ne peut pas être prolongé"):
        services.loan_renew(loan=loan)


def test_a_bookable_title_is_not_queued_for(giant, family, staff_user):
    make_copy(giant, "G001")
    with pytest.raises(ValidationError) as refused:
        services.hold_create(game=giant, member=family, staff=staff_user)
    assert refused.value.error_dict["game"][0].code == "date_bookable"
    assert not Hold.objects.exists()


# Booking → loan on its first day


def test_on_its_first_day_the_booking_becomes_a_loan_due_on_its_last_day(giant, family, staff_user):
    copy = make_copy(giant, "G001")
    booking = DateBooking.objects.create(
        copy=copy, member=family, starts_on=day(0), ends_on=day(3), created_by=staff_user
    )

    loan = services.booking_hand_out(booking=booking, staff=staff_user)

    booking.refresh_from_db()
    assert (loan.member, loan.copy, loan.due_on) == (family, copy, day(3))
    assert booking.status == DateBooking.Status.LENT and booking.loan == loan
    # Back early: the copy is free again, and the booking stays in the history as handed out.
    services.loan_return(loan=loan, staff=staff_user)
    booking.refresh_from_db()
    assert booking.status == DateBooking.Status.LENT
    assert Copy.objects.filter(pk=copy.pk).available().exists()


def test_scanning_the_booked_copy_for_its_family_honours_the_booking(giant, family, staff_user):
    copy = make_copy(giant, "G001")
    booking = DateBooking.objects.create(
        copy=copy, member=family, starts_on=day(-1), ends_on=day(1), created_by=staff_user
    )
    loan = services.loan_create(copy=copy, member=family, staff=staff_user)
    booking.refresh_from_db()
    assert booking.loan == loan and loan.due_on == day(1)


def test_a_booking_is_not_handed_out_before_its_first_day(giant, family, staff_user):
    booking = book(family, day(2), day(3), staff_user, copy=make_copy(giant, "G001"))
    with pytest.raises(ValidationError) as refused:
        services.booking_hand_out(booking=booking, staff=staff_user)
    assert refused.value.code == "not_today"
    assert not Loan.objects.exists()


def test_erasing_a_family_cancels_its_bookings_and_forgets_who_booked(giant, family, staff_user):
    from privacy.services import member_erase

    booking = book(
        family, day(3), day(4), staff_user, copy=make_copy(giant, "G001"), note="Anniversaire de Léa"
    )

    member_erase(member=family, staff=staff_user)

    booking.refresh_from_db()
    assert booking.status == DateBooking.Status.CANCELLED
    assert (booking.member, booking.note) == (None, "")


# Nobody came


def test_the_daily_run_closes_a_booking_nobody_came_for_once_its_last_day_is_past(
    giant, family, other, staff_user
):
    def booked(barcode: str, start: int, end: int) -> DateBooking:
        return DateBooking.objects.create(
            copy=make_copy(giant, barcode),
            member=family,
            starts_on=day(start),
            ends_on=day(end),
            created_by=staff_user,
        )

    forgotten = booked("G001", -4, -2)
    ends_today = booked("G002", -1, 0)
    handed_out = booked("G003", -2, 2)
    services.booking_hand_out(booking=handed_out, staff=staff_user)
    out = io.StringIO()

    call_command("run_daily", stdout=out)

    assert "close_date_bookings: 1 date booking(s) not collected" in out.getvalue()
    statuses = {booking.pk: booking.status for booking in DateBooking.objects.all()}
    assert statuses == {
        forgotten.pk: DateBooking.Status.NOT_COLLECTED,
        ends_today.pk: DateBooking.Status.BOOKED,  # the family may still come today
        handed_out.pk: DateBooking.Status.LENT,
    }
    assert DateBooking.objects.get(pk=forgotten.pk).get_status_display() == "Non retirée"
    again = io.StringIO()
    call_command("run_daily", stdout=again)  # run twice: nothing more
    assert "close_date_bookings: 0 date booking(s) not collected" in again.getvalue()
    # Its days hold the copy no more: PostgreSQL's exclusion constraint lets another booking have them.
    DateBooking.objects.create(
        copy=forgotten.copy, member=other, starts_on=day(-3), ends_on=day(-3), created_by=staff_user
    )


def test_a_booking_nobody_came_for_loses_its_family_after_the_retention_period(giant, family, staff_user):
    from privacy.services import history_anonymise

    booking = DateBooking.objects.create(
        copy=make_copy(giant, "G001"),
        member=family,
        starts_on=day(-4),
        ends_on=day(-2),
        note="Fête des voisins",
        created_by=staff_user,
    )
    bookings_close_uncollected(today=day(0))
    long_after = day(-2) + datetime.timedelta(days=31 * (settings.HISTORY_RETENTION_MONTHS + 1))

    history_anonymise(today=long_after)

    booking.refresh_from_db()
    assert (booking.status, booking.member, booking.note) == (DateBooking.Status.NOT_COLLECTED, None, "")
