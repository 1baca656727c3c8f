"""The librarians' catalogue: notices with their credits, pieces, documents and copies, and the reference tables."""

import difflib
import re

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ludotheque.access import LibrarianAccessMixin, ReadOnlyHistoryMixin
from ludotheque.money import PlainDecimalField

from . import (
    admin_kinds,  # noqa: F401 (registers the kinds of item)
    esar,
    registry,
)
from .admin_filters import (
    AgeFilter,
    AvailabilityFilter,
    CategoryFilter,
    CopyStatusFilter,
    EsarGroupFilter,
    LocationFilter,
    PlayersFilter,
)
from .forms import CopyForm
from .models import (
    Author,
    Authorship,
    BarcodeSequence,
    Category,
    Component,
    Copy,
    Document,
    Game,
    Language,
    Location,
    Publisher,
    PublisherCredit,
    SpreadsheetImport,
    Tag,
)
from .pictures import BoxPictureField
from .services import barcode_allocate
from .templatetags.games import make_thumbnails


def _barcode_field(field):
    """A copy's barcode may be left empty in the admin: the sequence then gives it one on save."""
    sequence = BarcodeSequence.objects.first()
    if sequence is not None:
        field.required = False
        field.empty_value = None
        field.help_text = _("Laissez vide pour prendre le prochain numéro de la séquence : %(next)s.") % {
            "next": sequence
        }
    return field


def _allocate_if_empty(copy: Copy) -> None:
    if not copy.barcode:
        copy.barcode = barcode_allocate()


def _only_location():
    """The ludothèque's site when it has just one, to preselect it on new copies."""
    locations = list(Location.objects.all()[:2])
    return locations[0] if len(locations) == 1 else None


# --- Filters of the game list ------------------------------------------------------------------


class AuthorshipInline(LibrarianAccessMixin, admin.TabularInline):
    model = Authorship
    autocomplete_fields = ["author"]
    fields = ["author", "role", "position"]
    extra = 1


class PublisherCreditInline(LibrarianAccessMixin, admin.TabularInline):
    model = PublisherCredit
    autocomplete_fields = ["publisher"]
    fields = ["publisher", "position"]
    extra = 1


class CopyInlineFormSet(BaseInlineFormSet):
    def get_unique_error_message(self, unique_check):
        if list(unique_check) == ["barcode"]:
            return _("Deux exemplaires portent le même code-barres.")
        return super().get_unique_error_message(unique_check)


class CopyInline(LibrarianAccessMixin, admin.TabularInline):
    model = Copy
    form = CopyForm
    formfield_overrides = {models.DecimalField: {"form_class": PlainDecimalField, "localize": True}}
    formset = CopyInlineFormSet
    fields = [
        "cote",
        "barcode",
        "kind",
        "section",
        "location",
        "status",
        "acquired_on",
        "withdrawn_on",
        "replacement_value",
        "notes",
    ]
    autocomplete_fields = ["section"]
    show_change_link = True

    def get_extra(self, request, obj=None, **kwargs):
        return 0 if obj and obj.copies.exists() else 2

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "location" and "initial" not in kwargs:
            location = _only_location()
            if location:
                kwargs["initial"] = location.pk
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "notes" and field is not None:
            field.widget.attrs.update(rows=1, cols=30)
        if db_field.name == "barcode":
            field = _barcode_field(field)
        return field


def _words(text: str) -> set[str]:
    """The words of a piece's name, lower case, without plural marks or counts (« cartes » → « carte »)."""
    words = re.findall(r"[^\W\d_]{3,}", re.sub(r"\(\d+\)$", "", text.strip()).casefold())
    return {word[:-1] if word.endswith(("s", "x")) else word for word in words}


def suggested_key(label: str, choices: list[tuple[str, str]]) -> str:
    """The engine piece whose name reads most like a catalogue piece's label (« 20 cartes monstres … »).

    The share of the engine name's words found in the label, then the closeness of the two texts;
    nothing when no name has half of its words in the label.
    """
    wanted = _words(label)
    best, best_score = "", (0.5, 0.0)
    for key, name in choices:
        words = _words(str(name))
        if not words:
            continue
        score = (
            len(words & wanted) / len(words),
            difflib.SequenceMatcher(None, label.casefold(), str(name).casefold()).ratio(),
        )
        if score >= best_score:
            best, best_score = key, score
    return best


