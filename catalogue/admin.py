"""The librarians' catalogue: notices with their credits, pieces, documents and copies, and the reference tables."""

from django.contrib import admin
from django.db import models
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .access import LibrarianAccessMixin
from .models import (
    Author,
    Authorship,
    Category,
    Component,
    Copy,
    Document,
    Game,
    Language,
    Location,
    Publisher,
    PublisherCredit,
    Tag,
)


def _only_location():
    """The ludothèque's site when it has just one, to preselect it on new copies."""
    locations = list(Location.objects.all()[:2])
    return locations[0] if len(locations) == 1 else None


# --- Filters of the game list ------------------------------------------------------------------


class PlayersFilter(admin.SimpleListFilter):
    title = _("jouable à")
    parameter_name = "joueurs"

    def lookups(self, request, model_admin):
        return [
            (str(count), ngettext("%(count)d joueur", "%(count)d joueurs", count) % {"count": count})
            for count in range(1, 9)
        ]

    def queryset(self, request, queryset):
        if self.value() and self.value().isdigit():
            return queryset.for_players(int(self.value()))
        return queryset


class AgeFilter(admin.SimpleListFilter):
    title = _("jouable à l'âge de")
    parameter_name = "age"

    def lookups(self, request, model_admin):
        return [
            (str(age), ngettext("%(age)d an", "%(age)d ans", age) % {"age": age})
            for age in (3, 4, 5, 6, 7, 8, 10, 12, 14, 18)
        ]

    def queryset(self, request, queryset):
        if self.value() and self.value().isdigit():
            return queryset.for_age(int(self.value()))
        return queryset


class LocationFilter(admin.SimpleListFilter):
    title = _("localisation d'un exemplaire")
    parameter_name = "localisation"

    def lookups(self, request, model_admin):
        return [(str(location.pk), location.name) for location in Location.objects.all()]

    def queryset(self, request, queryset):
        if self.value() and self.value().isdigit():
            return queryset.with_copies(location=int(self.value()))
        return queryset


class CopyStatusFilter(admin.SimpleListFilter):
    title = _("statut d'un exemplaire")
    parameter_name = "statut"
    AVAILABLE = "disponible"

    def lookups(self, request, model_admin):
        return [(self.AVAILABLE, _("Disponible maintenant")), *Copy.Status.choices]

    def queryset(self, request, queryset):
        if self.value() == self.AVAILABLE:
            return queryset.with_copies(available=True)
        if self.value() in Copy.Status.values:
            return queryset.filter(pk__in=Copy.objects.filter(status=self.value()).values("game"))
        return queryset


class AvailabilityFilter(admin.SimpleListFilter):
    title = _("disponibilité")
    parameter_name = "disponibilite"

    def lookups(self, request, model_admin):
        return [("oui", _("Disponible maintenant")), ("pret", _("En prêt"))]

    def queryset(self, request, queryset):
        if self.value() == "oui":
            return queryset.available()
        if self.value() == "pret":
            return queryset.on_loan()
        return queryset


# --- Games -------------------------------------------------------------------------------------


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
    formfield_overrides = {models.DecimalField: {"localize": True}}
    formset = CopyInlineFormSet
    fields = ["cote", "barcode", "section", "location", "status", "acquired_on", "replacement_value", "notes"]
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
        return field


class ComponentInline(LibrarianAccessMixin, admin.TabularInline):
    model = Component
    formfield_overrides = {models.DecimalField: {"localize": True}}
    fields = ["position", "quantity", "label", "unit_price"]
    extra = 0


class DocumentInline(LibrarianAccessMixin, admin.TabularInline):
    model = Document
    fields = ["file_name", "file", "position"]
    extra = 0


@admin.register(Game)
class GameAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["title", "category", "players", "ages", "duration_minutes", "copy_count", "updated_at"]
    list_select_related = ["category"]
    list_filter = [
        "category",
        "tags",
        PlayersFilter,
        AgeFilter,
        LocationFilter,
        CopyStatusFilter,
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
    fieldsets = [
        (None, {"fields": ["title", "slug", "category", "tags", "languages", "document_type"]}),
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


@admin.register(Copy)
class CopyAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    # Prices typed the French way (« 29,90 ») as well as with a dot.
    formfield_overrides = {models.DecimalField: {"localize": True}}
    list_display = ["barcode", "game", "cote", "section", "location", "status", "is_available"]
    list_select_related = ["game", "section", "location"]
    list_filter = ["status", "location", AvailabilityFilter, "section"]
    search_fields = ["barcode", "cote", "game__title"]
    search_help_text = _("Code-barres, cote ou titre.")
    autocomplete_fields = ["game", "section"]
    readonly_fields = ["created_at", "updated_at"]
    fields = [
        "game",
        "barcode",
        "cote",
        "section",
        "location",
        "status",
        "acquired_on",
        "replacement_value",
        "notes",
        "created_at",
        "updated_at",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).with_availability()

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        location = _only_location()
        if location and "location" not in initial:
            initial["location"] = location.pk
        return initial

    @admin.display(description=_("disponible"), boolean=True)
    def is_available(self, copy: Copy) -> bool:
        return copy.is_available


# --- Reference tables --------------------------------------------------------------------------


@admin.register(Location)
class LocationAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["name", "copy_count"]
    search_fields = ["name"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(copy_count=Count("copies"))

    @admin.display(description=_("exemplaires"), ordering="copy_count")
    def copy_count(self, location: Location) -> int:
        return location.copy_count


@admin.register(Category)
class CategoryAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["code", "label", "family"]
    list_filter = ["family"]
    search_fields = ["code", "label", "family"]


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
