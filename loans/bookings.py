"""Date bookings (réservation à date): a family books a copy, or a title, from one date to another.

Giant games and party kits are booked for dates instead of queued for (PMB's `resa_planning`, Lend
Engine's reservations). A booking holds its copy for its days, both included: the desk cannot lend that
copy into them (`loan_fit_date_bookings`, called by `loan_create`), a renewal cannot run into them, and
two active bookings of one copy never overlap (checked here under the copy's row lock, and refused by
PostgreSQL itself: the exclusion constraint of migration 0012). On its first day the desk lends the
copy to the booking's family through `loan_create`, due back on the booking's last day; the booking is
then « remise », its loan linked. One nobody came for is « non retirée » after its last day (the daily
run). Bookings are never deleted: a cancelled one keeps its status.

Locks follow the desk's order (loans/desk.py): the family, the game, then the copy. A title booking
locks the game row, so every booking, loan and renewal of its copies waits for it.
"""

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Copy, Game
from members.models import Member
from opening.schedule import site_calendar, weekday_date

from .checkout import loan_create
from .desk import (
    _check_membership,
    _lock_copy,
    _lock_game_and_copy,
    _lock_member,
    _refuse,
    short_date,
)
from .models import DateBooking, Loan

# The longest booking, in days (a weekend, a holiday week, a school's project of a few weeks).
BOOKING_MAX_DAYS = 31
# How far ahead a booking may start.
BOOKING_HORIZON_DAYS = 365


@dataclass(frozen=True)
class Clash:
    """What keeps a copy from being booked for some days: another booking, or a loan not yet due back."""

    copy: Copy
    starts_on: datetime.date
    ends_on: datetime.date
    family: str
    is_loan: bool

    def describe(self, *, name_family: bool) -> str:
        """« 90123 : réservé du 12/12/2026 au 14/12/2026 (Famille Bidule) », the family only for the desk."""
        if self.is_loan:
            text = _("%(barcode)s : en prêt jusqu'au %(end)s") % {
                "barcode": self.copy.barcode,
                "end": short_date(self.ends_on),
            }
        else:
            text = _("%(barcode)s : réservé du %(start)s au %(end)s") % {
                "barcode": self.copy.barcode,
                "start": short_date(self.starts_on),
                "end": short_date(self.ends_on),
            }
        return f"{text} ({self.family})" if name_family and self.family else str(text)


def clashes(
    copy: Copy, starts_on: datetime.date, ends_on: datetime.date, *, today: datetime.date
) -> list[Clash]:
    """What holds `copy` on some of the days `starts_on`…`ends_on`: active bookings sharing a day with
    them, and an open loan due back on or after their first day (a late one counts as due today)."""
    found = [
        Clash(copy, booking.starts_on, booking.ends_on, booking.member.name if booking.member else "", False)
        for booking in DateBooking.objects.active()
        .overlapping(starts_on, ends_on)
        .filter(copy=copy)
        .select_related("member")
        .order_by("starts_on")
    ]
    loan = Loan.objects.open().filter(copy=copy).select_related("member").first()
    if loan is not None and max(loan.due_on, today) >= starts_on:
        found.insert(
            0, Clash(copy, timezone.localdate(loan.lent_at), max(loan.due_on, today), loan.member.name, True)
        )
    return found


def busy_periods(
    game: Game, *, today: datetime.date | None = None
) -> list[tuple[datetime.date, datetime.date]]:
    """The days a title cannot be booked: when every copy is held (booked or out), as (first, last) runs.

    What a family's booking page shows before it picks its dates (no family named)."""
    today = today or timezone.localdate()
    copies = list(Copy.objects.filter(game=game).in_circulation())
    if not copies:
        return []
    horizon = today + datetime.timedelta(days=BOOKING_HORIZON_DAYS)
    held: dict[int, set[datetime.date]] = {copy.pk: set() for copy in copies}
    for booking in DateBooking.objects.upcoming(today).filter(copy__in=copies):
        held[booking.copy_id].update(_days(max(booking.starts_on, today), min(booking.ends_on, horizon)))
    for loan in Loan.objects.open().filter(copy__in=copies):
        held[loan.copy_id].update(_days(today, max(loan.due_on, today)))
    days = sorted(set.intersection(*held.values()))
    runs: list[tuple[datetime.date, datetime.date]] = []
    for day in days:
        if runs and runs[-1][1] + datetime.timedelta(days=1) == day:
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