class ComponentForm(forms.ModelForm):
    """A piece line, with its link to the rules engine's piece chosen among the game's, best match first."""

    key_choices: list[tuple[str, str]] = []

    class Meta:
        model = Component
        fields = ["position", "quantity", "label", "unit_price", "rules_key"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = list(self.key_choices)
        current = self.instance.rules_key
        if current and current not in dict(choices):
            choices.append((current, current))  # a key the game's module no longer declares stays visible
        suggestion = (
            suggested_key(self.instance.label, choices) if self.instance.label and not current else ""
        )
        if suggestion:
            name = dict(choices)[suggestion]
            choices.remove((suggestion, name))
            choices.insert(0, (suggestion, _("%(piece)s (suggéré)") % {"piece": name}))
        self.fields["rules_key"] = forms.ChoiceField(
            label=Component._meta.get_field("rules_key").verbose_name,
            choices=[("", "—"), *choices],
            required=False,
        )


class ComponentInline(LibrarianAccessMixin, admin.TabularInline):
    model = Component
    form = ComponentForm
    formfield_overrides = {models.DecimalField: {"form_class": PlainDecimalField, "localize": True}}
    fields = ["position", "quantity", "label", "unit_price"]
    extra = 0

    def get_fields(self, request, obj=None):
        # The link to the engine's pieces only for a game with coded rules (registry.piece_keys).
        return [*self.fields, "rules_key"] if obj is not None and registry.piece_keys(obj) else self.fields

    def get_formset(self, request, obj=None, **kwargs):
        choices = registry.piece_keys(obj) if obj is not None else []
        kwargs["form"] = type("GameComponentForm", (ComponentForm,), {"key_choices": choices})
        return super().get_formset(request, obj, **kwargs)


class DocumentInline(LibrarianAccessMixin, admin.TabularInline):
    model = Document
    fields = ["file_name", "file", "position"]
    extra = 0


@admin.register(Game)
class GameAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["title", "category", "players", "ages", "duration_minutes", "copy_count", "updated_at"]
    list_select_related = ["category"]
    list_filter = [
        CategoryFilter,
        "tags",
        PlayersFilter,
        AgeFilter,
        LocationFilter,
        CopyStatusFilter,
        "date_bookable",
    ]
    search_fields = [
        "title",
        "authors__name",
        "publishers__name",
        "copies__barcode",
        "copies__cote",
    ]
    search_help_text = _("Titre, auteur, éditeur, code-barres ou cote.")
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["category", "tags", "languages"]
    readonly_fields = ["created_at", "updated_at"]
    save_on_top = True
    inlines = [CopyInline, AuthorshipInline, PublisherCreditInline, ComponentInline, DocumentInline]
    formfield_overrides = {models.ImageField: {"form_class": BoxPictureField}}  # bounded, re-saved
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "title",
                    "slug",
                    "image",
                    "category",
                    "tags",
                    "languages",
                    "document_type",
                    "date_bookable",
                ]
            },
        ),
        (
            _("Pour quelle table ?"),
            {"fields": [("players_min", "players_max"), ("age_min", "age_max"), "duration_minutes"]},
        ),
        (
            _("Textes de la notice"),
            {
                "classes": ["collapse"],
                "fields": ["summary", "rules_summary", "contents", "pedagogical_analysis", "online_url"],
            },
        ),
        (_("Historique"), {"classes": ["collapse"], "fields": ["created_at", "updated_at"]}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(copy_count=Count("copies", distinct=True))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if "image" in form.changed_data and obj.image:
            # Made now, once, rather than by the first family whose search shows the game.
            make_thumbnails(obj.image)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # The pieces or their links to the rules may have changed: incomplete copies are weighed again.
        if any(formset.model is Component and formset.has_changed() for formset in formsets):
            registry.pieces_changed(form.instance)
        # A new title gets its rules page now; a page still made from the notice follows its changes.
        registry.catalogued([form.instance.pk])

    def save_formset(self, request, form, formset, change):
        if formset.model is not Copy:
            return super().save_formset(request, form, formset, change)
        # The admin saves in one transaction: a barcode taken here is given back if anything fails.
        for copy in formset.save(commit=False):
            _allocate_if_empty(copy)
            copy.save()
        for copy in formset.deleted_objects:
            copy.delete()

    @admin.display(description=_("joueurs"), ordering="players_min")
    def players(self, game: Game) -> str:
        return _range(game.players_min, game.players_max)

    @admin.display(description=_("âges"), ordering="age_min")
    def ages(self, game: Game) -> str:
        return _range(game.age_min, game.age_max)

    @admin.display(description=_("exemplaires"), ordering="copy_count")
    def copy_count(self, game: Game) -> int:
        return game.copy_count


def _range(low: int | None, high: int | None) -> str:
    if low is None and high is None:
        return "—"
    if low == high:
        return str(low)
    return f"{low if low is not None else '?'}–{high if high is not None else '?'}"


# --- Copies ------------------------------------------------------------------------------------


def _print_url(name: str, copy_ids) -> str:
    return f"{reverse(name)}?exemplaires={','.join(str(pk) for pk in copy_ids)}"


@admin.action(description=_("Imprimer les étiquettes des exemplaires sélectionnés"))
def print_labels(modeladmin, request, queryset):
    return HttpResponseRedirect(_print_url("catalogue:label-sheet", queryset.values_list("pk", flat=True)))


@admin.action(description=_("Imprimer les fiches de boîte des exemplaires sélectionnés"))
def print_box_stickers(modeladmin, request, queryset):
    return HttpResponseRedirect(_print_url("catalogue:box-stickers", queryset.values_list("pk", flat=True)))


@admin.register(Copy)
class CopyAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    form = CopyForm
    # Prices typed the French way (« 29,90 ») as well as with a dot.
    formfield_overrides = {models.DecimalField: {"form_class": PlainDecimalField, "localize": True}}
    list_display = ["barcode", "game", "cote", "kind", "section", "location", "status", "is_available"]
    list_select_related = ["game", "kind", "section", "location"]
    list_filter = ["status", "kind", "location", AvailabilityFilter, "section"]
    search_fields = ["barcode", "cote", "game__title"]
    search_help_text = _("Code-barres, cote ou titre.")
    autocomplete_fields = ["game", "section"]
    readonly_fields = ["created_at", "updated_at", "printing"]
    actions = [print_labels, print_box_stickers]
    fields = [
        "game",
        "barcode",
        "cote",
        "kind",
        "section",
        "location",
        "status",
        "acquired_on",
        "withdrawn_on",
        "replacement_value",
        "notes",
        "printing",
        "created_at",
        "updated_at",
    ]

    @admin.display(description=_("impression"))
    def printing(self, copy: Copy) -> str:
        if copy.pk is None:
            return "—"
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            _print_url("catalogue:label-sheet", [copy.pk]),
            _("Étiquette"),
            _print_url("catalogue:box-stickers", [copy.pk]),
            _("Fiche de boîte"),
        )

    def get_queryset(self, request):
        return super().get_queryset(request).with_availability()

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        return _barcode_field(field) if db_field.name == "barcode" else field

    def save_model(self, request, obj, form, change):
        _allocate_if_empty(obj)
        super().save_model(request, obj, form, change)

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        location = _only_location()
        if location and "location" not in initial:
            initial["location"] = location.pk
        return initial

    @admin.display(description=_("disponible"), boolean=True)
    def is_available(self, copy: Copy) -> bool:
        return copy.is_available


