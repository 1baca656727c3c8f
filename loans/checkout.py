"""Lending a copy at the desk: the checks, in the order the desk reads them, then the loan.

The rules and the locks shared by the desk's writes are in loans/desk.py.
"""

import datetime
from typing import NoReturn

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Copy
from ledger.models import Kind
from members.models import Member
from opening.schedule import weekday_date
from rules.pieces import summary as playability_summary

from .booking_fit import loan_fit_date_bookings
from .desk import (
    _CHECKOUT_HOLDS,
    _OPEN_LOANS,
    _charge,
    _check_debt_limit,
    _check_late_loans,
    _check_membership,
    _elsewhere,
    _lock_copy,
    _lock_game_and_copy,
    _lock_member,
    _refuse,
    copy_settle,
    due_date,
)
from .loan_rules import check_deposit_method, check_kind_quota, copy_rule, deposit_take
from .models import Hold, Loan
from .playable import copy_playability
from .registry import status_detail


@transaction.atomic
def loan_create(
    *,
    copy: Copy,
    member: Member,
    staff: AbstractBaseUser,
    lend_incomplete: bool = False,
    deposit_method: str = "",
    deposit_cheque_number: str = "",
    kind_maximum: bool = True,
) -> Loan:
    """Lend `copy` to `member`, due back after the loan period of its kind or else of the family's
    membership (loans/loan_rules.py), on a day its site opens.

    An incomplete copy goes out only when the rules engine finds its remaining pieces still playable
    and the clerk confirmed it (`lend_incomplete`). A copy whose kind asks a deposit goes out once the
    clerk says how the family pays it (`deposit_method`, a cheque's number). `kind_maximum=False` lends
    it past its kind's maximum per family: a kit's copies, chosen together by staff (kits/services.py).
    """
    member = _lock_member(member)
    copy = _lock_game_and_copy(copy.pk)
    now = timezone.now()
    today = timezone.localdate(now)

    _check_membership(member, today)
    _check_debt_limit(member)
    _check_late_loans(member, today)
    # Read once the rows are locked (a statement that waited for a lock still sees its older snapshot):
    # the copy's open loan, if any, and the family's open loans for its quota, in one query.
    of_copy, of_member = next(iter(_OPEN_LOANS.queryset(copy.pk, member.pk, copy.pk, member.pk)), (0, 0))
    if of_copy:
        _refuse_copy_on_loan(copy, member)
    _check_copy_lendable(copy, lend_incomplete)
    hold = _check_holds(copy, member)
    _check_quota(member, of_member)
    rule = copy_rule(copy, member)
    if kind_maximum:
        check_kind_quota(member, copy, rule)
    check_deposit_method(rule, copy, deposit_method)

    loan = Loan.objects.create(
        copy=copy,
        member=member,
        lent_at=now,
        lent_by=staff,
        due_on=due_date(copy=copy, start=today, days=rule.period_days),
    )
    loan_fit_date_bookings(loan)
    desk = _desk_site(copy, hold)
    if rule.fee:
        _charge(loan, copy, staff, kind=Kind.LOAN_FEE, amount=rule.fee, site=desk)
    deposit_take(
        loan=loan,
        rule=rule,
        staff=staff,
        method=deposit_method,
        cheque_number=deposit_cheque_number,
        site=desk,
    )
    if hold is not None:
        _honour_hold(hold, copy, now)
    return loan


def _desk_site(copy: Copy, hold: Hold | None) -> int:
    """The site whose desk hands the copy over (its books take the fee, its till the deposit): the
    pick-up site of the family's hold it was set aside for, where it waits even away from its own site
    (a copy sent there, or returned there), else the copy's own site."""
    if (
        hold is not None
        and hold.status == Hold.Status.READY
        and hold.copy_id == copy.pk
        and hold.pickup_site_id
    ):
        return hold.pickup_site_id
    return copy.location_id


