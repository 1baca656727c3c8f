"""Kits (« malles »): a named crate of copies and loose material, lent to a group as one.

A kit has its own barcode and checklist. Its copies stay copies of the catalogue: each keeps its
own loans (the loans app's `Loan`, one per copy, made by the loans app's services) and its own
pieces check. A copy belongs to at most one kit, and while it does it is « réservé à la malle »: it
goes out only with its kit (the catalogue's registry of copies kept elsewhere, `apps.py`), whether
the kit is at home or out.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Exists, F, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy
from members.models import Member


class Kit(models.Model):
    """A crate of games lent as one (« malle »): its copies, its loose material, its barcode."""

    name = models.CharField(_("nom"), max_length=120, unique=True)
    barcode = models.CharField(
        _("code-barres"),
        max_length=40,
        unique=True,
        help_text=_("Collé sur la malle ; différent de ceux des exemplaires et des cartes."),
    )
    site = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="kits", verbose_name=_("site")
    )
    description = models.TextField(_("description"), blank=True)
    material = models.TextField(
        _("matériel en plus des jeux"),
        blank=True,
        help_text=_("Une ligne par élément à vérifier au retour : « 1 tapis », « 2 sacs »."),
    )
    material_missing = models.TextField(
        _("matériel manquant"),
        blank=True,
        help_text=_("Noté au dernier retour ; videz-le quand le matériel est revenu ou remplacé."),
    )
    loan_period_days = models.PositiveSmallIntegerField(
        _("durée du prêt (jours)"),
        null=True,
        blank=True,
        help_text=_("Vide : celle de l'adhésion de l'emprunteur."),
    )
    created_at = models.DateTimeField(_("créée le"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("malle")
        verbose_name_plural = _("malles")
        constraints = [
            models.CheckConstraint(
                condition=Q(loan_period_days__isnull=True) | Q(loan_period_days__gte=1),
                name="kits_kit_period_positive",
                violation_error_message=_("Un prêt dure au moins un jour."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.barcode})"

    def get_absolute_url(self) -> str:
        return reverse("kits:kit-detail", kwargs={"pk": self.pk})

    def clean(self) -> None:
        super().clean()
        barcode = self.barcode.strip()
        if (
            Copy.objects.filter(barcode__iexact=barcode).exists()
            or Member.objects.filter(card_barcode__iexact=barcode).exists()
        ):
            raise ValidationError(
                {
                    "barcode": _(
                        "Un exemplaire ou une carte porte déjà ce code-barres : le comptoir les confondrait."
                    )
                },
                code="barcode_taken",
            )

    def material_lines(self) -> list[str]:
        """The loose material, one item a line, as the checklist shows it."""
        return [line.strip() for line in self.material.splitlines() if line.strip()]


class KitItem(models.Model):
    """A copy in a kit; a copy is in at most one kit."""

    kit = models.ForeignKey(Kit, on_delete=models.CASCADE, related_name="items", verbose_name=_("malle"))
    copy = models.ForeignKey(
        "catalogue.Copy", on_delete=models.PROTECT, related_name="kit_items", verbose_name=_("exemplaire")
    )

    class Meta:
        ordering = ["kit", "copy__game__title", "copy__barcode"]
        verbose_name = _("exemplaire de la malle")
        verbose_name_plural = _("exemplaires de la malle")
        constraints = [
            # Also the index of reserved_for_kit(): a copy's kit, probed by copy.
            models.UniqueConstraint(
                fields=["copy"],
                name="kits_kititem_one_kit_per_copy",
                violation_error_message=_("Cet exemplaire est déjà dans une malle."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kit.name} — {self.copy.barcode}"


class KitLoanQuerySet(models.QuerySet):
    def open(self) -> "KitLoanQuerySet":
        return self.filter(returned_at__isnull=True)


class KitLoan(models.Model):
    """A kit lent to a borrower (a group, usually), from lending to return. Never deleted."""

    kit = models.ForeignKey(Kit, on_delete=models.PROTECT, related_name="loans", verbose_name=_("malle"))
    member = models.ForeignKey(
        "members.Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="kit_loans",
        verbose_name=_("emprunteur"),
    )
    lent_at = models.DateTimeField(_("prêtée le"), default=timezone.now)
    lent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("prêtée par")
    )
    due_on = models.DateField(_("à rendre le"))
    returned_at = models.DateTimeField(_("rendue le"), null=True, blank=True)
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reprise par"),
    )
    material_missing = models.TextField(_("matériel manquant au retour"), blank=True)

    objects = KitLoanQuerySet.as_manager()

    class Meta:
        ordering = ["-lent_at"]
        verbose_name = _("prêt de malle")
        verbose_name_plural = _("prêts de malles")
        constraints = [
            models.UniqueConstraint(
                fields=["kit"],
                condition=Q(returned_at__isnull=True),
                name="kits_kitloan_one_open_per_kit",
                violation_error_message=_("Cette malle est déjà prêtée."),
            ),
            models.CheckConstraint(
                condition=Q(returned_at__isnull=True) | Q(returned_at__gte=F("lent_at")),
                name="kits_kitloan_returned_after_lent",
                violation_error_message=_("Une malle est rendue après avoir été prêtée."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kit.name} ({self.lent_at:%Y-%m-%d})"

    @property
    def is_open(self) -> bool:
        return self.returned_at is None


class KitLoanCopy(models.Model):
    """A copy that went out with a kit, and its own loan (the loans app's)."""

    kit_loan = models.ForeignKey(
        KitLoan, on_delete=models.PROTECT, related_name="lines", verbose_name=_("prêt de malle")
    )
    copy = models.ForeignKey(
        "catalogue.Copy", on_delete=models.PROTECT, related_name="+", verbose_name=_("exemplaire")
    )
    # Empty only inside the transaction that lends the kit, between this row and the copy's loan:
    # reserved_for_kit() lets the desk lend the copy in that moment, and never outside it.
    loan = models.OneToOneField(
        "loans.Loan",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="kit_line",
        verbose_name=_("prêt de l'exemplaire"),
    )

    class Meta:
        ordering = ["kit_loan", "pk"]
        verbose_name = _("exemplaire prêté avec la malle")
        verbose_name_plural = _("exemplaires prêtés avec la malle")
        constraints = [
            models.UniqueConstraint(fields=["kit_loan", "copy"], name="kits_kitloancopy_once_per_loan"),
        ]
        indexes = [
            # reserved_for_kit(): a copy being lent with its kit right now.
            models.Index(
                fields=["copy"], condition=Q(loan__isnull=True), name="kits_kitloancopy_pending_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kit_loan} — {self.copy.barcode}"


def reserved_for_kit():
    """True for the copy `OuterRef("pk")` while it is in a kit, except in the moment its kit lends it."""
    lending = KitLoanCopy.objects.filter(copy=OuterRef("copy"), loan__isnull=True)
    return Exists(KitItem.objects.filter(copy=OuterRef("pk")).filter(~Exists(lending)))


def reserved_for_kit_label() -> str:
    return str(_("réservé à sa malle : il ne sort qu'avec elle"))
