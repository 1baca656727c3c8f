"""The family search: one FilterSet behind the page `/jeux/` and the API `/api/games/`.

Parameter names are French because they show in URLs people bookmark and share
(`/jeux/?ages=6,9,38&duree_max=35&disponible=oui`).
"""

import copy
import re

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db import connections
from django.db.models import F
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact, In
from django.db.models.query import EmptyQuerySet
from django.utils.choices import BaseChoiceIterator
from django.utils.translation import gettext_lazy as _

from . import esar
from .models import Category, Game, Location, Tag
from .search.keys import category_keys, table_keys

MAX_AGE = 120
MAX_PLAYERS = 99


class AgesField(forms.CharField):
    """The ages of everyone at the table, `6, 9, 38`: a list of whole numbers."""

    default_error_messages = {
        "invalid": _(
            "« %(value)s » n'est pas un âge : écrivez des nombres entiers séparés par des virgules, "
            "par exemple 6, 9, 38."
        ),
        "range": _("« %(value)s » ne convient pas : un âge va de 0 à %(max)s ans."),
        "too_many": _("Une table de plus de %(max)s joueurs ? Indiquez au plus %(max)s âges."),
    }

    def to_python(self, value) -> list[int] | None:
        text = super().to_python(value)
        if not text:
            return None
        ages = []
        for word in re.split(r"[\s,;]+", text.strip(" ,;")):
            # ASCII digits only: str.isdigit() also accepts « ² », which int() refuses.
            if not re.fullmatch(r"[0-9]{1,9}", word):
                raise ValidationError(self.error_messages["invalid"], code="invalid", params={"value": word})
            if int(word) > MAX_AGE:
                raise ValidationError(
                    self.error_messages["range"], code="range", params={"value": word, "max": MAX_AGE}
                )
            ages.append(int(word))
        if len(ages) > MAX_PLAYERS:
            raise ValidationError(
                self.error_messages["too_many"], code="too_many", params={"max": MAX_PLAYERS}
            )
        return ages


YES = {"1", "true", "oui", "on", "yes"}
NO = {"0", "false", "non", "off", "no", ""}


class YesNoCheckbox(forms.CheckboxInput):
    """A checkbox that hands the field the raw word, so `disponible=bof` is an error, not a yes."""

    def __init__(self):
        super().__init__(attrs={"value": "oui"}, check_test=lambda value: str(value).lower() in YES)

    def value_from_datadict(self, data, files, name):
        return data.get(name)


class YesNoField(forms.Field):
    """A yes/no switch as a URL writes it: `oui`/`non`, `true`/`false`, `1`/`0`, or a ticked box."""

    widget = YesNoCheckbox
    default_error_messages = {
        "invalid": _("« %(value)s » n'est pas compris : répondez oui ou non."),
    }

    def to_python(self, value) -> bool:
        word = str(value or "").strip().lower()
        if word in YES:
            return True
        if word in NO:
            return False
        raise ValidationError(self.error_messages["invalid"], code="invalid", params={"value": value})


def category_choices() -> list:
    """The category select: each ESAR group (the whole group first, then its categories), then the others."""
    groups: dict[str | None, list] = {}
    for category in Category.objects.all():
        groups.setdefault(category.esar_group, []).append((category.code, str(category)))
    choices: list = [("", _("Toutes les catégories"))]
    for code, label in esar.GROUPS.items():
        if code in groups:
            everything = _("%(group)s : tous (%(code)s)") % {"group": label, "code": code}
            choices.append((label, [(code, everything), *groups[code]]))
    if None in groups:
        choices.append((_("Autres classements"), groups[None]))
    return choices


class CategoryChoices(BaseChoiceIterator):
    """category_choices(), read once per form (the select asks for its first choice, then for all)."""

    def __init__(self):
        self.choices = None

    def __iter__(self):
        if self.choices is None:
            self.choices = category_choices()
        return iter(self.choices)


class CategoryField(forms.ChoiceField):
    """A category code (`A 406`, or `A406` as people type it), or an ESAR facet A group (`A400`)
    meaning every category in it."""

    # The code of what to_python() found, as the select writes it: the form shows the category chosen
    # however it was typed, and sends it again (`A406` selects « A 406 »).
    found: str | None = None

    def __init__(self, **kwargs):
        super().__init__(choices=CategoryChoices(), **kwargs)

    def to_python(self, value) -> Category | esar.Group | None:
        value = super().to_python(value).strip()
        if not value:
            return None
        group = esar.as_group(value)
        if group is not None:
            ids = list(Category.objects.in_esar_group(group).values_list("pk", flat=True))
            self.found = group
            return esar.Group(code=group, category_ids=ids)
        # The code as typed first, should the catalogue have both spellings.
        spellings = esar.spellings(value)
        found = sorted(Category.objects.filter(code__in=spellings), key=lambda c: spellings.index(c.code))
        if not found:
            raise ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice", params={"value": value}
            )
        self.found = found[0].code
        return found[0]

    def bound_data(self, data, initial):
        return self.found or data

    def validate(self, value) -> None:
        # to_python found the value in the database: no need to list every choice again.
        forms.Field.validate(self, value)


