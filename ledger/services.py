"""The ledger's writes: charges, payments, refunds, reversals, deposits, membership renewals (the till's: ledger/till.py).

Each function runs in one transaction and is the only way its entries are written (the desk's pages,
the API, the loans app's services and the demo all call them). After whatever rows the caller already
holds (the loans app locks member, loan, game, copy, holds, missing pieces, in that order), they lock:
the family's row (where what it owes decides), the entry reversed or the deposit settled, the site's
row, then the year's receipt counter. The site's row makes a till closure and an entry of the same
site wait for each other (entries share it, a closure takes it alone): an entry is dated once the
site is locked, so it never lands in a period being closed, and a closed period never receives one
(the database refuses that too).

A refusal raises ValidationError with a `code` and a French message naming the reason, keyed by the
argument it is about when there is one (`amount`, `note`…). The API answers CONFLICT_CODES with 409.
"""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Max, Model
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Location
from ludotheque.answers import refuse as _refuse
from members.models import Member, MembershipType

from .models import ZERO, Entry, Kind, Membership, Method, ReceiptCounter, TillClosure

# Refusals that describe the state of the books rather than the request (the API answers 409).
CONFLICT_CODES = {"already_reversed", "deposit_settled", "period_closed"}
# A membership can be renewed from this many days before it ends (or any time after).
RENEWAL_WINDOW_DAYS = 60


def euros(amount: Decimal) -> str:
    """An amount as the desk writes it, in the reader's language: « 12,50 € »."""
    return f"{formats.number_format(amount, decimal_pos=2, use_l10n=True)}\u00a0€"


def _lock_member(member: Member) -> Member:
    return (
        member._meta.model.objects.select_for_update(of=("self",))
        .select_related("membership_type")
        .get(pk=member.pk)
    )


def _share_site(site: Location | int) -> Location:
    """Lock a site's row against a till closure only: entries of one site do not wait for each other.

    FOR KEY SHARE (which Django's select_for_update() cannot ask for) conflicts with the closure's FOR
    UPDATE alone. SQLite writes one transaction at a time anyway.
    """
    site_id = getattr(site, "pk", site)
    if connection.vendor != "postgresql":
        return Location.objects.get(pk=site_id)
    for location in Location.objects.raw(
        "SELECT * FROM catalogue_location WHERE id = %s FOR KEY SHARE", [site_id]
    ):
        return location
    raise Location.DoesNotExist(f"No site {site_id}.")


def _next_receipt_number(year: int) -> int:
    """Take the next receipt number of `year`; the counter's row stays locked until the payment commits."""
    ReceiptCounter.objects.bulk_create([ReceiptCounter(year=year)], ignore_conflicts=True)
    counter = ReceiptCounter.objects.select_for_update().get(year=year)
    counter.last_number += 1
    counter.save(update_fields=["last_number"])
    return counter.last_number


def _check_amount(amount: Decimal) -> None:
    if amount is None or amount <= 0:
        _refuse(_("Le montant doit être supérieur à zéro."), code="amount_not_positive", on="amount")


def _check_method(method: str, cheque_number: str) -> None:
    if method not in Method.values:
        _refuse(_("Choisissez un mode de paiement."), code="method_required", on="method")
    if method == Method.CHEQUE and not cheque_number.strip():
        _refuse(_("Indiquez le numéro du chèque."), code="cheque_number_required", on="cheque_number")
    if method != Method.CHEQUE and cheque_number.strip():
        _refuse(
            _("Seul un chèque a un numéro."),
            code="cheque_number_not_cheque",
            on="cheque_number",
        )


def _record(*, site: Location | int, at: datetime.datetime | None = None, **fields) -> Entry:
    """Write one entry at `site`, dated now (or `at`), outside any closed period; numbered if money came in."""
    site = _share_site(site)
    now = timezone.now()
    at = at or now
    if at > now:
        _refuse(_("Une écriture ne peut pas être datée dans le futur."), code="future_date", on="recorded_at")
    closed_until = TillClosure.objects.filter(site=site).aggregate(last=Max("closed_at"))["last"]
    if closed_until is not None and at <= closed_until:
        _refuse(
            _(
                "La caisse de %(site)s est clôturée jusqu'au %(date)s : une écriture ne peut plus y être "
                "datée ; une correction s'enregistre dans la période suivante."
            ),
            code="period_closed",
            site=site.name,
            date=formats.date_format(timezone.localtime(closed_until), "SHORT_DATETIME_FORMAT"),
        )
    if fields["kind"] in Kind.with_receipt() and fields.get("reverses") is None:
        year = timezone.localdate(at).year
        fields |= {"receipt_year": year, "receipt_number": _next_receipt_number(year)}
    return Entry.objects.create(site=site, recorded_at=at, **fields)


