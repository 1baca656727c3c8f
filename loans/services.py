"""The desk's writes: lending, returning, renewing, holds and missing pieces.

Each function runs in one transaction and locks the rows it checks with SELECT … FOR UPDATE, always in
the same order — member, loan, game, copy, holds, missing pieces, then what the ledger locks to record
a fee (ledger/services.py) — so that two clerks scanning at the same moment wait for each other
instead of both succeeding, and never deadlock. Fees are the membership type's, all off by default:
with none set, nothing here touches the ledger. A refusal raises
ValidationError with a `code` and a French message that names the reason; when the reason is about
one argument (`copy`, `member`, `component`…) the error is keyed by that argument's name.

What the database guards itself: one open loan per copy, a hold's queue position, dates in order
(named constraints), and history — PostgreSQL refuses to delete a loan, a hold or a missing piece
(ludotheque/history.py). Three rules stay here, because a constraint sees one row and they need
others, read at the moment of the write: the quota (the family's open loans counted against its
membership type), the renewal limit (the membership type of today, not the one the loan began with,
plus the queue of holds on the game) and a set-aside copy lent only to its family (the ready hold
of another table). A trigger could count them, but it would take the same locks as these
functions, duplicate their rules in SQL and lose their messages; the row locks below make them as
safe against races as a constraint.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NoReturn

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Component, Copy, Game
from catalogue.registry import elsewhere_label
from ledger import services as ledger
from ledger.models import Entry, Kind, member_balance
from ludotheque.prepared import UNUSED_ID, PreparedRead
from members.models import Member, MembershipType
from opening.schedule import next_opening_day, weekday_date
from rules.pieces import summary as playability_summary

from .models import HOLD_PICKUP_DAYS, Hold, Loan, MissingPiece
from .playable import copy_playability, copy_playable_store
from .renewals import late_fee_settle, late_refusal, renewal_refusal


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


def _refuse(message, *, code: str, on: str | None = None, **params) -> NoReturn:
    error = ValidationError(message, code=code, params=params or None)
    raise ValidationError({on: error}) if on else error


def short_date(value: datetime.date) -> str:
    """A date as the desk's messages give it (the views' messages use it too)."""
    return formats.date_format(value, "SHORT_DATE_FORMAT")


def due_date(*, copy: Copy, start: datetime.date, days: int) -> datetime.date:
    """`days` after `start`, moved to the next day the copy's site is open (unchanged for a site without hours)."""
    return next_opening_day(copy.location_id, start + datetime.timedelta(days=days))


# The desk's locking reads, prepared once per connection (ludotheque/prepared.py): each saves more
# of a checkout's or a return's Python than its SQL takes (bench/prepared.py).
_LOCKED_MEMBER = PreparedRead(
    "locked member",
    lambda pk: Member.objects.select_for_update(of=("self",)).select_related("membership_type").filter(pk=pk),
    UNUSED_ID,
)
_LOCKED_COPY_AND_GAME = PreparedRead(
    "locked copy and game",
    lambda pk: Copy.objects.select_related("game").select_for_update(of=("game", "self")).filter(pk=pk),
    UNUSED_ID,
)
_LOCKED_LOAN = PreparedRead(
    "locked loan",
    lambda pk: (
        Loan.objects.select_for_update(of=("self",)).select_related("member__membership_type").filter(pk=pk)
    ),
    UNUSED_ID,
)

