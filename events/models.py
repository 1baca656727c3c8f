"""Events (animations): soirées jeux, tournaments, workshops, and the families who book them.

An event is held at a site, from a start to an end, with a number of places (people, children and
adults alike) or none to say unlimited. A booking is a family's (or, booked at the desk, a named
person's who is not a member): confirmed while places are left, on the waiting list otherwise, moved
up in order when a confirmed booking is cancelled (events/services.py). Bookings are history: never
deleted, cancelled. On the day the confirmed bookings are the attendance sheet: present or absent,
and walk-ins added as present.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Sum
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MONEY = {"max_digits": 9, "decimal_places": 2}


class EventQuerySet(models.QuerySet):
    def upcoming(self, now: datetime.datetime | None = None) -> "EventQuerySet":
        """Events not over yet, soonest first (cancelled ones included: their page says so)."""
        return self.filter(ends_at__gte=now or timezone.now()).order_by("starts_at", "pk")

    def not_cancelled(self) -> "EventQuerySet":
        return self.filter(cancelled_at__isnull=True)

    def with_seats_taken(self) -> "EventQuerySet":
        """Annotate each event with the people on its confirmed bookings (a list's places left, one query)."""
        confirmed = Q(bookings__status="confirmed")
        people = Sum(F("bookings__children") + F("bookings__adults"), filter=confirmed)
        return self.annotate(seats_taken_count=Coalesce(people, 0))


class Event(models.Model):
    """An animation at a site: its time, places, public, price and the games it features."""

    class PriceBasis(models.TextChoices):
        PERSON = "person", _("par personne")
        FAMILY = "family", _("par famille")

    title = models.CharField(_("titre"), max_length=160)
    description = models.TextField(_("description"), blank=True)
    location = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="events", verbose_name=_("site")
    )
    starts_at = models.DateTimeField(_("début"))
    ends_at = models.DateTimeField(_("fin"))
    places = models.PositiveIntegerField(
        _("places"), null=True, blank=True, help_text=_("Enfants et adultes ; vide : places illimitées.")
    )
    age_min = models.PositiveSmallIntegerField(_("âge minimum"), null=True, blank=True)
    age_max = models.PositiveSmallIntegerField(_("âge maximum"), null=True, blank=True)
    price = models.DecimalField(_("prix (€)"), default=0, help_text=_("0 : gratuit."), **MONEY)
    price_basis = models.CharField(
        _("le prix est"), max_length=10, choices=PriceBasis, default=PriceBasis.PERSON
    )
    members_only = models.BooleanField(
        _("réservé aux membres"), default=False, help_text=_("Sinon, ouvert à tous (réservé au comptoir).")
    )
    cancellation_hours = models.PositiveSmallIntegerField(
        _("annulation par la famille jusqu'à (heures avant le début)"),
        default=48,
        help_text=_("Annulée à temps, une réservation payante est remboursée."),
    )
    games = models.ManyToManyField(
        "catalogue.Game", blank=True, related_name="events", verbose_name=_("jeux")
    )
    created_at = models.DateTimeField(_("créée le"), default=timezone.now)
    cancelled_at = models.DateTimeField(_("annulée le"), null=True, blank=True, editable=False)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["starts_at", "pk"]
        verbose_name = _("animation")
        verbose_name_plural = _("animations")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=F("starts_at")),
                name="events_event_ends_after_start",
                violation_error_message=_("Une animation finit après avoir commencé."),
            ),
            models.CheckConstraint(
                condition=Q(places__isnull=True) | Q(places__gte=1),
                name="events_event_places_positive",
                violation_error_message=_("Une animation a au moins une place (vide : illimité)."),
            ),
            models.CheckConstraint(
                condition=Q(age_min__isnull=True) | Q(age_max__isnull=True) | Q(age_min__lte=F("age_max")),
                name="events_event_age_range",
                violation_error_message=_("L'âge minimum ne dépasse pas l'âge maximum."),
            ),
            models.CheckConstraint(
                condition=Q(price__gte=0, price__lt=10000000),
                name="events_event_price_not_negative",
                violation_error_message=_("Le prix ne peut pas être négatif."),
            ),
        ]
        indexes = [
            # EventQuerySet.upcoming(): the public list, the home page and the calendar feed.
            models.Index(fields=["ends_at"], name="events_event_ends_at_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({timezone.localtime(self.starts_at):%d/%m/%Y %H:%M})"

    def get_absolute_url(self) -> str:
        return reverse("events:event-detail", kwargs={"pk": self.pk})

    @property
    def is_free(self) -> bool:
        return self.price == 0

    @property
    def cancellation_deadline(self) -> datetime.datetime:
        """The last moment a family may cancel (and be refunded)."""
        return self.starts_at - datetime.timedelta(hours=self.cancellation_hours)

    def seats_taken(self) -> int:
        """People on confirmed bookings (walk-ins included)."""
        if hasattr(self, "seats_taken_count"):
            return self.seats_taken_count
        return self.bookings.confirmed().people()

    def places_left(self) -> int | None:
        """Places not taken by a confirmed booking; None when unlimited."""
        if self.places is None:
            return None
        return max(self.places - self.seats_taken(), 0)

    def fee(self, *, children: int, adults: int):
        """What a booking of these people costs."""
        if self.price_basis == self.PriceBasis.FAMILY:
            return self.price
        return self.price * (children + adults)


class BookingQuerySet(models.QuerySet):
    def confirmed(self) -> "BookingQuerySet":
        return self.filter(status=Booking.Status.CONFIRMED)

    def waiting(self) -> "BookingQuerySet":
        """The waiting list, in the order it moves up."""
        return self.filter(status=Booking.Status.WAITING).order_by("created_at", "pk")

    def active(self) -> "BookingQuerySet":
        return self.exclude(status=Booking.Status.CANCELLED)

    def people(self) -> int:
        return self.aggregate(n=Coalesce(Sum(F("children") + F("adults")), 0))["n"]


class Booking(models.Model):
    """A family's (or a non-member's) places at an event, or its place on the waiting list."""

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("inscrite")
        WAITING = "waiting", _("en liste d'attente")
        CANCELLED = "cancelled", _("annulée")

    class Attendance(models.TextChoices):
        PRESENT = "present", _("présente")
        ABSENT = "absent", _("absente")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="bookings", verbose_name=_("animation")
    )
    member = models.ForeignKey(
        "members.Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="event_bookings",
        verbose_name=_("famille adhérente"),
        help_text=_("Vide : personne non adhérente, avec son nom et son contact."),
    )
    name = models.CharField(_("nom"), max_length=160, blank=True)
    contact = models.CharField(_("téléphone ou e-mail"), max_length=160, blank=True)
    children = models.PositiveSmallIntegerField(_("enfants"), default=0)
    adults = models.PositiveSmallIntegerField(_("adultes"), default=1)
    status = models.CharField(_("statut"), max_length=10, choices=Status)
    walk_in = models.BooleanField(_("venue sans réservation"), default=False)
    attendance = models.CharField(_("présence"), max_length=10, choices=Attendance, blank=True)
    created_at = models.DateTimeField(_("réservée le"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("réservée par")
    )
    # Set when the booking left the waiting list for a freed place.
    promoted_at = models.DateTimeField(_("passée de la liste d'attente le"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("annulée le"), null=True, blank=True)
    # The booking fee in the ledger (ledger.Entry), charged when the booking is confirmed.
    charge = models.ForeignKey(
        "ledger.Entry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("frais d'inscription"),
    )

    objects = BookingQuerySet.as_manager()

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("réservation d'animation")
        verbose_name_plural = _("réservations d'animation")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "member"],
                condition=Q(member__isnull=False) & ~Q(status="cancelled"),
                name="events_booking_one_active_per_family",
                violation_error_message=_("Cette famille a déjà une réservation pour cette animation."),
            ),
            models.CheckConstraint(
                condition=Q(children__gt=0) | Q(adults__gt=0),
                name="events_booking_someone",
                violation_error_message=_("Une réservation compte au moins une personne."),
            ),
            models.CheckConstraint(
                condition=Q(status="cancelled", cancelled_at__isnull=False)
                | (~Q(status="cancelled") & Q(cancelled_at__isnull=True)),
                name="events_booking_cancelled_at_iff_cancelled",
            ),
            models.CheckConstraint(
                condition=Q(attendance="") | Q(status="confirmed"),
                name="events_booking_attendance_only_confirmed",
                violation_error_message=_("Seule une réservation confirmée est pointée."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.who} — {self.event.title} ({self.get_status_display()})"

    @property
    def who(self) -> str:
        """The family's name, the non-member's, or neither once anonymised (privacy/services.py)."""
        if self.member_id:
            return self.member.name
        return self.name or str(_("personne anonymisée"))

    @property
    def people(self) -> int:
        return self.children + self.adults
