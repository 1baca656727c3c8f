"""What the desk's writes share: their rules about a family, their locks and their reads.

The writes themselves are by what they are about: lending (checkout.py), renewing (renewals.py),
returns and missing pieces (returns.py), holds (holds.py); loans/services.py names them all.

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
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Copy, Game, Location
from catalogue.registry import elsewhere_label
from ledger import services as ledger
from ledger.models import Entry, member_balance
from ludotheque.answers import refuse as _refuse
from ludotheque.prepared import UNUSED_ID, PreparedRead
from members.models import Member, MembershipType
from opening.schedule import next_opening_day

from .models import HOLD_PICKUP_DAYS, Hold, Loan, Transfer
from .transit import transfer_open


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
    # With the copy's kind (not locked): its loan rules (loans/loan_rules.py).
    lambda pk: (
        Copy.objects.select_related("game", "kind").select_for_update(of=("game", "self")).filter(pk=pk)
    ),
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


def _hold_serve_next(*, copy: Copy, now: datetime.datetime, site: int | None = None) -> Hold | None:
    """Set `copy`, at `site` (its own site unless said), aside for the first family waiting for its
    game; the game row is already locked. A family collecting the game at another site gets it sent
    there: its hold is « en acheminement » until the copy arrives (loans/transfers.py)."""
    hold = next(iter(_NEXT_WAITING_HOLD.queryset(copy.game_id)), None)
    if hold is None:
        return None
    here = site or copy.location_id
    hold.copy = copy
    if hold.pickup_site_id not in (None, here):
        hold.status = Hold.Status.TRANSIT
        hold.save(update_fields=["status", "copy"])
        transfer_open(
            copy=copy,
            from_site_id=here,
            to_site_id=hold.pickup_site_id,
            reason=Transfer.Reason.HOLD,
            hold=hold,
            now=now,
        )
        return hold
    hold_make_ready(hold, site=here, now=now)
    return hold


def hold_make_ready(hold: Hold, *, site: int, now: datetime.datetime) -> None:
    """The copy of `hold` waits at the desk of `site`, its pick-up site, for the family to collect it."""
    hold.status = Hold.Status.READY
    hold.ready_at = now
    start = timezone.localdate(now) + datetime.timedelta(days=HOLD_PICKUP_DAYS)
    hold.ready_until = next_opening_day(site, start)
    hold.save(update_fields=["status", "copy", "ready_at", "ready_until"])


def copy_settle(
    *, copy: Copy, site: int, now: datetime.datetime, staff: AbstractBaseUser | None = None
) -> Hold | None:
    """A locked copy (its game locked first) is free of any family at `site`: set it aside for the
    first family waiting, else, away from its own site, send it home or keep it here, as its site
    says (`Location.returns_home`). Returns the hold it now serves."""
    hold = _hold_serve_next(copy=copy, now=now, site=site) if _copy_is_free(copy) else None
    if hold is not None or site == copy.location_id:
        return hold
    if Location.objects.filter(pk=copy.location_id, returns_home=True).exists():
        transfer_open(
            copy=copy, from_site_id=site, to_site_id=copy.location_id, reason=Transfer.Reason.HOME, now=now
        )
        return None
    Transfer.objects.create(
        copy=copy,
        reason=Transfer.Reason.KEPT,
        from_site_id=copy.location_id,
        to_site_id=site,
        copy_status=copy.status,
        requested_at=now,
        received_at=now,
        received_by=staff,
    )
    copy.location_id = site
    copy.save(update_fields=["location", "updated_at"])
    return None


def _copy_is_free(copy: Copy) -> bool:
    """Whether a locked copy could go to the next family: lendable status, not out, not away elsewhere."""
    return (
        copy.status_allows_lending
        and not Loan.objects.open().filter(copy=copy).exists()
        and _elsewhere(copy) is None
    )


def _charge(
    loan: Loan,
    copy: Copy,
    staff: AbstractBaseUser,
    *,
    kind: str,
    amount: Decimal,
    site: int | None = None,
    **more,
) -> Entry:
    """Charge the family of `loan` a fee about it, at `site` (the copy's site unless said)."""
    return ledger.charge_create(
        member=loan.member,
        kind=kind,
        amount=amount,
        staff=staff,
        site=site or copy.location_id,
        loan=loan,
        copy=copy,
        **more,
    )


def copy_set_completeness(copy: Copy, *, complete: bool) -> None:
    """Move a copy between on the shelf and incomplete; other statuses are the librarian's business."""
    if complete and copy.status == Copy.Status.INCOMPLETE:
        copy.status = Copy.Status.ON_SHELF
    elif not complete and copy.status == Copy.Status.ON_SHELF:
        copy.status = Copy.Status.INCOMPLETE
    else:
        return
    copy.save(update_fields=["status", "updated_at"])
