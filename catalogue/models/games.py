"""A game's notice, as PMB records it: the game, its credits, its pieces and its documents."""

from django.contrib.postgres.search import SearchVectorField
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ..pictures import validate_box_picture
from ..search.queryset import GameSearchMixin
from .names import Author, Category, Language, Publisher, Tag


def game_image_upload_to(instance: "Game", filename: str) -> str:
    return f"jeux/{instance.slug}/{filename}"


def validate_game_image(file) -> None:
    """Accept a JPEG, PNG or WebP photo, recognised by its content and named for it (as documents are),
    of at most pictures.MAX_PIXELS."""
    validate_document_file(file)
    if file.name.rsplit(".", 1)[-1].lower() not in ("jpg", "jpeg", "png", "webp"):
        raise ValidationError(
            _("La photo de la boîte doit être un JPEG, un PNG ou un WebP."), code="image_type"
        )
    validate_box_picture(file)


class GameQuerySet(GameSearchMixin, models.QuerySet):
    def for_players(self, count: int) -> "GameQuerySet":
        """Games playable by `count` players."""
        return self.filter(players_min__lte=count, players_max__gte=count)

    def for_age(self, age: int) -> "GameQuerySet":
        """Games whose age range admits a player of `age` (no maximum means no upper limit)."""
        return self.filter(age_min__lte=age).filter(Q(age_max__isnull=True) | Q(age_max__gte=age))

    def playable_by(self, *, ages: list[int]) -> "GameQuerySet":
        """Games that fit a table of players of these ages: the count and the youngest must fit."""
        return self.for_players(len(ages)).for_age(min(ages))

    def shorter_than(self, minutes: int) -> "GameQuerySet":
        """Games whose average duration is at most `minutes`."""
        return self.filter(duration_minutes__lte=minutes)