def _days(first: datetime.date, last: datetime.date) -> list[datetime.date]:
    return [first + datetime.timedelta(days=n) for n in range((last - first).days + 1)]


def _check_dates(starts_on: datetime.date, ends_on: datetime.date, today: datetime.date) -> None:
    if starts_on < today:
        _refuse(_("Le premier jour est déjà passé."), code="date_past", on="starts_on")
    if ends_on < starts_on:
        _refuse(_("Le dernier jour ne peut pas précéder le premier."), code="dates_order", on="ends_on")
    if (ends_on - starts_on).days + 1 > BOOKING_MAX_DAYS:
        _refuse(
            _("Une réservation dure au plus %(days)s jours."),
            code="too_long",
            on="ends_on",
            days=BOOKING_MAX_DAYS,
        )
    if starts_on > today + datetime.timedelta(days=BOOKING_HORIZON_DAYS):
        _refuse(
            _("On ne réserve pas plus d'un an à l'avance."),
            code="too_far",
            on="starts_on",
        )


def _check_site_open(copy: Copy, starts_on: datetime.date, ends_on: datetime.date) -> None:
    """The family takes the copy on the first day and brings it back on the last: its site opens on both."""
    calendar = site_calendar(copy.location_id, from_day=starts_on)
    for field, day in (("starts_on", starts_on), ("ends_on", ends_on)):
        if not calendar.is_open(day):
            _refuse(
                _(
                    "« %(site)s » est fermé le %(day)s : choisissez un jour d'ouverture (le %(next)s, par exemple)."
                ),
                code="site_closed",
                on=field,
                site=copy.location.name,
                day=weekday_date(day),
                next=weekday_date(calendar.next_opening_day(day)),
            )


def _refuse_clashes(game: Game, found: list[Clash], starts_on, ends_on, *, by_family: bool) -> None:
    _refuse(
        _("« %(game)s » n'est pas libre du %(start)s au %(end)s. Dates en conflit : %(clashes)s."),
        code="dates_clash",
        on="starts_on",
        game=game.title,
        start=short_date(starts_on),
        end=short_date(ends_on),
        clashes=" ; ".join(clash.describe(name_family=not by_family) for clash in found),
    )


def _pick_copy(game: Game, starts_on, ends_on, today, *, by_family: bool) -> Copy:
    """The first copy of a title free for the dates, those on the shelf first (the game row is locked)."""
    candidates = list(
        Copy.objects.filter(game=game)
        .in_circulation()
        .select_related("game", "location")
        .order_by("status", "barcode")
    )
    candidates.sort(key=lambda copy: (copy.status != Copy.Status.ON_SHELF, copy.barcode))
    if not candidates:
        _refuse(
            _("« %(game)s » n'a aucun exemplaire prêtable : il ne peut pas être réservé."),
            code="no_lendable_copy",
            on="game",
            game=game.title,
        )
    found: list[Clash] = []
    for copy in candidates:
        held = clashes(copy, starts_on, ends_on, today=today)
        if not held:
            return _lock_copy(copy.pk)
        found.extend(held)
    _refuse_clashes(game, found, starts_on, ends_on, by_family=by_family)


def _check_family_quota(member: Member, today: datetime.date) -> None:
    """A family books from its page as many titles at once as it may borrow games."""
    quota = member.membership_type.loan_quota
    if DateBooking.objects.upcoming(today).filter(member=member).count() >= quota:
        _refuse(
            ngettext_lazy(
                "Vous avez déjà %(count)s réservation à date : c'est le maximum de votre adhésion.",
                "Vous avez déjà %(count)s réservations à date : c'est le maximum de votre adhésion.",
                "count",
            ),
            code="booking_quota",
            on="member",
            count=quota,
        )


