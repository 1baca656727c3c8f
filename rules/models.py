"""Rules pages: one page per game, its text kept as a history of revisions (never deleted)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from ludotheque.prepared import UNUSED_ID, PreparedRead

from .pages.bounds import bounded_sections
from .pages.markup import Section, split_sections

# The name recorded on revisions written by the fixtures loader (`load_rule_pages`).
LOADER_AUTHOR = "Ludothèque"
# The longest text a revision holds, in characters: five times the longest rules page (7 Wonders,
# 17,000), and a bound on what saving, rendering and comparing a revision may cost.
REVISION_MAX_LENGTH = 100_000


class Winning(models.TextChoices):
    """Whether the highest or the lowest value wins (a total, a tie-breaker)."""

    HIGHEST = "highest", _("le plus grand")
    LOWEST = "lowest", _("le plus petit")


class RulePageQuerySet(models.QuerySet):
    def still_generated(self) -> "RulePageQuerySet":
        """Pages made from their notice that no librarian has published yet (« à compléter »)."""
        return self.filter(generated=True)

    def reviewed(self) -> "RulePageQuerySet":
        return self.filter(reviewed_at__isnull=False)


class RulePage(models.Model):
    """A game's structured rules page; its slug is the rules engine's slug (`/regles/<slug>/`)."""

    slug = models.SlugField(_("identifiant"), max_length=100, unique=True)
    title = models.CharField(_("titre"), max_length=200)
    game = models.OneToOneField(
        "catalogue.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rules_page",
        verbose_name=_("notice du catalogue"),
    )
    created_at = models.DateTimeField(_("créée le"), default=timezone.now)
    # Made from the catalogue notice (rules/pages/generate.py) and not yet published by a librarian:
    # the page says it is « à compléter », and a new import of the notice may write it again as long
    # as its current revision is the generator's own.
    generated = models.BooleanField(_("générée depuis la notice"), default=False)
    reviewed_at = models.DateTimeField(_("relue le"), null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("relue par"),
    )
    # Who wins the score sheet every page has by default, one row per round (rules/default_sheet.py);
    # a declared score sheet says it for itself.
    sheet_winning = models.CharField(
        _("le total qui gagne"), max_length=10, choices=Winning, default=Winning.HIGHEST
    )

    objects = RulePageQuerySet.as_manager()

    class Meta:
        ordering = ["title"]
        verbose_name = _("page de règles")
        verbose_name_plural = _("pages de règles")
        indexes = [
            # The rules index (/regles/), a page of 50 titles at a time in this order.
            models.Index(fields=["title", "id"], name="rules_rulepage_title_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(sheet_winning__in=Winning.values),
                name="rules_rulepage_sheet_winning_valid",
                violation_error_message=_("Choisissez si le plus grand ou le plus petit total gagne."),
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("rules:page-detail", kwargs={"slug": self.slug})

    @cached_property
    def current_revision(self) -> "Revision | None":
        """The revision with the highest number: what the page shows (a prepared read)."""
        return next(iter(_CURRENT_REVISION.queryset(self.pk)), None)


class RevisionQuerySet(models.QuerySet):
    def for_history(self) -> "RevisionQuerySet":
        """Newest first, with the authors, as the history page lists them."""
        return self.select_related("author").order_by("-number").defer("content", "sections")

    def create(self, **fields) -> "Revision":
        """Save a revision with its text rendered once, now: no page, API or history view renders it again."""
        fields.setdefault("sections", rendered_sections(fields.get("content", "")))
        return super().create(**fields)


# A page's current revision, by the page's id (RulePage.current_revision; ludotheque/prepared.py).
_CURRENT_REVISION = PreparedRead(
    "rules page's current revision",
    lambda page: Revision.objects.filter(page_id=page).order_by("-number")[:1],
    UNUSED_ID,
)


def rendered_sections(content: str) -> list[dict]:
    """A revision's text cut into sections and rendered (rules/pages/markup.py), as Revision.sections stores it."""
    return [
        {
            "kind": section.kind,
            "title": section.title,
            "body_html": str(section.body_html),
            "anchor": section.anchor,
        }
        for section in split_sections(content)
    ]