class Game(models.Model):
    """A notice: one game title as the library catalogues it."""

    title = models.CharField(_("titre"), max_length=200)
    slug = models.SlugField(_("identifiant"), max_length=220, unique=True)
    document_type = models.CharField(
        _("type de document"), max_length=120, default="objet à 3 dimensions, artefacts, ..."
    )
    authors = models.ManyToManyField(
        Author, through="Authorship", related_name="games", verbose_name=_("auteurs")
    )
    publishers = models.ManyToManyField(
        Publisher, through="PublisherCredit", related_name="games", verbose_name=_("éditeurs")
    )
    languages = models.ManyToManyField(Language, blank=True, related_name="games", verbose_name=_("langues"))
    category = models.ForeignKey(
        Category,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("catégorie"),
    )
    tags = models.ManyToManyField(Tag, blank=True, related_name="games", verbose_name=_("mots-clés"))
    players_min = models.PositiveSmallIntegerField(_("nombre minimum de joueurs"), null=True, blank=True)
    players_max = models.PositiveSmallIntegerField(_("nombre maximum de joueurs"), null=True, blank=True)
    age_min = models.PositiveSmallIntegerField(_("âge minimum"), null=True, blank=True)
    age_max = models.PositiveSmallIntegerField(_("âge maximum"), null=True, blank=True)
    duration_minutes = models.PositiveSmallIntegerField(_("durée moyenne (minutes)"), null=True, blank=True)
    summary = models.TextField(_("principe du jeu"), blank=True)
    rules_summary = models.TextField(_("règles du jeu"), blank=True)
    contents = models.TextField(_("contenu"), blank=True)
    pedagogical_analysis = models.TextField(_("analyse pédagogique"), blank=True)
    online_url = models.URLField(_("en ligne"), max_length=500, blank=True)
    image = models.ImageField(
        _("photo de la boîte"),
        upload_to=game_image_upload_to,
        blank=True,
        validators=[validate_game_image],
        help_text=_("Une photo JPEG, PNG ou WebP ; le site en fait lui-même les vignettes."),
    )
    # Giant games, party kits: families book them for dates (the lending app's date bookings) instead of
    # queueing for them.
    date_bookable = models.BooleanField(
        _("réservable à date"),
        default=False,
        help_text=_(
            "Jeux géants, malles de fête : les familles les réservent du … au …, au lieu de faire la file."
        ),
    )
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)
    # The search document: computed by PostgreSQL itself from the title, summary, authors, publishers
    # and tags (trigger of migration 0003_search_triggers_and_lexicon) whatever writes the game; Python
    # never sets it. See catalogue/search.py.
    search_vector = SearchVectorField(editable=False, null=True)
    # How often the game was lent over the last twelve months: the sort by popularity. The lending app
    # counts it in the daily run (loans.services.popularity_count), so that a search sorted by it walks
    # an index instead of counting a year of loans per game.
    loans_last_year = models.PositiveIntegerField(_("prêts sur douze mois"), default=0, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["title"]
        verbose_name = _("jeu")
        verbose_name_plural = _("jeux")
        constraints = [
            models.CheckConstraint(
                condition=Q(players_min__lte=F("players_max")),
                name="catalogue_game_players_min_lte_max",
                violation_error_message=_(
                    "Le nombre minimum de joueurs ne peut pas dépasser le nombre maximum."
                ),
            ),
            models.CheckConstraint(
                condition=Q(players_min__gte=1),
                name="catalogue_game_players_min_positive",
                violation_error_message=_("Il faut au moins un joueur."),
            ),
            models.CheckConstraint(
                condition=Q(age_min__lte=F("age_max")),
                name="catalogue_game_age_min_lte_max",
                violation_error_message=_("L'âge minimum ne peut pas dépasser l'âge maximum."),
            ),
            models.CheckConstraint(
                condition=Q(duration_minutes__gt=0),
                name="catalogue_game_duration_positive",
                violation_error_message=_("La durée moyenne doit être d'au moins une minute."),
            ),
        ]
        indexes = [
            # The family search sorted by title (GameQuerySet.sorted_by("titre"), the default without
            # text): the first page comes in index order. Its covering index for counts and facets is
            # PostgreSQL-only, in migration 0003_search_triggers_and_lexicon.
            models.Index(fields=["title", "id"], name="catalogue_game_title_idx"),
            # The sort by popularity (GameQuerySet.sorted_by("popularite")), in index order too.
            models.Index(F("loans_last_year").desc(), "title", "id", name="catalogue_game_popularity_idx"),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("catalogue:game-detail", kwargs={"slug": self.slug})


class Authorship(models.Model):
    """An author's credit on a notice, with the role and the order PMB lists them in."""

    class Role(models.TextChoices):
        AUTHOR = "auteur", _("Auteur")
        ILLUSTRATOR = "illustrateur", _("Illustrateur")
        DEVELOPER = "developpeur", _("Développeur")
        TRANSLATOR = "traducteur", _("Traducteur")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="authorships", verbose_name=_("jeu")
    )
    author = models.ForeignKey(
        Author, on_delete=models.PROTECT, related_name="authorships", verbose_name=_("auteur")
    )
    role = models.CharField(_("fonction"), max_length=20, choices=Role, default=Role.AUTHOR)
    position = models.PositiveSmallIntegerField(_("ordre"), default=0)

    class Meta:
        ordering = ["game_id", "position"]
        verbose_name = _("crédit d'auteur")
        verbose_name_plural = _("crédits d'auteur")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "author", "role"],
                name="catalogue_authorship_unique_game_author_role",
                violation_error_message=_("Cet auteur est déjà crédité dans ce rôle."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author}, {self.get_role_display()}"


