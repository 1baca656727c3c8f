"""The family ledger: an append-only book of charges, payments and deposits, receipts and till closures.

Entries are never updated or deleted: a mistake is corrected by a reversing entry (same kind, opposite
amount) pointing to it; what a family owes is derived from its entries. The ORM refuses to change them
(AppendOnlyQuerySet, AppendOnlyModel) and so does PostgreSQL (migrations 0002 and 0003).

Loans and missing pieces are named by string references: the ledger imports nothing of the loans
app, whose services call it (fees at the desk, the debt limit, renewals).
"""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
MONEY = {"max_digits": 9, "decimal_places": 2}
# Above every amount MONEY holds: PostgreSQL's NaN, greater than every number, passes `> 0` but not this.
BEYOND_MONEY = Decimal("10000000")


class Money(models.DecimalField):
    """A sum of amounts read back in cents: SQLite adds decimals as floats (1.80000000000000).

    Only an expression's `output_field` (no column is of this type): the desk's forms prefill what
    it reads, and a form refuses more than two decimals.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**{**MONEY, **kwargs})

    def from_db_value(self, value, expression, connection) -> Decimal | None:
        return None if value is None else Decimal(value).quantize(CENT)


def money_sum(expression, **extra) -> Sum:
    """The sum of an amount (a column's name or an entry's effect), in cents whatever the database."""
    return Sum(expression, output_field=Money(), **extra)


class AppendOnlyError(RuntimeError):
    """Raised by any attempt to change or delete a row of the ledger's history."""


class AppendOnlyQuerySet(models.QuerySet):
    """History rows are inserted, never updated or deleted (update(), bulk_update(), delete() refuse).

    get_or_create() can still insert; update_or_create() refuses to update through save().
    """

    def update(self, **kwargs):
        raise AppendOnlyError(f"{self.model._meta.label} rows are never updated: record a new one.")

    def bulk_update(self, objs, fields, batch_size=None):
        # Refused before bulk_update opens its transaction (an error inside would break the caller's).
        raise AppendOnlyError(f"{self.model._meta.label} rows are never updated: record a new one.")

    def delete(self):
        raise AppendOnlyError(f"{self.model._meta.label} rows are never deleted: record a new one.")


class AppendOnlyModel(models.Model):
    """A history row: saved once, then read only."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{self._meta.label} rows are never updated: record a new one.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{self._meta.label} rows are never deleted: record a new one.")


class Method(models.TextChoices):
    """How money changes hands at the desk."""

    CASH = "cash", _("Espèces")
    CHEQUE = "cheque", _("Chèque")
    CARD = "card", _("Carte")
    TRANSFER = "transfer", _("Virement")


class Kind(models.TextChoices):
    # Charges: what the family owes.
    MEMBERSHIP = "membership", _("Adhésion")
    LOAN_FEE = "loan_fee", _("Frais de prêt")
    LATE_FEE = "late_fee", _("Frais de retard")
    MISSING_PIECE = "missing_piece", _("Pièce manquante")
    LOST_GAME = "lost_game", _("Jeu perdu")
    OTHER = "other", _("Autre frais")
    REPAIR = "repair", _("Réparation")
    # Money received from or given back to the family.
    PAYMENT = "payment", _("Paiement")
    REFUND = "refund", _("Remboursement")
    # Deposits (cautions): received, then returned to the family or cashed by the ludothèque.
    DEPOSIT_RECEIVED = "deposit_received", _("Caution reçue")
    DEPOSIT_RETURNED = "deposit_returned", _("Caution rendue")
    DEPOSIT_CASHED = "deposit_cashed", _("Caution encaissée")
    # The ludothèque's own money spent (a repair it pays for): no family, in none of the sums below.
    EXPENSE = "expense", _("Dépense de la ludothèque")

    @classmethod
    def charges(cls) -> list[str]:
        return [
            cls.MEMBERSHIP,
            cls.LOAN_FEE,
            cls.LATE_FEE,
            cls.MISSING_PIECE,
            cls.LOST_GAME,
            cls.OTHER,
            cls.REPAIR,
        ]

    @classmethod
    def with_method(cls) -> list[str]:
        """Kinds where money changes hands, in one way or another: they say how."""
        return [
            cls.PAYMENT,
            cls.REFUND,
            cls.DEPOSIT_RECEIVED,
            cls.DEPOSIT_RETURNED,
            cls.DEPOSIT_CASHED,
        ]

    @classmethod
    def with_receipt(cls) -> list[str]:
        """Money the family hands over gets a numbered receipt."""
        return [cls.PAYMENT, cls.DEPOSIT_RECEIVED]


# The sign each kind gives its amount in the ledger's three sums (a reversal, same kind and opposite
# amount, needs no special case). Owed: charges (unless waived) and refunds add; payments and cashed
# deposits subtract.
OWED_UP = [*Kind.charges(), Kind.REFUND]
OWED_DOWN = [Kind.PAYMENT, Kind.DEPOSIT_CASHED]
HELD_UP = [Kind.DEPOSIT_RECEIVED]  # the deposits the ludothèque holds for the family
HELD_DOWN = [Kind.DEPOSIT_RETURNED, Kind.DEPOSIT_CASHED]
# Money through the till (a cashed deposit stays put).
TILL_IN = [Kind.PAYMENT, Kind.DEPOSIT_RECEIVED]
TILL_OUT = [Kind.REFUND, Kind.DEPOSIT_RETURNED]
DEPOSIT_KINDS = [Kind.DEPOSIT_RECEIVED, Kind.DEPOSIT_RETURNED]


def _signed(up: list[str], down: list[str], **only) -> Case:
    return Case(
        When(Q(kind__in=up, **only), then=F("amount")),
        When(kind__in=down, then=-F("amount")),
        default=Value(ZERO),
        output_field=Money(),
    )


def owed_effect() -> Case:
    """An entry's effect on what the family owes (a waived charge counts for nothing)."""
    return Case(
        When(kind__in=Kind.charges(), waived=True, then=Value(ZERO)),
        default=_signed(OWED_UP, OWED_DOWN),
        output_field=Money(),
    )


