"""Where copies are and what games are named by: sites, categories (ESAR), tags, languages, authors and
publishers."""

from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .. import esar


class Location(models.Model):
    """A site of the ludothèque where copies are shelved (PMB's Localisation)."""

    name = models.CharField(_("nom"), max_length=120, unique=True)
    address = models.TextField(_("adresse"), blank=True)
    # How families reach the site: the home page's « Devenir membre » shows them beside its hours.
    phone = models.CharField(_("téléphone"), max_length=40, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    # Where a family may collect a hold (a store room does not lend).
    lends = models.BooleanField(
        _("prête des jeux"),
        default=True,
        help_text=_("Les familles peuvent y retirer une réservation."),
    )
    # What becomes of this site's copies returned at another site (loans/transfers.py).
    returns_home = models.BooleanField(
        _("ses jeux rendus ailleurs lui reviennent"),
        default=True,
        help_text=_(
            "Coché : un exemplaire de ce site rendu sur un autre site lui est renvoyé (en transit). "
            "Décoché : il reste là où il a été rendu et y est désormais rangé."
        ),
    )

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
