"""The repairs' writes: a copy sent to repair, its notes, and its coming back to the shelves.

Each runs in one transaction and locks as the desk does (loans/desk.py): the copy's game, then the copy,
then the repair, then what the loans app locks to set the copy aside for a hold, then what the ledger
locks to record the cost. Every change to a game's hold queue locks the game first, so a repaired copy
and a return of the same game are served one after the other. A refusal raises ValidationError with a
`code` and a French message, keyed by the argument it is about when there is one.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy
from catalogue.registry import elsewhere_at_hand, elsewhere_label
from ledger import services as ledger
from ledger.expenses import expense_create
from ledger.models import Entry, Kind
from loans import services as loans
from loans.models import Hold, Loan, MissingPiece
from loans.playable import copy_playable_store
from ludotheque.answers import refuse as _refuse

from .models import Repair

# Refusals that describe the state of the copy or the repair, not the request (the API answers 409).
CONFLICT_CODES = {
    "already_in_repair",
    "already_closed",
    "on_loan",
    "set_aside",
    "copy_elsewhere",
    "not_in_circulation",
}
# The statuses a copy may leave for a repair (a lost or withdrawn one is not on the shelves).
REPAIRABLE = [Copy.Status.ON_SHELF, Copy.Status.INCOMPLETE, Copy.Status.NOT_FOR_LOAN]


def _lock_game_and_copy(copy_id: int) -> Copy:
    """Lock a copy's game, then the copy (PostgreSQL locks them in the order of OF), as the desk does."""
    return Copy.objects.select_related("game").select_for_update(of=("game", "self")).get(pk=copy_id)


def _check_copy_free(copy: Copy) -> None:
    """Refuse a copy a family has, that is kept for a hold, or that another app keeps away (a table; a
    copy in its kit's crate is at hand)."""
    loan = Loan.objects.open().filter(copy=copy).select_related("member").first()
    if loan is not None:
        _refuse(
            _("« %(game)s » (%(barcode)s) est en prêt chez %(family)s : enregistrez d'abord son retour."),
            code="on_loan",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            family=loan.member.name if loan.member_id else "?",
        )
    hold = Hold.objects.ready().filter(copy=copy).select_related("member").first()
    if hold is not None:
        _refuse(
            _(
                "« %(game)s » (%(barcode)s) est mis de côté pour la réservation de %(family)s : "
                "il part en réparation une fois la réservation retirée, annulée ou échue."
            ),
            code="set_aside",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            family=hold.member.name if hold.member_id else "?",
        )
    away = Copy.objects.filter(pk=copy.pk).with_whereabouts().values_list("whereabouts", flat=True).get()
    if away is not None and not elsewhere_at_hand(away):
        _refuse(
            _("« %(game)s » (%(barcode)s) est %(where)s : il part en réparation une fois rangé."),
            code="copy_elsewhere",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            where=elsewhere_label(away),
        )


@transaction.atomic
def repair_open(
    *,
    copy: Copy,
    reason: str,
    staff: AbstractBaseUser,
    loan: Loan | None = None,
    charge_family: bool = False,
) -> Repair:
    """Send a copy to repair: its status becomes « en réparation » until repair_close().

    `loan` is the return that found the damage (just closed, in the same transaction), whose family the
    clerk may choose to charge the cost (`charge_family`; decided again when the copy comes back).
    """
    copy = _lock_game_and_copy(copy.pk)
    reason = reason.strip()
    if not reason:
        _refuse(_("Dites ce qui est à réparer."), code="reason_required", on="reason")
    status_before = copy.status
    since = Repair.objects.open().filter(copy=copy).values_list("opened_at", flat=True).first()
    if copy.status == Copy.Status.IN_REPAIR and since is None:
        # Marked in repair without a record (an import, the admin): the record starts now, and the
        # copy goes back to the shelf when it is repaired.
        status_before = Copy.Status.ON_SHELF
    elif copy.status == Copy.Status.IN_REPAIR:
        _refuse(
            _("« %(game)s » (%(barcode)s) est déjà en réparation depuis le %(date)s."),
            code="already_in_repair",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            date=loans.short_date(timezone.localdate(since)),
        )
    elif copy.status not in REPAIRABLE:
        _refuse(
            _("« %(game)s » (%(barcode)s) n'est plus dans les collections : son statut est « %(status)s »."),
            code="not_in_circulation",
            on="copy",
            game=copy.game.title,
            barcode=copy.barcode,
            status=copy.get_status_display(),
        )
    _check_copy_free(copy)
    if charge_family and (loan is None or loan.member_id is None):
        _refuse(
            _("Seule une réparation trouvée au retour d'un prêt peut être facturée à la famille."),
            code="no_family",
            on="charge_family",
        )
    repair = Repair.objects.create(
        copy=copy,
        reason=reason,
        loan=loan,
        status_before=status_before,
        opened_by=staff,
        charged_to=Repair.ChargedTo.FAMILY if charge_family else Repair.ChargedTo.LUDOTHEQUE,
    )
    copy.status = Copy.Status.IN_REPAIR
    copy.save(update_fields=["status", "updated_at"])
    return repair