@transaction.atomic
def charge_create(
    *,
    member: Member,
    kind: str,
    amount: Decimal,
    staff: AbstractBaseUser,
    site: Location | int,
    loan: Model | None = None,
    copy=None,
    missing_piece: Model | None = None,
    waived: bool = False,
    note: str = "",
    at: datetime.datetime | None = None,
) -> Entry:
    """Charge the family `amount` of `kind`; a `waived` charge is recorded and counts for nothing."""
    if kind not in Kind.charges():
        _refuse(_("« %(kind)s » n'est pas un frais."), code="not_a_charge", on="kind", kind=kind)
    _check_amount(amount)
    if kind == Kind.OTHER and not note.strip():
        _refuse(_("Dites ce que ce frais paie."), code="note_required", on="note")
    return _record(
        site=site,
        at=at,
        member=member,
        kind=kind,
        amount=amount,
        clerk=staff,
        loan=loan,
        copy=copy,
        missing_piece=missing_piece,
        waived=waived,
        note=note.strip(),
    )


def _money(
    *,
    kind: str,
    member: Member,
    amount: Decimal,
    method: str,
    cheque_number: str,
    staff: AbstractBaseUser,
    site: Location | int,
    note: str,
    at: datetime.datetime | None = None,
    **about: Model | None,
) -> Entry:
    """Record money changing hands (checked by the caller): how much, how, a cheque's number, about what."""
    return _record(
        site=site,
        at=at,
        member=member,
        kind=kind,
        amount=amount,
        method=method,
        cheque_number=cheque_number.strip(),
        clerk=staff,
        note=note.strip(),
        **about,
    )


@transaction.atomic
def payment_create(
    *,
    member: Member,
    amount: Decimal,
    method: str,
    staff: AbstractBaseUser,
    site: Location | int,
    cheque_number: str = "",
    note: str = "",
    at: datetime.datetime | None = None,
) -> Entry:
    """Take money the family owes; the entry gets the year's next receipt number."""
    member = _lock_member(member)
    _check_amount(amount)
    _check_method(method, cheque_number)
    owed = Entry.objects.filter(member=member).balance()
    if owed <= 0:
        _refuse(
            _("%(family)s ne doit rien à la ludothèque."),
            code="nothing_owed",
            on="amount",
            family=member.name,
        )
    if amount > owed:
        _refuse(
            _("%(amount)s, c'est plus que ce que %(family)s doit (%(owed)s)."),
            code="overpayment",
            on="amount",
            amount=euros(amount),
            family=member.name,
            owed=euros(owed),
        )
    return _money(
        kind=Kind.PAYMENT,
        member=member,
        amount=amount,
        method=method,
        cheque_number=cheque_number,
        staff=staff,
        site=site,
        note=note,
        at=at,
    )


@transaction.atomic
def refund_create(
    *,
    member: Member,
    amount: Decimal,
    method: str,
    staff: AbstractBaseUser,
    site: Location | int,
    cheque_number: str = "",
    note: str = "",
) -> Entry:
    """Give back money the ludothèque owes the family (its credit, e.g. a piece paid for that came back)."""
    member = _lock_member(member)
    _check_amount(amount)
    _check_method(method, cheque_number)
    credit = -Entry.objects.filter(member=member).balance()
    if amount > credit:
        _refuse(
            _("La ludothèque ne doit que %(credit)s à %(family)s."),
            code="refund_exceeds_credit",
            on="amount",
            credit=euros(max(credit, ZERO)),
            family=member.name,
        )
    return _money(
        kind=Kind.REFUND,
        member=member,
        amount=amount,
        method=method,
        cheque_number=cheque_number,
        staff=staff,
        site=site,
        note=note,
    )