@admin.register(BarcodeSequence)
class BarcodeSequenceAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["__str__", "prefix", "next_number", "digits"]

    def has_add_permission(self, request, *args):
        return super().has_add_permission(request) and not BarcodeSequence.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        obj.pk = 1  # the library's one sequence
        super().save_model(request, obj, form, change)


@admin.register(SpreadsheetImport)
class SpreadsheetImportAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    """The files sent for import, as sent: history, written by the import pages only."""

    list_display = ["file_name", "kind", "uploaded_at", "uploaded_by", "imported_at", "summary"]
    list_filter = ["kind"]
    list_select_related = ["uploaded_by"]
    search_fields = ["file_name"]


# --- Reference tables --------------------------------------------------------------------------


@admin.register(Location)
class LocationAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["name", "phone", "email", "lends", "returns_home", "copy_count"]
    list_editable = ["lends", "returns_home"]
    search_fields = ["name"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(copy_count=Count("copies"))

    @admin.display(description=_("exemplaires"), ordering="copy_count")
    def copy_count(self, location: Location) -> int:
        return location.copy_count


@admin.register(Category)
class CategoryAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["code", "label", "family", "esar_group"]
    list_filter = [EsarGroupFilter, "family"]
    search_fields = ["code", "label", "family"]

    @admin.display(description=_("groupe ESAR"))
    def esar_group(self, category: Category) -> str:
        group = category.esar_group
        return f"{esar.GROUPS[group]} ({group})" if group else "—"


@admin.register(Tag)
class TagAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Language)
class LanguageAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["name", "code"]
    search_fields = ["name", "code"]


@admin.register(Author)
class AuthorAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["name"]
    search_fields = ["name"]


@admin.register(Publisher)
class PublisherAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["name", "place"]
    search_fields = ["name", "place"]
