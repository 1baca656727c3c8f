"""Stocktakes (inventaire, PMB's « pointage »): every copy on the shelves scanned, what is missing found.

A stocktake covers one site or all of them. Each scan is a row, never changed nor deleted; what a
scan means (on its shelf, from another site, on loan, unexpected, unknown) is worked out from the
copy as it is, so a stocktake can be resumed any day. Closing it freezes the scans; the changes its
report then makes (missing copies marked lost, misplaced ones moved) are recorded with it.
"""

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy, Location
from loans.models import Hold, Loan, Transfer

# Statuses of the copies that should be on a shelf: one in repair may be at a volunteer's (never
# « missing »: the report lists it apart), a lost or withdrawn one is not looked for (found again, it is
# "unexpected").
EXPECTED_STATUSES = [Copy.Status.ON_SHELF, Copy.Status.INCOMPLETE, Copy.Status.NOT_FOR_LOAN]


def on_loan() -> Exists:
    """Whether the copy (OuterRef) has an open loan."""
    return Exists(Loan.objects.open().filter(copy=OuterRef("pk")))


def set_aside() -> Exists:
    """Whether the copy (OuterRef) waits at the desk for the family that reserved it."""
    return Exists(Hold.objects.ready().filter(copy=OuterRef("pk")))


class StocktakeQuerySet(models.QuerySet):
    def open(self) -> "StocktakeQuerySet":
        return self.filter(closed_at__isnull=True)


