"""The loan rules of one copy for one family: its kind's (`catalogue.ItemKind`) with its membership type's.

The one table that decides (the librarians' guide, « Règles de prêt par type d'objet », says the same):

| rule | kind's rule set | kind's rule blank | why |
| --- | --- | --- | --- |
| period (and each renewal) | the kind's | the membership's | the object decides how long it can be away: a grand jeu goes out for a weekend's party, whoever borrows it; a renewal adds the same period again |
| fee per loan | the kind's (0: free) | the membership's | the kind replaces the membership's fee, never adds to it: one loan, one fee |
| deposit | the kind's, received at checkout, given back at return | none | money held against the object's risk, not a charge: the ledger holds it (`deposit_received`, with the loan) and returns it (`deposit_returned`); a lost game's deposit stays held, for the desk to cash |
| quota | both: the membership's total and the kind's, per family | the membership's total | a family may have N games in all, and at most K of them grands jeux |
| renewals allowed, late fees, missing pieces, lost games, debt limit, late games | always the membership's | | they are about the family's account, not about the object |

`loan_rule()` is the only place that combines them: the checkout (`checkout.py`), the renewal
(`renewals.py`), the desk's family page and the family's `/compte/` all read it.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Copy, ItemKind
from ledger import services as ledger
from ledger.models import Entry
from ledger.services import euros
from ludotheque.answers import refuse as _refuse
from members.models import Member, MembershipType

from .models import Loan


@dataclass(frozen=True)
class LoanRule:
    """What a loan of a copy of `kind` to a family of `membership_type` gets, and where each rule comes from."""

    kind: ItemKind
    membership_type: MembershipType

    @property
    def period_days(self) -> int:
        return self.kind.loan_period_days or self.membership_type.loan_period_days

    @property
    def period_from_kind(self) -> bool:
        return self.kind.loan_period_days is not None

    @property
    def fee(self) -> Decimal:
        return self.membership_type.loan_fee if self.kind.loan_fee is None else self.kind.loan_fee

    @property
    def fee_from_kind(self) -> bool:
        return self.kind.loan_fee is not None

    @property
    def deposit(self) -> Decimal:
        return self.kind.deposit or Decimal(0)

    @property
    def quota(self) -> int:
        """The membership's total: every game at home counts, whatever its kind."""
        return self.membership_type.loan_quota

    @property
    def kind_quota(self) -> int | None:
        """At most this many copies of the kind at home (None: only the total counts)."""
        return self.kind.loan_quota

    def _source(self, from_kind: bool) -> str:
        if from_kind:
            return self.kind.name.lower()
        return _("adhésion « %(type)s »") % {"type": self.membership_type.name}

    def parts(self) -> list[tuple[str, str]]:
        """Each rule that applies with where it comes from: (« grand jeu », « 7 jours »), …"""
        days = ngettext_lazy("%(count)s jour", "%(count)s jours", "count") % {"count": self.period_days}
        parts = [(self._source(self.period_from_kind), days)]
        if self.fee:
            parts.append((self._source(self.fee_from_kind), _("frais %(fee)s") % {"fee": euros(self.fee)}))
        elif self.fee_from_kind and self.membership_type.loan_fee:
            parts.append((self._source(True), str(_("sans frais"))))
        if self.deposit:
            parts.append((self._source(True), _("caution %(amount)s") % {"amount": euros(self.deposit)}))
        if self.kind_quota is not None:
            quota = ngettext_lazy("%(count)s par famille", "%(count)s par famille", "count")
            parts.append((self._source(True), quota % {"count": self.kind_quota}))
        return parts

    def __str__(self) -> str:
        """« grand jeu : 7 jours, caution 50,00 € ; adhésion « Annuelle » : frais 0,50 € »: each rule
        by where it comes from, the kind's first (what the desk and the family read)."""
        by_source: dict[str, list[str]] = {}
        for source, text in sorted(self.parts(), key=lambda part: part[0] != self._source(True)):
            by_source.setdefault(source, []).append(text)
        return " ; ".join(f"{source} : {', '.join(texts)}" for source, texts in by_source.items())


