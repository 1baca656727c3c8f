"""The periods of a family's membership, recorded when it is renewed at the desk with its charge.

A period is history, like the entries: appended, never changed (the database refuses it too, ledger
migration 0002). It stays in the ledger, beside the charge that paid for it; the family and its kind
of membership are the members app's.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import BEYOND_MONEY, MONEY, AppendOnlyModel, AppendOnlyQuerySet, Entry


class Membership(AppendOnlyModel):
    """One period of a family's membership, recorded when it is renewed at the desk."""

    member = models.ForeignKey(
        "members.Member", on_delete=models.PROTECT, related_name="memberships", verbose_name=_("famille")
    )
    membership_type = models.ForeignKey(
        "members.MembershipType",
        on_delete=models.PROTECT,
        related_name="memberships",
        verbose_name=_("type d'adhésion"),
    )
    start = models.DateField(_("début"))
    end = models.DateField(_("fin"))
    price = models.DecimalField(_("prix (€)"), **MONEY)
    charge = models.OneToOneField(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="membership",
        verbose_name=_("frais d'adhésion"),
    )
    created_at = models.DateTimeField(_("enregistrée le"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("par")
    )

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["-start", "-pk"]
        verbose_name = _("adhésion")
        verbose_name_plural = _("adhésions")
        constraints = [
            models.CheckConstraint(
                condition=Q(start__lte=F("end")),
                name="ledger_membership_start_lte_end",
                violation_error_message=_("L'adhésion ne peut pas finir avant d'avoir commencé."),
            ),
            models.CheckConstraint(
                condition=Q(price__gte=0, price__lt=BEYOND_MONEY),
                name="ledger_membership_price_not_negative",
                violation_error_message=_("Le prix ne peut pas être négatif."),
            ),
            models.CheckConstraint(
                condition=Q(charge__isnull=True, price=0) | Q(charge__isnull=False, price__gt=0),
                name="ledger_membership_charged_iff_priced",
                violation_error_message=_(
                    "Une adhésion payante est facturée, une adhésion gratuite ne l'est pas."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership_type} ({self.start} – {self.end})"
