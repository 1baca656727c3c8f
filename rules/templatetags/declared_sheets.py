"""`{% declared_sheet_link page %}`: from a rules page's editor to its declared score sheet in the admin."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from catalogue.access import is_librarian
from rules.games import get_game
from rules.models import DeclaredSheet, RulePage

register = template.Library()


@register.inclusion_tag("rules/includes/declared_sheet_link.html", takes_context=True)
def declared_sheet_link(context, page: RulePage) -> dict:
    """Staff: edit the page's declared sheet, or declare one when the page's notice has no coded rules."""
    if not is_librarian(context["request"].user):
        return {"link": None}
    sheet = DeclaredSheet.objects.filter(page=page).only("pk").first()
    if sheet is not None:
        return {
            "link": reverse("admin:rules_declaredsheet_change", args=[sheet.pk]),
            "label": _("Modifier la feuille de score déclarée (lignes, départages)"),
        }
    if page.game_id is not None and get_game(page.slug) is None:
        return {
            "link": reverse("admin:rules_declaredsheet_add") + f"?game={page.game_id}",
            "label": _("Déclarer une feuille de score pour ce jeu"),
            "help": _(
                "Des lignes « unités × points », le total qui gagne et les départages, sans programmation."
            ),
        }
    return {"link": None}
