"""The writes of events: booking, cancelling, the waiting list moving up, the attendance sheet.

Each function is one transaction that locks the event's row first: two families booking the last
place at once are served one after the other, the second put on the waiting list. The booking fee is
a charge in the ledger (ledger.services), made when a booking is confirmed (at once, or when it moves
up from the waiting list) and reversed when it is cancelled in time or the event is cancelled; the
family pays it at the desk, then or later, like any charge.

A refusal raises ValidationError with a `code`, keyed by the field it is about when there is one.
"""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ledger.models import Entry, Kind
from ledger.services import charge_create, entry_reverse, payment_create
from ludotheque.answers import refuse as _refuse
from members.models import Member

from .models import Booking, Event

# The most people one booking brings (a family, a class is booked otherwise).
MAX_PEOPLE = 20


def _lock_event(event: Event) -> Event:
    return Event.objects.select_for_update(of=("self",)).select_related("location").get(pk=event.pk)


def _note(event: Event) -> str:
    return _("Animation « %(title)s » du %(date)s") % {
        "title": event.title,
        "date": formats.date_format(timezone.localtime(event.starts_at), "SHORT_DATE_FORMAT"),
    }


def _charge(booking: Booking, event: Event, staff: AbstractBaseUser) -> None:
    """Charge the family the booking's fee (nothing for a free event or a non-member)."""
    fee = event.fee(children=booking.children, adults=booking.adults)
    if booking.member_id is None or fee <= 0:
        return
    booking.charge = charge_create(
        member=booking.member,
        kind=Kind.OTHER,
        amount=fee,
        staff=staff,
        site=event.location_id,
        note=_note(event),
    )


def _check_people(children: int, adults: int) -> None:
    if children < 0:
        _refuse(gettext_lazy("Le nombre ne peut pas être négatif."), code="negative", on="children")
    if adults < 0:
        _refuse(gettext_lazy("Le nombre ne peut pas être négatif."), code="negative", on="adults")
    if children + adults == 0:
        _refuse(gettext_lazy("Réservez pour au moins une personne."), code="nobody", on="adults")
    if children + adults > MAX_PEOPLE:
        _refuse(
            gettext_lazy("Une réservation compte au plus %(max)s personnes."),
            code="too_many",
            on="adults",
            max=MAX_PEOPLE,
        )


def _check_who(event: Event, member: Member | None, name: str) -> None:
    if member is not None:
        if event.members_only and not member.membership_is_valid(timezone.localtime(event.starts_at).date()):
            _refuse(
                gettext_lazy(
                    "Cette animation est réservée aux membres : l'adhésion de %(family)s n'est pas valable ce jour-là."
                ),
                code="membership_expired",
                on="member",
                family=member.name,
            )
        if Booking.objects.active().filter(event=event, member=member).exists():
            _refuse(
                gettext_lazy("%(family)s a déjà une réservation pour cette animation."),
                code="already_booked",
                family=member.name,
            )
        return
    if event.members_only:
        _refuse(
            gettext_lazy("Cette animation est réservée aux familles membres."),
            code="members_only",
            on="member",
        )
    if not event.is_free:
        _refuse(
            gettext_lazy(
                "Une animation payante se réserve au nom d'une famille inscrite : ses frais vont à son compte."
            ),
            code="paid_needs_family",
            on="member",
        )
    if not name.strip():
        _refuse(
            gettext_lazy("Indiquez le nom de la personne non adhérente."), code="name_required", on="name"
        )


@transaction.atomic
def booking_create(
    *,
    event: Event,
    staff: AbstractBaseUser,
    member: Member | None = None,
    name: str = "",
    contact: str = "",
    children: int = 0,
    adults: int = 1,
    walk_in: bool = False,
    method: str = "",
    cheque_number: str = "",
    now: datetime.datetime | None = None,
) -> Booking:
    """Book places at `event`: confirmed while places are left, on the waiting list otherwise.

    A walk-in (a family come on the day without booking, added by the desk) is confirmed and present
    whatever the places left. With `method`, the desk takes the fee at once.
    """
    now = now or timezone.now()
    event = _lock_event(event)
    if event.cancelled_at is not None:
        _refuse(gettext_lazy("Cette animation est annulée."), code="event_cancelled")
    if not walk_in and now >= event.starts_at:
        _refuse(
            gettext_lazy("Cette animation a déjà commencé : les réservations sont closes."), code="started"
        )
    if walk_in and now.date() < timezone.localtime(event.starts_at).date():
        _refuse(gettext_lazy("Une venue sans réservation se compte le jour même."), code="not_the_day")
    _check_people(children, adults)
    _check_who(event, member, name)
    left = event.places_left()
    fits = left is None or children + adults <= left
    booking = Booking(
        event=event,
        member=member,
        name="" if member else name.strip(),
        contact="" if member else contact.strip(),
        children=children,
        adults=adults,
        status=Booking.Status.CONFIRMED if fits or walk_in else Booking.Status.WAITING,
        walk_in=walk_in,
        attendance=Booking.Attendance.PRESENT if walk_in else "",
        created_at=now,
        created_by=staff,
    )
    if booking.status == Booking.Status.CONFIRMED:
        _charge(booking, event, staff)
        if method and booking.charge is not None:
            owed = Entry.objects.filter(member=member).balance()
            due = min(booking.charge.amount, owed)
            if due > Decimal(0):
                payment_create(
                    member=member,
                    amount=due,
                    method=method,
                    cheque_number=cheque_number,
                    staff=staff,
                    site=event.location_id,
                    note=_note(event),
                )
    booking.save()
    return booking