def held_effect() -> Case:
    """An entry's effect on the deposits held for the family."""
    return _signed(HELD_UP, HELD_DOWN)


def till_effect() -> Case:
    """An entry's effect on the till: money in is positive, money out negative."""
    return _signed(TILL_IN, TILL_OUT)


def member_balance() -> Coalesce:
    """What a family owes, as an expression for annotating families: `.annotate(balance=member_balance())`."""
    owed = (
        Entry.objects.filter(member=OuterRef("pk"))
        .order_by()
        .values("member")
        .annotate(total=money_sum(owed_effect()))
        .values("total")
    )
    return Coalesce(Subquery(owed), Value(ZERO), output_field=Money())


def owing(families: models.QuerySet) -> models.QuerySet:
    """The families that owe the ludothèque money, annotated with their `balance`."""
    return families.annotate(balance=member_balance()).filter(balance__gt=0)


class EntryQuerySet(AppendOnlyQuerySet):
    def balance(self) -> Decimal:
        """What the families of these entries owe in total (negative: the ludothèque owes them)."""
        return self.aggregate(total=Coalesce(money_sum(owed_effect()), Value(ZERO)))["total"]

    def deposit_total(self) -> Decimal:
        """The deposits these entries leave held."""
        return self.aggregate(total=Coalesce(money_sum(held_effect()), Value(ZERO)))["total"]

    def charges(self) -> "EntryQuerySet":
        return self.filter(kind__in=Kind.charges())

    def not_reversed(self) -> "EntryQuerySet":
        """Entries that are no reversal and that nothing reversed."""
        return self.filter(reverses__isnull=True, reversal__isnull=True)

    def deposits_held(self) -> "EntryQuerySet":
        """Deposits received, not reversed, and neither returned nor cashed (or that step reversed)."""
        settled = Entry.objects.filter(deposit=OuterRef("pk")).not_reversed()
        return self.filter(kind=Kind.DEPOSIT_RECEIVED).not_reversed().exclude(Exists(settled))

    def in_period(self, *, site, after=None, until=None) -> "EntryQuerySet":
        """The entries of a site's till period: after the previous closure, up to `until` included."""
        entries = self.filter(site=site)
        if after is not None:
            entries = entries.filter(recorded_at__gt=after)
        if until is not None:
            entries = entries.filter(recorded_at__lte=until)
        return entries

    def till_totals(self) -> dict[str, dict[str, Decimal]]:
        """Money in minus money out per method, split into payments and deposits: {method: {...}}."""
        rows = (
            self.filter(kind__in=[*TILL_IN, *TILL_OUT])
            .order_by()
            .values("method")
            .annotate(
                payments=Coalesce(money_sum(till_effect(), filter=~Q(kind__in=DEPOSIT_KINDS)), Value(ZERO)),
                deposits=Coalesce(money_sum(till_effect(), filter=Q(kind__in=DEPOSIT_KINDS)), Value(ZERO)),
            )
        )
        totals = {method: {"payments": ZERO, "deposits": ZERO, "total": ZERO} for method in Method.values}
        for row in rows:
            totals[row["method"]] = {
                "payments": row["payments"],
                "deposits": row["deposits"],
                "total": row["payments"] + row["deposits"],
            }
        return totals

    def notes_erase(self) -> int:
        """Empty these entries' notes (free text about a family that is erased): the one change an entry
        ever goes through; the database allows it and no other (migration 0004)."""
        return models.QuerySet.update(self.exclude(note=""), note="")

    def for_display(self) -> "EntryQuerySet":
        """Fetch what a list of entries shows (family, site, clerk, loan's game, reversal) in one query."""
        return self.select_related(
            "member", "site", "clerk", "copy__game", "missing_piece__component"
        ).annotate(reversed_by_id=Subquery(Entry.objects.filter(reverses=OuterRef("pk")).values("pk")[:1]))


