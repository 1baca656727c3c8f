"""Whether an incomplete copy can still go out: its missing pieces, weighed by the rules engine.

The desk offers to lend an incomplete copy when the engine says its remaining pieces still allow a
game (« jouable : parties courtes, 2 à 5 joueurs »), with the clerk's explicit confirmation; the
game page and the checkout pack say so. Copies of games without coded rules stay as they were.
"""

from __future__ import annotations

from catalogue.models import Component, Copy
from rules.engine import Playability
from rules.pieces import playability, summary

from .models import MissingPiece


def copy_missing(copy: Copy) -> list[tuple[Component, int]]:
    """The copy's pieces still missing, as (piece, how many)."""
    totals: dict[int, list] = {}
    for piece in MissingPiece.objects.still_missing().filter(copy=copy).select_related("component"):
        entry = totals.setdefault(piece.component_id, [piece.component, 0])
        entry[1] += piece.quantity
    return [(component, count) for component, count in totals.values()]


def copy_playability(copy: Copy) -> Playability | None:
    """What the copy's remaining pieces allow; None when its game has no coded pieces."""
    return playability(copy.game, copy_missing(copy))


def copy_playable_store(copy: Copy) -> None:
    """Keep `Copy.playable_players` in step: the table sizes an incomplete copy allows ([] otherwise).

    The family search counts an incomplete copy as available for these tables (catalogue/search.py).
    Called after a return and a recovered piece, and when the librarian links a game's pieces.
    """
    counts: list[int] = []
    if copy.status == Copy.Status.INCOMPLETE:
        playable = copy_playability(copy)
        if playable is not None and playable.playable:
            counts = list(playable.counts())
    if counts != copy.playable_players:
        copy.playable_players = counts
        Copy.objects.filter(pk=copy.pk).update(playable_players=counts)


def game_playable_store(game) -> None:
    """Recompute the incomplete copies of a game (its pieces' links changed in the admin)."""
    for copy in Copy.objects.filter(game=game, status=Copy.Status.INCOMPLETE).select_related("game"):
        copy_playable_store(copy)


def playable_notes(copies: list[Copy]) -> dict[int, str]:
    """For the catalogue's notice (catalogue/registry.py): « jouable : … » for each incomplete copy."""
    notes = {}
    for copy in copies:
        if copy.status != Copy.Status.INCOMPLETE:
            continue
        playable = copy_playability(copy)
        if playable is not None:
            notes[copy.pk] = summary(playable)
    return notes