# The other reads of a checkout and a return whose SQL is the same each time, compiled the same way.
# A statement with several ids takes a placeholder for each (each must be a parameter of its own).
_ID_1, _ID_2, _ID_3, _ID_4 = (UNUSED_ID - n for n in range(4))
_WHEREABOUTS = PreparedRead(
    "whereabouts",
    # Which registration keeps the copy away (an index; its label is read in the reader's language).
    lambda pk: Copy.objects.filter(pk=pk).with_whereabouts().order_by().values_list("whereabouts", flat=True),
    UNUSED_ID,
)
_OPEN_LOANS = PreparedRead(
    "open loans",
    # The copy's open loan, if any, and the family's open loans, in one statement: grouped by
    # `returned_at`, NULL for every open loan, so one row (none when neither has an open loan).
    lambda copy, member, of_copy, of_member: (
        Loan.objects.open()
        .filter(Q(copy_id=copy) | Q(member_id=member))
        .values("returned_at")
        .annotate(
            of_copy=Count("pk", filter=Q(copy_id=of_copy)),
            of_member=Count("pk", filter=Q(member_id=of_member)),
        )
        .values_list("of_copy", "of_member")
    ),
    _ID_1,
    _ID_2,
    _ID_3,
    _ID_4,
)
_CHECKOUT_HOLDS = PreparedRead(
    "checkout holds",
    # The family's own hold on the copy's game (honoured by the loan), and a hold keeping the copy aside.
    lambda game, member, copy: (
        Hold.objects.active()
        .filter(Q(game_id=game, member_id=member) | Q(copy_id=copy, status=Hold.Status.READY))
        .order_by()
        .select_for_update()
    ),
    _ID_1,
    _ID_2,
    _ID_3,
)
_NEXT_WAITING_HOLD = PreparedRead(
    "next waiting hold",
    # The first family waiting for a game whose row is locked, locked in turn (the copy is set aside for it).
    lambda game: (
        Hold.objects.waiting()
        .filter(game_id=game)
        .select_for_update(of=("self",))
        .select_related("member")
        .order_by("position")[:1]
    ),
    UNUSED_ID,
)
_LATE_LOANS = PreparedRead(
    "late loans",
    lambda member, day: (
        Loan.objects.overdue(day)
        .filter(member_id=member)
        .select_related("copy__game")
        .order_by("due_on", "pk")
    ),
    UNUSED_ID,
    datetime.date(1, 1, 1),
)
_BALANCE = PreparedRead(
    "balance",
    # What the family owes: the sum of its ledger entries, as Entry.objects.filter(member=…).balance().
    lambda member: (
        Member.objects.filter(pk=member)
        .annotate(balance=member_balance())
        .order_by()
        .values_list("balance", flat=True)
    ),
    UNUSED_ID,
)


def _lock_member(member: Member) -> Member:
    return _LOCKED_MEMBER.get(member.pk)


def _lock_game(game_id: int) -> None:
    # Every change to a game's hold queue locks the game row first, so queues are served in order.
    Game.objects.select_for_update().filter(pk=game_id).values_list("pk", flat=True).get()


def _lock_copy(copy_id: int) -> Copy:
    """Lock a copy whose game row is already locked."""
    return Copy.objects.select_for_update(of=("self",)).select_related("game").get(pk=copy_id)


def _lock_game_and_copy(copy_id: int) -> Copy:
    """Lock a copy's game, then the copy, in one statement: PostgreSQL locks them in the order of OF."""
    return _LOCKED_COPY_AND_GAME.get(copy_id)


def _elsewhere(copy: Copy) -> str | None:
    """Where another app keeps a locked copy away from the shelves (« sur une table… »), or None.

    Its own statement, after the lock: the locking statement, if it waited, still sees the snapshot
    from before the wait (a copy taken to a table meanwhile would look free)."""
    away = _WHEREABOUTS.get(copy.pk)
    return None if away is None else elsewhere_label(away)


def _check_membership(member: Member, today: datetime.date) -> None:
    if member.membership_expiry < today:
        _refuse(
            _("L'adhésion de %(family)s a expiré le %(date)s : renouvelez-la avant de prêter ou réserver."),
            code="membership_expired",
            on="member",
            family=member.name,
            date=short_date(member.membership_expiry),
        )
    if member.membership_start > today:
        _refuse(
            _("L'adhésion de %(family)s ne commence que le %(date)s."),
            code="membership_not_started",
            on="member",
            family=member.name,
            date=short_date(member.membership_start),
        )


def _check_debt_limit(member: Member) -> None:
    """Refuse to lend to a family that owes more than its membership type allows (0: no limit)."""
    limit = member.membership_type.debt_limit
    if not limit:
        return
    owed = _BALANCE.get(member.pk)
    if owed > limit:
        _refuse(
            _(
                "%(family)s doit %(owed)s à la ludothèque, plus que les %(limit)s permis par l'adhésion "
                "« %(type)s » : encaissez un paiement avant de prêter."
            ),
            code="debt_limit",
            on="member",
            family=member.name,
            owed=ledger.euros(owed),
            limit=ledger.euros(limit),
            type=member.membership_type.name,
        )


def late_loans(member: Member, today: datetime.date | None = None) -> list[Loan]:
    """The family's games past their due date, the longest overdue first (what the desk names at lending)."""
    return list(_LATE_LOANS.queryset(member.pk, today or timezone.localdate()))


