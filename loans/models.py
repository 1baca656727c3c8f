"""The loan desk: the families' loans, their holds, and the pieces found missing at return."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import TruncMonth
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from members.models import Member

# How long a copy set aside for a ready hold waits for its family before the hold expires.
HOLD_PICKUP_DAYS = 7


class LoanQuerySet(models.QuerySet):
    def open(self) -> "LoanQuerySet":
        """Loans whose copy has not come back yet."""
        return self.filter(returned_at__isnull=True)

    def returned(self) -> "LoanQuerySet":
        """Loans whose copy is back."""
        return self.filter(returned_at__isnull=False)

    def overdue(self, on: datetime.date | None = None) -> "LoanQuerySet":
        """Open loans whose due date has passed."""
        return self.open().filter(due_on__lt=on or timezone.localdate())

    def count_per_month(self, since: datetime.date) -> dict[datetime.date, int]:
        """How many loans were made each month from the month of `since` on, keyed by the month's 1st day."""
        start = timezone.make_aware(datetime.datetime.combine(since.replace(day=1), datetime.time.min))
        rows = (
            self.filter(lent_at__gte=start)
            .annotate(month=TruncMonth("lent_at"))
            .order_by()
            .values("month")
            .annotate(count=Count("pk"))
        )
        return {timezone.localtime(row["month"]).date(): row["count"] for row in rows}

    def for_desk(self) -> "LoanQuerySet":
        """Fetch what the desk shows of a loan (game, copy, family) in the same query."""
        return self.select_related("copy__game", "copy__kind", "member")