def _lock_open_repair(repair: Repair) -> tuple[Repair, Copy]:
    copy = _lock_game_and_copy(repair.copy_id)
    repair = Repair.objects.select_for_update(of=("self",)).select_related("loan__member").get(pk=repair.pk)
    repair.copy = copy
    if not repair.is_open:
        _refuse(
            _("« %(game)s » (%(barcode)s) est déjà revenu de réparation le %(date)s."),
            code="already_closed",
            game=copy.game.title,
            barcode=copy.barcode,
            date=loans.short_date(timezone.localdate(repair.closed_at)),
        )
    return repair, copy


@transaction.atomic
def repair_note(*, repair: Repair, notes: str) -> Repair:
    """Write down what was done so far (the queue shows it) while the copy is in repair."""
    repair, _copy = _lock_open_repair(repair)
    repair.notes = notes.strip()
    repair.save(update_fields=["notes"])
    return repair


@dataclass(frozen=True)
class RepairClosed:
    """What the desk tells the clerk when a copy comes back: the repair, its ledger entry, the hold served."""

    repair: Repair
    entry: Entry | None = None
    # The family's hold this copy is now set aside for, if one was waiting for the game.
    hold: Hold | None = None


@transaction.atomic
def repair_close(
    *,
    repair: Repair,
    staff: AbstractBaseUser,
    notes: str | None = None,
    cost: Decimal | None = None,
    charge_family: bool | None = None,
) -> RepairClosed:
    """« Réparé, remettre en rayon »: the copy goes back to its status before the repair (incomplete if
    pieces are still missing), its cost to the ledger, and it is set aside for the first family waiting.

    The cost (none or 0: nothing is written to the ledger) is the ludothèque's expense, or charged to the
    family who had the copy (`charge_family`, None: as chosen when it was sent). Closed once: a second
    close is refused (code `already_closed`) and writes nothing.
    """
    repair, copy = _lock_open_repair(repair)
    if charge_family is not None:
        repair.charged_to = Repair.ChargedTo.FAMILY if charge_family else Repair.ChargedTo.LUDOTHEQUE
    family = repair.family
    if repair.charged_to == Repair.ChargedTo.FAMILY and family is None:
        _refuse(
            _("Seule une réparation trouvée au retour d'un prêt peut être facturée à la famille."),
            code="no_family",
            on="charge_family",
        )
    if cost is not None and cost < 0:
        _refuse(_("Le coût ne peut pas être négatif."), code="cost_negative", on="cost")
    now = timezone.now()
    if notes is not None:
        repair.notes = notes.strip()
    repair.cost = cost
    repair.closed_at = now
    repair.closed_by = staff

    copy.status = repair.status_before
    copy.save(update_fields=["status", "updated_at"])
    if copy.status != Copy.Status.NOT_FOR_LOAN:
        still_missing = MissingPiece.objects.still_missing().filter(copy_id=copy.pk).exists()
        loans.copy_set_completeness(copy, complete=not still_missing)
    copy_playable_store(copy)
    # Served as a return is: the first family waiting for the game gets the copy, if it can go out.
    hold = loans.copy_back_on_shelf(copy=copy)

    if cost:
        note = f"{copy.game.title} ({copy.barcode}) : {repair.reason}"[:200]
        if repair.charged_to == Repair.ChargedTo.FAMILY:
            repair.entry = ledger.charge_create(
                member=family,
                kind=Kind.REPAIR,
                amount=cost,
                staff=staff,
                site=copy.location_id,
                loan=repair.loan,
                copy=copy,
                note=note,
            )
        else:
            repair.entry = expense_create(
                amount=cost, staff=staff, site=copy.location_id, copy=copy, note=note
            )
    repair.save(update_fields=["notes", "cost", "charged_to", "closed_at", "closed_by", "entry"])
    return RepairClosed(repair=repair, entry=repair.entry, hold=hold)


def open_repair_detail(copy: Copy) -> str | None:
    """« en réparation depuis le 3 déc. : pion cassé » for a copy in repair (the checkout's refusal)."""
    if copy.status != Copy.Status.IN_REPAIR:
        return None
    repair = Repair.objects.open().filter(copy_id=copy.pk).only("opened_at", "reason").first()
    if repair is None:
        return None
    return str(
        _("en réparation depuis le %(date)s : %(reason)s")
        % {"date": loans.short_date(timezone.localdate(repair.opened_at)), "reason": repair.reason}
    )
