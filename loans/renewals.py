"""Whether a loan can be renewed, and what a family's account says of each game at home.

The renewal rules are the desk's (`loan_renew` below raises what `renewal_refusal` returns); the
family's page reads them here, with the same words, to say why « Prolonger » is missing.

A late loan is renewed at the desk only: the late fee built up so far is settled there first, charged
or waived with the clerk's reason, in the ledger against the loan (`late_fee_settle`), so that a
renewal never moves the due date out from under a fee.
"""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from ledger import services as ledger
from ledger.models import Entry, Kind
from ledger.services import euros
from ludotheque.answers import refuse as _refuse
from members.models import Member, MembershipType
from opening.schedule import weekday_date

from .booking_fit import renewal_fit_date_bookings
from .desk import _check_membership, _lock_game, due_date, short_date
from .loan_rules import loan_rule
from .models import Hold, Loan


class LateFee(models.TextChoices):
    """What the desk does with the late fee of a late loan it renews."""

    CHARGE = "charge", _("Facturer le retard")
    WAIVE = "waive", _("Annuler le retard")


def late_refusal(loan: Loan, today: datetime.date) -> ValidationError | None:
    """Why the family itself cannot renew `loan` from its account (it is late), or None."""
    if loan.due_on >= today:
        return None
    return ValidationError(
        _(
            "« %(game)s » est en retard depuis le %(date)s : un jeu en retard ne se prolonge pas en ligne. "
            "Rapportez-le, ou demandez au comptoir, qui décidera des frais de retard."
        ),
        code="renewal_late",
        params={"game": loan.copy.game.title, "date": weekday_date(loan.due_on + datetime.timedelta(days=1))},
    )


def late_fee_settle(
    *, loan: Loan, staff: AbstractBaseUser, decision: str, reason: str, today: datetime.date
) -> Entry | None:
    """Charge or waive the late fee a late loan built up so far, before the desk renews it.

    Refused without a decision (`late_fee`), or a waiver without its reason (`reason`); nothing to
    settle when the loan is on time or its membership type charges no late fee.
    """
    days = loan.days_late(today)
    fee = loan.member.membership_type.late_fee(days)
    if fee <= 0:
        return None
    late = ngettext_lazy("%(count)s jour de retard", "%(count)s jours de retard", "count") % {"count": days}
    if decision not in LateFee.values:
        message = _(
            "« %(game)s » a %(late)s (%(fee)s de frais) : facturez le retard ou annulez-le, avec une "
            "raison, avant de le prolonger."
        )
        params = {"game": loan.copy.game.title, "late": late, "fee": euros(fee)}
        raise ValidationError({"late_fee": ValidationError(message, code="late_fee_decision", params=params)})
    reason = reason.strip()
    if decision == LateFee.WAIVE and not reason:
        raise ValidationError(
            {"reason": ValidationError(_("Dites pourquoi le retard est annulé."), code="reason_required")}
        )
    return ledger.charge_create(
        member=loan.member,
        kind=Kind.LATE_FEE,
        amount=fee,
        staff=staff,
        site=loan.copy.location_id,
        loan=loan,
        copy=loan.copy,
        waived=decision == LateFee.WAIVE,
        note=_("%(late)s, réglé à la prolongation%(reason)s")
        % {"late": late, "reason": f" : {reason}" if reason else ""},
    )


def renewal_refusal(
    loan: Loan, membership_type: MembershipType, *, someone_waiting: bool
) -> ValidationError | None:
    """Why the membership type refuses to renew `loan` (the renewal limit, a family waiting for the
    game), or None. The membership's own validity is checked apart, as for every write of the desk."""
    allowed = membership_type.renewals_allowed
    if allowed == 0:
        return ValidationError(
            _("L'adhésion « %(type)s » ne permet pas de prolonger un prêt."),
            code="renewal_limit",
            params={"type": membership_type.name},
        )
    if loan.renewals >= allowed:
        return ValidationError(
            _(
                "« %(game)s » a déjà été prolongé %(count)s fois : c'est le maximum de l'adhésion "
                "« %(type)s »."
            ),
            code="renewal_limit",
            params={"game": loan.copy.game.title, "count": loan.renewals, "type": membership_type.name},
        )
    if someone_waiting:
        return ValidationError(
            _("« %(game)s » est réservé par une autre famille : le prêt ne peut pas être prolongé."),
            code="hold_waiting",
            params={"game": loan.copy.game.title},
        )
    return None


