"""Notices to families (reminders, overdue letters, holds ready): what was said, to whom, how, and when.

A notice is one message to one family from one run: an e-mail, or a letter printed at the desk. Its
items say what it was about — one loan at one reminder level, one hold, the membership — and the
database refuses a second item for the same loan, level and due date (or hold, or membership end):
that is what keeps a notice from going out twice. Notices are history: never deleted.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class NoticeQuerySet(models.QuerySet):
    def to_print(self) -> "NoticeQuerySet":
        """Letters waiting to be printed at the desk (not those of a family erased since)."""
        return self.filter(channel=Notice.Channel.LETTER, status=Notice.Status.TO_PRINT, member__isnull=False)

    def to_send(self) -> "NoticeQuerySet":
        """E-mails not delivered yet: new, or failed and to be tried again (not those of a family erased since)."""
        return self.filter(
            channel=Notice.Channel.EMAIL,
            status__in=[Notice.Status.PENDING, Notice.Status.FAILED],
            member__isnull=False,
        )

    def failed(self) -> "NoticeQuerySet":
        return self.filter(channel=Notice.Channel.EMAIL, status=Notice.Status.FAILED)


class Notice(models.Model):
    """One message to one family: an e-mail, or a letter to print."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("e-mail")
        LETTER = "letter", _("lettre")

    class Status(models.TextChoices):
        PENDING = "pending", _("à envoyer")
        SENT = "sent", _("envoyé")
        FAILED = "failed", _("échec de l'envoi, nouvel essai au prochain passage")
        TO_PRINT = "to_print", _("à imprimer")
        PRINTED = "printed", _("imprimée")

    # Empty once anonymised (loans.services.history_anonymise): recipient and texts are emptied too.
    member = models.ForeignKey(
        "members.Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notices",
        verbose_name=_("famille"),
    )
    channel = models.CharField(_("canal"), max_length=10, choices=Channel)
    status = models.CharField(_("statut"), max_length=10, choices=Status)
    language = models.CharField(_("langue"), max_length=2, choices=settings.LANGUAGES)
    run_on = models.DateField(_("passage du"))
    recipient = models.TextField(_("destinataire"), help_text=_("L'adresse e-mail, ou l'adresse postale."))
    subject = models.CharField(_("objet"), max_length=200)
    body_text = models.TextField(_("texte"))
    body_html = models.TextField(_("texte (HTML)"))
    created_at = models.DateTimeField(_("créé le"), default=timezone.now)
    sent_at = models.DateTimeField(_("envoyé le"), null=True, blank=True)
    printed_at = models.DateTimeField(_("imprimée le"), null=True, blank=True)
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("imprimée par"),
    )
    attempts = models.PositiveSmallIntegerField(_("essais d'envoi"), default=0)
    error = models.TextField(_("erreur"), blank=True)

    objects = NoticeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("avis")
        verbose_name_plural = _("avis")
        constraints = [
            models.CheckConstraint(
                condition=Q(channel="email", status__in=["pending", "sent", "failed"])
                | Q(channel="letter", status__in=["to_print", "printed"]),
                name="notices_notice_status_fits_channel",
                violation_error_message=_("Ce statut ne convient pas à ce canal."),
            ),
            models.CheckConstraint(
                condition=Q(status="sent", sent_at__isnull=False)
                | (~Q(status="sent") & Q(sent_at__isnull=True)),
                name="notices_notice_sent_at_iff_sent",
                violation_error_message=_("Un avis envoyé porte sa date d'envoi, et lui seul."),
            ),
            models.CheckConstraint(
                condition=Q(status="printed", printed_at__isnull=False)
                | (~Q(status="printed") & Q(printed_at__isnull=True)),
                name="notices_notice_printed_at_iff_printed",
                violation_error_message=_("Une lettre imprimée porte sa date d'impression, et elle seule."),
            ),
        ]
        indexes = [
            # NoticeQuerySet.to_send() (each run retries them) and .to_print() (the desk's letters).
            models.Index(
                fields=["status"],
                condition=Q(status__in=["pending", "failed", "to_print"]),
                name="notices_notice_open_status_idx",
            ),
        ]

    def __str__(self) -> str:
        family = self.member.name if self.member_id else _("famille anonymisée")
        return f"{family} — {self.subject} ({self.get_channel_display()}, {self.created_at:%Y-%m-%d})"


