"""A copy coming back: its return with the pieces check and the fees, a game declared lost, a
missing piece brought back.

The rules and the locks shared by the desk's writes are in loans/desk.py.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Component, Copy
from ledger import services as ledger
from ledger.models import Entry, Kind
from members.models import MembershipType

from .desk import (
    _LOCKED_LOAN,
    _charge,
    _copy_is_free,
    _elsewhere,
    _hold_serve_next,
    _lock_game_and_copy,
    _refuse,
    copy_set_completeness,
    copy_settle,
    short_date,
)
from .loan_rules import deposits_give_back
from .models import Hold, Loan, MissingPiece, Transfer
from .playable import copy_playable_store


@dataclass(frozen=True)
class ReturnResult:
    """What the desk must tell the clerk after a return."""

    loan: Loan
    # The hold this copy is now set aside for, if a family was waiting for the game.
    hold: Hold | None = None
    # The first family still waiting for the game when this copy could not be set aside (incomplete).
    waiting: Hold | None = None
    missing: list[MissingPiece] = field(default_factory=list)
    # The fees of this return (late fee, missing pieces), waived ones included, and the credits back.
    charges: list[Entry] = field(default_factory=list)
    credits: list[Entry] = field(default_factory=list)
    # The clerk kept the copy back from the shelves (sent to repair, loans/registry.py): no hold served.
    kept_back: bool = False
    # The deposits given back with the copy (its kind asks one: loans/loan_rules.py).
    deposits: list[Entry] = field(default_factory=list)
    # The copy's journey when it came back at another site than its own (home, or to a family's site).
    transfer: Transfer | None = None


@dataclass
class PiecesCheck:
    """What a pieces check recorded: pieces found missing now, pieces back, pieces still missing."""

    new: list[MissingPiece]
    recovered: list[MissingPiece]
    still_missing: list[MissingPiece]

    @property
    def pieces_missing(self) -> bool:
        return bool(self.new or self.still_missing)


def pieces_check_record(
    *,
    copy: Copy,
    missing: Iterable[tuple[Component, int]],
    recovered: Iterable[MissingPiece],
    staff: AbstractBaseUser,
    now: datetime.datetime,
    loan: Loan | None = None,
) -> PiecesCheck:
    """Record the pieces check of a locked copy coming back (from a loan, or from a table: no loan)."""
    game = copy.game
    components = {component.pk: component for component in Component.objects.filter(game_id=game.pk)}
    # Locked in id order: the default ordering (by game title) would join the copy and its game.
    missing_now = (
        MissingPiece.objects.still_missing()
        .filter(copy_id=copy.pk)
        .order_by("pk")
        .select_for_update(of=("self",))
    )
    known = {piece.pk: piece for piece in missing_now}
    recovered_ids = set()
    for piece in recovered:
        if piece.pk not in known:
            _refuse(
                _("Cette pièce n'est pas notée comme manquante dans « %(game)s » (%(barcode)s)."),
                code="not_missing",
                on="recovered",
                game=game.title,
                barcode=copy.barcode,
            )
        recovered_ids.add(piece.pk)
    still_known = [piece for pk, piece in known.items() if pk not in recovered_ids]

    new_pieces = []
    for component, quantity in missing:
        if not quantity:
            continue
        if component.pk not in components:
            _refuse(
                _("« %(piece)s » n'est pas une pièce de « %(game)s »."),
                code="wrong_component",
                on="missing",
                piece=component.label,
                game=game.title,
            )
        expected = components[component.pk].quantity - sum(
            piece.quantity for piece in still_known if piece.component_id == component.pk
        )
        if quantity < 0 or quantity > expected:
            _refuse(
                _(
                    "Il ne peut pas manquer plus de %(count)s × « %(piece)s » : c'est ce que la boîte devait contenir."
                ),
                code="too_many_missing",
                on="missing",
                count=expected,
                piece=component.label,
            )
        new_pieces.append(
            MissingPiece(copy=copy, component=component, quantity=quantity, loan=loan, recorded_at=now)
        )

    for piece_id in recovered_ids:
        known[piece_id].recovered_at = now
        known[piece_id].recovered_by = staff
    MissingPiece.objects.bulk_update([known[pk] for pk in recovered_ids], ["recovered_at", "recovered_by"])
    new_pieces = MissingPiece.objects.bulk_create(new_pieces)
    return PiecesCheck(
        new=new_pieces,
        recovered=[known[pk] for pk in sorted(recovered_ids)],
        still_missing=still_known,
    )


@transaction.atomic
def loan_return(
    *,
    loan: Loan,
    staff: AbstractBaseUser,
    missing: Iterable[tuple[Component, int]] = (),
    recovered: Iterable[MissingPiece] = (),
    playable_anyway: bool = False,
    waive_late_fee: bool = False,
    waive_missing_pieces: bool = False,
    keep_back: bool = False,
    site: int | None = None,
) -> ReturnResult:
    """Take a copy back after its pieces were checked.

    `missing` lists the pieces found missing now (component, how many); `recovered` those known missing
    that came back. Missing pieces make the copy incomplete unless the librarian finds it `playable_anyway`.
    A copy that can go out again is set aside for the first waiting hold, unless the clerk `keep_back`s it
    (another app takes it in the same transaction: a repair) or another app keeps it (a kit's copy). The
    membership type's fees are charged, or recorded as waived; pieces that came back are credited back.
    `site`: the desk's site, when it is not the copy's own (loans/transfers.py: the copy goes home or
    stays, as its site says).
    """
    loan = _LOCKED_LOAN.get(loan.pk)
    if not loan.is_open:
        _refuse(
            _("Ce prêt est déjà clôturé : l'exemplaire a été rendu le %(date)s."),
            code="not_on_loan",
            date=short_date(timezone.localdate(loan.returned_at)),
        )
    copy = _lock_game_and_copy(loan.copy_id)
    loan.copy = copy  # the answer shows the locked copy and its game: no second read
    now = timezone.now()

    check = pieces_check_record(
        copy=copy, missing=missing, recovered=recovered, staff=staff, now=now, loan=loan
    )
    new_pieces = check.new
    credits = [
        credit
        for piece in check.recovered
        for credit in ledger.missing_piece_credit_back(missing_piece=piece, staff=staff)
    ]
    charges = _return_fees(
        loan=loan,
        copy=copy,
        staff=staff,
        pieces=new_pieces,
        waive_late_fee=waive_late_fee,
        waive_missing_pieces=waive_missing_pieces,
    )

    pieces_missing = check.pieces_missing
    _close_loan(loan, staff=staff, now=now, pieces_missing=pieces_missing, playable_anyway=playable_anyway)
    deposits = deposits_give_back(loan=loan, staff=staff, site=site or copy.location_id)

    copy_set_completeness(copy, complete=not pieces_missing or playable_anyway)
    copy_playable_store(copy)  # the table sizes an incomplete copy still allows, for the search
    kept = keep_back or (copy.status_allows_lending and _elsewhere(copy) is not None)
    hold, waiting, transfer = _copy_back(copy, site=site, now=now, staff=staff, keep_back=kept)
    return ReturnResult(
        loan=loan,
        hold=hold,
        waiting=waiting,
        missing=new_pieces,
        charges=charges,
        credits=credits,
        kept_back=kept,
        deposits=deposits,
        transfer=transfer,
    )


def _close_loan(
    loan: Loan,
    *,
    staff: AbstractBaseUser,
    now: datetime.datetime,
    pieces_missing: bool,
    playable_anyway: bool,
) -> None:
    """Close a returned loan with what its pieces check found."""
    if not pieces_missing:
        loan.return_check = Loan.ReturnCheck.COMPLETE
    elif playable_anyway:
        loan.return_check = Loan.ReturnCheck.PLAYABLE
    else:
        loan.return_check = Loan.ReturnCheck.INCOMPLETE
    loan.returned_at = now
    loan.returned_by = staff
    loan.save(update_fields=["returned_at", "returned_by", "return_check"])


def _copy_back(
    copy: Copy, *, site: int | None, now: datetime.datetime, staff: AbstractBaseUser, keep_back: bool
) -> tuple[Hold | None, Hold | None, Transfer | None]:
    """Where a returned copy goes: the hold it now serves, the first family left waiting (a copy that
    cannot go out, or kept back), and its journey when it came back at another site than its own."""
    transfer = None
    if keep_back:
        hold = None
    elif site not in (None, copy.location_id):
        # Back at another site than its own: a family waiting takes it, else it goes home or stays.
        hold = copy_settle(copy=copy, site=site, now=now, staff=staff)
        transfer = Transfer.objects.open().filter(copy=copy).select_related("to_site").first()
    elif copy.status_allows_lending:
        # The game row is locked: when no hold takes the copy, no family is waiting for the game.
        hold = _hold_serve_next(copy=copy, now=now)
    else:
        hold = None
    waiting = None
    if hold is None and (keep_back or not copy.status_allows_lending):
        waiting = (
            Hold.objects.waiting()
            .filter(game=copy.game)
            .select_related("member")
            .order_by("position")
            .first()
        )
    return hold, waiting, transfer


def late_fee_due(loan: Loan, membership_type: MembershipType, on: datetime.date | None = None) -> Decimal:
    """The late fee an open loan would be charged if returned `on` (today): what the return page proposes."""
    return membership_type.late_fee(loan.days_late(on))


def missing_pieces_price(component: Component, quantity: int, membership_type: MembershipType) -> Decimal:
    """What `quantity` missing pieces of `component` cost the family (0 when not charged)."""
    if not membership_type.charge_missing_pieces or component.unit_price is None:
        return Decimal(0)
    return component.unit_price * quantity


def _return_fees(
    *,
    loan: Loan,
    copy: Copy,
    staff: AbstractBaseUser,
    pieces: list[MissingPiece],
    waive_late_fee: bool,
    waive_missing_pieces: bool,
) -> list[Entry]:
    """Charge the late fee and the missing pieces of a return (waived: recorded, counting for nothing)."""
    membership_type = loan.member.membership_type
    charges = []
    late_fee = late_fee_due(loan, membership_type)
    if late_fee > 0:
        days = ngettext_lazy("%(count)s jour de retard", "%(count)s jours de retard", "count")
        charges.append(
            _charge(
                loan,
                copy,
                staff,
                kind=Kind.LATE_FEE,
                amount=late_fee,
                waived=waive_late_fee,
                note=str(days % {"count": loan.days_late()}),
            )
        )
    for piece in pieces:
        price = missing_pieces_price(piece.component, piece.quantity, membership_type)
        if price > 0:
            charges.append(
                _charge(
                    loan,
                    copy,
                    staff,
                    kind=Kind.MISSING_PIECE,
                    amount=price,
                    missing_piece=piece,
                    waived=waive_missing_pieces,
                    note=f"{piece.quantity} × {piece.component.label}",
                )
            )
    return charges


@transaction.atomic
def loan_declare_lost(*, loan: Loan, staff: AbstractBaseUser, waive_charge: bool = False) -> ReturnResult:
    """Close a loan whose game the family lost: the copy is marked lost and, if the membership type says
    so, the family is charged the copy's replacement value (or that charge is recorded as waived)."""
    loan = _LOCKED_LOAN.get(loan.pk)
    if not loan.is_open:
        _refuse(
            _("Ce prêt est déjà clôturé : l'exemplaire a été rendu le %(date)s."),
            code="not_on_loan",
            date=short_date(timezone.localdate(loan.returned_at)),
        )
    copy = _lock_game_and_copy(loan.copy_id)
    loan.copy = copy
    charges = []
    if loan.member.membership_type.charge_lost_games and copy.replacement_value:
        charges.append(
            _charge(
                loan,
                copy,
                staff,
                kind=Kind.LOST_GAME,
                amount=copy.replacement_value,
                waived=waive_charge,
                note=f"{copy.game.title} ({copy.barcode})",
            )
        )
    loan.returned_at = timezone.now()
    loan.returned_by = staff
    loan.return_check = Loan.ReturnCheck.LOST
    loan.save(update_fields=["returned_at", "returned_by", "return_check"])
    copy.status = Copy.Status.LOST
    copy.withdrawn_on = timezone.localdate()
    copy.save(update_fields=["status", "withdrawn_on", "updated_at"])
    return ReturnResult(loan=loan, charges=charges)


def lost_game_price(loan: Loan) -> Decimal:
    """What losing this loan's copy costs its family (0 when not charged): what the desk proposes."""
    if not loan.member.membership_type.charge_lost_games or loan.copy.replacement_value is None:
        return Decimal(0)
    return loan.copy.replacement_value


@transaction.atomic
def missing_piece_recover(*, missing_piece: MissingPiece, staff: AbstractBaseUser) -> Hold | None:
    """Record that a missing piece came back; a copy with nothing missing any more is complete again."""
    copy = _lock_game_and_copy(missing_piece.copy_id)
    piece = MissingPiece.objects.select_for_update(of=("self",)).get(pk=missing_piece.pk)
    if piece.recovered_at is not None:
        _refuse(
            _("Cette pièce a déjà été rapportée le %(date)s."),
            code="already_recovered",
            date=short_date(timezone.localdate(piece.recovered_at)),
        )
    now = timezone.now()
    piece.recovered_at = now
    piece.recovered_by = staff
    piece.save(update_fields=["recovered_at", "recovered_by"])
    ledger.missing_piece_credit_back(missing_piece=piece, staff=staff)
    if copy.missing_pieces.still_missing().exists():
        copy_playable_store(copy)  # fewer pieces missing may allow more tables
        return None
    copy_set_completeness(copy, complete=True)
    copy_playable_store(copy)
    if _copy_is_free(copy) and not Hold.objects.ready().filter(copy=copy).exists():
        return _hold_serve_next(copy=copy, now=now)
    return None