def describe_late(loans: Iterable[Loan], today: datetime.date | None = None) -> str:
    """« Quarto » (90468, 9 jours de retard), … : the late games as the desk's messages name them."""
    days = ngettext_lazy("%(count)s jour de retard", "%(count)s jours de retard", "count")
    return ", ".join(
        f"« {loan.copy.game.title} » ({loan.copy.barcode}, {days % {'count': loan.days_late(today)}})"
        for loan in loans
    )


def _check_late_loans(member: Member, today: datetime.date) -> None:
    """Refuse a new loan while a game is late, if the membership type says so (it warns by default)."""
    if member.membership_type.late_loans != MembershipType.LateLoans.REFUSE:
        return
    late = late_loans(member, today)
    if late:
        _refuse(
            ngettext_lazy(
                "%(family)s n'a pas rendu %(games)s : pas de nouveau prêt tant que ce jeu n'est pas rendu.",
                "%(family)s n'a pas rendu %(games)s : pas de nouveau prêt tant que ces jeux ne sont pas rendus.",
                "count",
            ),
            code="late_loans",
            on="member",
            family=member.name,
            games=describe_late(late, today),
            count=len(late),
        )


def _hold_serve_next(*, copy: Copy, now: datetime.datetime) -> Hold | None:
    """Set `copy` aside for the first family waiting for its game; the game row is already locked."""
    hold = next(iter(_NEXT_WAITING_HOLD.queryset(copy.game_id)), None)
    if hold is None:
        return None
    hold.status = Hold.Status.READY
    hold.copy = copy
    hold.ready_at = now
    hold.ready_until = due_date(copy=copy, start=timezone.localdate(now), days=HOLD_PICKUP_DAYS)
    hold.save(update_fields=["status", "copy", "ready_at", "ready_until"])
    return hold


def _copy_is_free(copy: Copy) -> bool:
    """Whether a locked copy could go to the next family: lendable status, not out, not away elsewhere."""
    return (
        copy.status_allows_lending
        and not Loan.objects.open().filter(copy=copy).exists()
        and _elsewhere(copy) is None
    )


@transaction.atomic
def copy_back_on_shelf(*, copy: Copy) -> Hold | None:
    """A copy back on the shelf from elsewhere (a table, during an on-site session): set it aside for the
    first family waiting for its game, if it can go out. Returns that family's hold."""
    copy = _lock_game_and_copy(copy.pk)
    if not _copy_is_free(copy) or Hold.objects.ready().filter(copy=copy).exists():
        return None
    return _hold_serve_next(copy=copy, now=timezone.now())


