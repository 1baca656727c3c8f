"""Forms of the rules pages: setup calculator, referee check, the page editor (the score sheet: sheets.py).

The engine forms draw their inputs from the game's declarations (`rules/inputs.py`) and leave every
check to the engine: the form builds the request, the engine cleans it, and its per-path errors are
put back on the inputs they name. Nothing of a game's rules is checked twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .engine import Field, GameRules, InvalidInput, SetupResult
from .engine.fields import join_path
from .inputs import (
    FormData,
    Grid,
    Input,
    Option,
    build_fields,
    error_messages,
    make_grid,
    make_input,
    place_errors,
    plan,
    plans,
    render_text,
    translate,
)
from .models import REVISION_MAX_LENGTH

DEFAULT_PLAYERS = 3  # what the calculator and the sheet show first, within the game's range
MAX_SHEET_PLAYERS = 12  # columns of an online sheet for games with no maximum (Martian Dice)


def default_players(game: GameRules) -> int:
    high = game.players.maximum or MAX_SHEET_PLAYERS
    return min(max(DEFAULT_PLAYERS, game.players.minimum), high)


def most_players(game: GameRules) -> int:
    """The largest table a page draws: the game's maximum, capped for games without one."""
    return min(game.players.maximum or MAX_SHEET_PLAYERS, MAX_SHEET_PLAYERS)


def players_input(game: GameRules, current: str) -> Input:
    """The number of players: a select over the game's range."""
    choices = range(game.players.minimum, most_players(game) + 1)
    return Input(
        name="players",
        kind="choice",
        label=gettext("Nombre de joueurs"),
        value=current,
        options=[Option(str(count), str(count), str(count) == current) for count in choices],
        blank=False,
    )


def variants_input(game: GameRules, chosen: list[str]) -> Input | None:
    if not game.variants:
        return None
    return Input(
        name="variants",
        kind="multi",
        label=gettext("Variantes"),
        options=[
            Option(
                variant.slug, translate(variant.label), variant.slug in chosen, translate(variant.description)
            )
            for variant in game.variants
        ],
    )


def chosen_variants(data: FormData) -> list[str]:
    """Variants from checkboxes (`variants=a&variants=b`) or a link (`variants=a,b`)."""
    chosen: list[str] = []
    for value in data.getlist("variants"):
        chosen.extend(item.strip() for item in value.split(",") if item.strip())
    return list(dict.fromkeys(chosen))


def variant_labels(game: GameRules, variants) -> list[str]:
    return [translate(variant.label) for variant in game.variants if variant.slug in variants]


class EngineForm:
    """What the engine forms share: errors by path and the ones no input holds."""

    errors: dict[str, list[str]]

    def __init__(self) -> None:
        self.errors = {}
        self.placed: dict[str, list[str]] = {}
        self.loose: list[str] = []

    def fail(self, invalid: InvalidInput, anchors: set[str], labels: Mapping[str, str]) -> None:
        self.errors = error_messages(invalid)
        self.placed, loose = place_errors(self.errors, anchors)
        self.loose = [
            f"{labels[path]} : {message}" if path in labels else message
            for path, messages in loose
            for message in messages
        ]

    def attach(self, *controls: Input | Grid | None) -> None:
        for control in controls:
            if isinstance(control, Grid):
                control.errors = self.placed.get(control.name, [])
                for row in control.rows:
                    self.attach(*row)
            elif control is not None:
                control.errors = self.placed.get(control.name, [])


# --- setup calculator ---------------------------------------------------------------------------------


class SetupForm(EngineForm):
    """`?players=N&variants=a,b&<option>=…` → the components and steps for that table."""

    def __init__(self, game: GameRules, query: Mapping | None = None):
        super().__init__()
        self.game = game
        self.bound = query is not None and "players" in query
        data = FormData(query) if self.bound else None
        self.players = players_input(game, data.get("players") if data else str(default_players(game)))
        self.chosen = chosen_variants(data) if data else []
        self.variants = variants_input(game, self.chosen)
        self.options = [make_input(option, option.name, data) for option in game.setup_options]
        self.result: SetupResult | None = None

    def query(self) -> dict[str, str]:
        """The engine's setup query (the API's query string) this form stands for."""
        query = {"players": self.players.value, "variants": ",".join(self.chosen)}
        for option in self.options:
            if option.kind == "bool":
                query[option.name] = "true" if option.checked else "false"
            elif option.value.strip():
                query[option.name] = option.value.strip()
        return query

    def is_valid(self) -> bool:
        try:
            self.result = self.game.run_setup(self.query())
        except InvalidInput as invalid:
            anchors = {"players", "variants", *(option.name for option in self.options)}
            self.fail(invalid, anchors, {})
            self.attach(self.players, self.variants, *self.options)
            return False
        return True

    @property
    def variant_names(self) -> list[str]:
        return variant_labels(self.game, self.chosen)

    @property
    def components(self) -> list[dict]:
        return [
            {"name": render_text(component.name), "count": component.count}
            for component in (self.result.components if self.result else [])
        ]

    @property
    def steps(self) -> list[str]:
        return [render_text(step) for step in (self.result.steps if self.result else [])]

    @property
    def query_string(self) -> str:
        return urlencode(self.query())

    @property
    def option_choices(self) -> list[tuple[str, str]]:
        """The options as chosen, for the printed aid (« Durée de la partie : Moyenne »)."""
        shown = []
        for control in self.options:
            if control.kind == "bool":
                value = gettext("oui") if control.checked else gettext("non")
            elif control.options:
                value = next((option.label for option in control.options if option.selected), "—")
            else:
                value = control.value or "—"
            shown.append((control.label, value))
        return shown


