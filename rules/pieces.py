"""The rules engine's pieces for the catalogue's games: the admin's link choices, and what a copy missing some allows.

A catalogue piece (`catalogue.Component`) is linked once, by the librarian, to a piece its game's
module or its declared setup names (`Component.rules_key`; rules/engine/pieces.py,
docs/declared-rules.md). Given a copy's missing pieces, the engine then answers which ways of playing
and player counts remain; a missing piece that is not linked allows nothing (the engine does not
guess), one linked to ACCESSORY stops nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from catalogue.models import Component, Game

from .engine import ACCESSORY, ACCESSORY_LABEL, GameRules, Pieces, Playability, playable_with
from .games import components_of
from .models import RulePage
from .services import game_rules, render_text, translate


def game_pieces(game: Game) -> tuple[GameRules, Pieces] | None:
    """The rules behind a notice and the pieces they declare: a coded module's, or a declared setup's."""
    slug = RulePage.objects.filter(game=game).values_list("slug", flat=True).first()
    rules = game_rules(slug) if slug else None
    if rules is None:
        return None
    declared = getattr(rules, "declared_setup", None)
    pieces = declared.pieces() if declared is not None else components_of(rules)
    return (rules, pieces) if pieces is not None else None


def piece_keys(game: Game) -> list[tuple[str, str]]:
    """The admin's choices for `Component.rules_key`: the game's engine pieces, then « accessoire »."""
    found = game_pieces(game)
    if found is None:
        return []
    _rules, pieces = found
    return [
        *((piece.key, f"{render_text(piece.name)} ({piece.in_box})") for piece in pieces.pieces),
        (ACCESSORY, translate(ACCESSORY_LABEL)),
    ]


def playability(game: Game, missing: Iterable[tuple[Component, int]]) -> Playability | None:
    """Which ways and player counts a copy of `game` missing these pieces allows; None without declared pieces."""
    found = game_pieces(game)
    if found is None:
        return None
    rules, pieces = found
    by_key: dict[str, int] = {}
    unlinked = []
    for component, count in missing:
        if not count:
            continue
        if component.rules_key:
            by_key[component.rules_key] = by_key.get(component.rules_key, 0) + count
        else:
            unlinked.append(component.label)
    return playable_with(pieces, rules.players, by_key, unknown=tuple(unlinked))


def summary(playable: Playability) -> str:
    """« jouable : parties courtes, 2 à 5 joueurs » in the reader's language."""
    return render_text(playable.summary())