class Entry(AppendOnlyModel):
    """One line of a family's ledger: a charge, money received or given back, or a deposit's step; or
    one of the ludothèque's own expenses (no family: it changes no family's balance, nor the till)."""

    member = models.ForeignKey(
        "members.Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("famille"),
    )
    kind = models.CharField(_("nature"), max_length=20, choices=Kind)
    # Positive, except in a reversal (the opposite of the amount it reverses).
    amount = models.DecimalField(_("montant (€)"), **MONEY)
    method = models.CharField(_("mode de paiement"), max_length=20, choices=Method, blank=True)
    cheque_number = models.CharField(_("numéro du chèque"), max_length=40, blank=True)
    recorded_at = models.DateTimeField(_("date"), default=timezone.now)
    site = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="ledger_entries", verbose_name=_("site")
    )
    clerk = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("saisie par")
    )
    loan = models.ForeignKey(
        "loans.Loan",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("prêt"),
    )
    copy = models.ForeignKey(
        "catalogue.Copy",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("exemplaire"),
    )
    # The pieces a missing-piece charge is for: it is credited back when they come back.
    missing_piece = models.ForeignKey(
        "loans.MissingPiece",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("pièces manquantes"),
    )
    # The deposit a return or a cashing settles (its "received" entry).
    deposit = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="settlements",
        verbose_name=_("caution"),
    )
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversal",
        verbose_name=_("annule l'écriture"),
    )
    # A fee the clerk chose not to charge: recorded with its amount, counts for nothing.
    waived = models.BooleanField(_("remis"), default=False)
    receipt_year = models.PositiveSmallIntegerField(_("année du reçu"), null=True, blank=True)
    receipt_number = models.PositiveIntegerField(_("numéro du reçu"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["-recorded_at", "-pk"]
        verbose_name = _("écriture")
        verbose_name_plural = _("écritures")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=Kind.values),
                name="ledger_entry_kind_known",
                violation_error_message=_("Nature d'écriture inconnue."),
            ),
            models.CheckConstraint(
                condition=Q(amount__lt=BEYOND_MONEY),
                name="ledger_entry_amount_a_number",
                violation_error_message=_("Le montant doit être un nombre."),
            ),
            models.CheckConstraint(
                condition=Q(reverses__isnull=True, amount__gt=0) | Q(reverses__isnull=False, amount__lt=0),
                name="ledger_entry_amount_sign",
                violation_error_message=_(
                    "Le montant est positif ; seule une annulation porte un montant négatif."
                ),
            ),
            models.CheckConstraint(
                condition=Q(member__isnull=True, kind=Kind.EXPENSE)
                | Q(member__isnull=False) & ~Q(kind=Kind.EXPENSE),
                name="ledger_entry_member_unless_expense",
                violation_error_message=_(
                    "Une écriture concerne une famille, sauf une dépense de la ludothèque."
                ),
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[*Kind.charges(), Kind.EXPENSE], method="")
                | Q(kind__in=Kind.with_method(), method__in=Method.values),
                name="ledger_entry_method_iff_money",
                violation_error_message=_(
                    "Un paiement, un remboursement ou une caution a un mode de paiement ; un frais n'en a pas."
                ),
            ),
            models.CheckConstraint(
                condition=Q(method=Method.CHEQUE) & ~Q(cheque_number="")
                | ~Q(method=Method.CHEQUE) & Q(cheque_number=""),
                name="ledger_entry_cheque_number_iff_cheque",
                violation_error_message=_("Un chèque a un numéro ; les autres modes n'en ont pas."),
            ),
            models.CheckConstraint(
                condition=Q(waived=False) | Q(kind__in=Kind.charges(), reverses__isnull=True),
                name="ledger_entry_only_charges_waived",
                violation_error_message=_("Seul un frais peut être remis."),
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[Kind.DEPOSIT_RETURNED, Kind.DEPOSIT_CASHED], deposit__isnull=False)
                | ~Q(kind__in=[Kind.DEPOSIT_RETURNED, Kind.DEPOSIT_CASHED]) & Q(deposit__isnull=True),
                name="ledger_entry_deposit_iff_settlement",
                violation_error_message=_("Rendre ou encaisser une caution désigne la caution reçue."),
            ),
            models.CheckConstraint(
                condition=Q(missing_piece__isnull=True) | Q(kind=Kind.MISSING_PIECE),
                name="ledger_entry_missing_piece_only_on_its_charge",
                violation_error_message=_("Seul le frais d'une pièce manquante désigne des pièces."),
            ),
            models.CheckConstraint(
                condition=Q(receipt_year__isnull=True, receipt_number__isnull=True)
                | Q(
                    receipt_year__isnull=False,
                    receipt_number__gte=1,
                    kind__in=Kind.with_receipt(),
                    reverses__isnull=True,
                ),
                name="ledger_entry_receipt_only_for_money_received",
                violation_error_message=_("Seul l'argent reçu d'une famille a un reçu."),
            ),
            models.UniqueConstraint(
                fields=["receipt_year", "receipt_number"],
                name="ledger_entry_unique_receipt_number",
                violation_error_message=_("Ce numéro de reçu est déjà pris."),
            ),
        ]
        indexes = [
            # A family's ledger and its balance (EntryQuerySet.balance(), member_balance()).
            models.Index(fields=["member", "recorded_at"], name="ledger_entry_member_idx"),
            # A site's till period (EntryQuerySet.in_period()) and the closed-period check.
            models.Index(fields=["site", "recorded_at"], name="ledger_entry_site_idx"),
            # The reports by month (views.reports).
            models.Index(fields=["recorded_at"], name="ledger_entry_recorded_at_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.pk} · {self.get_kind_display()} {self.amount} €"

    def get_absolute_url(self) -> str:
        if self.member_id is None:  # an expense: the ludothèque's books
            return reverse("ledger:reports")
        return reverse("ledger:family", kwargs={"pk": self.member_id}) + f"#entry-{self.pk}"

    @property
    def debit(self) -> Decimal | None:
        """What this entry adds to what the family owes, if it adds anything."""
        return self.owed_change if self.owed_change > 0 else None

    @property
    def credit(self) -> Decimal | None:
        """What this entry takes off what the family owes, if it takes anything off."""
        return -self.owed_change if self.owed_change < 0 else None

    @property
    def is_charge(self) -> bool:
        return self.kind in Kind.charges()

    @property
    def receipt(self) -> str:
        """The receipt's number as printed (`2026-0042`), or an empty string."""
        return f"{self.receipt_year}-{self.receipt_number:04d}" if self.receipt_number else ""

    @property
    def owed_change(self) -> Decimal:
        """How much this entry changes what the family owes (the Python twin of owed_effect())."""
        if self.waived:
            return ZERO
        if self.kind in OWED_UP:
            return self.amount
        if self.kind in OWED_DOWN:
            return -self.amount
        return ZERO


class ReceiptCounter(models.Model):
    """The last receipt number given in a year; its row is locked while a payment takes the next one."""

    year = models.PositiveSmallIntegerField(_("année"), primary_key=True)
    last_number = models.PositiveIntegerField(_("dernier numéro"), default=0)

    class Meta:
        ordering = ["year"]
        verbose_name = _("compteur de reçus")
        verbose_name_plural = _("compteurs de reçus")

    def __str__(self) -> str:
        return f"{self.year}: {self.last_number}"


from .memberships import Membership  # noqa: E402, F401 - the periods of membership, paid at the desk
from .till import TillClosure, TillClosureReversal  # noqa: E402, F401 - the till's models, with its writes