@transaction.atomic
def booking_create(
    *,
    member: Member,
    starts_on: datetime.date,
    ends_on: datetime.date,
    user: AbstractBaseUser,
    copy: Copy | None = None,
    game: Game | None = None,
    note: str = "",
    by_family: bool = False,
) -> DateBooking:
    """Book `copy`, or a free copy of the title `game`, for `member` from `starts_on` to `ends_on`.

    Refused with the dates that clash; `by_family` (from the family's own page) names no other family
    and counts the family's bookings against its membership's quota.
    """
    if (copy is None) == (game is None):
        raise ValueError("Book a copy or a title, not both.")
    by_title = copy is None
    today = timezone.localdate()
    _check_dates(starts_on, ends_on, today)
    member = _lock_member(member)
    _check_membership(member, today)
    if by_family:
        _check_family_quota(member, today)
    if copy is not None:
        copy = _lock_game_and_copy(copy.pk)
        game = copy.game
    else:
        game = Game.objects.select_for_update().get(pk=game.pk)  # read again, under its lock
    if not game.date_bookable:
        _refuse(
            _("« %(game)s » ne se réserve pas à date : réservez-le dans la file d'attente."),
            code="not_date_bookable",
            on="game" if by_title else "copy",
            game=game.title,
        )
    if not by_title:
        if copy.status not in Copy.Status.in_circulation():
            _refuse(
                _("« %(game)s » (%(barcode)s) ne peut pas être réservé : son statut est « %(status)s »."),
                code="copy_not_lendable",
                on="copy",
                game=game.title,
                barcode=copy.barcode,
                status=copy.get_status_display(),
            )
        found = clashes(copy, starts_on, ends_on, today=today)
        if found:
            _refuse_clashes(game, found, starts_on, ends_on, by_family=by_family)
    else:
        copy = _pick_copy(game, starts_on, ends_on, today, by_family=by_family)
    _check_site_open(copy, starts_on, ends_on)
    try:
        with transaction.atomic():
            return DateBooking.objects.create(
                copy=copy,
                member=member,
                starts_on=starts_on,
                ends_on=ends_on,
                by_title=by_title,
                note=note.strip(),
                created_by=user,
            )
    except IntegrityError:
        # PostgreSQL's exclusion constraint: a booking of the same days got in first (the locks above
        # make this a last resort, for writes that bypassed them).
        _refuse_clashes(
            game, clashes(copy, starts_on, ends_on, today=today), starts_on, ends_on, by_family=by_family
        )


@transaction.atomic
def booking_cancel(*, booking: DateBooking, by_family: bool = False) -> DateBooking:
    """Cancel a booking not handed out yet; a family cancels its own until the day before its first day."""
    booking = (
        DateBooking.objects.select_for_update(of=("self",)).select_related("copy__game").get(pk=booking.pk)
    )
    if booking.status != DateBooking.Status.BOOKED:
        _refuse(
            _("Cette réservation de « %(game)s » est déjà « %(status)s »."),
            code="not_booked",
            game=booking.copy.game.title,
            status=booking.get_status_display(),
        )
    if by_family and not booking.is_cancellable:
        _refuse(
            _(
                "La réservation de « %(game)s » a commencé le %(date)s : pour l'annuler, adressez-vous au comptoir."
            ),
            code="booking_started",
            game=booking.copy.game.title,
            date=weekday_date(booking.starts_on),
        )
    booking.status = DateBooking.Status.CANCELLED
    booking.cancelled_at = timezone.now()
    booking.save(update_fields=["status", "cancelled_at"])
    return booking


def booking_hand_out(
    *,
    booking: DateBooking,
    staff: AbstractBaseUser,
    deposit_method: str = "",
    deposit_cheque_number: str = "",
) -> Loan:
    """Lend the booked copy to the booking's family on one of its days: the desk's loan, due back on its
    last day (loan_create honours the booking through loan_fit_date_bookings), with the deposit its kind
    asks paid as the clerk says (`deposit_method`, a cheque's number)."""
    today = timezone.localdate()
    if booking.status != DateBooking.Status.BOOKED or not booking.starts_on <= today <= booking.ends_on:
        _refuse(
            _(
                "Cette réservation ne se remet pas aujourd'hui : elle va du %(start)s au %(end)s (%(status)s)."
            ),
            code="not_today",
            start=short_date(booking.starts_on),
            end=short_date(booking.ends_on),
            status=booking.get_status_display(),
        )
    return loan_create(
        copy=booking.copy,
        member=booking.member,
        staff=staff,
        deposit_method=deposit_method,
        deposit_cheque_number=deposit_cheque_number,
    )


def bookings_close_uncollected(*, today: datetime.date) -> str:
    """Mark « non retirée » every booking whose last day passed before its copy was handed out (a
    daily step; run twice, the second finds none). Its days no longer hold the copy, and, closed, it
    loses its family after the retention period as every closed booking does (privacy/services.py)."""
    closed = (
        DateBooking.objects.active().filter(ends_on__lt=today).update(status=DateBooking.Status.NOT_COLLECTED)
    )
    return f"{closed} date booking(s) not collected"