class Revision(models.Model):
    """One saved state of a page's text (MediaWiki subset), numbered 1, 2, 3… per page."""

    page = models.ForeignKey(
        RulePage, on_delete=models.PROTECT, related_name="revisions", verbose_name=_("page")
    )
    number = models.PositiveIntegerField(_("numéro"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rule_revisions",
        verbose_name=_("auteur"),
    )
    # The name shown in the history: the user's name when the revision was saved (kept if the account
    # is deleted), or an imported contributor's name (« Bourjn » on the BGA wiki).
    author_name = models.CharField(_("nom de l'auteur"), max_length=150)
    created_at = models.DateTimeField(_("date"), default=timezone.now)
    summary = models.CharField(_("résumé de la modification"), max_length=500, blank=True)
    content = models.TextField(_("texte"), blank=True)
    # `content` rendered when the revision was saved (RevisionQuerySet.create): [{kind, title,
    # body_html, anchor}]. A change to the renderer re-renders them in a data migration.
    sections = models.JSONField(_("sections rendues"), editable=False)
    # Where an imported revision was first saved (« wiki BGA (fr) : Gamehelpalhambra », see
    # rules/pages/wiki_import.py); empty for revisions written here.
    imported_from = models.CharField(_("importée de"), max_length=200, blank=True, default="")

    objects = RevisionQuerySet.as_manager()

    class Meta:
        ordering = ["page_id", "number"]
        verbose_name = _("version")
        verbose_name_plural = _("versions")
        constraints = [
            # Also the index behind RulePage.current_revision (page = …, ORDER BY number DESC).
            models.UniqueConstraint(
                fields=["page", "number"],
                name="rules_revision_unique_page_number",
                violation_error_message=_("Cette page a déjà une version de ce numéro."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="rules_revision_number_positive",
                violation_error_message=_("Les versions sont numérotées à partir de 1."),
            ),
            models.CheckConstraint(
                condition=~Q(author_name=""),
                name="rules_revision_has_author_name",
                violation_error_message=_("Une version indique toujours son auteur."),
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("content"), REVISION_MAX_LENGTH),
                name="rules_revision_content_max_length",
                violation_error_message=_("Une version tient en 100 000 caractères au plus."),
            ),
            # A revision of another wiki is imported once, however often the import runs.
            models.UniqueConstraint(
                fields=["page", "imported_from", "created_at"],
                condition=~Q(imported_from=""),
                name="rules_revision_imported_once",
                violation_error_message=_("Cette version a déjà été importée."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.page} — v{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("rules:revision", kwargs={"slug": self.page.slug, "number": self.number})

    @property
    def section_list(self) -> list[Section]:
        """The stored sections, as markup.split_sections() made them when the revision was saved (at
        most bounds.MAX_SECTIONS: a revision saved before that limit has its last ones folded)."""
        return bounded_sections(
            [
                Section(
                    kind=section["kind"],
                    title=section["title"],
                    body_html=mark_safe(section["body_html"]),  # noqa: S308 - rendered by markup.py, which escapes
                    anchor=section["anchor"],
                )
                for section in self.sections
            ]
        )

    @property
    def by_loader(self) -> bool:
        """Whether the fixtures loader wrote this revision (not a librarian, not an import)."""
        return self.author_id is None and self.author_name == LOADER_AUTHOR and not self.imported_from

    @property
    def imported(self) -> bool:
        """Whether this revision comes from another wiki's history (seed 003's BGA pages)."""
        return bool(self.imported_from)


# --- Declared score sheets -------------------------------------------------------------------------
# A librarian's score sheet for a title without a coded game module, declared in the admin: lines of
# units × points, who wins, tie-breakers. `rules/declared.py` turns one into a GameRules, so it gets the
# same page, print aids and API as the coded games.

LINE_KEY_PATTERN = r"^[a-z][a-z0-9_-]*$"
LINE_KEY_RESERVED = "name"  # a player's name in the score API
LINE_POINTS_MAX = 1000
LINE_UNITS_MAX = 9999


class Sign(models.TextChoices):
    PLUS = "+", _("+ (ajoute des points)")
    MINUS = "-", _("− (retire des points)")


class DeclaredSheetQuerySet(models.QuerySet):
    def with_definition(self) -> "DeclaredSheetQuerySet":
        """With the page, its notice, the lines and the tie-breakers: a GameRules without more queries."""
        return self.select_related("page", "page__game").prefetch_related("lines", "tie_breakers__line")


class DeclaredSheet(models.Model):
    """A simple score sheet declared for a catalogue game: its page, who wins, its lines and tie-breakers."""

    page = models.OneToOneField(
        RulePage,
        on_delete=models.PROTECT,
        related_name="declared_sheet",
        verbose_name=_("page de règles"),
    )
    winning = models.CharField(
        _("le total qui gagne"), max_length=10, choices=Winning, default=Winning.HIGHEST
    )
    # How the sheet is won when it is not each player for themselves: together, by teams, by sides
    # (rules/engine/declared_play.py reads and checks it; docs/declared-rules.md, `score.play`).
    play = models.JSONField(
        _("façon de gagner"),
        default=dict,
        blank=True,
        help_text=_(
            "Vide : chacun pour soi. Sinon, au format de docs/declared-rules.md : "
            '{"mode": "together", "win_at": 4}, {"mode": "teams", "teams": {"min": 2, "max": 2}} '
            'ou {"mode": "sides", "roles": […], "sides": […]}.'
        ),
    )
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)

    objects = DeclaredSheetQuerySet.as_manager()

    class Meta:
        ordering = ["page__title"]
        verbose_name = _("feuille de score déclarée")
        verbose_name_plural = _("feuilles de score déclarées")
        constraints = [
            models.CheckConstraint(
                condition=Q(winning__in=Winning.values),
                name="rules_declaredsheet_winning_valid",
                violation_error_message=_("Choisissez si le plus grand ou le plus petit total gagne."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.page)

    def get_absolute_url(self) -> str:
        return self.page.get_absolute_url()


class DeclaredLine(models.Model):
    """A line of a declared sheet: each player writes a number of units, worth `points` each, added or taken away."""

    sheet = models.ForeignKey(
        DeclaredSheet, on_delete=models.CASCADE, related_name="lines", verbose_name=_("feuille")
    )
    position = models.PositiveSmallIntegerField(_("ordre"), default=1)
    label = models.CharField(
        _("intitulé"), max_length=80, help_text=_("Ce que les joueurs comptent : « Routes de 6 wagons ».")
    )
    key = models.CharField(
        _("identifiant"),
        max_length=40,
        validators=[
            RegexValidator(
                LINE_KEY_PATTERN,
                _("Commencez par une lettre, puis lettres minuscules sans accent, chiffres, « - » ou « _ »."),
                code="invalid_key",
            ),
            RegexValidator(
                rf"^{LINE_KEY_RESERVED}$",
                _("« name » est réservé au nom du joueur : choisissez un autre identifiant."),
                code="reserved_key",
                inverse_match=True,
            ),
        ],
        help_text=_("Le nom du champ dans l'API (« routes_6 ») ; laissé vide, il est tiré de l'intitulé."),
    )
    points = models.PositiveSmallIntegerField(
        _("points par unité"),
        default=1,
        validators=[MaxValueValidator(LINE_POINTS_MAX)],
        help_text=_("0 : une ligne qui ne sert qu'au départage."),
    )
    sign = models.CharField(_("signe"), max_length=1, choices=Sign, default=Sign.PLUS)
    max_units = models.PositiveIntegerField(
        _("unités au plus"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(LINE_UNITS_MAX)],
        help_text=_("Facultatif : 1 pour un bonus qu'on a ou pas."),
    )
    # A box that, ticked, puts its player (or team) out of the running, or makes the whole table lose
    # in a game played together (Codenames' assassin, Pandemic's eighth outbreak).
    knocks_out = models.BooleanField(
        _("case éliminatoire"),
        default=False,
        help_text=_(
            "Cochée sur la feuille, elle élimine le joueur ou l'équipe ; en coopération, la table perd. "
            "Elle ne rapporte pas de points (0)."
        ),
    )

    class Meta:
        ordering = ["sheet_id", "position", "pk"]
        verbose_name = _("ligne de score")
        verbose_name_plural = _("lignes de score")
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "key"],
                name="rules_declaredline_unique_key",
                violation_error_message=_("Deux lignes de cette feuille ont le même identifiant."),
            ),
            # The target of the tie-breakers' (sheet, line) foreign key: a tie-breaker's line is on its sheet.
            models.UniqueConstraint(fields=["sheet", "id"], name="rules_declaredline_unique_sheet_id"),
            models.CheckConstraint(
                condition=Q(key__regex=LINE_KEY_PATTERN) & ~Q(key=LINE_KEY_RESERVED),
                name="rules_declaredline_key_valid",
                violation_error_message=_("Identifiant invalide."),
            ),
            models.CheckConstraint(
                condition=Q(points__lte=LINE_POINTS_MAX),
                name="rules_declaredline_points_max",
                violation_error_message=_("Une unité vaut au plus 1000 points."),
            ),
            models.CheckConstraint(
                condition=Q(sign__in=Sign.values),
                name="rules_declaredline_sign_valid",
                violation_error_message=_("Le signe est + ou −."),
            ),
            models.CheckConstraint(
                condition=Q(max_units__isnull=True) | Q(max_units__gte=1, max_units__lte=LINE_UNITS_MAX),
                name="rules_declaredline_max_units_range",
                violation_error_message=_("Le maximum d'unités va de 1 à 9999."),
            ),
            models.CheckConstraint(
                condition=Q(knocks_out=False) | Q(points=0),
                name="rules_declaredline_knock_out_no_points",
                violation_error_message=_("Une case éliminatoire ne rapporte pas de points : mettez 0."),
            ),
        ]

    def __str__(self) -> str:
        return self.label


class DeclaredTieBreaker(models.Model):
    """A tie-breaker of a declared sheet: the units of one of its lines, highest or lowest first."""

    sheet = models.ForeignKey(
        DeclaredSheet, on_delete=models.CASCADE, related_name="tie_breakers", verbose_name=_("feuille")
    )
    position = models.PositiveSmallIntegerField(_("ordre"), default=1)
    # Removing a line removes the tie-breaker made of it (they are the sheet's definition, not played data).
    line = models.ForeignKey(
        DeclaredLine, on_delete=models.CASCADE, related_name="tie_breakers", verbose_name=_("ligne")
    )
    winning = models.CharField(_("gagne"), max_length=10, choices=Winning, default=Winning.HIGHEST)

    class Meta:
        ordering = ["sheet_id", "position", "pk"]
        verbose_name = _("départage")
        verbose_name_plural = _("départages")
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "line"],
                name="rules_declaredtiebreaker_unique_line",
                violation_error_message=_("Cette ligne départage déjà les égalités de cette feuille."),
            ),
            models.CheckConstraint(
                condition=Q(winning__in=Winning.values),
                name="rules_declaredtiebreaker_winning_valid",
                violation_error_message=_("Choisissez si le plus grand ou le plus petit nombre gagne."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.line)


# --- Declared setups ---------------------------------------------------------------------------------
# A librarian's setup for a title without a coded module: components, counts per player count, steps,
# as the JSON object docs/declared-rules.md describes (`setup`). The rules engine reads and checks it
# (rules/engine/declared.py); rules/declared/setups.py turns it into the title's GameRules.


class DeclaredSetup(models.Model):
    """A title's setup declared as data: what its rules page's calculator, print aid and API compute from."""

    page = models.OneToOneField(
        RulePage,
        on_delete=models.PROTECT,
        related_name="declared_setup",
        verbose_name=_("page de règles"),
    )
    definition = models.JSONField(
        _("déclaration"),
        help_text=_("Variantes, éléments et étapes, au format de docs/declared-rules.md."),
    )
    sources = models.TextField(
        _("sources"), blank=True, help_text=_("D'où viennent les nombres (la règle du jeu, sa page).")
    )
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)

    class Meta:
        ordering = ["page__title"]
        verbose_name = _("mise en place déclarée")
        verbose_name_plural = _("mises en place déclarées")

    def __str__(self) -> str:
        return str(self.page)

    def get_absolute_url(self) -> str:
        return reverse("rules:setup", kwargs={"slug": self.page.slug})
