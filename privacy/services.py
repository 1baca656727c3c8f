"""What the site keeps of a family, and how it forgets: the data export, the anonymisation, the erasure.

The privacy app depends on the apps that hold a family's data (loans, notices, ledger), never the
other way round. History is never deleted (ludotheque/history.py): it is *anonymised*, its link to
the family cut, which the database allows for closed loans and holds and for notices, and for
nothing else. What the statistics need (which game went out, when, for how long) stays. The ledger
keeps its entries with the family's row, as the accounts must (see templates/privacy/policy.html),
their notes emptied.
"""

import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from events.models import Booking
from ledger.models import Entry
from ledger.services import euros
from loans.models import DateBooking, Hold, Loan
from loans.services import booking_cancel, hold_cancel
from members.models import Member
from notices.models import Notice, NoticeItem

# What an erased family's row keeps in place of its name and card number.
ERASED_NAME = "—"
ERASED_CARD_PREFIX = "EFFACEE-"
# What a notice keeps of its texts and recipient once anonymised.
ANONYMISED_TEXT = ""


def months_before(day: datetime.date, months: int) -> datetime.date:
    """The same day `months` months earlier (the month's last day when it is shorter)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    month += 1
    for last_day in (day.day, 30, 29, 28):
        try:
            return datetime.date(year, month, min(day.day, last_day))
        except ValueError:
            continue
    raise AssertionError("unreachable")


def _start_of(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


def _anonymise(*, loans, holds, membership_items: Q, notices: Q) -> dict[str, int]:
    """Cut the family link of these closed loans and holds, then of the notices that only spoke of them."""
    counts = {
        "loans": loans.filter(member__isnull=False).update(member=None),
        "holds": holds.filter(member__isnull=False).update(member=None),
    }
    counts["notice_items"] = (
        NoticeItem.objects.filter(member__isnull=False)
        .filter(
            Q(loan__isnull=False, loan__member__isnull=True)
            | Q(hold__isnull=False, hold__member__isnull=True)
            | (membership_items & Q(kind=NoticeItem.Kind.MEMBERSHIP_EXPIRING))
        )
        .update(member=None)
    )
    # A notice whose every item is anonymised, and that is neither waiting to be sent nor printed.
    counts["notices"] = (
        Notice.objects.filter(member__isnull=False)
        .filter(notices)
        .exclude(items__member__isnull=False)
        .exclude(status__in=[Notice.Status.PENDING, Notice.Status.FAILED, Notice.Status.TO_PRINT])
        .update(member=None, recipient=ANONYMISED_TEXT, body_text=ANONYMISED_TEXT, body_html=ANONYMISED_TEXT)
    )
    return counts


@transaction.atomic
def history_anonymise(*, today: datetime.date) -> str:
    """The daily step: anonymise the loans returned, holds closed and notices sent before the retention period.

    Idempotent: what is anonymised is no longer picked up, a second run changes nothing.
    """
    cutoff = _start_of(months_before(today, settings.HISTORY_RETENTION_MONTHS))
    counts = _anonymise(
        loans=Loan.objects.filter(returned_at__lt=cutoff),
        holds=Hold.objects.filter(closed_at__lt=cutoff).exclude(status__in=Hold.Status.active()),
        membership_items=Q(about_date__lt=cutoff.date()),
        notices=Q(created_at__lt=cutoff),
    )
    # Date bookings over before the cutoff and no longer active: who booked, and what for, is forgotten.
    DateBooking.objects.filter(ends_on__lt=cutoff.date()).exclude(status=DateBooking.Status.BOOKED).exclude(
        member__isnull=True, note=""
    ).update(member=None, note="")
    # Bookings of events over before the cutoff: who booked is forgotten, the counts stay for the figures.
    bookings = (
        Booking.objects.filter(event__ends_at__lt=cutoff)
        .exclude(member__isnull=True, name="", contact="")
        .update(member=None, name="", contact="")
    )
    return (
        f"{counts['loans']} loan(s), {counts['holds']} hold(s), {counts['notices']} notice(s) "
        f"older than {settings.HISTORY_RETENTION_MONTHS} months anonymised, and {bookings} event booking(s)"
    )


# The relations this module handles by name; the ledger's stay with the emptied family row.
KNOWN_RELATIONS = {
    "loans",
    "holds",
    "date_bookings",
    "notices",
    "notice_items",
    "ledger_entries",
    "memberships",
    "household",
}


def _cut_other_links(member: Member) -> None:
    """Cut the family link of rows of apps this one does not import (on-site visits: a nullable link)."""
    for relation in Member._meta.related_objects:
        if relation.get_accessor_name() not in KNOWN_RELATIONS and relation.field.null:
            name = relation.field.name
            relation.related_model._default_manager.filter(**{name: member}).update(**{name: None})


def _refuse(message, *, code: str, **params):
    raise ValidationError(message, code=code, params=params or None)


@transaction.atomic
def member_erase(*, member: Member, staff: AbstractBaseUser) -> Member:
    """Erase a family that leaves: its history anonymised, its personal data gone, its account closed.

    Refused while it has a game at home, owes money, or has a deposit held (give it back first). Its
    active holds and date bookings are cancelled (a copy set aside passes to the next family). The family's row stays,
    emptied, for the ledger's entries, which the accounts must keep.
    """
    member = Member.objects.select_for_update(of=("self",)).get(pk=member.pk)
    if member.erased_at is not None:
        _refuse(_("Cette famille a déjà été effacée."), code="already_erased")
    open_loans = member.loans.open().count()
    if open_loans:
        _refuse(
            ngettext_lazy(
                "%(family)s a encore %(count)s jeu à la maison : effacez-la une fois le jeu rendu.",
                "%(family)s a encore %(count)s jeux à la maison : effacez-la une fois les jeux rendus.",
                "count",
            ),
            code="games_at_home",
            family=member.name,
            count=open_loans,
        )
    entries = Entry.objects.filter(member=member)
    owed = entries.balance()
    if owed > 0:
        _refuse(
            _("%(family)s doit encore %(owed)s à la ludothèque : encaissez-les avant de l'effacer."),
            code="money_owed",
            family=member.name,
            owed=euros(owed),
        )
    held = entries.deposit_total()
    if held > 0:
        _refuse(
            _("La ludothèque garde une caution de %(held)s pour %(family)s : rendez-la avant de l'effacer."),
            code="deposit_held",
            family=member.name,
            held=euros(held),
        )
    for hold in member.holds.active():
        hold_cancel(hold=hold)
    for booking in member.date_bookings.active():
        booking_cancel(booking=booking)
    DateBooking.objects.filter(member=member).update(member=None, note="")
    _anonymise(
        loans=Loan.objects.filter(member=member),
        holds=Hold.objects.filter(member=member),
        membership_items=Q(member=member),
        notices=Q(member=member),
    )
    # Pending notices and letters not yet printed are withdrawn with the rest: nothing goes out any more.
    Notice.objects.filter(member=member).update(
        member=None, recipient=ANONYMISED_TEXT, body_text=ANONYMISED_TEXT, body_html=ANONYMISED_TEXT
    )
    NoticeItem.objects.filter(member=member).update(member=None)
    _cut_other_links(member)
    # The amounts stay for the accounts; what a clerk typed about the family goes with it.
    entries.notes_erase()
    member.household.all().delete()
    user = member.user
    member.name = ERASED_NAME
    member.card_barcode = f"{ERASED_CARD_PREFIX}{member.pk}"
    member.email = member.phone = member.address = member.notes = member.calendar_token = ""
    member.user = None
    # Its membership ends (yesterday): nothing is lent to it, no notice reminds it of an end to come.
    ended = timezone.localdate() - datetime.timedelta(days=1)
    member.membership_expiry = min(member.membership_expiry, ended)
    member.membership_start = min(member.membership_start, member.membership_expiry)
    member.erased_at = timezone.now()
    member.save()
    if user is not None and not user.is_staff:
        # The login may be the creator of holds (PROTECT): it is emptied and closed, not deleted.
        user.username = f"effacee-{user.pk}"
        user.email = user.first_name = user.last_name = ""
        user.is_active = False
        user.set_unusable_password()
        user.save()
    return member