def _promote(event: Event, staff: AbstractBaseUser, now: datetime.datetime) -> list[Booking]:
    """Move the waiting list up into the places left, in order; a booking too large for them waits on."""
    promoted = []
    if now >= event.starts_at:
        return promoted
    left = event.places_left()
    for booking in event.bookings.waiting().select_for_update(of=("self",)).select_related("member"):
        if left is not None and booking.people > left:
            continue
        booking.status = Booking.Status.CONFIRMED
        booking.promoted_at = now
        _charge(booking, event, staff)
        booking.save(update_fields=["status", "promoted_at", "charge"])
        promoted.append(booking)
        if left is not None:
            left -= booking.people
            if left == 0:
                break
    return promoted


def _refund(booking: Booking, staff: AbstractBaseUser, site: int, note: str) -> None:
    if booking.charge_id is not None and not Entry.objects.filter(reverses=booking.charge_id).exists():
        entry_reverse(entry=booking.charge, staff=staff, site=site, note=note)


@transaction.atomic
def booking_cancel(
    *,
    booking: Booking,
    staff: AbstractBaseUser,
    by_family: bool = False,
    now: datetime.datetime | None = None,
) -> list[Booking]:
    """Cancel a booking; its fee is refunded when cancelled before the deadline, and the waiting list
    moves up into the places freed. Returns the bookings moved up.

    A family cancels until the event's deadline (a place on the waiting list, until the start); the
    desk cancels any time, refunding only before the deadline (a late cancellation's fee may be
    reversed in the ledger by hand).
    """
    now = now or timezone.now()
    event = _lock_event(booking.event)
    booking = Booking.objects.select_for_update(of=("self",)).select_related("charge").get(pk=booking.pk)
    if booking.status == Booking.Status.CANCELLED:
        _refuse(gettext_lazy("Cette réservation est déjà annulée."), code="already_cancelled")
    if now >= event.starts_at and (by_family or booking.attendance):
        _refuse(gettext_lazy("L'animation a commencé : la réservation ne s'annule plus."), code="started")
    in_time = now <= event.cancellation_deadline
    if by_family and booking.status == Booking.Status.CONFIRMED and not in_time:
        _refuse(
            gettext_lazy("Les annulations étaient possibles jusqu'au %(date)s : appelez la ludothèque."),
            code="too_late",
            date=formats.date_format(timezone.localtime(event.cancellation_deadline), "DATETIME_FORMAT"),
        )
    was_confirmed = booking.status == Booking.Status.CONFIRMED
    if in_time:
        _refund(
            booking, staff, event.location_id, _("Annulation à temps : %(event)s") % {"event": _note(event)}
        )
    booking.status = Booking.Status.CANCELLED
    booking.cancelled_at = now
    booking.save(update_fields=["status", "cancelled_at"])
    return _promote(event, staff, now) if was_confirmed else []


@transaction.atomic
def event_cancel(*, event: Event, staff: AbstractBaseUser, now: datetime.datetime | None = None) -> Event:
    """The ludothèque cancels an event: every fee is refunded; the families are told by the daily run."""
    now = now or timezone.now()
    event = _lock_event(event)
    if event.cancelled_at is not None:
        _refuse(gettext_lazy("Cette animation est déjà annulée."), code="event_cancelled")
    note = _("Animation annulée : %(event)s") % {"event": _note(event)}
    for booking in event.bookings.active().filter(charge__isnull=False).select_related("charge"):
        _refund(booking, staff, event.location_id, note)
    event.cancelled_at = now
    event.save(update_fields=["cancelled_at"])
    return event


@transaction.atomic
def attendance_mark(*, booking: Booking, attendance: str, staff: AbstractBaseUser) -> Booking:
    """Tick a confirmed booking present or absent on the day (or clear the tick with "")."""
    booking = Booking.objects.select_for_update(of=("self",)).select_related("event").get(pk=booking.pk)
    if attendance not in ["", *Booking.Attendance.values]:
        _refuse(gettext_lazy("Présente ou absente ?"), code="attendance_invalid", on="attendance")
    if booking.status != Booking.Status.CONFIRMED:
        _refuse(gettext_lazy("Seule une réservation confirmée est pointée."), code="not_confirmed")
    if booking.event.cancelled_at is not None:
        _refuse(gettext_lazy("Cette animation est annulée."), code="event_cancelled")
    booking.attendance = attendance
    booking.save(update_fields=["attendance"])
    return booking