def loan_rule(kind: ItemKind, membership_type: MembershipType) -> LoanRule:
    """The rules a loan of a copy of `kind` to a family of `membership_type` follows (the table above)."""
    return LoanRule(kind=kind, membership_type=membership_type)


def copy_rule(copy: Copy, member: Member) -> LoanRule:
    """The rules of lending `copy` to `member` today (its kind read with the copy: select_related)."""
    return loan_rule(copy.kind, member.membership_type)


def family_rules(member: Member) -> list[LoanRule]:
    """The family's rule for each kind of item, for the desk's « Prêter » (one query)."""
    return [loan_rule(kind, member.membership_type) for kind in ItemKind.objects.order_by("name")]


def check_kind_quota(member: Member, copy: Copy, rule: LoanRule) -> None:
    """Refuse a copy of a kind the family already has as many of as the kind allows.

    Called with the family's row locked (loans/checkout.py): two clerks lending to one family wait for
    each other, so the count read here is the count at the moment of the loan.
    """
    if rule.kind_quota is None:
        return
    at_home = Loan.objects.open().filter(member=member, copy__kind_id=copy.kind_id).count()
    if at_home >= rule.kind_quota:
        _refuse(
            ngettext_lazy(
                "%(family)s a déjà %(count)s exemplaire de type « %(kind)s » en prêt : c'est le maximum "
                "pour ce type d'objet.",
                "%(family)s a déjà %(count)s exemplaires de type « %(kind)s » en prêt : c'est le maximum "
                "pour ce type d'objet.",
                "count",
            ),
            code="kind_quota_reached",
            on="member",
            family=member.name,
            count=at_home,
            kind=rule.kind.name,
        )


def check_deposit_method(rule: LoanRule, copy: Copy, method: str) -> None:
    """Refuse to lend a copy whose kind asks a deposit until the clerk says how the family pays it."""
    if rule.deposit and not method:
        _refuse(
            _(
                "« %(game)s » (%(barcode)s) est de type « %(kind)s » : une caution de %(amount)s est "
                "demandée. Choisissez comment la famille la verse, puis prêtez."
            ),
            code="deposit_required",
            on="deposit_method",
            game=copy.game.title,
            barcode=copy.barcode,
            kind=rule.kind.name,
            amount=euros(rule.deposit),
        )


def deposit_take(
    *, loan: Loan, rule: LoanRule, staff: AbstractBaseUser, method: str, site: int, cheque_number: str = ""
) -> Entry | None:
    """Receive the deposit the copy's kind asks at `site`'s desk (its till), held in the ledger against
    the loan (None: no deposit)."""
    if not rule.deposit:
        return None
    return ledger.deposit_receive(
        member=loan.member,
        amount=rule.deposit,
        method=method,
        cheque_number=cheque_number,
        staff=staff,
        site=site,
        loan=loan,
        copy=loan.copy,
        note=_("caution de « %(game)s » (%(kind)s)") % {"game": loan.copy.game.title, "kind": rule.kind.name},
    )


def deposits_give_back(*, loan: Loan, staff: AbstractBaseUser, site: int) -> list[Entry]:
    """Give back the deposits held for `loan`, at its return at `site`'s desk (its till): one
    `deposit_returned` entry each.

    Asked only of a copy whose kind takes a deposit, so a return of any other copy reads no more.
    """
    if loan.copy.kind.deposit is None:
        return []
    held = Entry.objects.filter(loan=loan).deposits_held().order_by("pk")
    return [ledger.deposit_return(deposit=deposit, staff=staff, site=site) for deposit in held]


def checkout_said(loan: Loan) -> str:
    """What the desk says of the rules a loan just made follows, and why (its kind's, its membership's)."""
    return _("Règles : %(rule)s.") % {"rule": loan_rule(loan.copy.kind, loan.member.membership_type)}
