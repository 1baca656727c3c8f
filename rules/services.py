"""What the web layer asks of the rules: which GameRules stand behind a slug, their texts in the reader's language.

`game_rules()` and `all_game_rules()` are the one place every page, print aid and API endpoint asks
for a game's rules: the coded modules of `rules/games/`, then the score sheets librarians declared
in the admin (`rules/declared/`), so nothing else needs to tell them apart.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from catalogue.models import Game
from ludotheque.prepared import UNUSED_ID, PreparedRead

from .declared.sheets import DeclaredRules, all_declared_rules, declared_page
from .default_sheet import DefaultRules
from .engine import GameRules, InvalidInput, render
from .games import all_games, get_game
from .models import DeclaredSetup, RulePage


def game_rules(slug: str) -> GameRules | None:
    """The GameRules behind this slug (setup, score sheet, checks), or None.

    The coded game, else the sheet a librarian declared, else the round-by-round sheet every page
    has by default (rules/default_sheet.py).
    """
    coded = get_game(slug)
    if coded is not None:
        return coded
    # One query: the page, its notice and its declarations, read by both kinds of sheet.
    return page_rules(declared_page(slug))


def page_rules(page: RulePage | None) -> GameRules | None:
    """The declared or default rules of a page read by `declared_page()` (not a coded game's)."""
    if page is None:
        return None
    declared = DeclaredRules.from_page(page)
    if declared is not None and "score" in declared.features:
        return declared
    return DefaultRules.from_page(
        page, setup_from=declared if declared is not None and declared.features else None
    )


def all_game_rules() -> list[GameRules]:
    """Every game with executable rules, sorted by title."""
    coded = list(all_games())
    declared = [rules for rules in all_declared_rules() if get_game(rules.slug) is None]
    return sorted([*coded, *declared], key=lambda rules: rules.title.casefold())


# --- engine texts in the reader's language ---------------------------------------------------------


def translate(label: str) -> str:
    """A declared label (a field's, a variant's) in the active language."""
    return gettext(label) if label else ""


def render_text(value: Any) -> str:
    """An engine Text (or Label, NameList, Sentences) in the active language; a plain label is translated.

    French plurals (« 0 point ») come from locale/fr, like every plural of the site.
    """
    if isinstance(value, str):
        return translate(value)
    return render(value, gettext, ngettext)


def error_messages(invalid: InvalidInput) -> dict[str, list[str]]:
    """The engine's per-path error Texts, rendered: `{"players.0.gold": ["…"]}`."""
    return {path: [render_text(message) for message in messages] for path, messages in invalid.errors.items()}


# --- what the catalogue's notice links to (registered in apps.py) --------------------------------------


# The slug of a game's rules page and whether it has a declared setup, for every notice: prepared once
# per connection (ludotheque/prepared.py).
_RULES_SLUG = PreparedRead(
    "rules slug",
    lambda game: RulePage.objects.filter(game_id=game).values_list(
        "slug", Exists(DeclaredSetup.objects.filter(page=OuterRef("pk")))
    )[:1],
    UNUSED_ID,
)


def notice_links(game: Game) -> list[tuple[str, str]]:
    """The game's rules page and its tools, for its catalogue notice (one query).

    Every title has a page (rules/pages/generate.py); one written behind the catalogue's back (a bulk
    load not yet followed by `generate_rule_pages`) is made when its address is first opened.
    """
    found = next(iter(_RULES_SLUG.queryset(game.pk)), None)
    if found is None:
        return [(gettext("Règles du jeu"), reverse("rules:page-detail", args=[game.slug]))]
    slug, declared_setup = found
    coded = get_game(slug)
    features = coded.features if coded is not None else [*(["setup"] if declared_setup else []), "score"]
    links = [(gettext("Règles du jeu"), reverse("rules:page-detail", args=[slug]))]
    if "setup" in features:
        links.append((gettext("Calculateur de mise en place"), reverse("rules:setup", args=[slug])))
    if "score" in features:
        links.append((gettext("Feuille de score"), reverse("rules:score-sheet", args=[slug])))
    if "check" in features:
        links.append((gettext("Arbitrage"), reverse("rules:check", args=[slug])))
    return links