class Loan(models.Model):
    """One copy lent to one family, from lending to return. Never deleted."""

    class ReturnCheck(models.TextChoices):
        COMPLETE = "complete", _("Complet")
        INCOMPLETE = "incomplete", _("Pièces manquantes")
        PLAYABLE = "playable", _("Pièces manquantes, jouable quand même")
        LOST = "lost", _("Perdu par la famille")

    copy = models.ForeignKey(
        "catalogue.Copy", on_delete=models.PROTECT, related_name="loans", verbose_name=_("exemplaire")
    )
    # Empty once the loan is anonymised (loans_anonymise: closed long ago, or the family erased).
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="loans",
        verbose_name=_("famille"),
    )
    lent_at = models.DateTimeField(_("prêté le"), default=timezone.now)
    lent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="loans_lent",
        verbose_name=_("prêté par"),
    )
    due_on = models.DateField(_("à rendre le"))
    renewals = models.PositiveSmallIntegerField(_("prolongations"), default=0)
    returned_at = models.DateTimeField(_("rendu le"), null=True, blank=True)
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="loans_returned",
        verbose_name=_("repris par"),
    )
    return_check = models.CharField(_("contrôle au retour"), max_length=20, choices=ReturnCheck, blank=True)

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
            models.CheckConstraint(
                condition=Q(member__isnull=False) | Q(returned_at__isnull=False),
                name="loans_loan_open_has_member",
                violation_error_message=_("Un prêt en cours est toujours celui d'une famille."),
            ),
            models.CheckConstraint(
                condition=Q(returned_at__isnull=True, return_check="")
                | (Q(returned_at__isnull=False, returned_at__gte=F("lent_at")) & ~Q(return_check="")),
                name="loans_loan_return_check_iff_returned",
                violation_error_message=_(
                    "Un retour porte une date postérieure au prêt et un contrôle des pièces."
                ),
            ),
        ]
        indexes = [
            # Loan.objects.overdue(): the open loans by due date, for the overdue list.
            models.Index(
                fields=["due_on"], condition=Q(returned_at__isnull=True), name="loans_loan_open_due_on_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.copy} ({self.lent_at:%Y-%m-%d})"

    @property
    def is_open(self) -> bool:
        return self.returned_at is None

    def is_overdue(self, on: datetime.date | None = None) -> bool:
        return self.is_open and self.due_on < (on or timezone.localdate())

    def days_late(self, on: datetime.date | None = None) -> int:
        return max(0, ((on or timezone.localdate()) - self.due_on).days) if self.is_open else 0


class HoldQuerySet(models.QuerySet):
    def active(self) -> "HoldQuerySet":
        """Holds still in play: waiting in the queue, their copy on its way, or ready to hand over."""
        return self.filter(status__in=Hold.Status.active())

    def waiting(self) -> "HoldQuerySet":
        return self.filter(status=Hold.Status.WAITING)

    def ready(self) -> "HoldQuerySet":
        return self.filter(status=Hold.Status.READY)

    def past_pickup(self, on: datetime.date | None = None) -> "HoldQuerySet":
        """Ready holds whose family did not come by the pick-up date."""
        return self.ready().filter(ready_until__lt=on or timezone.localdate())

    def with_queue_rank(self) -> "HoldQuerySet":
        """Annotate `queue_rank`: a waiting hold's place among the families still waiting for its game."""
        waiting_up_to = (
            Hold.objects.waiting()
            .filter(game=OuterRef("game"), position__lte=OuterRef("position"))
            .order_by()
            .values("game")
            .annotate(count=Count("pk"))
            .values("count")
        )
        return self.annotate(queue_rank=Subquery(waiting_up_to))


class Hold(models.Model):
    """A family's reservation of a game (any copy), served in queue order."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("En attente")
        READY = "ready", _("Prête — exemplaire mis de côté")
        # A copy was found at another site than the pick-up site: it travels (loans/transfers.py).
        TRANSIT = "transit", _("En acheminement vers le site de retrait")
        FULFILLED = "fulfilled", _("Honorée")
        CANCELLED = "cancelled", _("Annulée")
        EXPIRED = "expired", _("Expirée")

        @classmethod
        def active(cls) -> list[str]:
            return [cls.WAITING, cls.TRANSIT, cls.READY]

    game = models.ForeignKey(
        "catalogue.Game", on_delete=models.PROTECT, related_name="holds", verbose_name=_("jeu")
    )
    # Empty once the hold is anonymised (closed long ago, or the family erased).
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="holds",
        verbose_name=_("famille"),
    )
    position = models.PositiveIntegerField(_("ordre dans la file"))
    status = models.CharField(_("statut"), max_length=20, choices=Status, default=Status.WAITING)
    created_at = models.DateTimeField(_("réservée le"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("enregistrée par"),
    )
    # The copy set aside for the family while the hold is ready (kept afterwards as a record).
    copy = models.ForeignKey(
        "catalogue.Copy",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="holds",
        verbose_name=_("exemplaire mis de côté"),
    )
    # Where the family collects the game; empty for the holds made before sites were chosen: the
    # site where the copy set aside waits.
    pickup_site = models.ForeignKey(
        "catalogue.Location",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("à retirer à"),
    )
    ready_at = models.DateTimeField(_("prête le"), null=True, blank=True)
    ready_until = models.DateField(_("à retirer avant le"), null=True, blank=True)
    closed_at = models.DateTimeField(_("close le"), null=True, blank=True)

    objects = HoldQuerySet.as_manager()

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("réservation")
        verbose_name_plural = _("réservations")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "position"],
                name="loans_hold_unique_game_position",
                violation_error_message=_(
                    "Deux réservations ne peuvent pas avoir la même place dans la file."
                ),
            ),
            models.UniqueConstraint(
                fields=["member", "game"],
                condition=Q(status__in=["waiting", "transit", "ready"]),
                name="loans_hold_one_active_per_member_game",
                violation_error_message=_("Cette famille a déjà réservé ce jeu."),
            ),
            models.UniqueConstraint(
                fields=["copy"],
                condition=Q(status="ready"),
                name="loans_hold_one_ready_per_copy",
                violation_error_message=_("Cet exemplaire est déjà mis de côté pour une autre réservation."),
            ),
            models.CheckConstraint(
                condition=Q(member__isnull=False) | ~Q(status__in=["waiting", "transit", "ready"]),
                name="loans_hold_active_has_member",
                violation_error_message=_("Une réservation en cours est toujours celle d'une famille."),
            ),
            models.CheckConstraint(
                condition=~Q(status="ready") | Q(copy__isnull=False, ready_until__isnull=False),
                name="loans_hold_ready_has_copy",
                violation_error_message=_("Une réservation prête doit avoir un exemplaire mis de côté."),
            ),
            models.CheckConstraint(
                condition=~Q(status="transit") | Q(copy__isnull=False),
                name="loans_hold_transit_has_copy",
                violation_error_message=_("Une réservation en acheminement a son exemplaire."),
            ),
        ]

    def __str__(self) -> str:
        family = self.member.name if self.member_id else _("famille anonymisée")
        return f"{self.game} — {family} ({self.get_status_display()})"

    def is_past_pickup(self, on: datetime.date | None = None) -> bool:
        return self.status == Hold.Status.READY and self.ready_until < (on or timezone.localdate())


class MissingPieceQuerySet(models.QuerySet):
    def still_missing(self) -> "MissingPieceQuerySet":
        return self.filter(recovered_at__isnull=True)


class MissingPiece(models.Model):
    """Pieces of a copy found missing at a return, until they come back."""

    copy = models.ForeignKey(
        "catalogue.Copy",
        on_delete=models.PROTECT,
        related_name="missing_pieces",
        verbose_name=_("exemplaire"),
    )
    component = models.ForeignKey(
        "catalogue.Component", on_delete=models.PROTECT, related_name="missing", verbose_name=_("pièce")
    )
    quantity = models.PositiveIntegerField(_("nombre manquant"))
    # Empty for pieces found missing elsewhere than at a loan's return: when a copy comes back from a
    # table during an on-site session (the onsite app links them to that table use).
    loan = models.ForeignKey(
        Loan,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="missing_pieces",
        verbose_name=_("constaté au retour du prêt"),
    )
    recorded_at = models.DateTimeField(_("constaté le"), default=timezone.now)
    recovered_at = models.DateTimeField(_("rapporté le"), null=True, blank=True)
    recovered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("enregistré par"),
    )

    objects = MissingPieceQuerySet.as_manager()

    class Meta:
        ordering = ["copy", "recorded_at"]
        verbose_name = _("pièce manquante")
        verbose_name_plural = _("pièces manquantes")
        constraints = [
            models.CheckConstraint(
                condition=Q(quantity__gte=1),
                name="loans_missingpiece_quantity_positive",
                violation_error_message=_("Il manque au moins une pièce."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.component.label} — {self.copy.barcode}"


class DateBookingQuerySet(models.QuerySet):
    def active(self) -> "DateBookingQuerySet":
        """Bookings still to hand out: they hold their copy for their dates."""
        return self.filter(status=DateBooking.Status.BOOKED)

    def overlapping(self, starts_on: datetime.date, ends_on: datetime.date) -> "DateBookingQuerySet":
        """Bookings sharing at least one day with `starts_on`…`ends_on` (both days included)."""
        return self.filter(starts_on__lte=ends_on, ends_on__gte=starts_on)

    def to_hand_out(self, on: datetime.date | None = None) -> "DateBookingQuerySet":
        """Active bookings whose period has begun and not ended: the desk hands their copy out today."""
        day = on or timezone.localdate()
        return self.active().filter(starts_on__lte=day, ends_on__gte=day)

    def upcoming(self, on: datetime.date | None = None) -> "DateBookingQuerySet":
        """Active bookings that have not ended yet."""
        return self.active().filter(ends_on__gte=on or timezone.localdate())

    def for_desk(self) -> "DateBookingQuerySet":
        """Fetch what the desk shows of a booking (game, copy, its kind and site, family) in the same query."""
        return self.select_related("copy__game", "copy__kind", "copy__location", "member")


class DateBooking(models.Model):
    """A copy booked for a family from one date to another (réservation à date: giant games, party kits).

    It holds its copy for its dates (PostgreSQL refuses two active bookings of one copy whose dates
    overlap: migration 0012), becomes a loan on its first day at the desk, and is never deleted.
    """

    class Status(models.TextChoices):
        BOOKED = "booked", _("Réservée")
        LENT = "lent", _("Remise — en prêt")
        CANCELLED = "cancelled", _("Annulée")
        # Its last day passed and nobody came for the copy (the daily run: bookings_close_uncollected).
        NOT_COLLECTED = "not_collected", _("Non retirée")

    copy = models.ForeignKey(
        "catalogue.Copy", on_delete=models.PROTECT, related_name="date_bookings", verbose_name=_("exemplaire")
    )
    # Empty once the booking is anonymised (closed long ago, or the family erased).
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="date_bookings",
        verbose_name=_("famille"),
    )
    starts_on = models.DateField(_("du"))
    ends_on = models.DateField(_("au"))
    status = models.CharField(_("statut"), max_length=20, choices=Status, default=Status.BOOKED)
    # The title was booked and this copy picked as free for the dates (rather than a copy chosen by barcode).
    by_title = models.BooleanField(_("réservé par titre"), default=False)
    note = models.CharField(
        _("note"), max_length=200, blank=True, help_text=_("Pour quoi, pour qui : « fête de l'école »…")
    )
    created_at = models.DateTimeField(_("réservée le"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("enregistrée par"),
    )
    loan = models.OneToOneField(
        Loan,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="date_booking",
        verbose_name=_("prêt"),
    )
    cancelled_at = models.DateTimeField(_("date d'annulation"), null=True, blank=True)

    objects = DateBookingQuerySet.as_manager()

    class Meta:
        ordering = ["starts_on", "pk"]
        verbose_name = _("réservation à date")
        verbose_name_plural = _("réservations à date")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")),
                name="loans_datebooking_dates_in_order",
                violation_error_message=_("Le dernier jour ne peut pas précéder le premier."),
            ),
            models.CheckConstraint(
                condition=Q(member__isnull=False) | ~Q(status="booked"),
                name="loans_datebooking_active_has_member",
                violation_error_message=_(
                    "Une réservation à date en cours est toujours celle d'une famille."
                ),
            ),
            models.CheckConstraint(
                condition=Q(status="lent", loan__isnull=False) | (~Q(status="lent") & Q(loan__isnull=True)),
                name="loans_datebooking_lent_iff_loan",
                violation_error_message=_("Une réservation remise l'est par un prêt, et seulement elle."),
            ),
        ]
        indexes = [
            # DateBooking.objects.to_hand_out(): the desk's bookings of the day, by first day.
            models.Index(
                fields=["starts_on"], condition=Q(status="booked"), name="loans_datebooking_active_idx"
            ),
        ]

    def __str__(self) -> str:
        family = self.member.name if self.member_id else _("famille anonymisée")
        return f"{self.copy} — {family} ({self.starts_on:%Y-%m-%d} → {self.ends_on:%Y-%m-%d})"

    @property
    def is_cancellable(self) -> bool:
        """A family may cancel its booking until its first day (the desk, any time before it is handed out)."""
        return self.status == DateBooking.Status.BOOKED and self.starts_on > timezone.localdate()


# Copies moving between sites (their own module; exported here so that Django finds them).
from .transfer_models import Shipment, Transfer, TransferQuerySet  # noqa: E402

__all__ = [
    "HOLD_PICKUP_DAYS",
    "Hold",
    "HoldQuerySet",
    "Loan",
    "LoanQuerySet",
    "MissingPiece",
    "MissingPieceQuerySet",
    "DateBooking",
    "DateBookingQuerySet",
    "Shipment",
    "Transfer",
    "TransferQuerySet",
]