# --- referee check ------------------------------------------------------------------------------------


class CheckForm(EngineForm):
    """A position to check (Quarto's board), drawn from the game's check fields."""

    def __init__(self, game: GameRules, data: Mapping | None = None):
        super().__init__()
        self.game = game
        self.data = FormData(data) if data is not None else None
        self.chosen = chosen_variants(self.data) if self.data else []
        known = {variant.slug for variant in game.variants}
        self.fields: tuple[Field, ...] = game.check_fields(frozenset(v for v in self.chosen if v in known))
        self.variants = variants_input(game, self.chosen)
        self.controls: list[Input | Grid] = [
            make_grid(declared, declared.name, self.data)
            if plan(declared)["t"] == "grid"
            else make_input(declared, declared.name, self.data)
            for declared in self.fields
        ]
        self.result: dict | None = None

    def body(self) -> dict[str, Any]:
        data = self.data or FormData({})
        return {"variants": self.chosen, **build_fields(plans(self.fields), data, "")}

    def is_valid(self) -> bool:
        try:
            self.result = self.game.run_check(self.body())
        except InvalidInput as invalid:
            anchors = {"variants"}
            for control in self.controls:
                anchors.add(control.name)
                if isinstance(control, Grid):
                    anchors |= {cell.name for row in control.rows for cell in row}
                    anchors |= {join_path(control.name, index) for index in range(len(control.rows))}
            self.fail(invalid, anchors, {control.name: control.label for control in self.controls})
            self.attach(self.variants, *self.controls)
            for control in self.controls:
                if isinstance(control, Grid):
                    row_errors = [
                        message
                        for index in range(len(control.rows))
                        for message in self.placed.get(join_path(control.name, index), [])
                    ]
                    control.errors = self.placed.get(control.name, []) + row_errors
            return False
        return True

    @property
    def variant_names(self) -> list[str]:
        return variant_labels(self.game, self.chosen)


# --- what a check's result looks like on a page ---------------------------------------------------------

ALIGNMENT_LABELS = {
    "row": _("Ligne"),
    "column": _("Colonne"),
    "diagonal": _("Diagonale"),
    "square": _("Carré"),
}


def check_display(game: GameRules, form: CheckForm) -> dict | None:
    """A check result for people: yes/no verdicts, the lines found (with their cells lit on the board)."""
    result = form.result
    if result is None:
        return None
    # A game may name the words of its result (Quarto's `shared`: "tall" → « hautes »).
    shared_labels = game.check_labels
    verdicts = [
        (game.title if key == game.slug else key.replace("_", " ").capitalize(), value)
        for key, value in result.items()
        if isinstance(value, bool)
    ]
    grid = next((control for control in form.controls if isinstance(control, Grid)), None)
    lines = []
    for line in result.get("lines", []) if isinstance(result.get("lines"), list) else []:
        cells = line.get("cells", [])
        lines.append(
            {
                "kind": str(ALIGNMENT_LABELS.get(line.get("kind"), line.get("kind", ""))),
                "cells": ", ".join(f"({row + 1}, {column + 1})" for row, column in cells),
                "shared": [translate(shared_labels.get(name, name)) for name in line.get("shared", [])],
            }
        )
        if grid is not None:
            for row, column in cells:
                if 0 <= row < len(grid.rows) and 0 <= column < len(grid.rows[row]):
                    grid.rows[row][column].found = True
    others = [(key, value) for key, value in result.items() if not isinstance(value, bool) and key != "lines"]
    return {"verdicts": verdicts, "lines": lines, "others": others}


# --- page editor --------------------------------------------------------------------------------------


class RevisionForm(forms.Form):
    content = forms.CharField(
        label=_("Texte de la page"),
        max_length=REVISION_MAX_LENGTH,
        error_messages={
            "max_length": _(
                "Une version tient en %(limit_value)s caractères au plus ; ce texte en compte %(show_value)s. "
                "Raccourcissez-le, ou mettez une partie des règles dans un document joint à la notice."
            )
        },
        widget=forms.Textarea(attrs={"rows": 28, "spellcheck": "true", "class": "wiki-source"}),
    )
    summary = forms.CharField(
        label=_("Résumé de la modification"),
        max_length=500,
        help_text=_("Une phrase pour l'historique : ce que vous avez changé et pourquoi."),
    )
    base_number = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
