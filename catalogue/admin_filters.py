"""The admin's list filters of the catalogue: by category, ESAR group, players, age, site, status and availability."""

import re

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import esar
from .models import (
    Category,
    Copy,
    Location,
)


def whole_number(value: str | None) -> int | None:
    """A filter's value as a small whole number, or None (str.isdigit() also accepts « ² », which int() refuses)."""
    return int(value) if value and re.fullmatch(r"[0-9]{1,9}", value) else None


class CategoryFilter(admin.SimpleListFilter):
    """The game's category, or a whole ESAR group (« jeux de règles »: A 401, A 406…)."""

    title = _("catégorie")
    parameter_name = "categorie"

    def lookups(self, request, model_admin):
        categories = list(Category.objects.all())
        choices = []
        for code, label in esar.GROUPS.items():
            members = [category for category in categories if category.esar_group == code]
            if members:
                choices.append((code, _("%(group)s : tous (%(code)s)") % {"group": label, "code": code}))
                choices += [(category.code, f"— {category}") for category in members]
        choices += [(category.code, str(category)) for category in categories if category.esar_group is None]
        return choices

    def queryset(self, request, queryset):
        if not self.value():
            return queryset
        group = esar.as_group(self.value())
        if group:
            return queryset.filter(category__in=Category.objects.in_esar_group(group))
        return queryset.filter(category__code=self.value())


class EsarGroupFilter(admin.SimpleListFilter):
    title = _("groupe ESAR")
    parameter_name = "esar"
    OTHER = "autre"

    def lookups(self, request, model_admin):
        return [
            *((code, f"{label} ({code})") for code, label in esar.GROUPS.items()),
            (self.OTHER, _("Autre classement")),
        ]

    def queryset(self, request, queryset):
        if self.value() in esar.GROUPS:
            return queryset.in_esar_group(self.value())
        if self.value() == self.OTHER:
            groups = [queryset.in_esar_group(code).values("pk") for code in esar.GROUPS]
            for group in groups:
                queryset = queryset.exclude(pk__in=group)
            return queryset
        return queryset


class PlayersFilter(admin.SimpleListFilter):
    title = _("jouable à")
    parameter_name = "joueurs"

    def lookups(self, request, model_admin):
        return [
            (str(count), ngettext("%(count)d joueur", "%(count)d joueurs", count) % {"count": count})
            for count in range(1, 9)
        ]

    def queryset(self, request, queryset):
        if (count := whole_number(self.value())) is not None:
            return queryset.for_players(count)
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
        if (age := whole_number(self.value())) is not None:
            return queryset.for_age(age)
        return queryset


class LocationFilter(admin.SimpleListFilter):
    title = _("localisation d'un exemplaire")
    parameter_name = "localisation"

    def lookups(self, request, model_admin):
        return [(str(location.pk), location.name) for location in Location.objects.all()]

    def queryset(self, request, queryset):
        if (pk := whole_number(self.value())) is not None:
            return queryset.with_copies(location=pk)
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