class NoticeItem(models.Model):
    """What a notice was about: one loan at one reminder level, one hold, the membership's end, or an
    event's booking (confirmed, moved up from the waiting list, the day before, the event cancelled).

    A hold without a copy (its game's last copy lost or withdrawn while families waited) is said once
    per hold, dated by the hold's creation.
    """

    class Kind(models.TextChoices):
        DUE_SOON = "due_soon", _("à rendre bientôt")
        OVERDUE = "overdue", _("retard")
        HOLD_READY = "hold_ready", _("réservation prête")
        HOLD_EXPIRING = "hold_expiring", _("réservation bientôt expirée")
        HOLD_NO_COPY = "hold_no_copy", _("réservation sans exemplaire")
        MEMBERSHIP_EXPIRING = "membership_expiring", _("fin d'adhésion proche")
        EVENT_BOOKED = "event_booked", _("animation réservée")
        EVENT_PROMOTED = "event_promoted", _("place libérée à une animation")
        EVENT_TOMORROW = "event_tomorrow", _("animation demain")
        EVENT_CANCELLED = "event_cancelled", _("animation annulée")
        DATE_BOOKING_EVE = "date_booking_eve", _("réservation à date demain")

        @classmethod
        def of_events(cls) -> list[str]:
            return [cls.EVENT_BOOKED, cls.EVENT_PROMOTED, cls.EVENT_TOMORROW, cls.EVENT_CANCELLED]

    notice = models.ForeignKey(Notice, on_delete=models.PROTECT, related_name="items", verbose_name=_("avis"))
    # The notice's family again, so that the database can say "once per membership end".
    member = models.ForeignKey(
        "members.Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notice_items",
        verbose_name=_("famille"),
    )
    kind = models.CharField(_("type"), max_length=20, choices=Kind)
    level = models.PositiveSmallIntegerField(_("niveau de rappel"), default=0)
    loan = models.ForeignKey(
        "loans.Loan",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notice_items",
        verbose_name=_("prêt"),
    )
    hold = models.ForeignKey(
        "loans.Hold",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notice_items",
        verbose_name=_("réservation"),
    )
    booking = models.ForeignKey(
        "events.Booking",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notice_items",
        verbose_name=_("réservation d'animation"),
    )
    date_booking = models.ForeignKey(
        "loans.DateBooking",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notice_items",
        verbose_name=_("réservation à date"),
    )
    # The date the item was about: the loan's due date, the hold's pick-up deadline, the membership's end.
    about_date = models.DateField(_("échéance"))

    class Meta:
        ordering = ["notice", "-level", "pk"]
        verbose_name = _("objet d'un avis")
        verbose_name_plural = _("objets des avis")
        constraints = [
            models.UniqueConstraint(
                fields=["loan", "kind", "level", "about_date"],
                condition=Q(loan__isnull=False),
                name="notices_noticeitem_once_per_loan_level_due_date",
                violation_error_message=_("Ce prêt a déjà reçu cet avis pour cette date de retour."),
            ),
            models.UniqueConstraint(
                fields=["hold", "kind"],
                condition=Q(hold__isnull=False),
                name="notices_noticeitem_once_per_hold_kind",
                violation_error_message=_("Cette réservation a déjà reçu cet avis."),
            ),
            models.UniqueConstraint(
                fields=["booking", "kind"],
                condition=Q(booking__isnull=False),
                name="notices_noticeitem_once_per_booking_kind",
                violation_error_message=_("Cette réservation d'animation a déjà reçu cet avis."),
            ),
            models.UniqueConstraint(
                fields=["date_booking", "kind"],
                condition=Q(date_booking__isnull=False),
                name="notices_noticeitem_once_per_date_booking_kind",
                violation_error_message=_("Cette réservation à date a déjà reçu cet avis."),
            ),
            models.UniqueConstraint(
                fields=["member", "kind", "about_date"],
                condition=Q(kind="membership_expiring"),
                name="notices_noticeitem_once_per_membership_end",
                violation_error_message=_("Cette famille a déjà été prévenue de la fin de cette adhésion."),
            ),
            models.CheckConstraint(
                condition=Q(
                    kind__in=["due_soon", "overdue"],
                    loan__isnull=False,
                    hold__isnull=True,
                    booking__isnull=True,
                    date_booking__isnull=True,
                )
                | Q(
                    kind__in=["hold_ready", "hold_expiring", "hold_no_copy"],
                    loan__isnull=True,
                    hold__isnull=False,
                    booking__isnull=True,
                    date_booking__isnull=True,
                )
                | Q(
                    kind="membership_expiring",
                    loan__isnull=True,
                    hold__isnull=True,
                    booking__isnull=True,
                    date_booking__isnull=True,
                )
                | Q(
                    kind__in=["event_booked", "event_promoted", "event_tomorrow", "event_cancelled"],
                    loan__isnull=True,
                    hold__isnull=True,
                    booking__isnull=False,
                    date_booking__isnull=True,
                )
                | Q(
                    kind="date_booking_eve",
                    loan__isnull=True,
                    hold__isnull=True,
                    booking__isnull=True,
                    date_booking__isnull=False,
                ),
                name="notices_noticeitem_subject_fits_kind",
                violation_error_message=_(
                    "Un rappel de prêt porte sur un prêt, un avis de réservation sur une réservation."
                ),
            ),
            models.CheckConstraint(
                condition=Q(kind="overdue", level__gte=1, level__lte=3) | (~Q(kind="overdue") & Q(level=0)),
                name="notices_noticeitem_level_only_for_overdue",
                violation_error_message=_("Seuls les retards ont un niveau de rappel (1 à 3)."),
            ),
        ]

    def __str__(self) -> str:
        if self.kind == NoticeItem.Kind.OVERDUE:
            return f"{self.get_kind_display()} {self.level} ({self.about_date:%Y-%m-%d})"
        return f"{self.get_kind_display()} ({self.about_date:%Y-%m-%d})"