@transaction.atomic
def loan_create(
    *, copy: Copy, member: Member, staff: AbstractBaseUser, lend_incomplete: bool = False
) -> Loan:
    """Lend `copy` to `member`, due back after the membership type's loan period (on a day its site opens).

    An incomplete copy goes out only when the rules engine finds its remaining pieces still playable
    and the clerk confirmed it (`lend_incomplete`).
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
    # --- an incomplete copy that is still playable (issue 14, loans/playable.py) ---
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
        # --- end of the incomplete-but-playable check ---
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
    # The family's own hold on this game (honoured by this loan), and a hold keeping this copy aside.
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
    quota = member.membership_type.loan_quota
    if of_member >= quota:
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

    loan = Loan.objects.create(
        copy=copy,
        member=member,
        lent_at=now,
        lent_by=staff,
        due_on=due_date(copy=copy, start=today, days=member.membership_type.loan_period_days),
    )
    if member.membership_type.loan_fee:
        _charge(loan, copy, staff, kind=Kind.LOAN_FEE, amount=member.membership_type.loan_fee)

    if hold is not None:
        # The family takes the game it reserved: its hold is honoured, and a copy kept for it that it
        # did not take goes to the next family in the queue.
        other_copy = hold.copy if hold.status == Hold.Status.READY and hold.copy_id != copy.pk else None
        hold.status = Hold.Status.FULFILLED
        hold.copy = copy
        hold.closed_at = now
        hold.save(update_fields=["status", "copy", "closed_at"])
        if other_copy is not None and _copy_is_free(_lock_copy(other_copy.pk)):
            _hold_serve_next(copy=other_copy, now=now)
    return loan


@transaction.atomic
def loan_renew(
    *, loan: Loan, staff: AbstractBaseUser | None = None, late_fee: str = "", reason: str = ""
) -> Loan:
    """Push the due date back by one loan period, if the membership allows and nobody waits for the game.

    `staff` renews at the desk; without it the family renews from its account, which a late loan
    refuses. The desk settles a late loan's fee first (`late_fee`: charge or waive, with a `reason`).
    """
    loan = Loan.objects.select_for_update(of=("self",)).select_related("copy__game").get(pk=loan.pk)
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
    # A late loan gets a full period from today; an early renewal adds one to the current due date.
    loan.due_on = due_date(
        copy=loan.copy, start=max(loan.due_on, today), days=member.membership_type.loan_period_days
    )
    loan.renewals += 1
    loan.save(update_fields=["due_on", "renewals"])
    return loan


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
) -> ReturnResult:
    """Take a copy back after its pieces were checked.

    `missing` lists the pieces found missing now (component, how many); `recovered` the pieces known
    missing that came back in the box. Missing pieces make the copy incomplete unless the librarian
    finds it `playable_anyway`. A copy that can go out again is set aside for the first waiting hold.
    The membership type's late fee and missing pieces' prices are charged, or recorded as waived when
    the clerk waives them; pieces that came back are credited back.
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
    game = copy.game
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
    if not pieces_missing:
        loan.return_check = Loan.ReturnCheck.COMPLETE
    elif playable_anyway:
        loan.return_check = Loan.ReturnCheck.PLAYABLE
    else:
        loan.return_check = Loan.ReturnCheck.INCOMPLETE
    loan.returned_at = now
    loan.returned_by = staff
    loan.save(update_fields=["returned_at", "returned_by", "return_check"])

    copy_set_completeness(copy, complete=not pieces_missing or playable_anyway)
    copy_playable_store(copy)  # issue 14: the table sizes an incomplete copy still allows, for the search
    if copy.status_allows_lending:
        # The game row is locked: when no hold takes the copy, no family is waiting for the game.
        hold, waiting = _hold_serve_next(copy=copy, now=now), None
    else:
        hold = None
        waiting = (
            Hold.objects.waiting().filter(game=game).select_related("member").order_by("position").first()
        )
    return ReturnResult(
        loan=loan, hold=hold, waiting=waiting, missing=new_pieces, charges=charges, credits=credits
    )


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


def _charge(loan: Loan, copy: Copy, staff: AbstractBaseUser, *, kind: str, amount: Decimal, **more) -> Entry:
    """Charge the family of `loan` a fee about it, at the copy's site."""
    return ledger.charge_create(
        member=loan.member,
        kind=kind,
        amount=amount,
        staff=staff,
        site=copy.location_id,
        loan=loan,
        copy=copy,
        **more,
    )


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


def copy_set_completeness(copy: Copy, *, complete: bool) -> None:
    """Move a copy between on the shelf and incomplete; other statuses are the librarian's business."""
    if complete and copy.status == Copy.Status.INCOMPLETE:
        copy.status = Copy.Status.ON_SHELF
    elif not complete and copy.status == Copy.Status.ON_SHELF:
        copy.status = Copy.Status.INCOMPLETE
    else:
        return
    copy.save(update_fields=["status", "updated_at"])


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
        copy_playable_store(copy)  # issue 14: fewer pieces missing may allow more tables
        return None
    copy_set_completeness(copy, complete=True)
    copy_playable_store(copy)
    if _copy_is_free(copy) and not Hold.objects.ready().filter(copy=copy).exists():
        return _hold_serve_next(copy=copy, now=now)
    return None


@transaction.atomic
def hold_create(*, game: Game, member: Member, staff: AbstractBaseUser) -> Hold:
    """Put a family in the queue for a game; a copy on the shelf is set aside at once."""
    member = _lock_member(member)
    _lock_game(game.pk)
    _check_membership(member, timezone.localdate())
    # A copy in repair or waiting for a piece will come back: families may queue for it.
    if not Copy.objects.filter(game=game).in_circulation().exists():
        _refuse(
            _("« %(game)s » n'a aucun exemplaire prêtable : il ne peut pas être réservé."),
            code="no_lendable_copy",
            on="game",
            game=game.title,
        )
    if Hold.objects.active().filter(game=game, member=member).exists():
        _refuse(
            _("%(family)s a déjà une réservation en cours pour « %(game)s »."),
            code="already_held",
            on="game",
            family=member.name,
            game=game.title,
        )
    if member.loans.open().filter(copy__game=game).exists():
        _refuse(
            _("%(family)s a déjà « %(game)s » en prêt."),
            code="already_borrowed",
            on="game",
            family=member.name,
            game=game.title,
        )
    last = Hold.objects.filter(game=game).aggregate(last=Max("position"))["last"] or 0
    hold = Hold.objects.create(game=game, member=member, position=last + 1, created_by=staff)
    now = timezone.now()
    # Copies on the shelf go to the queue in order (this hold is last, it is served if nobody is before).
    for copy in Copy.objects.filter(game=game).available().order_by("pk").select_for_update(of=("self",)):
        if _hold_serve_next(copy=copy, now=now) is None:
            break
    hold.refresh_from_db()
    return hold


