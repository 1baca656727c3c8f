"""The catalogue: notices (games), their pieces and their copies, as PMB records them."""

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Case, Expression, ExpressionWrapper, F, Q, Value, When
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import esar
from .pictures import validate_box_picture
from .registry import circulation, elsewhere, elsewhere_label
from .search import GameSearchMixin


class Location(models.Model):
    """A site of the ludothèque where copies are shelved (PMB's Localisation)."""

    name = models.CharField(_("nom"), max_length=120, unique=True)
    address = models.TextField(_("adresse"), blank=True)
    # How families reach the site: the home page's « Devenir membre » shows them beside its hours.
    phone = models.CharField(_("téléphone"), max_length=40, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("localisation")
        verbose_name_plural = _("localisations")

    def __str__(self) -> str:
        return self.name


class CategoryQuerySet(models.QuerySet):
    def in_esar_group(self, group: str) -> "CategoryQuerySet":
        """The categories of an ESAR facet A group (`A400`: `A 401`, `A 406`…); see catalogue/esar.py."""
        return self.filter(code__regex=esar.GROUP_SQL_REGEX.format(kind=group[1]))


class Category(models.Model):
    """A classification of the library: code, label and family (`A 406` / jeu de stratégie / jeu de règles)."""

    code = models.CharField(_("code"), max_length=20, unique=True)
    label = models.CharField(_("libellé"), max_length=120)
    family = models.CharField(_("famille"), max_length=120, blank=True)

    objects = CategoryQuerySet.as_manager()

    class Meta:
        ordering = ["code"]
        verbose_name = _("catégorie")
        verbose_name_plural = _("catégories")

    def __str__(self) -> str:
        return f"{self.code} {self.label}"

    @property
    def esar_group(self) -> str | None:
        """The ESAR facet A group of the code (`A400`), or None for another classification."""
        return esar.group_of(self.code)


class Tag(models.Model):
    """A keyword of the notice; several words are allowed (`Jeux à deux`)."""

    name = models.CharField(_("nom"), max_length=80)
    slug = models.SlugField(_("identifiant"), max_length=90, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("mot-clé")
        verbose_name_plural = _("mots-clés")
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="catalogue_tag_unique_name_ci",
                violation_error_message=_("Ce mot-clé existe déjà."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Language(models.Model):
    """A language of the game's material, with its ISO 639-2 code as PMB shows it (`Français (fre)`)."""

    code = models.CharField(_("code"), max_length=3, unique=True)
    name = models.CharField(_("nom"), max_length=60)

    class Meta:
        ordering = ["name"]
        verbose_name = _("langue")
        verbose_name_plural = _("langues")

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Author(models.Model):
    """A person credited on notices (PMB's auteur, whatever the role)."""

    name = models.CharField(_("nom"), max_length=160, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("auteur")
        verbose_name_plural = _("auteurs")

    def __str__(self) -> str:
        return self.name


class Publisher(models.Model):
    """A publisher, with the place ISBD prefixes when the notice gives it (`Wimereux : Gigamic SARL`)."""

    name = models.CharField(_("nom"), max_length=160)
    place = models.CharField(_("lieu"), max_length=120, blank=True)

    class Meta:
        ordering = ["name", "place"]
        verbose_name = _("éditeur")
        verbose_name_plural = _("éditeurs")
        constraints = [
            models.UniqueConstraint(
                fields=["name", "place"],
                name="catalogue_publisher_unique_name_place",
                violation_error_message=_("Cet éditeur existe déjà à ce lieu."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.place} : {self.name}" if self.place else self.name


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


# The largest table an incomplete copy's playable sizes are kept for (a real table; score sheets cap at 20).
MAX_TABLE = 30


def _away() -> list[Expression]:
    """Conditions true for the copy `OuterRef("pk")` while it is not on the shelf for a family: out on
    loan, set aside for a hold (the lending app's), elsewhere (another app's, e.g. at a table)."""
    return [
        circulation().on_loan(),
        circulation().set_aside(),
        *elsewhere(),
    ]


class CopyQuerySet(models.QuerySet):
    def lendable(self) -> "CopyQuerySet":
        """Copies whose status allows lending, whether or not they are out right now."""
        return self.filter(status__in=Copy.Status.lendable())

    def in_circulation(self) -> "CopyQuerySet":
        """Copies lendable now or once repaired or completed: not lost, withdrawn or kept from lending."""
        return self.filter(status__in=Copy.Status.in_circulation())

    # Whether a copy is out or set aside, and until when, is the lending app's knowledge: it comes
    # through the catalogue's registry (catalogue/registry.py), never from an import of that app.

    def on_loan(self) -> "CopyQuerySet":
        """Copies with an open loan."""
        return self.filter(circulation().on_loan())

    def set_aside(self) -> "CopyQuerySet":
        """Copies kept at the desk for a family whose hold is ready."""
        return self.filter(circulation().set_aside())

    def available(self, players: int | None = None) -> "CopyQuerySet":
        """Copies a family can take home now: status allows lending, no open loan, not set aside, not
        away elsewhere (at a table during an on-site session).

        For a table of `players`, also the incomplete copies whose remaining pieces allow it.
        """
        copies = self.lendable()
        if players is not None and 1 <= players <= MAX_TABLE:
            copies = self.alias(fits=F("playable_tables").bitand(1 << players)).filter(
                Q(status__in=Copy.Status.lendable()) | Q(status=Copy.Status.INCOMPLETE, fits__gt=0)
            )
        for away in _away():
            copies = copies.exclude(away)
        return copies

    def with_whereabouts(self) -> "CopyQuerySet":
        """Annotate `whereabouts`: which registration keeps the copy away from the shelves, or None (one
        subquery per registration); `Copy.elsewhere` says it in words. A writer that locks the copy asks
        it in a statement of its own, after the lock (the locking statement keeps its older snapshot)."""
        whens = [When(expression, then=Value(index)) for index, expression in enumerate(elsewhere())]
        if not whens:
            return self.annotate(whereabouts=Value(None, output_field=models.IntegerField()))
        return self.annotate(whereabouts=Case(*whens, default=None, output_field=models.IntegerField()))

    def with_availability(self) -> "CopyQuerySet":
        """Annotate `is_available` (see available()), `due_on`, the open loan's return date or None, and
        `whereabouts` (see with_whereabouts(): `copy.elsewhere`, « sur une table… », or None)."""
        # available()'s conditions on the copy's own row: a second read of the copy, as a subquery of
        # available() copies, took ~2 ms more of Python to build and plan for each copy lookup.
        on_shelf = Q(status__in=Copy.Status.lendable())
        for away in _away():
            on_shelf &= ~Q(away)
        return self.with_whereabouts().annotate(
            is_available=ExpressionWrapper(on_shelf, output_field=models.BooleanField()),
            due_on=circulation().due_on(),
        )


class Copy(models.Model):
    """An exemplaire: one physical box on a shelf, identified by its barcode."""

    class Status(models.TextChoices):
        ON_SHELF = "on_shelf", _("En rayon")
        IN_REPAIR = "in_repair", _("En réparation")
        INCOMPLETE = "incomplete", _("Incomplet")
        LOST = "lost", _("Perdu")
        WITHDRAWN = "withdrawn", _("Retiré des collections")
        NOT_FOR_LOAN = "not_for_loan", _("Exclu du prêt")

        @classmethod
        def lendable(cls) -> list[str]:
            return [cls.ON_SHELF]

        @classmethod
        def in_circulation(cls) -> list[str]:
            """Lendable now or once repaired or completed: families may queue for them."""
            return [cls.ON_SHELF, cls.IN_REPAIR, cls.INCOMPLETE]

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="copies", verbose_name=_("jeu"))
    cote = models.CharField(_("cote"), max_length=40)
    section = models.ForeignKey(
        Category,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="copies",
        verbose_name=_("section"),
        help_text=_("Comme indiqué sur l'exemplaire, même si elle diffère de la catégorie de la notice."),
    )
    location = models.ForeignKey(
        Location, on_delete=models.PROTECT, related_name="copies", verbose_name=_("localisation")
    )
    barcode = models.CharField(_("code-barres"), max_length=40)
    status = models.CharField(_("statut"), max_length=20, choices=Status, default=Status.ON_SHELF)
    acquired_on = models.DateField(_("date d'acquisition"), null=True, blank=True)
    # The annual report's withdrawals: the day the copy left the collection (withdrawn or lost).
    withdrawn_on = models.DateField(
        _("sorti des collections le"),
        null=True,
        blank=True,
        help_text=_("Retiré ou perdu : le jour où l'exemplaire a quitté les collections (rapport annuel)."),
    )
    replacement_value = models.DecimalField(
        _("valeur de remplacement (€)"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_(
            "Facturée quand la famille perd le jeu, si son type d'adhésion le prévoit ; vide : jamais facturée."
        ),
    )
    notes = models.TextField(_("notes"), blank=True)
    # For an incomplete copy, the player counts its remaining pieces still allow (the rules engine's
    # answer, kept by the lending app: loans/playable.py); the search finds it for these tables.
    # One bit per table size (bit n: n players), so that SQLite, the first-run database, reads it too.
    playable_tables = models.PositiveIntegerField(_("jouable à"), default=0, editable=False)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)

    objects = CopyQuerySet.as_manager()

    class Meta:
        ordering = ["game", "barcode"]
        verbose_name = _("exemplaire")
        verbose_name_plural = _("exemplaires")
        constraints = [
            models.UniqueConstraint(
                fields=["barcode"],
                name="catalogue_copy_unique_barcode",
                violation_error_message=_("Un autre exemplaire porte déjà ce code-barres."),
                # The code "unique" on a one-field constraint puts the error on that field in forms.
                violation_error_code="unique",
            ),
            models.CheckConstraint(
                condition=Q(replacement_value__isnull=True) | Q(replacement_value__gt=0),
                name="catalogue_copy_replacement_value_positive",
                violation_error_message=_("La valeur de remplacement doit être positive (ou laissée vide)."),
            ),
        ]
        indexes = [
            # Copy.objects.available() per game (the "available now" filter and count of a search):
            # the copies whose status allows lending (Copy.Status.lendable()), read without the table.
            models.Index(
                fields=["game", "id"], condition=Q(status="on_shelf"), name="catalogue_copy_lendable_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} — {self.barcode}"

    @property
    def playable_players(self) -> list[int]:
        """The table sizes an incomplete copy still allows (playable_tables' bits), smallest first."""
        return [count for count in range(1, MAX_TABLE + 1) if self.playable_tables >> count & 1]

    @staticmethod
    def tables_mask(counts) -> int:
        return sum(1 << count for count in counts if 1 <= count <= MAX_TABLE)

    @property
    def elsewhere(self) -> str | None:
        """Where another app keeps the copy (« sur une table, en jeu sur place »), in the reader's
        language, or None; from `with_whereabouts()`."""
        return None if self.whereabouts is None else elsewhere_label(self.whereabouts)

    @property
    def status_allows_lending(self) -> bool:
        return self.status in Copy.Status.lendable()


class BarcodeSequence(models.Model):
    """The numbering of new copies for libraries without pre-printed labels: prefix + next number.

    One per ludothèque. `catalogue.services.barcode_allocate` hands out its numbers under a row lock,
    in the transaction that saves the copy: no two copies get the same number, and a copy that is
    not saved gives its number back (no gap).
    """

    prefix = models.CharField(_("préfixe"), max_length=20, blank=True, help_text=_("Par exemple LUD."))
    next_number = models.PositiveIntegerField(_("prochain numéro"), default=1)
    digits = models.PositiveSmallIntegerField(
        _("chiffres"), default=6, help_text=_("Le numéro est complété de zéros : LUD000042 pour 6 chiffres.")
    )

    class Meta:
        verbose_name = _("séquence de codes-barres")
        verbose_name_plural = _("séquence de codes-barres")
        constraints = [
            models.CheckConstraint(
                condition=Q(id=1),
                name="catalogue_barcodesequence_single",
                violation_error_message=_("La ludothèque n'a qu'une séquence de codes-barres."),
            ),
            models.CheckConstraint(
                condition=Q(digits__lte=12),
                name="catalogue_barcodesequence_digits_lte_12",
                violation_error_message=_("Au plus 12 chiffres."),
            ),
        ]

    def __str__(self) -> str:
        return self.barcode(self.next_number)

    def barcode(self, number: int) -> str:
        return f"{self.prefix}{number:0{self.digits}d}"


class SpreadsheetImport(models.Model):
    """A spreadsheet sent for import (games and copies, or families): kept as sent, previewed,
    imported once when a librarian confirms."""

    class Kind(models.TextChoices):
        GAMES = "jeux", _("Jeux et exemplaires")
        FAMILIES = "familles", _("Familles")

    kind = models.CharField(_("contenu"), max_length=10, choices=Kind, default=Kind.GAMES)
    file_name = models.CharField(_("fichier"), max_length=255)
    content = models.TextField(_("texte"))
    uploaded_at = models.DateTimeField(_("envoyé le"), default=timezone.now)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("envoyé par")
    )
    imported_at = models.DateTimeField(_("importé le"), null=True, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("importé par"),
    )
    summary = models.CharField(_("résultat"), max_length=200, blank=True)

    class Meta:
        ordering = ["-uploaded_at"]
        verbose_name = _("import de tableur")
        verbose_name_plural = _("imports de tableur")

    def __str__(self) -> str:
        return f"{self.file_name} ({timezone.localtime(self.uploaded_at):%Y-%m-%d %H:%M})"