@transaction.atomic
def entry_reverse(*, entry: Entry, staff: AbstractBaseUser, site: Location | int, note: str) -> Entry:
    """Cancel a mistaken entry with one of the same kind and the opposite amount, dated now at `site`."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.reverses_id is not None:
        _refuse(
            _("Une annulation ne s'annule pas : enregistrez plutôt une nouvelle écriture."),
            code="reversal_of_reversal",
        )
    if Entry.objects.filter(reverses=entry).exists():
        _refuse(_("Cette écriture est déjà annulée."), code="already_reversed")
    if entry.waived:
        _refuse(_("Ce frais a été remis : il n'y a rien à annuler."), code="waived_charge")
    if entry.kind == Kind.DEPOSIT_RECEIVED and entry.settlements.not_reversed().exists():
        _refuse(
            _("Cette caution a déjà été rendue ou encaissée : annulez d'abord cette opération-là."),
            code="deposit_settled",
        )
    if not note.strip():
        _refuse(_("Dites pourquoi cette écriture est annulée."), code="note_required", on="note")
    return _record(
        site=site,
        member_id=entry.member_id,
        kind=entry.kind,
        amount=-entry.amount,
        method=entry.method,
        cheque_number=entry.cheque_number,
        clerk=staff,
        loan_id=entry.loan_id,
        copy_id=entry.copy_id,
        missing_piece_id=entry.missing_piece_id,
        deposit_id=entry.deposit_id,
        reverses=entry,
        note=note.strip(),
    )


@transaction.atomic
def missing_piece_credit_back(*, missing_piece: Model, staff: AbstractBaseUser) -> list[Entry]:
    """Credit back what the family was charged for pieces that came back (loans.services calls this)."""
    charges = Entry.objects.filter(missing_piece=missing_piece, waived=False).not_reversed().order_by("pk")
    return [
        entry_reverse(entry=charge, staff=staff, site=charge.site_id, note=str(_("Pièce rapportée")))
        for charge in charges
    ]


@transaction.atomic
def deposit_receive(
    *,
    member: Member,
    amount: Decimal,
    method: str,
    staff: AbstractBaseUser,
    site: Location | int,
    cheque_number: str = "",
    note: str = "",
    loan: Model | None = None,  # a loan's deposit: its settlement names the loan too
    copy: Model | None = None,
) -> Entry:
    """Take a deposit (caution), for a loan or the account; held until returned or cashed, with a receipt."""
    _check_amount(amount)
    _check_method(method, cheque_number)
    return _money(
        **{"loan": loan, "copy": copy},
        kind=Kind.DEPOSIT_RECEIVED,
        member=member,
        amount=amount,
        method=method,
        cheque_number=cheque_number,
        staff=staff,
        site=site,
        note=note,
    )


def _deposit_settle(*, deposit: Entry, kind: str, staff: AbstractBaseUser, site, note: str) -> Entry:
    deposit = Entry.objects.select_for_update().get(pk=deposit.pk)
    if deposit.kind != Kind.DEPOSIT_RECEIVED or deposit.reverses_id is not None:
        _refuse(_("Cette écriture n'est pas une caution reçue."), code="not_a_deposit")
    if Entry.objects.filter(reverses=deposit).exists():
        _refuse(_("Cette caution a été annulée."), code="already_reversed")
    if deposit.settlements.not_reversed().exists():
        _refuse(_("Cette caution a déjà été rendue ou encaissée."), code="deposit_settled")
    return _record(
        site=site,
        member_id=deposit.member_id,
        kind=kind,
        amount=deposit.amount,
        method=deposit.method,
        cheque_number=deposit.cheque_number,
        clerk=staff,
        deposit=deposit,
        loan_id=deposit.loan_id,
        copy_id=deposit.copy_id,
        note=note.strip(),
    )


@transaction.atomic
def deposit_return(*, deposit: Entry, staff: AbstractBaseUser, site: Location | int, note: str = "") -> Entry:
    """Give a held deposit back to the family (the cheque handed back, the cash returned)."""
    return _deposit_settle(deposit=deposit, kind=Kind.DEPOSIT_RETURNED, staff=staff, site=site, note=note)


@transaction.atomic
def deposit_cash(*, deposit: Entry, staff: AbstractBaseUser, site: Location | int, note: str = "") -> Entry:
    """Keep a held deposit: it pays what the family owes (any surplus becomes the family's credit)."""
    return _deposit_settle(deposit=deposit, kind=Kind.DEPOSIT_CASHED, staff=staff, site=site, note=note)


@dataclass(frozen=True)
class Renewal:
    """A membership renewed: the new period, and the payment taken for it if the family paid at once."""

    membership: Membership
    payment: Entry | None = None


def is_first_membership(member: Member, today: datetime.date | None = None) -> bool:
    """A family registered lately in the admin (its valid membership began within the renewal window)
    whose membership was never recorded here: its first renewal records and charges the current period."""
    today = today or timezone.localdate()
    return (
        member.membership_is_valid(today)
        and (today - member.membership_start).days <= RENEWAL_WINDOW_DAYS
        and not Membership.objects.filter(member=member).exists()
    )


def renewal_due(member: Member, today: datetime.date | None = None) -> bool:
    """Whether the membership has ended or ends within the renewal window (the family page says so);
    never for an erased family, which has left."""
    if member.erased_at is not None:
        return False
    return (member.membership_expiry - (today or timezone.localdate())).days <= RENEWAL_WINDOW_DAYS


def can_renew(member: Member, today: datetime.date | None = None) -> bool:
    """Whether the desk may renew now: the membership ends within the window, or was never recorded."""
    today = today or timezone.localdate()
    if member.erased_at is not None:
        return False
    return renewal_due(member, today) or is_first_membership(member, today)


def renewal_period(
    member: Member, membership_type: MembershipType, today: datetime.date
) -> tuple[datetime.date, datetime.date]:
    """The period a renewal records: the day after the current membership ends (today if it has ended)
    for one duration of the type, or, for a first membership, the current period as registered."""
    if is_first_membership(member, today):
        return member.membership_start, member.membership_expiry
    start = max(member.membership_expiry + datetime.timedelta(days=1), today)
    return start, start + datetime.timedelta(days=membership_type.duration_days - 1)


@transaction.atomic
def membership_renew(
    *,
    member: Member,
    membership_type: MembershipType,
    staff: AbstractBaseUser,
    site: Location | int,
    method: str = "",
    cheque_number: str = "",
    today: datetime.date | None = None,
) -> Renewal:
    """Renew a family's membership for one period of `membership_type` and charge its price.

    The new period starts the day after the old one ends, or today if it has ended; the family pays
    now (`method`) or owes the price. Refused more than RENEWAL_WINDOW_DAYS before the end, except for
    a first membership (a family registered in the admin), whose current period is recorded and charged.
    """
    member = _lock_member(member)
    today = today or timezone.localdate()
    if member.erased_at is not None:
        _refuse(_("Cette famille a été effacée : son adhésion ne se renouvelle plus."), code="member_erased")
    if not can_renew(member, today):
        _refuse(
            _(
                "L'adhésion de %(family)s court jusqu'au %(date)s : elle se renouvelle au plus tôt "
                "%(days)s jours avant son terme."
            ),
            code="renewal_too_early",
            family=member.name,
            date=formats.date_format(member.membership_expiry, "SHORT_DATE_FORMAT"),
            days=RENEWAL_WINDOW_DAYS,
        )
    if method:
        _check_method(method, cheque_number)
    start, end = renewal_period(member, membership_type, today)
    if start == today:
        member.membership_start = start
    member.membership_expiry = end
    member.membership_type = membership_type
    member.save(update_fields=["membership_start", "membership_expiry", "membership_type"])

    price = membership_type.price
    note = _("%(type)s du %(start)s au %(end)s") % {
        "type": membership_type.name,
        "start": formats.date_format(start, "SHORT_DATE_FORMAT"),
        "end": formats.date_format(end, "SHORT_DATE_FORMAT"),
    }
    charge = payment = None
    if price > 0:
        charge = charge_create(
            member=member, kind=Kind.MEMBERSHIP, amount=price, staff=staff, site=site, note=note
        )
        # A family with a credit pays only the rest.
        due = min(price, Entry.objects.filter(member=member).balance())
        if method and due > 0:
            payment = payment_create(
                member=member,
                amount=due,
                method=method,
                cheque_number=cheque_number,
                staff=staff,
                site=site,
                note=note,
            )
    membership = Membership.objects.create(
        member=member,
        membership_type=membership_type,
        start=start,
        end=end,
        price=price,
        charge=charge,
        created_by=staff,
    )
    return Renewal(membership=membership, payment=payment)
