"""The loan desk: members, loans, holds."""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class LoanQuerySet(models.QuerySet):
    def open(self) -> "LoanQuerySet":
        """Loans whose copy has not come back yet."""
        return self.filter(returned_at__isnull=True)


class Loan(models.Model):
    """One copy lent to one family, from lending to return. Never deleted."""

    copy = models.ForeignKey(
        "catalogue.Copy", on_delete=models.PROTECT, related_name="loans", verbose_name=_("exemplaire")
    )
    lent_at = models.DateTimeField(_("prêté le"), default=timezone.now)
    due_on = models.DateField(_("à rendre le"))
    returned_at = models.DateTimeField(_("rendu le"), null=True, blank=True)

    objects = LoanQuerySet.as_manager()

    class Meta:
        ordering = ["-lent_at"]
        verbose_name = _("prêt")
        verbose_name_plural = _("prêts")
        constraints = [
            models.UniqueConstraint(
                fields=["copy"],
                condition=Q(returned_at__isnull=True),
                name="loans_loan_one_open_per_copy",
                violation_error_message=_("Cet exemplaire est déjà en prêt."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.copy} ({self.lent_at:%Y-%m-%d})"
