"""The registry of games: every game's module in this package defines `RULES`, one GameRules instance.

A game's helper module (`catane_board`, `railroad_ink_board`: a board drawn or read) defines none.

Adding a game is adding a module here (docs/adding-a-game.md).
"""

from __future__ import annotations

import pkgutil
from functools import cache
from importlib import import_module

from rules.engine import GameRules, Pieces


@cache
def all_games() -> tuple[GameRules, ...]:
    """Every game the engine knows, sorted by title."""
    games = []
    for module_info in pkgutil.iter_modules(__path__):
        module = import_module(f"{__name__}.{module_info.name}")
        if hasattr(module, "RULES") or not module_info.name.endswith("_board"):
            games.append(module.RULES)
    slugs = [game.slug for game in games]
    duplicates = {slug for slug in slugs if slugs.count(slug) > 1}
    if duplicates:
        raise RuntimeError(f"two game modules declare the same slug: {sorted(duplicates)}")
    return tuple(sorted(games, key=lambda game: game.title.casefold()))


def get_game(slug: str) -> GameRules | None:
    """The game with this slug, or None."""
    return next((game for game in all_games() if game.slug == slug), None)


def components_of(game: GameRules) -> Pieces | None:
    """The pieces a coded game declares (its module's COMPONENTS), or None."""
    return getattr(import_module(type(game).__module__), "COMPONENTS", None)