class Stocktake(models.Model):
    """One count of the shelves of a site (or of every site), from one or several devices at once."""

    location = models.ForeignKey(
        Location,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="stocktakes",
        verbose_name=_("localisation"),
        help_text=_("Vide : tous les sites."),
    )
    started_at = models.DateTimeField(_("commencé le"), default=timezone.now)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("commencé par")
    )
    closed_at = models.DateTimeField(_("clos le"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("clos par"),
    )

    objects = StocktakeQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("inventaire")
        verbose_name_plural = _("inventaires")
        constraints = [
            # A stocktake of every site (no location) counts as site 0: NULLs are distinct in a unique
            # index, and SQLite knows no NULLS NOT DISTINCT; an index on an expression both have.
            models.UniqueConstraint(
                Coalesce("location", Value(0)),
                condition=Q(closed_at__isnull=True),
                name="inventory_stocktake_one_open_per_location",
                violation_error_message=_("Un inventaire de ce site est déjà en cours."),
            ),
        ]

    def __str__(self) -> str:
        where = self.location.name if self.location else _("tous les sites")
        return f"{where} — {timezone.localtime(self.started_at):%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("inventory:stocktake-detail", kwargs={"pk": self.pk})

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    def scanned_copies(self) -> models.QuerySet:
        """The copies scanned at least once."""
        return Copy.objects.filter(pk__in=self.scans.filter(copy__isnull=False).values("copy"))

    def expected_copies(self) -> models.QuerySet:
        """The copies that should be on the shelves counted: their status says so, no family has them
        and none is kept at the desk for a hold (marking it lost would take it from its family)."""
        copies = Copy.objects.filter(status__in=EXPECTED_STATUSES).exclude(on_loan()).exclude(set_aside())
        return copies.filter(location=self.location_id) if self.location_id else copies

    def missing_copies(self) -> models.QuerySet:
        return self.expected_copies().exclude(pk__in=self.scans.filter(copy__isnull=False).values("copy"))

    def misplaced_copies(self) -> models.QuerySet:
        """Scanned here but recorded on another site (a stocktake of every site has none); a copy in
        transit, or set aside at its family's pick-up site, is where it should be."""
        if not self.location_id:
            return Copy.objects.none()
        return (
            self.scanned_copies()
            .exclude(location=self.location_id)
            .exclude(on_loan())
            .exclude(set_aside())
            .exclude(status=Copy.Status.IN_TRANSIT)
        )

    def in_transit_copies(self) -> models.QuerySet:
        """The copies between this site and another (to send from here, or on their way from or to
        it): neither missing nor expected on its shelves (loans/transfers.py)."""
        lines = Transfer.objects.open()
        if self.location_id:
            lines = lines.filter(Q(from_site=self.location_id) | Q(to_site=self.location_id))
        return Copy.objects.filter(status=Copy.Status.IN_TRANSIT, pk__in=lines.values("copy"))

    def on_loan_copies(self) -> models.QuerySet:
        """Scanned on the shelves although a loan is still open: a return that was not recorded."""
        return self.scanned_copies().filter(on_loan())

    def unexpected_copies(self) -> models.QuerySet:
        """Scanned although their status says they are lost or withdrawn."""
        return (
            self.scanned_copies()
            .exclude(status__in=[*EXPECTED_STATUSES, Copy.Status.IN_REPAIR, Copy.Status.IN_TRANSIT])
            .exclude(on_loan())
        )

    def in_repair_copies(self) -> models.QuerySet:
        """The copies of the site counted that are in repair, scanned or not: neither missing nor
        unexpected, listed apart (a scanned one may be repaired: « Réparé, remettre en rayon »)."""
        copies = Copy.objects.filter(status=Copy.Status.IN_REPAIR)
        return copies.filter(location=self.location_id) if self.location_id else copies

    def unknown_barcodes(self) -> list[str]:
        return list(
            self.scans.filter(copy__isnull=True)
            .order_by("barcode")
            .values_list("barcode", flat=True)
            .distinct()
        )


class Scan(models.Model):
    """One barcode read during a stocktake, as it was read; a repeated scan is one more row."""

    class Outcome(models.TextChoices):
        FOUND = "found", _("En place")
        MISPLACED = "misplaced", _("Rangé sur un autre site")
        ON_LOAN = "on_loan", _("Enregistré en prêt")
        IN_REPAIR = "in_repair", _("Enregistré en réparation")
        IN_TRANSIT = "in_transit", _("En transit entre deux sites")
        UNEXPECTED = "unexpected", _("Statut inattendu")
        UNKNOWN = "unknown", _("Code-barres inconnu")

    stocktake = models.ForeignKey(
        Stocktake, on_delete=models.PROTECT, related_name="scans", verbose_name=_("inventaire")
    )
    barcode = models.CharField(_("code-barres lu"), max_length=40)
    copy = models.ForeignKey(
        Copy, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("exemplaire")
    )
    scanned_at = models.DateTimeField(_("scanné le"), default=timezone.now)
    scanned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("scanné par")
    )

    class Meta:
        ordering = ["-scanned_at", "-pk"]
        verbose_name = _("lecture")
        verbose_name_plural = _("lectures")
        indexes = [
            # Stocktake.scanned_copies() and missing_copies(): the copies a stocktake has seen.
            models.Index(fields=["stocktake", "copy"], name="inventory_scan_copy_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.barcode} ({timezone.localtime(self.scanned_at):%Y-%m-%d %H:%M:%S})"

    def outcome(self, *, copy_on_loan: bool) -> "Scan.Outcome":
        """What this scan tells about its copy, as the copy is now."""
        if self.copy is None:
            return Scan.Outcome.UNKNOWN
        if copy_on_loan:
            return Scan.Outcome.ON_LOAN
        if self.copy.status == Copy.Status.IN_TRANSIT:
            return Scan.Outcome.IN_TRANSIT
        if self.stocktake.location_id and self.copy.location_id != self.stocktake.location_id:
            return Scan.Outcome.MISPLACED
        if self.copy.status == Copy.Status.IN_REPAIR:
            return Scan.Outcome.IN_REPAIR
        if self.copy.status not in EXPECTED_STATUSES:
            return Scan.Outcome.UNEXPECTED
        return Scan.Outcome.FOUND


class StocktakeChange(models.Model):
    """A change a closed stocktake made to a copy: marked lost, or moved to the site counted."""

    class Kind(models.TextChoices):
        LOST = "lost", _("Marqué perdu")
        MOVED = "moved", _("Rangé sur le site inventorié")

    stocktake = models.ForeignKey(
        Stocktake, on_delete=models.PROTECT, related_name="changes", verbose_name=_("inventaire")
    )
    copy = models.ForeignKey(
        Copy, on_delete=models.PROTECT, related_name="stocktake_changes", verbose_name=_("exemplaire")
    )
    kind = models.CharField(_("changement"), max_length=10, choices=Kind)
    before = models.CharField(_("avant"), max_length=120)
    after = models.CharField(_("après"), max_length=120)
    made_at = models.DateTimeField(_("le"), default=timezone.now)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("par")
    )

    class Meta:
        ordering = ["stocktake_id", "kind", "pk"]
        verbose_name = _("changement d'inventaire")
        verbose_name_plural = _("changements d'inventaire")

    def __str__(self) -> str:
        return f"{self.copy.barcode} : {self.before} → {self.after}"