def explain_loans(loans: list[Loan], member: Member, today: datetime.date) -> None:
    """Give each of the family's open loans what its account says of it: its `rule` (its kind's period,
    fee and deposit, else its membership's), `renewable`, else `renewal_refused` (the reason), and for a
    late one `late_since` and `late_fee` (so far). The loans come with their copy's game and kind."""
    membership_type = member.membership_type
    waiting = set(
        Hold.objects.waiting()
        .filter(game_id__in=[loan.copy.game_id for loan in loans])
        .values_list("game_id", flat=True)
    )
    valid = member.membership_is_valid(today)
    for loan in loans:
        loan.rule = loan_rule(loan.copy.kind, membership_type)
        refusal = renewal_refusal(
            loan, membership_type, someone_waiting=loan.copy.game_id in waiting
        ) or late_refusal(loan, today)
        loan.renewable = valid and refusal is None
        if not valid:
            loan.renewal_refused = _("Adhésion expirée : renouvelez-la au comptoir pour prolonger vos prêts.")
        else:
            loan.renewal_refused = refusal.messages[0] if refusal else ""
        loan.late_since = loan.due_on + datetime.timedelta(days=1) if loan.due_on < today else None
        loan.late_fee = membership_type.late_fee(loan.days_late(today)) if loan.late_since else Decimal(0)


@transaction.atomic
def loan_renew(
    *, loan: Loan, staff: AbstractBaseUser | None = None, late_fee: str = "", reason: str = ""
) -> Loan:
    """Push the due date back by one loan period, if the membership allows and nobody waits for the game.

    `staff` renews at the desk; without it the family renews from its account, which a late loan
    refuses. The desk settles a late loan's fee first (`late_fee`: charge or waive, with a `reason`).
    """
    loan = (
        Loan.objects.select_for_update(of=("self",))
        .select_related("copy__game", "copy__kind")
        .get(pk=loan.pk)
    )
    game = loan.copy.game
    if not loan.is_open:
        # Before reading the family: a closed loan may have none left (anonymised).
        _refuse(
            _("Ce prêt de « %(game)s » est clôturé : le jeu a été rendu le %(date)s."),
            code="not_on_loan",
            game=game.title,
            date=short_date(timezone.localdate(loan.returned_at)),
        )
    member = Member.objects.select_related("membership_type").get(pk=loan.member_id)
    loan.member = member
    _lock_game(game.pk)
    today = timezone.localdate()
    _check_membership(member, today)
    refusal = renewal_refusal(
        loan, member.membership_type, someone_waiting=Hold.objects.waiting().filter(game=game).exists()
    )
    if refusal is None and staff is None:
        refusal = late_refusal(loan, today)
    if refusal is not None:
        raise refusal
    if staff is not None:
        late_fee_settle(loan=loan, staff=staff, decision=late_fee, reason=reason, today=today)
    # A late loan gets a full period from today; an early renewal adds one to the current due date: the
    # period of the copy's kind, else the membership's (loans/loan_rules.py), as at the checkout.
    period = loan_rule(loan.copy.kind, member.membership_type).period_days
    due_on = due_date(copy=loan.copy, start=max(loan.due_on, today), days=period)
    renewal_fit_date_bookings(loan, due_on)
    loan.due_on = due_on
    loan.renewals += 1
    loan.save(update_fields=["due_on", "renewals"])
    return loan
