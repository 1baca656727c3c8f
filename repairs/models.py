"""Repairs: a copy taken off the shelves to be mended, why, by whom, what was done and what it cost.

A repair is history: it is never deleted (PROTECT foreign keys, a read-only admin, no delete in the API,
and PostgreSQL refuses it: migration 0001); its cost, once the copy is back, is a ledger entry (the
ludothèque's expense, or a charge to the family who had the copy), corrected by a reversal, never edited.
The copy's status says it is « en réparation » (`Copy.Status.IN_REPAIR`); the open repair says why.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy
from ledger.models import MONEY, Entry


class RepairQuerySet(models.QuerySet):
    def open(self) -> "RepairQuerySet":
        """Repairs whose copy is not back on the shelves yet (the queue)."""
        return self.filter(closed_at__isnull=True)

    def closed(self) -> "RepairQuerySet":
        return self.filter(closed_at__isnull=False)

    def for_display(self) -> "RepairQuerySet":
        """What a list of repairs shows (the copy, its game and site, the clerks, the family) in one query."""
        return self.select_related(
            "copy__game", "copy__location", "opened_by", "closed_by", "loan__member", "entry"
        )


class Repair(models.Model):
    """One stay of a copy in repair, from the day it left the shelves to the day it came back."""

    class ChargedTo(models.TextChoices):
        LUDOTHEQUE = "ludotheque", _("La ludothèque")
        FAMILY = "family", _("La famille qui avait le jeu")

    copy = models.ForeignKey(
        Copy, on_delete=models.PROTECT, related_name="repairs", verbose_name=_("exemplaire")
    )
    reason = models.CharField(_("raison"), max_length=200)
    # The return that found the damage, when it came from one: the family who had the copy.
    loan = models.ForeignKey(
        "loans.Loan",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("prêt rendu"),
    )
    # The status the copy had before (on the shelf, incomplete, kept from lending): it goes back to it.
    status_before = models.CharField(_("statut avant"), max_length=20, choices=Copy.Status)
    opened_at = models.DateTimeField(_("envoyé en réparation le"), default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("envoyé par")
    )
    notes = models.TextField(_("ce qui a été fait"), blank=True)
    charged_to = models.CharField(
        _("à la charge de"), max_length=20, choices=ChargedTo, default=ChargedTo.LUDOTHEQUE
    )
    cost = models.DecimalField(_("coût (€)"), null=True, blank=True, **MONEY)
    # The ledger entry of the cost (an expense of the ludothèque, or a charge to the family).
    entry = models.OneToOneField(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="repair",
        verbose_name=_("écriture"),
    )
    closed_at = models.DateTimeField(_("remis en rayon le"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("remis en rayon par"),
    )

    objects = RepairQuerySet.as_manager()

    class Meta:
        ordering = ["-opened_at", "-pk"]
        verbose_name = _("réparation")
        verbose_name_plural = _("réparations")
        constraints = [
            models.UniqueConstraint(
                fields=["copy"],
                condition=Q(closed_at__isnull=True),
                name="repairs_repair_one_open_per_copy",
                violation_error_message=_("Cet exemplaire est déjà en réparation."),
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=F("opened_at")),
                name="repairs_repair_closed_after_opened",
                violation_error_message=_("Une réparation se termine après avoir commencé."),
            ),
            models.CheckConstraint(
                condition=Q(
                    closed_at__isnull=True, closed_by__isnull=True, cost__isnull=True, entry__isnull=True
                )
                | Q(closed_at__isnull=False, closed_by__isnull=False),
                name="repairs_repair_closed_by_whom",
                violation_error_message=_("Une réparation terminée dit par qui ; son coût vient à la fin."),
            ),
            models.CheckConstraint(
                condition=Q(cost__isnull=True) | Q(cost__gte=0),
                name="repairs_repair_cost_not_negative",
                violation_error_message=_("Le coût ne peut pas être négatif."),
            ),
            models.CheckConstraint(
                condition=~Q(charged_to="family") | Q(loan__isnull=False),
                name="repairs_repair_family_charged_from_a_return",
                violation_error_message=_(
                    "Seule une réparation venue d'un retour peut être facturée à une famille."
                ),
            ),
        ]
        indexes = [
            # The queue (Repair.objects.open()), oldest first.
            models.Index(
                fields=["opened_at"], condition=Q(closed_at__isnull=True), name="repairs_repair_open_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.copy.barcode} — {self.reason}"

    def get_absolute_url(self) -> str:
        return reverse("repairs:repair-detail", kwargs={"pk": self.pk})

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @property
    def family(self):
        """The family who had the copy when the damage was found at its return, or None."""
        return self.loan.member if self.loan_id else None
