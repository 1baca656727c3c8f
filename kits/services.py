"""A kit at the desk: what is in it and fit to go (its completeness), lending it, taking it back.

A kit goes out as one: one transaction lends each of its copies through the loans app's own
`loan_create` (the borrower's membership, debt limit, late games and quota are checked copy by copy,
each loan charged its fee and deposit; not a kind's maximum per family: staff chose what goes in the
kit, two giant games if they like), all due back the same day; a refusal of any copy lends
none. It comes back as one: each copy's pieces check through `loan_return`, then the loose material.
The kit's row is locked first, before anything the loans app locks, so two clerks lending or taking
back the same kit wait for each other.
"""

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import TextChoices
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy
from catalogue.registry import elsewhere_at_hand
from loans import services as loans
from loans.models import Loan, MissingPiece
from loans.playable import playable_notes
from ludotheque.answers import refuse as _refuse
from members.models import Member
from opening.schedule import next_opening_day, weekday_date

from .models import Kit, KitItem, KitLoan, KitLoanCopy


class CopyState(TextChoices):
    """Where a copy of a kit stands when the kit is about to go out."""

    READY = "ready", _("prêt à partir")
    INCOMPLETE_PLAYABLE = "incomplete_playable", _("incomplet, jouable quand même")
    INCOMPLETE = "incomplete", _("incomplet")
    ON_LOAN = "on_loan", _("en prêt")
    UNAVAILABLE = "unavailable", _("indisponible")
    ELSEWHERE = "elsewhere", _("ailleurs")


@dataclass
class KitLine:
    """One copy of a kit, where it stands, and what the desk says of it."""

    copy: Copy
    state: str
    detail: str = ""
    missing_pieces: list[MissingPiece] = field(default_factory=list)
    loan: Loan | None = None

    @property
    def ready(self) -> bool:
        return self.state == CopyState.READY

    @property
    def state_label(self) -> str:
        return str(CopyState(self.state).label)

    def goes_out(self, lend_incomplete: bool) -> bool:
        return self.ready or (lend_incomplete and self.state == CopyState.INCOMPLETE_PLAYABLE)


@dataclass
class KitReport:
    """A kit's completeness: each copy's state, the loose material missing since its last return."""

    kit: Kit
    lines: list[KitLine]
    open_loan: KitLoan | None

    @property
    def material_missing(self) -> str:
        return self.kit.material_missing.strip()

    @property
    def problems(self) -> list[KitLine]:
        return [line for line in self.lines if not line.ready]

    @property
    def complete(self) -> bool:
        return bool(self.lines) and not self.problems and not self.material_missing

    def leaving(self, lend_incomplete: bool) -> list[KitLine]:
        return [line for line in self.lines if line.goes_out(lend_incomplete)]


def kit_completeness(kit: Kit) -> KitReport:
    """Each copy of `kit` with where it stands (five queries, whatever the kit's size)."""
    copies = list(
        Copy.objects.filter(kit_items__kit=kit)
        .select_related("game")
        .with_whereabouts()
        .order_by("game__title", "barcode")
    )
    ids = [copy.pk for copy in copies]
    open_loans = {
        loan.copy_id: loan for loan in Loan.objects.open().filter(copy_id__in=ids).select_related("member")
    }
    pieces: dict[int, list[MissingPiece]] = {}
    for piece in MissingPiece.objects.still_missing().filter(copy_id__in=ids).select_related("component"):
        pieces.setdefault(piece.copy_id, []).append(piece)
    open_kit_loan = kit.loans.open().select_related("member").first()
    notes = playable_notes([copy for copy in copies if copy.status == Copy.Status.INCOMPLETE])
    lines = [
        _line(copy, open_loans.get(copy.pk), pieces.get(copy.pk, []), notes.get(copy.pk, ""))
        for copy in copies
    ]
    return KitReport(kit=kit, lines=lines, open_loan=open_kit_loan)


