"""The ludobus desk's offline actions, once sent back: each one replayed once, its outcome kept.

The offline desk (static/js/tour.js) records a loan, a return or a visit in the browser with an id
it makes (a UUID). Sent back, each action is replayed through the live desk's services
(ludobus/replay.py) and recorded here under that id, in the same transaction as what it wrote: the
same action sent twice finds its row and is not applied again. What the services refuse now (the copy
was returned elsewhere meanwhile, the family's membership ended, its quota is reached) is kept as a
conflict for staff to settle, never dropped.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class OfflineActionQuerySet(models.QuerySet):
    def conflicts(self) -> "OfflineActionQuerySet":
        return self.filter(status=OfflineAction.Status.CONFLICT)


class OfflineAction(models.Model):
    """One action of the offline desk, replayed: what was done, where, when, and what came of it."""

    class Kind(models.TextChoices):
        LEND = "lend", _("prêt")
        RETURN = "return", _("retour")
        VISIT = "visit", _("visite")

    class Status(models.TextChoices):
        APPLIED = "applied", _("enregistrée")
        CONFLICT = "conflict", _("conflit à régler")
        APPLIED_LATER = "applied_later", _("enregistrée après règlement")
        DISMISSED = "dismissed", _("classée sans suite")

    # Made by the browser that recorded the action: its uniqueness is what makes a replay idempotent.
    id = models.UUIDField(_("identifiant"), primary_key=True)
    kind = models.CharField(_("action"), max_length=10, choices=Kind)
    location = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="+", verbose_name=_("site")
    )
    # The desk's order: the browser numbers its actions, and sends and replays them in that order.
    sequence = models.PositiveIntegerField(_("ordre"))
    recorded_at = models.DateTimeField(_("faite le (hors ligne)"))
    received_at = models.DateTimeField(_("reçue le"), auto_now_add=True)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("envoyée par")
    )
    # What the desk recorded: a card, a barcode, the pieces found missing, the people counted.
    payload = models.JSONField(_("contenu"))
    status = models.CharField(_("état"), max_length=20, choices=Status)
    reason_code = models.CharField(_("code du motif"), max_length=40, blank=True)
    reason = models.TextField(_("motif"), blank=True)
    loan = models.ForeignKey(
        "loans.Loan",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("prêt"),
    )
    visit = models.ForeignKey(
        "onsite.Visit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("visite"),
    )
    settled_at = models.DateTimeField(_("réglée le"), null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("réglée par"),
    )
    note = models.CharField(_("note"), max_length=300, blank=True)

    objects = OfflineActionQuerySet.as_manager()

    class Meta:
        ordering = ["received_at", "sequence"]
        verbose_name = _("action hors ligne")
        verbose_name_plural = _("actions hors ligne")
        indexes = [
            # The conflicts page: the actions still to settle.
            models.Index(
                fields=["received_at"], condition=Q(status="conflict"), name="ludobus_action_conflicts"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(settled_at__isnull=True) | Q(status__in=["applied_later", "dismissed"]),
                name="ludobus_action_settled_has_a_settlement",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.recorded_at:%d/%m/%Y %H:%M} ({self.get_status_display()})"

    @property
    def card(self) -> str:
        return str(self.payload.get("card", ""))

    @property
    def barcode(self) -> str:
        return str(self.payload.get("barcode", ""))
