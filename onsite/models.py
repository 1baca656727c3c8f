"""On-site play (jeu sur place): a site's opening sessions, who came, the games taken to a table, the plays.

A session is opened and closed by staff at the desk, one at a time per site (`catalogue.Location`).
Families are counted as they come in (by their card, or as a family that is not a member), with
their children and adults. A copy taken to a table is not a loan: it does not count against the
family's quota, but no one can borrow it meanwhile (the catalogue learns it through its registry,
`at_table()` below) and it must come back, its pieces checked, before the session closes.
"""

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, OuterRef, Q, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SessionQuerySet(models.QuerySet):
    def open(self) -> "SessionQuerySet":
        return self.filter(closed_at__isnull=True)

    def closed(self) -> "SessionQuerySet":
        return self.filter(closed_at__isnull=False)


class Session(models.Model):
    """An opening session of a site: from its opening by staff at the desk to its closing."""

    location = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="onsite_sessions", verbose_name=_("site")
    )
    opened_at = models.DateTimeField(_("ouverte le"), default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("ouverte par")
    )
    # The hours the opening calendar gave for that day, if any: what the session was planned for.
    planned_from = models.TimeField(_("ouverture prévue"), null=True, blank=True)
    planned_until = models.TimeField(_("fermeture prévue"), null=True, blank=True)
    closed_at = models.DateTimeField(_("fermée le"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fermée par"),
    )

    objects = SessionQuerySet.as_manager()

    class Meta:
        ordering = ["-opened_at"]
        verbose_name = _("séance de jeu sur place")
        verbose_name_plural = _("séances de jeu sur place")
        constraints = [
            models.UniqueConstraint(
                fields=["location"],
                condition=Q(closed_at__isnull=True),
                name="onsite_session_one_open_per_site",
                violation_error_message=_("Une séance est déjà ouverte sur ce site."),
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=F("opened_at")),
                name="onsite_session_closed_after_opened",
                violation_error_message=_("Une séance ne peut pas fermer avant d'avoir ouvert."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.location} — {timezone.localtime(self.opened_at):%d/%m/%Y %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse("onsite:session-detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    def attendance(self) -> dict:
        """Families, children and adults counted in this session."""
        totals = self.visits.aggregate(children=Sum("children"), adults=Sum("adults"))
        return {
            "families": self.visits.count(),
            "children": totals["children"] or 0,
            "adults": totals["adults"] or 0,
        }


class Visit(models.Model):
    """A family come to play during a session: a member (its card scanned) or a family that is not one."""

    session = models.ForeignKey(
        Session, on_delete=models.PROTECT, related_name="visits", verbose_name=_("séance")
    )
    member = models.ForeignKey(
        "members.Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="onsite_visits",
        verbose_name=_("famille adhérente"),
        help_text=_("Vide : famille non adhérente."),
    )
    children = models.IntegerField(_("enfants"), default=0)
    adults = models.IntegerField(_("adultes"), default=0)
    arrived_at = models.DateTimeField(_("arrivée le"), default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("enregistrée par"),
    )

    class Meta:
        ordering = ["session", "arrived_at"]
        verbose_name = _("famille venue jouer")
        verbose_name_plural = _("familles venues jouer")
        constraints = [
            models.CheckConstraint(
                condition=Q(children__gte=0) & Q(adults__gte=0),
                name="onsite_visit_counts_not_negative",
                violation_error_message=_("Le nombre d'enfants et d'adultes ne peut pas être négatif."),
            ),
            models.CheckConstraint(
                condition=Q(children__gt=0) | Q(adults__gt=0),
                name="onsite_visit_someone_came",
                violation_error_message=_("Une famille compte au moins une personne."),
            ),
            models.UniqueConstraint(
                fields=["session", "member"],
                condition=Q(member__isnull=False),
                name="onsite_visit_one_per_member_per_session",
                violation_error_message=_("Cette famille est déjà comptée dans la séance."),
            ),
        ]

    def __str__(self) -> str:
        who = self.member.name if self.member_id else _("famille non adhérente")
        return f"{who} ({self.children} + {self.adults})"


class TableUseQuerySet(models.QuerySet):
    def at_table(self) -> "TableUseQuerySet":
        """Copies still at a table: taken, not back yet."""
        return self.filter(returned_at__isnull=True)


class TableUse(models.Model):
    """A copy taken to a table during a session, until it comes back to the desk with its pieces checked."""

    class ReturnCheck(models.TextChoices):
        COMPLETE = "complete", _("Complet")
        PLAYABLE = "playable", _("Incomplet mais jouable")
        INCOMPLETE = "incomplete", _("Incomplet")

    session = models.ForeignKey(
        Session, on_delete=models.PROTECT, related_name="table_uses", verbose_name=_("séance")
    )
    copy = models.ForeignKey(
        "catalogue.Copy", on_delete=models.PROTECT, related_name="table_uses", verbose_name=_("exemplaire")
    )
    visit = models.ForeignKey(
        Visit,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="table_uses",
        verbose_name=_("famille"),
    )
    taken_at = models.DateTimeField(_("sorti le"), default=timezone.now)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("sorti par")
    )
    returned_at = models.DateTimeField(_("rentré le"), null=True, blank=True)
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("rentré par"),
    )
    return_check = models.CharField(_("contrôle au retour"), max_length=12, choices=ReturnCheck, blank=True)
    missing_pieces = models.ManyToManyField(
        "loans.MissingPiece",
        blank=True,
        related_name="table_uses",
        verbose_name=_("pièces manquantes constatées"),
    )

    objects = TableUseQuerySet.as_manager()

    class Meta:
        ordering = ["session", "taken_at"]
        verbose_name = _("jeu sorti sur table")
        verbose_name_plural = _("jeux sortis sur table")
        constraints = [
            models.UniqueConstraint(
                fields=["copy"],
                condition=Q(returned_at__isnull=True),
                name="onsite_tableuse_one_open_per_copy",
                violation_error_message=_("Cet exemplaire est déjà sur une table."),
            ),
            models.CheckConstraint(
                condition=Q(returned_at__isnull=True) | Q(returned_at__gte=F("taken_at")),
                name="onsite_tableuse_returned_after_taken",
                violation_error_message=_("Un jeu ne peut pas rentrer avant d'être sorti."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.copy} — {self.session}"

    @property
    def is_out(self) -> bool:
        return self.returned_at is None


def at_table():
    """True for the copy `OuterRef("pk")` while it is at a table (registered with the catalogue)."""
    # (NOT) EXISTS: one probe of the partial unique index of copies at a table.
    return Exists(TableUse.objects.at_table().filter(copy=OuterRef("pk")))


def at_table_label() -> str:
    return str(_("sur une table, en jeu sur place"))


class PlayQuerySet(models.QuerySet):
    def per_game(self) -> "PlayQuerySet":
        return self.values("game__title").annotate(plays=models.Count("pk")).order_by("-plays", "game__title")


class Play(models.Model):
    """A game played during a session, counted by staff from its rules page's score sheet or pad."""

    class Source(models.TextChoices):
        SCORE_SHEET = "score_sheet", _("Feuille de score calculée")
        SCORE_PAD = "score_pad", _("Feuille de score imprimée")

    session = models.ForeignKey(
        Session, on_delete=models.PROTECT, related_name="plays", verbose_name=_("séance")
    )
    game = models.ForeignKey(
        "catalogue.Game", on_delete=models.PROTECT, related_name="onsite_plays", verbose_name=_("jeu")
    )
    players = models.IntegerField(_("joueurs"), null=True, blank=True)
    source = models.CharField(_("compté depuis"), max_length=12, choices=Source, default=Source.SCORE_SHEET)
    recorded_at = models.DateTimeField(_("comptée le"), default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("comptée par")
    )

    objects = PlayQuerySet.as_manager()

    class Meta:
        ordering = ["session", "recorded_at"]
        verbose_name = _("partie jouée sur place")
        verbose_name_plural = _("parties jouées sur place")
        constraints = [
            models.CheckConstraint(
                condition=Q(players__isnull=True) | Q(players__gte=1),
                name="onsite_play_players_positive",
                violation_error_message=_("Une partie compte au moins un joueur."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} — {self.session}"