class CategoryFilter(django_filters.Filter):
    field_class = CategoryField


class SiteChoices(forms.models.ModelChoiceIterator):
    """The sites in one plain query. Django reads a ModelChoiceField's choices through
    `queryset.iterator()`, a server-side cursor on PostgreSQL: DECLARE, FETCH and CLOSE, three round
    trips for a handful of sites."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for site in self.queryset.all():
            yield self.choice(site)


class SiteField(django_filters.fields.ModelChoiceField):
    iterator = SiteChoices


class SiteFilter(django_filters.ModelChoiceFilter):
    field_class = SiteField


class IntegerFilter(django_filters.Filter):
    field_class = forms.IntegerField


class AgesFilter(django_filters.Filter):
    field_class = AgesField


class YesNoFilter(django_filters.Filter):
    field_class = YesNoField


class GameFilter(django_filters.FilterSet):
    """Who is playing, for how long, what kind of game, where, and free text; then the sort order."""

    q = django_filters.CharFilter(
        label=_("Recherche"),
        method="filter_text",
        widget=forms.TextInput(attrs={"type": "search", "placeholder": _("chateau, catane, Bauza…")}),
        help_text=_("Titre, auteur, éditeur, mot-clé ou principe du jeu."),
    )
    ages = AgesFilter(
        label=_("Âges des joueurs"),
        method="filter_ages",
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "placeholder": "6, 9, 38", "autocomplete": "off"}
        ),
        help_text=_("L'âge de chaque joueur, séparés par des virgules : 6, 9, 38."),
    )
    joueurs = IntegerFilter(
        label=_("Nombre de joueurs"), method="filter_players", min_value=1, max_value=MAX_PLAYERS
    )
    age = IntegerFilter(label=_("Âge du plus jeune"), method="filter_age", min_value=0, max_value=MAX_AGE)
    duree_max = IntegerFilter(
        label=_("Temps disponible (minutes)"), method="filter_duration", min_value=1, max_value=32767
    )
    categorie = CategoryFilter(
        label=_("Catégorie"),
        method="filter_category",
        help_text=_(
            "Le code de classement, par exemple A 406, ou un groupe ESAR entier : A100 jeux d'exercice, "
            "A200 symboliques, A300 d'assemblage, A400 de règles."
        ),
    )
    tag = django_filters.ModelMultipleChoiceFilter(
        label=_("Mots-clés"),
        queryset=Tag.objects.all(),
        to_field_name="slug",
        method="filter_tags",
        help_text=_("Les jeux portant tous ces mots-clés (identifiants, plusieurs fois le paramètre)."),
    )
    auteur = django_filters.CharFilter(label=_("Auteur"), method="filter_author")
    editeur = django_filters.CharFilter(label=_("Éditeur"), method="filter_publisher")
    localisation = SiteFilter(
        label=_("Localisation"),
        queryset=Location.objects.all(),
        method="filter_location",
        empty_label=_("Tous les sites"),
        help_text=_("Les jeux dont un exemplaire est rangé sur ce site."),
    )
    disponible = YesNoFilter(
        label=_("Disponible maintenant"),
        method="filter_available",
        help_text=_("Seulement les jeux dont un exemplaire peut être emprunté maintenant (oui/non)."),
    )
    tri = django_filters.ChoiceFilter(
        label=_("Trier par"),
        choices=[
            ("pertinence", _("pertinence")),
            ("titre", _("titre")),
            ("duree", _("durée")),
            ("popularite", _("popularité")),
        ],
        method="filter_sort",
        empty_label=None,
        help_text=_(
            "Par défaut : pertinence s'il y a une recherche ou des âges (les jeux qui conviennent à "
            "tous d'abord), sinon titre."
        ),
    )

    class Meta:
        model = Game
        fields = []  # every filter is declared above, with its French name

    # A text search with `disponible`: the same search without it, for GamePaginator.available_page().
    ranked_candidates = None

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        # django-filter deep-copies every filter, querysets included, for each search. Each of these only calls a method of this filterset and keeps nothing of its own: a
        # shallow copy pointed at this filterset does.
        self.base_filters = {}
        super().__init__(data, queryset, request=request, prefix=prefix)
        del self.base_filters
        for name, base in type(self).base_filters.items():
            filter_ = copy.copy(base)
            filter_.method = base.method  # a FilterMethod of its own, calling this filterset's method
            filter_.model, filter_.parent = self.queryset.model, self
            self.filters[name] = filter_

    def get_form_class(self):
        # django-filter builds the form's twelve fields, then a form class, for every search:
        # they depend on nothing of the request, so the class is built once per filterset class and
        # process. Each form still copies its fields, as any Django form does.
        cls = type(self)
        if "_form_class" not in cls.__dict__:
            cls._form_class = super().get_form_class()
        return cls._form_class

    # The type hints on `value` give the OpenAPI schema each parameter's type.

    # The text's index checks the search's tags and category with its words (its table keys), on
    # PostgreSQL: see filter_text().
    keyed = False

    def filter_text(self, queryset, name, value: str):
        keys, groups = self.table_keys()
        # The table keys hold a game's tags and category exactly: the text's index scan yields only the
        # games with them. Their own conditions stay, for the search's postings (which have those columns
        # and no keys), in a form their indexes cannot serve: the planner, which cannot know that the
        # keys hold them, combined the text's scan with the category's index (87,000 games of `A 409`
        # at 1,000,000 games) or the tags' (23,775 games for `famille`) for no game less.
        self.keyed = bool(keys or groups) and connections[queryset.db].vendor == "postgresql"
        return queryset.search(value, table=keys, table_any=groups)

    def table_keys(self) -> tuple[list[int], list[int]]:
        """The table keys of the search's criteria (see catalogue.search.table_keys()): those every game
        carries, and those of which each carries one (an ESAR group's categories)."""
        data = self.form.cleaned_data
        ages = data.get("ages") or []
        category = data.get("categorie")
        group = isinstance(category, esar.Group)
        every = table_keys(
            players=[count for count in (data.get("joueurs"), len(ages)) if count],
            youngest=[age for age in (data.get("age"), min(ages, default=None)) if age is not None],
            minutes=data.get("duree_max"),
            category=category.pk if category is not None and not group else None,
            tags=[tag.pk for tag in data.get("tag") or ()],  # the list filter_tags() reads again
        )
        return every, category_keys(category.category_ids) if group else []

    def filter_ages(self, queryset, name, value: list[int]):
        return queryset.playable_by(ages=value).fitting_ages(value)

    def filter_players(self, queryset, name, value: int):
        return queryset.for_players(value)

    def filter_age(self, queryset, name, value: int):
        return queryset.for_age(value)

    def filter_duration(self, queryset, name, value: int):
        return queryset.shorter_than(value)

    def filter_category(self, queryset, name, value: str):
        # Checked in the text's index already (filter_text()): not by the category's index too.
        category = Coalesce("category_id", 0) if self.keyed else F("category_id")
        if isinstance(value, esar.Group):
            # The group's category ids, found once: the filter stays a condition on the game's row.
            return queryset.filter(In(category, value.category_ids))
        return queryset.filter(Exact(category, value.pk))

    def filter_tags(self, queryset, name, value: list[Tag]):
        # No tag asked: the field gives `Tag.objects.none()`, which `with_tags` would compile only to
        # find it empty.
        return (
            queryset
            if isinstance(value, EmptyQuerySet)
            else queryset.with_tags(value, indexed=not self.keyed)
        )

    def filter_author(self, queryset, name, value: str):
        return queryset.by_author(value)

    def filter_publisher(self, queryset, name, value: str):
        return queryset.by_publisher(value)

    def filter_location(self, queryset, name, value: Location):
        if self.form.cleaned_data.get("disponible"):
            return queryset  # filter_available looks for an available copy at this location
        return queryset.with_copies(location=value)

    def filter_available(self, queryset, name, value: bool):
        if not value:
            return queryset
        data = self.form.cleaned_data
        # An incomplete copy still counts for a table its remaining pieces allow (loans/playable.py).
        players = data.get("joueurs") or (len(data["ages"]) if data.get("ages") else None)
        if data.get("q"):
            # Every other filter is declared above this one, so `queryset` is the whole search so far.
            self.ranked_candidates = queryset.sorted_by(self.sort_key)
        return queryset.with_copies(location=data.get("localisation"), available=True, players=players)

    def filter_sort(self, queryset, name, value: str):
        return queryset  # applied last, in filter_queryset, once the text query has ranked the games

    @property
    def sort_key(self) -> str:
        """The sort asked for, or relevance when there is a text query, else the title."""
        data = self.form.cleaned_data
        return data.get("tri") or ("pertinence" if data.get("q") or data.get("ages") else "titre")

    def filter_queryset(self, queryset):
        games = super().filter_queryset(queryset).sorted_by(self.sort_key)
        # Read by the paginator of this very queryset (a clone would not carry them): see
        # filter_available, and GamePaginator.read for the oldest age at the table.
        games.ranked_candidates = self.ranked_candidates
        ages = self.form.cleaned_data.get("ages")
        games.oldest_age = max(ages) if ages else None
        return games