def _line(copy: Copy, loan: Loan | None, pieces: list[MissingPiece], playable: str) -> KitLine:
    if loan is not None:
        detail = _("chez %(family)s, à rendre le %(date)s") % {
            "family": loan.member.borrower_label if loan.member_id else "—",
            "date": weekday_date(loan.due_on),
        }
        return KitLine(copy, CopyState.ON_LOAN, str(detail), pieces, loan)
    # Its own kit keeps it at hand; elsewhere (a table) it is away.
    if copy.whereabouts is not None and not elsewhere_at_hand(copy.whereabouts):
        return KitLine(copy, CopyState.ELSEWHERE, copy.elsewhere, pieces)
    if copy.status == Copy.Status.INCOMPLETE:
        state = CopyState.INCOMPLETE_PLAYABLE if copy.playable_tables else CopyState.INCOMPLETE
        what = ", ".join(f"{piece.quantity} × {piece.component.label}" for piece in pieces)
        detail = _("il manque %(pieces)s") % {"pieces": what} if what else ""
        return KitLine(copy, state, "; ".join(filter(None, [str(detail), playable])), pieces)
    if not copy.status_allows_lending:
        return KitLine(copy, CopyState.UNAVAILABLE, copy.get_status_display(), pieces)
    return KitLine(copy, CopyState.READY)


def describe_problems(report: KitReport, lend_incomplete: bool = False) -> str:
    """« Quarto » (90468) : en prêt chez …; matériel manquant : 1 tapis — what stays home, in one line."""
    parts = [
        f"« {line.copy.game.title} » ({line.copy.barcode}) : {line.state_label}"
        + (f", {line.detail}" if line.detail else "")
        for line in report.problems
        if not line.goes_out(lend_incomplete)
    ]
    if report.material_missing:
        parts.append(str(_("matériel manquant : %(what)s") % {"what": report.material_missing}))
    return " ; ".join(parts)


def kit_due_date(kit: Kit, member: Member, today: datetime.date) -> datetime.date:
    """The day the whole kit is due back: the kit's loan period, else the borrower's membership's,
    moved to the next day the kit's site is open."""
    days = kit.loan_period_days or member.membership_type.loan_period_days
    return next_opening_day(kit.site_id, today + datetime.timedelta(days=days))


@transaction.atomic
def kit_lend(
    *,
    kit: Kit,
    member: Member,
    staff: AbstractBaseUser,
    without_missing: bool = False,
    lend_incomplete: bool = False,
    deposit_method: str = "",
    deposit_cheque_number: str = "",
) -> KitLoan:
    """Lend every copy of `kit` to `member` in one go, all due back the same day.

    A kit with a copy that cannot go (on loan elsewhere, lost, withdrawn, incomplete) or loose material
    missing goes out only when the clerk chose to lend it without them (`without_missing`); an incomplete
    copy still playable goes with it when the clerk says so (`lend_incomplete`). Each copy whose kind asks
    a deposit takes its own, paid the one way the clerk says (`deposit_method`, a cheque's number).
    """
    kit = Kit.objects.select_for_update().get(pk=kit.pk)
    open_loan = kit.loans.open().select_related("member").first()
    if open_loan is not None:
        _refuse(
            _("La malle « %(kit)s » est déjà prêtée à %(family)s, à rendre le %(date)s."),
            code="kit_on_loan",
            kit=kit.name,
            family=open_loan.member.borrower_label if open_loan.member_id else "—",
            date=weekday_date(open_loan.due_on),
        )
    report = kit_completeness(kit)
    leaving = report.leaving(lend_incomplete)
    if not leaving:
        _refuse(
            _("Aucun exemplaire de la malle « %(kit)s » ne peut partir."),
            code="kit_empty",
            kit=kit.name,
        )
    staying = describe_problems(report, lend_incomplete)
    if staying and not without_missing:
        _refuse(
            _(
                "La malle « %(kit)s » n'est pas complète — %(problems)s. Prêtez-la sans ce qui manque "
                "(cochez la case), ou ne la prêtez pas."
            ),
            code="kit_incomplete",
            on="without_missing",
            kit=kit.name,
            problems=staying,
        )
    now = timezone.now()
    today = timezone.localdate(now)
    kit_loan = KitLoan.objects.create(
        kit=kit, member=member, lent_at=now, lent_by=staff, due_on=kit_due_date(kit, member, today)
    )
    # The lines first, without their loans: while they are, the copies may leave their kit (models.py).
    lines = KitLoanCopy.objects.bulk_create(
        [KitLoanCopy(kit_loan=kit_loan, copy=line.copy) for line in leaving]
    )
    for line in lines:
        line.loan = loans.loan_create(
            copy=line.copy,
            member=member,
            staff=staff,
            lend_incomplete=lend_incomplete,
            deposit_method=deposit_method,
            deposit_cheque_number=deposit_cheque_number,
            kind_maximum=False,
        )
    KitLoanCopy.objects.bulk_update(lines, ["loan"])
    Loan.objects.filter(pk__in=[line.loan_id for line in lines]).update(due_on=kit_loan.due_on)
    return kit_loan


