"""Copies moving between sites: a shipment (a crate) and its lines, one per copy. Never deleted.

A line is opened when a copy must travel (a hold to collect at another site, a return sent home, a
copy put in a crate); from then on the copy's status is « en transit » (Copy.Status.IN_TRANSIT): it
is neither on a shelf nor lendable. The desk of the site it leaves sends it (the line joins a
shipment: who sent it, when), the desk of the site it reaches scans it in (who received it, when).
The writes are loans/transfers.py; `loans.models` exports these models.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Shipment(models.Model):
    """One send from a site to another: the copies put in the same crate, by the same clerk."""

    from_site = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="+", verbose_name=_("de")
    )
    to_site = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="+", verbose_name=_("vers")
    )
    sent_at = models.DateTimeField(_("envoyé le"), default=timezone.now)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("envoyé par")
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["-sent_at", "-pk"]
        verbose_name = _("envoi entre sites")
        verbose_name_plural = _("envois entre sites")
        constraints = [
            models.CheckConstraint(
                condition=~Q(from_site=F("to_site")),
                name="loans_shipment_between_two_sites",
                violation_error_message=_("Un envoi va d'un site à un autre."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_site} → {self.to_site} ({timezone.localtime(self.sent_at):%Y-%m-%d %H:%M})"


class TransferQuerySet(models.QuerySet):
    def open(self) -> "TransferQuerySet":
        """Lines whose copy has not arrived yet (to send, or on the way)."""
        return self.filter(received_at__isnull=True)

    def to_send(self) -> "TransferQuerySet":
        """Lines waiting at their site of departure for a clerk to send them."""
        return self.open().filter(shipment__isnull=True)

    def on_the_way(self) -> "TransferQuerySet":
        """Lines sent and not received yet."""
        return self.open().filter(shipment__isnull=False)

    def for_desk(self) -> "TransferQuerySet":
        """What the desk's lists show of a line, in the same query."""
        return self.select_related(
            "copy__game", "from_site", "to_site", "hold__member", "shipment__sent_by", "received_by"
        )


class Transfer(models.Model):
    """One copy's move from a site to another, from the moment it must leave to its arrival."""

    class Reason(models.TextChoices):
        HOLD = "hold", _("Réservation à retirer sur un autre site")
        HOME = "home", _("Retour à son site")
        MOVE = "move", _("Envoi entre sites")
        KEPT = "kept", _("Rendu sur un autre site, gardé là")

    copy = models.ForeignKey(
        "catalogue.Copy", on_delete=models.PROTECT, related_name="transfers", verbose_name=_("exemplaire")
    )
    reason = models.CharField(_("motif"), max_length=10, choices=Reason)
    # The hold this copy travels for (its family collects it at `to_site`).
    hold = models.ForeignKey(
        "loans.Hold",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transfers",
        verbose_name=_("réservation"),
    )
    from_site = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="+", verbose_name=_("de")
    )
    to_site = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="+", verbose_name=_("vers")
    )
    # The copy's status before it left, given back on arrival (on the shelf, incomplete…).
    copy_status = models.CharField(_("statut au départ"), max_length=20)
    requested_at = models.DateTimeField(_("demandé le"), default=timezone.now)
    shipment = models.ForeignKey(
        Shipment,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transfers",
        verbose_name=_("envoi"),
    )
    received_at = models.DateTimeField(_("reçu le"), null=True, blank=True)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reçu par"),
    )

    objects = TransferQuerySet.as_manager()

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("transfert")
        verbose_name_plural = _("transferts")
        constraints = [
            models.UniqueConstraint(
                fields=["copy"],
                condition=Q(received_at__isnull=True),
                name="loans_transfer_one_open_per_copy",
                violation_error_message=_("Cet exemplaire est déjà en transit."),
            ),
            models.CheckConstraint(
                condition=~Q(from_site=F("to_site")),
                name="loans_transfer_between_two_sites",
                violation_error_message=_("Un transfert va d'un site à un autre."),
            ),
            models.CheckConstraint(
                # A copy kept where it was returned (no journey) may be kept by the daily run.
                condition=Q(received_at__isnull=True) | Q(received_by__isnull=False) | Q(reason="kept"),
                name="loans_transfer_received_by_someone",
                violation_error_message=_("Une réception est faite par quelqu'un."),
            ),
            models.CheckConstraint(
                condition=~Q(reason="hold") | Q(hold__isnull=False),
                name="loans_transfer_hold_names_its_hold",
                violation_error_message=_("Un transfert pour une réservation nomme cette réservation."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.copy.barcode} : {self.from_site} → {self.to_site}"

    @property
    def is_open(self) -> bool:
        return self.received_at is None

    @property
    def state(self) -> str:
        """« à envoyer », « en transit » or « reçu »."""
        if self.received_at is not None:
            return _("reçu")
        return _("en transit") if self.shipment_id else _("à envoyer")
