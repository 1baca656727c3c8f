"""The loan desk: member families, their loans, their holds, and the pieces found missing at return."""

import datetime
import secrets
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import TruncMonth
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import member_balance

# The calendar feed's secret: 32 random bytes, 43 URL-safe characters.
CALENDAR_TOKEN_BYTES = 32

# How long a copy set aside for a ready hold waits for its family before the hold expires.
HOLD_PICKUP_DAYS = 7


class MembershipType(models.Model):
    """A kind of membership: what it costs, how long it lasts, and what a family may borrow."""

    class LateLoans(models.TextChoices):
        """What the desk does when a family with a game past its due date borrows another."""

        WARN = "warn", _("prêter, en prévenant le comptoir du retard")
        REFUSE = "refuse", _("refuser tout nouveau prêt tant que le jeu en retard n'est pas rendu")

    name = models.CharField(_("nom"), max_length=80, unique=True)
    duration_days = models.PositiveSmallIntegerField(
        _("durée (jours)"), default=365, help_text=_("365 pour une adhésion d'un an.")
    )
    price = models.DecimalField(_("prix (€)"), max_digits=7, decimal_places=2, default=0)
    public = models.BooleanField(
        _("présentée aux visiteurs"),
        default=True,
        help_text=_("Affichée avec son prix sur la page d'accueil, dans « Devenir membre »."),
    )
    loan_quota = models.PositiveSmallIntegerField(
        _("jeux empruntés en même temps"), default=3, help_text=_("Nombre maximum de prêts en cours.")
    )
    loan_period_days = models.PositiveSmallIntegerField(
        _("durée du prêt (jours)"),
        default=21,
        help_text=_("La date de retour est la date du prêt plus ce délai."),
    )
    renewals_allowed = models.PositiveSmallIntegerField(_("prolongations permises"), default=1)
    late_loans = models.CharField(
        _("famille avec un jeu en retard"),
        max_length=10,
        choices=LateLoans,
        default=LateLoans.WARN,
        help_text=_(
            "Au prêt suivant, le comptoir nomme toujours le jeu en retard ; il peut aussi refuser le prêt."
        ),
    )
    # Fees, all off by default: the desk charges nothing unless the ludothèque sets them.
    loan_fee = models.DecimalField(
        _("frais par prêt (€)"),
        max_digits=7,
        decimal_places=2,
        default=0,
        help_text=_("Facturés à chaque prêt ; 0 : aucun."),
    )
    late_fee_per_day = models.DecimalField(
        _("frais de retard par jour (€)"),
        max_digits=7,
        decimal_places=2,
        default=0,
        help_text=_("Proposés au retour d'un jeu en retard, par jour de retard ; 0 : aucun."),
    )
    late_fee_cap = models.DecimalField(
        _("plafond des frais de retard (€)"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Par prêt ; vide : sans plafond."),
    )
    charge_missing_pieces = models.BooleanField(
        _("facturer les pièces manquantes"),
        default=False,
        help_text=_("Au prix de chaque pièce fixé dans le catalogue ; remboursé si la pièce est rapportée."),
    )
    charge_lost_games = models.BooleanField(
        _("facturer les jeux perdus"),
        default=False,
        help_text=_("À la valeur de remplacement de l'exemplaire fixée dans le catalogue."),
    )
    debt_limit = models.DecimalField(
        _("plafond de dette (€)"),
        max_digits=7,
        decimal_places=2,
        default=0,
        help_text=_("Le prêt est refusé quand la famille doit plus que ce montant ; 0 : jamais refusé."),
    )

    # When the families of this type are told (notices app); an empty delay switches that notice off.
    due_soon_days = models.PositiveSmallIntegerField(
        _("rappel avant l'échéance (jours)"),
        null=True,
        blank=True,
        default=3,
        help_text=_("Nombre de jours avant la date de retour. Vide : pas de rappel."),
    )
    overdue_level1_days = models.PositiveSmallIntegerField(
        _("1er rappel de retard (jours)"),
        null=True,
        blank=True,
        default=7,
        help_text=_("Jours de retard. Vide : pas de 1er rappel."),
    )
    overdue_level2_days = models.PositiveSmallIntegerField(
        _("2e rappel de retard (jours)"),
        null=True,
        blank=True,
        default=21,
        help_text=_("Jours de retard. Vide : pas de 2e rappel."),
    )
    overdue_level3_days = models.PositiveSmallIntegerField(
        _("lettre de mise en demeure (jours)"),
        null=True,
        blank=True,
        default=42,
        help_text=_("Jours de retard ; toujours envoyée par courrier. Vide : pas de lettre."),
    )
    notify_hold_ready = models.BooleanField(
        _("avis de réservation prête"),
        default=True,
        help_text=_("Prévenir la famille dès qu'un exemplaire est mis de côté pour elle."),
    )
    hold_expiring_days = models.PositiveSmallIntegerField(
        _("rappel avant la fin du retrait (jours)"),
        null=True,
        blank=True,
        default=2,
        help_text=_("Jours avant la date limite de retrait d'une réservation. Vide : pas de rappel."),
    )
    membership_expiring_days = models.PositiveSmallIntegerField(
        _("rappel avant la fin de l'adhésion (jours)"),
        null=True,
        blank=True,
        default=30,
        help_text=_("Vide : pas de rappel."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("type d'adhésion")
        verbose_name_plural = _("types d'adhésion")
        constraints = [
            models.CheckConstraint(
                condition=Q(duration_days__gte=1),
                name="loans_membershiptype_duration_positive",
                violation_error_message=_("Une adhésion dure au moins un jour."),
            ),
            models.CheckConstraint(
                condition=Q(loan_quota__gte=1),
                name="loans_membershiptype_quota_positive",
                violation_error_message=_("Une famille doit pouvoir emprunter au moins un jeu."),
            ),
            models.CheckConstraint(
                condition=Q(loan_period_days__gte=1),
                name="loans_membershiptype_period_positive",
                violation_error_message=_("Un prêt dure au moins un jour."),
            ),
            models.CheckConstraint(
                condition=Q(price__gte=0),
                name="loans_membershiptype_price_not_negative",
                violation_error_message=_("Le prix ne peut pas être négatif."),
            ),
            models.CheckConstraint(
                condition=Q(loan_fee__gte=0, late_fee_per_day__gte=0, debt_limit__gte=0)
                & (Q(late_fee_cap__isnull=True) | Q(late_fee_cap__gt=0)),
                name="loans_membershiptype_fees_not_negative",
                violation_error_message=_("Les frais et les plafonds ne peuvent pas être négatifs."),
            ),
            models.CheckConstraint(
                condition=Q(overdue_level1_days__isnull=True)
                | Q(overdue_level1_days__gte=1)
                & (Q(overdue_level2_days__isnull=True) | Q(overdue_level2_days__gt=F("overdue_level1_days")))
                & (Q(overdue_level3_days__isnull=True) | Q(overdue_level3_days__gt=F("overdue_level1_days"))),
                name="loans_membershiptype_overdue_levels_in_order",
                violation_error_message=_(
                    "Les rappels de retard se suivent : le 1er après au moins un jour, les suivants plus tard."
                ),
            ),
            models.CheckConstraint(
                condition=Q(overdue_level2_days__isnull=True)
                | Q(overdue_level3_days__isnull=True)
                | Q(overdue_level3_days__gt=F("overdue_level2_days")),
                name="loans_membershiptype_overdue_level3_after_level2",
                violation_error_message=_("La lettre de mise en demeure vient après le 2e rappel."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def late_fee(self, days_late: int) -> Decimal:
        """The late fee of a loan returned `days_late` days late: so much a day, up to the cap."""
        fee = self.late_fee_per_day * max(0, days_late)
        return min(fee, self.late_fee_cap) if self.late_fee_cap is not None else fee

    def overdue_levels(self) -> list[tuple[int, int]]:
        """The overdue reminders switched on, as (level, days late), in order."""
        delays = [self.overdue_level1_days, self.overdue_level2_days, self.overdue_level3_days]
        return [(level, days) for level, days in enumerate(delays, start=1) if days is not None]


class MemberQuerySet(models.QuerySet):
    def with_open_loan_count(self) -> "MemberQuerySet":
        """Annotate each family with `open_loan_count`, the games it has at home."""
        return self.annotate(open_loan_count=Count("loans", filter=Q(loans__returned_at__isnull=True)))

    def with_balance(self) -> "MemberQuerySet":
        """Annotate each family with `balance`, what it owes the ludothèque (negative: a credit)."""
        return self.annotate(balance=member_balance())

    def owing(self) -> "MemberQuerySet":
        """Families that owe the ludothèque money (annotated with their `balance`)."""
        return self.with_balance().filter(balance__gt=0)

    def matching(self, text: str) -> "MemberQuerySet":
        """Families whose card, name, e-mail or phone contains `text` (the desk's search box)."""
        text = text.strip()
        return self.filter(
            Q(card_barcode__iexact=text)
            | Q(name__icontains=text)
            | Q(email__icontains=text)
            | Q(phone__icontains=text)
        )


class Member(models.Model):
    """A member family (adhérent): one card, one responsible adult, the people of the household."""

    class Language(models.TextChoices):
        FRENCH = "fr", _("français")
        ENGLISH = "en", _("anglais")

    card_barcode = models.CharField(_("numéro de carte"), max_length=40)
    name = models.CharField(_("adulte responsable"), max_length=160)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("téléphone"), max_length=40, blank=True)
    address = models.TextField(
        _("adresse"), blank=True, help_text=_("Adresse postale, pour les lettres des familles sans e-mail.")
    )
    language = models.CharField(
        _("langue"),
        max_length=2,
        choices=Language,
        default=Language.FRENCH,
        help_text=_("Langue des avis et des lettres envoyés à la famille."),
    )
    membership_type = models.ForeignKey(
        MembershipType, on_delete=models.PROTECT, related_name="members", verbose_name=_("type d'adhésion")
    )
    membership_start = models.DateField(_("début de l'adhésion"), default=timezone.localdate)
    membership_expiry = models.DateField(_("fin de l'adhésion"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="member",
        verbose_name=_("identifiant du site"),
        help_text=_("Permet à la famille de consulter ses prêts sur /compte/."),
    )
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)
    # The secret of the family's calendar feed (/compte/calendrier/<token>.ics); empty: no feed.
    calendar_token = models.CharField(_("jeton du calendrier"), max_length=64, blank=True, editable=False)
    # Set when a librarian erased the family (member_erase): its personal data is gone, the row stays
    # for the ledger's entries, which the accounts keep.
    erased_at = models.DateTimeField(_("effacée le"), null=True, blank=True, editable=False)

    objects = MemberQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("famille membre")
        verbose_name_plural = _("familles membres")
        constraints = [
            models.UniqueConstraint(
                fields=["card_barcode"],
                name="loans_member_unique_card_barcode",
                violation_error_message=_("Une autre famille a déjà ce numéro de carte."),
            ),
            models.CheckConstraint(
                condition=Q(membership_start__lte=F("membership_expiry")),
                name="loans_member_membership_start_lte_expiry",
                violation_error_message=_("L'adhésion ne peut pas finir avant d'avoir commencé."),
            ),
            # The calendar feed finds its family by token (a unique index).
            models.UniqueConstraint(
                fields=["calendar_token"],
                condition=~Q(calendar_token=""),
                name="loans_member_unique_calendar_token",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_barcode})"

    def get_absolute_url(self) -> str:
        return reverse("loans:member-detail", kwargs={"pk": self.pk})

    def membership_is_valid(self, on: datetime.date | None = None) -> bool:
        on = on or timezone.localdate()
        return self.membership_start <= on <= self.membership_expiry

    def calendar_token_renew(self) -> str:
        """Give the family a new calendar address; the old one stops working."""
        self.calendar_token = secrets.token_urlsafe(CALENDAR_TOKEN_BYTES)
        self.save(update_fields=["calendar_token"])
        return self.calendar_token

    def calendar_token_revoke(self) -> None:
        """Switch the family's calendar feed off."""
        self.calendar_token = ""
        self.save(update_fields=["calendar_token"])

    def quota_left(self, open_loan_count: int) -> int:
        """How many more games the family may borrow while it has `open_loan_count` at home."""
        return max(0, self.membership_type.loan_quota - open_loan_count)


class HouseholdMember(models.Model):
    """Someone of the family who plays: first name and birth year (for the game suggestions)."""

    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="household", verbose_name=_("famille")
    )
    first_name = models.CharField(_("prénom"), max_length=80)
    birth_year = models.PositiveSmallIntegerField(_("année de naissance"))

    class Meta:
        ordering = ["member_id", "birth_year", "first_name"]
        verbose_name = _("membre du foyer")
        verbose_name_plural = _("membres du foyer")
        constraints = [
            models.CheckConstraint(
                condition=Q(birth_year__gte=1900),
                name="loans_householdmember_birth_year_plausible",
                violation_error_message=_("L'année de naissance doit être postérieure à 1900."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} ({self.birth_year})"

    def age(self, on: datetime.date | None = None) -> int:
        """Age reached during the year of `on` (the birth year is all we keep)."""
        return (on or timezone.localdate()).year - self.birth_year


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
        return self.select_related("copy__game", "member")


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
        """Holds still in play: waiting in the queue or ready to hand over."""
        return self.filter(status__in=[Hold.Status.WAITING, Hold.Status.READY])

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
        FULFILLED = "fulfilled", _("Honorée")
        CANCELLED = "cancelled", _("Annulée")
        EXPIRED = "expired", _("Expirée")

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
                condition=Q(status__in=["waiting", "ready"]),
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
                condition=Q(member__isnull=False) | ~Q(status__in=["waiting", "ready"]),
                name="loans_hold_active_has_member",
                violation_error_message=_("Une réservation en cours est toujours celle d'une famille."),
            ),
            models.CheckConstraint(
                condition=~Q(status="ready") | Q(copy__isnull=False, ready_until__isnull=False),
                name="loans_hold_ready_has_copy",
                violation_error_message=_("Une réservation prête doit avoir un exemplaire mis de côté."),
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