def _hold_close(*, hold: Hold, status: Hold.Status, today: datetime.date | None = None) -> Hold | None:
    """Close an active hold; a copy it kept aside goes to the next family. Returns that family's hold."""
    _lock_game(hold.game_id)
    hold = Hold.objects.select_for_update(of=("self",)).select_related("game").get(pk=hold.pk)
    now = timezone.now()
    if hold.status not in (Hold.Status.WAITING, Hold.Status.READY):
        _refuse(
            _("Cette réservation de « %(game)s » est déjà close (%(status)s)."),
            code="hold_closed",
            game=hold.game.title,
            status=hold.get_status_display().lower(),
        )
    if status == Hold.Status.EXPIRED and not hold.is_past_pickup(today or timezone.localdate(now)):
        _refuse(
            _("Seule une réservation prête dont le délai de retrait est dépassé peut expirer."),
            code="hold_not_expired",
        )
    was_ready = hold.status == Hold.Status.READY
    hold.status = status
    hold.closed_at = now
    hold.save(update_fields=["status", "closed_at"])
    if was_ready:
        copy = _lock_copy(hold.copy_id)
        if _copy_is_free(copy):
            return _hold_serve_next(copy=copy, now=now)
    return None


@transaction.atomic
def hold_cancel(*, hold: Hold) -> Hold | None:
    """Cancel a hold at the family's request; returns the next family's hold if the copy passes on."""
    return _hold_close(hold=hold, status=Hold.Status.CANCELLED)


@transaction.atomic
def hold_expire(*, hold: Hold, today: datetime.date | None = None) -> Hold | None:
    """Close a ready hold whose family did not come by the pick-up date; the copy passes on."""
    return _hold_close(hold=hold, status=Hold.Status.EXPIRED, today=today)


def holds_expire_past_pickup(*, today: datetime.date) -> str:
    """Expire every ready hold not collected by its date, one transaction each (a daily step)."""
    expired = passed_on = 0
    for hold in Hold.objects.past_pickup(today).order_by("ready_until", "pk"):
        try:
            next_hold = hold_expire(hold=hold, today=today)
        except ValidationError:
            continue  # collected, cancelled or expired meanwhile by someone else
        expired += 1
        passed_on += next_hold is not None
    return f"{expired} hold(s) expired, {passed_on} copy(ies) set aside for the next family"


# The sort by popularity counts the loans of the last twelve months (Game.loans_last_year).
POPULARITY_DAYS = 365


def popularity_count(*, today: datetime.date) -> str:
    """Write on each game how often it was lent in the twelve months before `today` (a daily step).

    Only the games whose count changed are written, by count (one UPDATE per value and thousand
    games): run twice, the second run writes nothing.
    """
    start = today - datetime.timedelta(days=POPULARITY_DAYS)
    since = timezone.make_aware(datetime.datetime.combine(start, datetime.time.min))
    until = timezone.make_aware(
        datetime.datetime.combine(today + datetime.timedelta(days=1), datetime.time.min)
    )
    loans = Loan.objects.filter(lent_at__gte=since, lent_at__lt=until).order_by()
    counts = dict(loans.values_list("copy__game").annotate(n=Count("pk")))
    current = dict(Game.objects.filter(loans_last_year__gt=0).values_list("pk", "loans_last_year"))
    changed: dict[int, list[int]] = {}
    for game in counts.keys() | current.keys():
        if counts.get(game, 0) != current.get(game, 0):
            changed.setdefault(counts.get(game, 0), []).append(game)
    with transaction.atomic():
        for count, games in changed.items():
            for start_at in range(0, len(games), 1000):
                Game.objects.filter(pk__in=games[start_at : start_at + 1000]).update(loans_last_year=count)
    updated = sum(len(games) for games in changed.values())
    return f"{updated} game(s) with a new loan count over twelve months"