def not_on_loan_message(kit: Kit) -> str:
    return _("La malle « %(kit)s » n'est pas prêtée : rien à rendre.") % {"kit": kit.name}


@dataclass(frozen=True)
class CopyCheck:
    """The pieces check of one copy coming back with its kit (see loans.services.loan_return)."""

    missing: Iterable = ()
    recovered: Iterable = ()
    playable_anyway: bool = False
    waive_late_fee: bool = False
    waive_missing_pieces: bool = False
    keep_back: bool = False  # not back on the shelf: the clerk sends it to repair (loans/registry.py)


@transaction.atomic
def kit_return(
    *,
    kit_loan: KitLoan,
    staff: AbstractBaseUser,
    checks: Mapping[int, CopyCheck] | None = None,
    material_missing: str = "",
) -> list[loans.ReturnResult]:
    """Take a kit back: each copy still out with it through its own pieces check (`checks`, by loan
    id; a copy without one comes back complete), then the loose material (what is missing, noted on
    the kit until it is replaced)."""
    kit = Kit.objects.select_for_update().get(pk=kit_loan.kit_id)
    kit_loan = KitLoan.objects.select_for_update().get(pk=kit_loan.pk)
    if not kit_loan.is_open:
        _refuse(
            _("La malle « %(kit)s » a déjà été rendue le %(date)s."),
            code="kit_not_on_loan",
            kit=kit.name,
            date=weekday_date(timezone.localdate(kit_loan.returned_at)),
        )
    checks = checks or {}
    results = []
    for loan in Loan.objects.open().filter(kit_line__kit_loan=kit_loan).order_by("pk"):
        check = checks.get(loan.pk, CopyCheck())
        results.append(
            loans.loan_return(
                loan=loan,
                staff=staff,
                missing=check.missing,
                recovered=check.recovered,
                playable_anyway=check.playable_anyway,
                waive_late_fee=check.waive_late_fee,
                waive_missing_pieces=check.waive_missing_pieces,
                keep_back=check.keep_back,
            )
        )
    kit_loan.returned_at = timezone.now()
    kit_loan.returned_by = staff
    kit_loan.material_missing = material_missing.strip()
    kit_loan.save(update_fields=["returned_at", "returned_by", "material_missing"])
    if kit_loan.material_missing:
        kit.material_missing = kit_loan.material_missing
        kit.save(update_fields=["material_missing"])
    return results


@transaction.atomic
def kit_add_copy(*, kit: Kit, copy: Copy) -> KitItem:
    """Put a copy in a kit: from now on it goes out only with it."""
    kit = Kit.objects.select_for_update().get(pk=kit.pk)
    other = KitItem.objects.filter(copy=copy).select_related("kit").first()
    if other is not None:
        _refuse(
            _("« %(game)s » (%(barcode)s) est déjà dans la malle « %(kit)s »."),
            code="already_in_kit",
            on="barcode",
            game=copy.game.title,
            barcode=copy.barcode,
            kit=other.kit.name,
        )
    if Loan.objects.open().filter(copy=copy).exists():
        _refuse(
            _("« %(game)s » (%(barcode)s) est en prêt : ajoutez-le à la malle à son retour."),
            code="copy_on_loan",
            on="barcode",
            game=copy.game.title,
            barcode=copy.barcode,
        )
    return KitItem.objects.create(kit=kit, copy=copy)


@transaction.atomic
def kit_remove_copy(*, item: KitItem) -> None:
    """Take a copy out of its kit (it may then be lent alone); refused while the kit is out with it."""
    kit = Kit.objects.select_for_update().get(pk=item.kit_id)
    if Loan.objects.open().filter(copy_id=item.copy_id, kit_line__kit_loan__kit=kit).exists():
        _refuse(
            _("Cet exemplaire est prêté avec la malle : retirez-le de la malle à son retour."),
            code="copy_out_with_kit",
        )
    item.delete()
