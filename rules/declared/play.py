"""Checking how a declared sheet is won (`DeclaredSheet.play`) with its lines, for the admin and the files.

The engine reads the object (rules/engine/declared_play.py); here it is read for the notice's player
range and checked against the sheet's lines, with the reasons in French: a sheet by sides has no
lines (each player says a role and whether they are out), the others at least one; a table playing
together cannot be asked for more than its lines can add up to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from catalogue.models import Game
from rules.engine import InvalidInput
from rules.engine.declared_play import Play, parse_play, reachable
from rules.services import error_messages

from .sheets import notice_players


def check_play(raw: Any, game: Game | None) -> Play:
    """The sheet's way of winning read for this notice's range; raise ValidationError with the reasons."""
    try:
        return parse_play(raw, notice_players(game))
    except InvalidInput as invalid:
        raise ValidationError(
            [
                ValidationError(f"{path} : {message}", code="invalid_play")
                for path, messages in error_messages(invalid).items()
                for message in messages
            ]
        ) from None


def check_play_lines(play: Play, lines: Sequence[Mapping[str, Any]]) -> None:
    """Refuse lines that do not fit the way of winning (each a dict: points, sign, max_units, knocks_out)."""
    if play.mode == "sides":
        if lines:
            raise ValidationError(
                _(
                    "Une feuille par camps n'a pas de lignes : chaque joueur y dit son rôle et s'il est éliminé."
                ),
                code="sides_lines",
            )
        return
    if not lines:
        raise ValidationError(_("Une feuille de score a au moins une ligne."), code="no_lines")
    best = reachable(play, lines) if play.win_at is not None else None
    if best is not None and best < play.win_at:
        raise ValidationError(
            _("Les lignes donnent %(best)s points au plus : la table ne peut pas atteindre %(win_at)s."),
            code="unreachable",
            params={"best": best, "win_at": play.win_at},
        )
