"""The copies of a game on the shelves, the barcodes they are given, and the spreadsheet imports."""

from django.conf import settings
from django.db import models
from django.db.models import Case, Expression, ExpressionWrapper, F, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..registry import circulation, elsewhere, elsewhere_label
from .games import Game
from .kinds import ItemKind, default_item_kind
from .names import Category, Location

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
        # available() copies, cost more to build and plan than the copy lookup itself.
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
        # Between two sites (a hold collected elsewhere, a return sent home, a crate): in exactly one
        # place, the transfer's (loans/transfers.py), neither on a shelf nor lendable.
        IN_TRANSIT = "in_transit", _("En transit")

        @classmethod
        def lendable(cls) -> list[str]:
            return [cls.ON_SHELF]

        @classmethod
        def in_circulation(cls) -> list[str]:
            """Lendable now or once repaired, completed or arrived: families may queue for them."""
            return [cls.ON_SHELF, cls.IN_REPAIR, cls.INCOMPLETE, cls.IN_TRANSIT]

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
    # What kind of item it is: its loan rules, with the family's membership (loans/loan_rules.py).
    kind = models.ForeignKey(
        ItemKind,
        on_delete=models.PROTECT,
        default=default_item_kind,
        related_name="copies",
        verbose_name=_("type d'objet"),
    )
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