class PublisherCredit(models.Model):
    """A publisher of a notice: position 0 is the Editeur, the next ones are the Autres éditeurs."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="publisher_credits", verbose_name=_("jeu")
    )
    publisher = models.ForeignKey(
        Publisher, on_delete=models.PROTECT, related_name="credits", verbose_name=_("éditeur")
    )
    position = models.PositiveSmallIntegerField(_("ordre"), default=0)

    class Meta:
        ordering = ["game_id", "position"]
        verbose_name = _("éditeur du jeu")
        verbose_name_plural = _("éditeurs du jeu")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "publisher"],
                name="catalogue_publishercredit_unique_game_publisher",
                violation_error_message=_("Cet éditeur est déjà associé à ce jeu."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.publisher)


class Component(models.Model):
    """A piece of a game (`87 × cartes`): one line of the checklist ticked at return."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="components", verbose_name=_("jeu"))
    position = models.PositiveSmallIntegerField(_("ordre"), default=0)
    quantity = models.PositiveIntegerField(_("quantité"), default=1)
    label = models.CharField(_("pièce"), max_length=200)
    unit_price = models.DecimalField(
        _("prix d'une pièce (€)"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_(
            "Facturé par pièce manquante au retour, si le type d'adhésion de la famille le prévoit ; "
            "vide : jamais facturé."
        ),
    )

    # The rules engine's piece this line is (`monster_cards`), set once by the librarian in the admin:
    # with it, the engine says which player counts a copy missing some still allows. Blank: not linked.
    rules_key = models.CharField(
        _("pièce du moteur de règles"),
        max_length=60,
        blank=True,
        default="",
        help_text=_(
            "Pour les jeux aux règles codées : la pièce de la règle à laquelle correspond cette ligne. "
            "Sert à dire si un exemplaire incomplet reste jouable (et à combien)."
        ),
    )

    class Meta:
        ordering = ["game_id", "position", "pk"]
        verbose_name = _("pièce")
        verbose_name_plural = _("pièces")
        constraints = [
            models.CheckConstraint(
                condition=Q(quantity__gte=1),
                name="catalogue_component_quantity_positive",
                violation_error_message=_("La quantité doit être d'au moins 1."),
            ),
            models.CheckConstraint(
                condition=Q(unit_price__isnull=True) | Q(unit_price__gt=0),
                name="catalogue_component_unit_price_positive",
                violation_error_message=_("Le prix d'une pièce doit être positif (ou laissé vide)."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.label}"


def document_upload_to(instance: "Document", filename: str) -> str:
    return f"documents/{instance.game.slug}/{filename}"


# What a document may be, by its first bytes, and the file name endings that go with each: a file is
# served with the content type of its ending (docs/operations.md, Production), so both must agree.
DOCUMENT_SIGNATURES = {
    "PDF": ((b"%PDF-",), ("pdf",)),
    "PNG": ((b"\x89PNG\r\n\x1a\n",), ("png",)),
    "JPEG": ((b"\xff\xd8\xff",), ("jpg", "jpeg")),
    "GIF": ((b"GIF87a", b"GIF89a"), ("gif",)),
    "WebP": ((b"RIFF",), ("webp",)),  # RIFF, a size, then WEBP: checked below
}


def validate_document_file(file) -> None:
    """Accept a PDF or an image (PNG, JPEG, GIF, WebP), recognised by its content and named for it."""
    file.seek(0)
    head = file.read(16)
    file.seek(0)
    ending = file.name.rsplit(".", 1)[-1].lower() if "." in file.name else ""
    for kind, (signatures, endings) in DOCUMENT_SIGNATURES.items():
        if head.startswith(signatures) and (kind != "WebP" or head[8:12] == b"WEBP"):
            if ending not in endings:
                raise ValidationError(
                    _("Ce fichier est un %(kind)s : son nom doit finir par .%(ending)s."),
                    code="document_ending",
                    params={"kind": kind, "ending": endings[0]},
                )
            return
    raise ValidationError(
        _(
            "Seuls les documents PDF et les images (PNG, JPEG, GIF, WebP) sont acceptés : ce fichier n'en est pas un."
        ),
        code="document_type",
    )


class Document(models.Model):
    """A digital document attached to a notice (the rule PDF), known by file name, optionally uploaded."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="documents", verbose_name=_("jeu"))
    file_name = models.CharField(_("nom du fichier"), max_length=255)
    file = models.FileField(
        _("fichier"),
        upload_to=document_upload_to,
        blank=True,
        validators=[validate_document_file],
        help_text=_("Un PDF ou une image (PNG, JPEG, GIF, WebP)."),
    )
    position = models.PositiveSmallIntegerField(_("ordre"), default=0)

    class Meta:
        ordering = ["game_id", "position", "file_name"]
        verbose_name = _("document numérique")
        verbose_name_plural = _("documents numériques")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "file_name"],
                name="catalogue_document_unique_game_file_name",
                violation_error_message=_("Ce jeu a déjà un document de ce nom."),
            ),
        ]

    def __str__(self) -> str:
        return self.file_name
