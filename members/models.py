"""The families: a member family and its household, its card and site login, its kind of membership.

Every app that deals with families depends on this one (loans, the ledger, the notices, on-site play,
privacy); it imports none of them. What a family borrowed, owes or was told is in those apps, which
reach the family by its foreign key; the periods of membership, paid at the desk, are in the ledger.

The tables keep the names they had when the loans app held these models (`Meta.db_table`): the
database's history guards and the constraints' names were written with them.
"""

import datetime
import secrets
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The calendar feed's secret: 32 random bytes, 43 URL-safe characters.
CALENDAR_TOKEN_BYTES = 32


class MembershipType(models.Model):
    """A kind of membership: what it costs, how long it lasts, and what a family may borrow.

    A group (« collectivité »: a school class, a crèche, a retirement home) is a member like a family,
    with a membership type of its own kind: its quota, loan period and fees are that type's, and it
    names a contact person (the teacher, the educator) on its member record.
    """

    class Kind(models.TextChoices):
        FAMILY = "family", _("famille")
        GROUP = "group", _("collectivité")

    class LateLoans(models.TextChoices):
        """What the desk does when a family with a game past its due date borrows another."""

        WARN = "warn", _("prêter, en prévenant le comptoir du retard")
        REFUSE = "refuse", _("refuser tout nouveau prêt tant que le jeu en retard n'est pas rendu")

    name = models.CharField(_("nom"), max_length=80, unique=True)
    kind = models.CharField(
        _("pour"),
        max_length=10,
        choices=Kind,
        default=Kind.FAMILY,
        help_text=_(
            "Une collectivité (école, crèche, maison de repos) emprunte avec une personne de contact, "
            "souvent des malles et pour plus longtemps."
        ),
    )
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
        db_table = "loans_membershiptype"
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

    @property
    def is_group(self) -> bool:
        return self.kind == self.Kind.GROUP

    def late_fee(self, days_late: int) -> Decimal:
        """The late fee of a loan returned `days_late` days late: so much a day, up to the cap."""
        fee = self.late_fee_per_day * max(0, days_late)
        return min(fee, self.late_fee_cap) if self.late_fee_cap is not None else fee

    def overdue_levels(self) -> list[tuple[int, int]]:
        """The overdue reminders switched on, as (level, days late), in order."""
        delays = [self.overdue_level1_days, self.overdue_level2_days, self.overdue_level3_days]
        return [(level, days) for level, days in enumerate(delays, start=1) if days is not None]


class MemberQuerySet(models.QuerySet):
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
    # A group's contact person (the teacher of the class, the educator): empty for a family.
    contact_name = models.CharField(
        _("personne de contact"),
        max_length=160,
        blank=True,
        help_text=_("Pour une collectivité : l'enseignant ou l'éducateur responsable (« Mme Durand »)."),
    )
    contact_phone = models.CharField(_("téléphone du contact"), max_length=40, blank=True)
    contact_email = models.EmailField(_("e-mail du contact"), blank=True)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)
    # The secret of the family's calendar feed (/compte/calendrier/<token>.ics); empty: no feed.
    calendar_token = models.CharField(_("jeton du calendrier"), max_length=64, blank=True, editable=False)
    # Set when a librarian erased the family (member_erase): its personal data is gone, the row stays
    # for the ledger's entries, which the accounts keep.
    erased_at = models.DateTimeField(_("effacée le"), null=True, blank=True, editable=False)

    objects = MemberQuerySet.as_manager()

    class Meta:
        db_table = "loans_member"
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
        return f"{self.borrower_label} ({self.card_barcode})"

    def get_absolute_url(self) -> str:
        return reverse("loans:member-detail", kwargs={"pk": self.pk})

    @property
    def borrower_label(self) -> str:
        """How the desk and the lists name the borrower: a group with its contact person
        (« École Jules Ferry — CE1, contact Mme Durand »), a family by its responsible adult."""
        if self.contact_name:
            return str(_("%(name)s, contact %(contact)s") % {"name": self.name, "contact": self.contact_name})
        return self.name

    def clean(self) -> None:
        super().clean()
        if self.membership_type_id and self.membership_type.is_group and not self.contact_name.strip():
            raise ValidationError(
                {
                    "contact_name": _(
                        "Une collectivité a une personne de contact : l'enseignant, l'éducateur…"
                    )
                },
                code="group_without_contact",
            )

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
        db_table = "loans_householdmember"
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