def _refuse_copy_on_loan(copy: Copy, member: Member) -> NoReturn:
    """Refuse a copy already on loan, naming to whom (this family or another) and until when."""
    open_loan = Loan.objects.open().select_related("member").get(copy=copy)
    if open_loan.member_id == member.pk:
        _refuse(
            _("« %(game)s » (%(barcode)s) est déjà prêté à cette famille, à rendre le %(date)s."),
            code="already_on_loan",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            date=weekday_date(open_loan.due_on),
        )
    _refuse(
        _("« %(game)s » (%(barcode)s) est déjà en prêt chez %(family)s, à rendre le %(date)s."),
        code="already_on_loan",
        on="copy",
        game=copy.game.title,
        barcode=copy.barcode,
        family=open_loan.member.name,
        date=weekday_date(open_loan.due_on),
    )


def _check_copy_lendable(copy: Copy, lend_incomplete: bool) -> None:
    """Refuse a copy whose status keeps it in (an incomplete copy still playable goes out once the clerk
    confirmed it: loans/playable.py), or that another app keeps away (a table of an on-site session)."""
    playable = copy_playability(copy) if copy.status == Copy.Status.INCOMPLETE else None
    if playable is not None and playable.playable and not lend_incomplete:
        _refuse(
            _(
                "« %(game)s » (%(barcode)s) est incomplet mais %(playable)s. "
                "Cochez « Prêter l'exemplaire incomplet » pour le prêter quand même."
            ),
            code="incomplete_playable",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            playable=playability_summary(playable),
        )
    if not copy.status_allows_lending and not (playable is not None and playable.playable):
        if (detail := status_detail(copy)) is not None:
            _refuse(
                _("« %(game)s » (%(barcode)s) ne peut pas être prêté : il est %(detail)s."),
                code="copy_not_lendable",
                on="copy",
                game=copy.game.title,
                barcode=copy.barcode,
                detail=detail,
            )
        _refuse(
            _("« %(game)s » (%(barcode)s) ne peut pas être prêté : son statut est « %(status)s »."),
            code="copy_not_lendable",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            status=copy.get_status_display(),
        )
    elsewhere = _elsewhere(copy)
    if elsewhere is not None:
        _refuse(
            _("« %(game)s » (%(barcode)s) ne peut pas être prêté maintenant : il est %(where)s."),
            code="copy_elsewhere",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            where=elsewhere,
        )


def _check_holds(copy: Copy, member: Member) -> Hold | None:
    """Refuse a copy set aside for another family's hold; return the family's own hold on the game
    (honoured by this loan), if any."""
    holds = list(_CHECKOUT_HOLDS.queryset(copy.game_id, member.pk, copy.pk))
    hold = next(
        (hold for hold in holds if hold.member_id == member.pk and hold.game_id == copy.game_id), None
    )
    set_aside = next(
        (hold for hold in holds if hold.copy_id == copy.pk and hold.member_id != member.pk), None
    )
    if set_aside is not None:
        _refuse(
            _(
                "« %(game)s » (%(barcode)s) est mis de côté pour la réservation de %(family)s "
                "jusqu'au %(date)s."
            ),
            code="set_aside",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            family=set_aside.member.name,
            date=weekday_date(set_aside.ready_until),
        )
    return hold


def _check_quota(member: Member, open_loans: int) -> None:
    """Refuse a family that has as many games at home as its membership allows."""
    quota = member.membership_type.loan_quota
    if open_loans >= quota:
        _refuse(
            ngettext_lazy(
                "%(family)s a déjà %(count)s jeu en prêt : c'est le maximum de l'adhésion « %(type)s ».",
                "%(family)s a déjà %(count)s jeux en prêt : c'est le maximum de l'adhésion « %(type)s ».",
                "count",
            ),
            code="quota_reached",
            on="member",
            family=member.name,
            count=quota,
            type=member.membership_type.name,
        )


def _honour_hold(hold: Hold, copy: Copy, now: datetime.datetime) -> None:
    """The family takes the game it reserved: its hold is honoured, and a copy kept for it that it did
    not take goes to the next family in the queue."""
    other_copy = hold.copy if hold.status == Hold.Status.READY and hold.copy_id != copy.pk else None
    hold.status = Hold.Status.FULFILLED
    hold.copy = copy
    hold.closed_at = now
    hold.save(update_fields=["status", "copy", "closed_at"])
    if other_copy is not None:
        # Kept at the pick-up site: the next family's, or on its way home (loans/desk.py).
        copy_settle(
            copy=_lock_copy(other_copy.pk), site=hold.pickup_site_id or other_copy.location_id, now=now
        )
