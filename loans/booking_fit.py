"""What a loan and a renewal must leave free: the days a copy is booked for (loans/bookings.py).

`loan_create` and `loan_renew` call these under their row locks (the game's, then the copy's), the same
locks a booking takes, so that a booking and a loan of one copy are served one after the other.
"""

import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ludotheque.answers import refuse as _refuse
from opening.schedule import site_calendar

from .desk import short_date
from .models import DateBooking, Loan


def loan_fit_date_bookings(loan: Loan) -> None:
    """Fit a new loan (its copy and family locked) around the copy's date bookings.

    The family's own booking that has begun is honoured: the loan is due back on its last day and the
    booking is handed out. Another family's booking that has begun refuses the loan, naming whose it is
    and its dates. A loan that would run into a later booking is shortened to the last day the copy's site
    opens before it (the clerk is told why, `loan.shortened_for`), or refused if no such day is left.
    """
    today = timezone.localdate(loan.lent_at)
    bookings = list(
        DateBooking.objects.active()
        .filter(copy_id=loan.copy_id, ends_on__gte=today)
        .select_related("member")
        .order_by("starts_on")
    )
    if not bookings:
        return
    begun = bookings[0] if bookings[0].starts_on <= today else None
    if begun is not None and begun.member_id == loan.member_id:
        loan.due_on = begun.ends_on
        loan.save(update_fields=["due_on"])
        begun.status = DateBooking.Status.LENT
        begun.loan = loan
        begun.save(update_fields=["status", "loan"])
        return
    if begun is not None:
        _refuse_loan(loan, begun)
    following = bookings[0]
    if loan.due_on < following.starts_on:
        return
    calendar = site_calendar(loan.copy.location_id, from_day=today)
    last = following.starts_on - datetime.timedelta(days=1)
    while last > today and not calendar.is_open(last):
        last -= datetime.timedelta(days=1)
    if last <= today:
        _refuse_loan(loan, following)
    loan.due_on = last
    loan.save(update_fields=["due_on"])
    loan.shortened_for = following


def _refuse_loan(loan: Loan, booking: DateBooking) -> None:
    _refuse(
        _(
            "« %(game)s » (%(barcode)s) est réservé à date pour %(family)s du %(start)s au %(end)s : "
            "il ne peut pas sortir avant."
        ),
        code="date_booked",
        on="copy",
        game=loan.copy.game.title,
        barcode=loan.copy.barcode,
        family=booking.member.name,
        start=short_date(booking.starts_on),
        end=short_date(booking.ends_on),
    )


def renewal_fit_date_bookings(loan: Loan, due_on: datetime.date) -> None:
    """Refuse to renew a loan up to `due_on` when its copy is booked for a day before then."""
    booking = (
        DateBooking.objects.active()
        .filter(copy_id=loan.copy_id, starts_on__lte=due_on, ends_on__gt=loan.due_on)
        .order_by("starts_on")
        .first()
    )
    if booking is not None:
        _refuse(
            _(
                "« %(game)s » est réservé à date à partir du %(start)s : le prêt ne peut pas être "
                "prolongé au-delà."
            ),
            code="date_booked",
            game=loan.copy.game.title,
            start=short_date(booking.starts_on),
        )
