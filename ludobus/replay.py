"""Replay the offline desk's actions through the live desk's services, each once.

`action_replay()` records the action under the id its browser made, and applies it, in one
transaction: the same action sent again finds its row (the primary key) and gets its first outcome,
never a second loan; two copies of it sent at once wait for each other on that key. Applying goes
through `loans.services` (lend, return with the pieces check) and `onsite.services` (a visit), which
check everything again as they do at the live desk: a refusal there is not an error of the request
but the action's outcome, a conflict kept with its reason (`OfflineAction.Status.CONFLICT`), which
staff settle on the conflicts page: try it again (`action_retry`), or close it with a note
(`action_dismiss`).
"""

from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy
from loans import services as loans
from loans.models import Loan
from ludotheque.answers import refuse as _refuse
from members.models import Member
from onsite import services as onsite
from onsite.models import Session

from .models import OfflineAction


def _member(card: str) -> Member:
    member = Member.objects.select_related("membership_type").filter(card_barcode__iexact=card).first()
    if member is None:
        _refuse(_("Aucune famille ne porte la carte « %(card)s »."), code="unknown_card", card=card)
    return member


def _copy(barcode: str) -> Copy:
    copy = Copy.objects.select_related("game").filter(barcode=barcode).first()
    if copy is None:
        _refuse(
            _("Aucun exemplaire ne porte le code-barres « %(barcode)s »."),
            code="unknown_barcode",
            barcode=barcode,
        )
    return copy


def _lend(action: OfflineAction, staff: AbstractBaseUser) -> None:
    action.loan = loans.loan_create(
        copy=_copy(action.barcode),
        member=_member(action.card),
        staff=staff,
        lend_incomplete=bool(action.payload.get("lend_incomplete")),
        deposit_method=action.payload.get("deposit_method") or "",
        deposit_cheque_number=action.payload.get("deposit_cheque_number") or "",
    )


def _loan_to_close(action: OfflineAction) -> Loan:
    """The loan an offline return closes: one lent offline earlier in the tour, or one the tour knew."""
    lend = action.payload.get("lend")
    if lend:
        earlier = OfflineAction.objects.filter(pk=lend, kind=OfflineAction.Kind.LEND).first()
        if earlier is None or earlier.loan_id is None:
            _refuse(
                _(
                    "Le prêt hors ligne de « %(barcode)s » n'a pas été enregistré (voyez son conflit) : "
                    "son retour ne peut pas l'être non plus."
                ),
                code="lend_not_recorded",
                barcode=action.barcode,
            )
        return earlier.loan
    copy = _copy(action.barcode)
    loan = Loan.objects.filter(pk=action.payload.get("loan") or 0, copy=copy).first()
    loan = loan or copy.loans.open().first()
    if loan is None:
        _refuse(
            _("« %(barcode)s » n'est pas en prêt : il n'y a rien à rendre."),
            code="not_on_loan",
            barcode=action.barcode,
        )
    return loan


def _return(action: OfflineAction, staff: AbstractBaseUser) -> None:
    loan = _loan_to_close(action)
    components = {component.pk: component for component in loan.copy.game.components.all()}
    missing = []
    for line in action.payload.get("missing", []):
        component = components.get(line["component"])
        if component is None:
            _refuse(_("Une pièce notée manquante n'est pas une pièce de ce jeu."), code="wrong_component")
        missing.append((component, line["quantity"]))
    loans.loan_return(
        loan=loan, staff=staff, missing=missing, playable_anyway=bool(action.payload.get("playable_anyway"))
    )
    action.loan = loan


def _visit(action: OfflineAction, staff: AbstractBaseUser) -> None:
    member = _member(action.card) if action.card else None
    # The visits of a stop are counted in the site's on-site session, opened by the first one.
    session = Session.objects.open().filter(location=action.location).first()
    if session is None:
        session = onsite.session_open(location=action.location, staff=staff)
    action.visit = onsite.visit_record(
        session=session,
        staff=staff,
        member=member,
        children=action.payload.get("children", 0),
        adults=action.payload.get("adults", 0),
    )


HANDLERS: dict[str, Callable[[OfflineAction, AbstractBaseUser], None]] = {
    OfflineAction.Kind.LEND: _lend,
    OfflineAction.Kind.RETURN: _return,
    OfflineAction.Kind.VISIT: _visit,
}


def _error_code(error: ValidationError) -> str:
    items = (
        [item for items in error.error_dict.values() for item in items]
        if hasattr(error, "error_dict")
        else []
    )
    items = items or getattr(error, "error_list", [error])
    return (items[0].code or "refused")[:40]


def _apply(action: OfflineAction, staff: AbstractBaseUser, *, done: str) -> bool:
    """Apply an action through the desk's services; a refusal leaves it a conflict with its reason."""
    try:
        with transaction.atomic():
            HANDLERS[action.kind](action, staff)
    except ValidationError as error:
        action.loan = action.visit = None
        action.status = OfflineAction.Status.CONFLICT
        action.reason_code = _error_code(error)
        action.reason = " ".join(error.messages)
        return False
    action.status = done
    action.reason_code = action.reason = ""
    return True


def action_replay(*, staff: AbstractBaseUser, **values) -> OfflineAction:
    """Record and apply one offline action (`values`: its id, kind, location, sequence, recorded_at
    and payload), once: sent again, it answers with the action as first recorded."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                action = OfflineAction.objects.create(
                    **values, sent_by=staff, status=OfflineAction.Status.CONFLICT
                )
        except IntegrityError:
            return OfflineAction.objects.get(pk=values["id"])
        _apply(action, staff, done=OfflineAction.Status.APPLIED)
        action.save()
    return action


def _lock_conflict(action: OfflineAction) -> OfflineAction:
    action = OfflineAction.objects.select_for_update().get(pk=action.pk)
    if action.status != OfflineAction.Status.CONFLICT:
        _refuse(
            _("Ce conflit est déjà réglé (%(status)s)."),
            code="already_settled",
            status=action.get_status_display(),
        )
    return action


@transaction.atomic
def action_retry(
    *,
    action: OfflineAction,
    staff: AbstractBaseUser,
    deposit_method: str = "",
    deposit_cheque_number: str = "",
) -> bool:
    """Apply a conflict again (the membership renewed, the copy back…). Whether it was applied: refused
    again, it stays a conflict with today's reason. A lend refused for its deposit goes again with how
    the family paid it (`deposit_method`, a cheque's number), kept with the action."""
    action = _lock_conflict(action)
    if action.kind == OfflineAction.Kind.LEND and deposit_method:
        action.payload = {
            **action.payload,
            "deposit_method": deposit_method,
            "deposit_cheque_number": deposit_cheque_number.strip(),
        }
    applied = _apply(action, staff, done=OfflineAction.Status.APPLIED_LATER)
    if applied:
        action.settled_at = timezone.now()
        action.settled_by = staff
    action.save()
    return applied


@transaction.atomic
def action_dismiss(*, action: OfflineAction, staff: AbstractBaseUser, note: str) -> OfflineAction:
    """Close a conflict without applying it (settled by hand at the desk), with a note saying how."""
    action = _lock_conflict(action)
    if not note.strip():
        raise ValidationError(
            {"note": ValidationError(_("Dites comment ce conflit a été réglé."), code="required")}
        )
    action.status = OfflineAction.Status.DISMISSED
    action.settled_at = timezone.now()
    action.settled_by = staff
    action.note = note.strip()[:300]
    action.save(update_fields=["status", "settled_at", "settled_by", "note"])
    return action
