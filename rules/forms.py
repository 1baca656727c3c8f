"""Forms of the rules pages, built from a game's declarations: the table, setup calculator, referee check.

Each is a Django form whose fields are the game's declared inputs (rules/fields.py). It reads a GET
or POST into the engine's request (`query()`, `values()`: the one parser; the score sheet's form,
rules/score_sheet.py, builds on it and the page's script posts that same form, reading JSON back)
and leaves every check to the engine: `clean()` runs it and puts each error on the input its path
names, or on the group, list or board around it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.utils.functional import cached_property
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .engine import Field, GameRules, Group, InvalidInput, PlayerRange, join_path
from .fields import (
    Checkboxes,
    ChoiceInput,
    MultipleChoiceInput,
    PathBoundField,
    cell_field,
    formfield,
    grid_shape,
    is_rows,
)
from .services import error_messages, render_text, translate

DEFAULT_PLAYERS = 3  # what the calculator and the sheet show first, within the game's range
MAX_SHEET_PLAYERS = 12  # columns of an online sheet for games with no maximum (Martian Dice)
OMIT = object()  # a blank input the request leaves out, so that the engine applies its default


def default_players(game: GameRules, within: PlayerRange | None = None) -> int:
    within = within or game.players
    high = within.maximum or MAX_SHEET_PLAYERS
    return min(max(DEFAULT_PLAYERS, within.minimum), high)


def most_players(game: GameRules, within: PlayerRange | None = None) -> int:
    """The largest table a page draws: the game's maximum, capped for games without one."""
    within = within or game.players
    return min(within.maximum or MAX_SHEET_PLAYERS, MAX_SHEET_PLAYERS)


def chosen_variants(data) -> list[str]:
    """Variants from checkboxes (`variants=a&variants=b`) or a link (`variants=a,b`), not yet checked."""
    raw = data.getlist("variants") if hasattr(data, "getlist") else data.get("variants", [])
    return MultipleChoiceInput().to_python(raw if isinstance(raw, list | tuple) else [raw])


class DeclaredForm(forms.Form):
    """A form whose fields are a game's declared inputs, named by the engine's paths; the engine cleans it."""

    bound_field_class = PathBoundField
    use_required_attribute = False

    def __init__(self, game: GameRules, data=None):
        super().__init__(data)
        self.game = game
        self.containers: set[str] = set()  # groups, lists, rows, boards: an error may name them
        self.slots: dict[str, int] = {}  # the rows drawn of each list
        self.result: Any = None

    def run(self) -> Any:
        """Ask the engine; raise InvalidInput with its per-path errors."""
        raise NotImplementedError

    def clean(self) -> dict:
        cleaned = super().clean()
        if not self.errors:
            try:
                self.result = self.run()
            except InvalidInput as invalid:
                for path, messages in error_messages(invalid).items():
                    self.add_error_at(path, messages)
        return cleaned

    def add_error_at(self, path: str, messages: list[str]) -> None:
        """Put an engine error on its input, else on the group, list or board that holds it, else on the form."""
        parts = path.split(".")
        while parts and ".".join(parts) not in self.fields and ".".join(parts) not in self.containers:
            parts.pop()
        anchor = ".".join(parts)
        if anchor in self.fields or not anchor:
            self.add_error(anchor or None, messages)
        else:
            self._errors.setdefault(anchor, self.error_class()).extend(messages)

    def bind_defaults(self) -> None:
        """Bind the form to what it shows unbound, so that the default table is computed like any other."""
        data: dict[str, Any] = {}
        for name in self.fields:
            value = self[name].initial
            if isinstance(value, list | tuple):
                data[name] = [str(item) for item in value]
            elif value is True:
                data[name] = "on"
            elif value not in (None, False, ""):
                data[name] = str(value)
        self.data, self.is_bound = data, True

    # --- the engine's request, read from the cleaned fields: the one parser of a sheet -----------------

    def values(self, fields: tuple[Field, ...], base: str) -> dict[str, Any]:
        """The object holding these declared fields under `base`, blank ones left out."""
        return self._object(fields, base)[0]

    def _object(self, fields: tuple[Field, ...], base: str) -> tuple[dict[str, Any], bool]:
        found, blank = {}, True
        for declared in fields:
            value, left_blank = self.value_of(declared, join_path(base, declared.name))
            if value is not OMIT:
                found[declared.name] = value
            blank = blank and left_blank
        return found, blank

    def value_of(self, declared: Field, path: str, *, in_list: bool = False) -> tuple[Any, bool]:
        """(value or OMIT, whether it was left blank) of one declared field."""
        if isinstance(declared, Group):
            value, blank = self._object(declared.fields, path)
            # Left blank, a group is left out when the engine has a default for it (Biblios' optional
            # categories, dice on 3); otherwise it is sent empty so that each missing member is named.
            if blank and not declared.required and not in_list:
                return OMIT, True
            return value, blank
        if is_rows(declared):
            rows = [
                self.value_of(declared.item, join_path(path, index), in_list=True)
                for index in range(self.slots.get(path, 0))
            ]
            while len(rows) > declared.min_items and rows[-1][1]:
                rows.pop()  # trailing blank rows: turns not played
            return [None if value is OMIT else value for value, _ in rows], all(blank for _, blank in rows)
        if path not in self.fields and (shape := grid_shape(declared)) is not None:
            cells = [
                [self.cleaned_data.get(join_path(path, f"{row}.{column}")) for column in range(shape[1])]
                for row in range(shape[0])
            ]
            return cells, all(cell is None for row in cells for cell in row)
        value = self.cleaned_data.get(path)
        if isinstance(value, bool | list):
            return value, not value
        return (OMIT, True) if value is None or value == "" else (value, False)


def players_field(game: GameRules, within: PlayerRange | None = None) -> ChoiceInput:
    """The number of players (or of teams): a select over the range (the engine says why a number does not fit)."""
    within = within or game.players
    counts = [(str(count), str(count)) for count in range(within.minimum, most_players(game, within) + 1)]
    return ChoiceInput(
        label=_("Nombre d'équipes") if within.teams else _("Nombre de joueurs"),
        choices=counts,
        required=False,
        initial=default_players(game, within),
    )


def variants_field(game: GameRules) -> MultipleChoiceInput:
    return MultipleChoiceInput(
        label=_("Variantes"),
        choices=[(variant.slug, translate(variant.label)) for variant in game.variants],
        widget=Checkboxes(option_help={v.slug: translate(v.description) for v in game.variants}),
        required=False,
    )


def variant_labels(game: GameRules, chosen) -> list[str]:
    return [translate(variant.label) for variant in game.variants if variant.slug in chosen]


class TableForm(DeclaredForm):
    """How many play, with which variants (and the game's setup options): what a setup, a sheet or a pad is for.

    Without `players` in the query it stands for the default table, which it computes like any other.
    """

    within: PlayerRange | None = None  # the range of the select: the game's players unless said otherwise

    def __init__(self, game: GameRules, data=None, *, options: tuple[Field, ...] = ()):
        self.asked = data is not None and "players" in data
        super().__init__(game, data if self.asked else None)
        self.fields["players"] = players_field(game, self.within)
        if game.variants:
            self.fields["variants"] = variants_field(game)
        self.options = [option.name for option in options]
        self.fields.update((option.name, formfield(option)) for option in options)
        self.chosen = chosen_variants(data) if self.asked else []
        if not self.asked:
            self.bind_defaults()

    @property
    def variant_names(self) -> list[str]:
        return variant_labels(self.game, self.chosen)


class SheetChoiceForm(TableForm):
    """The table of a score sheet: its columns (one per player) and rows depend on it."""

    count, variant_set, refusal = 0, frozenset(), ""

    def __init__(self, game: GameRules, data=None):
        self.within = game.sheet_players  # its columns: the players, or the teams
        super().__init__(game, data)

    def run(self) -> None:
        errors: dict = {}
        count = self.game.clean_players_count(self.data.get("players"), errors, self.within)
        variants = self.game.clean_variants(self.chosen, errors)
        if errors:
            raise InvalidInput(errors)
        if count > MAX_SHEET_PLAYERS:
            message = gettext("La feuille de score en ligne va jusqu'à %(max)s joueurs.")
            self.add_error("players", message % {"max": MAX_SHEET_PLAYERS})
            return
        self.count, self.variant_set = count, variants
        refusal = self.game.score_refusal(variants)
        self.refusal = render_text(refusal) if refusal is not None else ""

    @property
    def ready(self) -> bool:
        """Whether a sheet can be drawn: a valid table of a game that is scored with these variants."""
        return self.is_valid() and not self.refusal


# --- setup calculator -------------------------------------------------------------------------------------


class SetupForm(TableForm):
    """`?players=N&variants=a,b&<option>=…` → the components and steps for that table."""

    def __init__(self, game: GameRules, data=None):
        super().__init__(game, data, options=game.setup_options)

    def query(self) -> dict[str, str]:
        """The engine's setup query (the API's query string) this form stands for."""
        query = {"players": str(self.data.get("players", "")), "variants": ",".join(self.chosen)}
        for name in self.options:
            value = self.cleaned_data.get(name)
            if isinstance(value, bool):
                query[name] = "true" if value else "false"
            elif value not in (None, ""):
                query[name] = str(value)
        return query

    def run(self):
        return self.game.run_setup(self.query())

    @property
    def components(self) -> list[dict]:
        return [{"name": render_text(part.name), "count": part.count} for part in self.result.components]

    @property
    def steps(self) -> list[str]:
        return [render_text(step) for step in self.result.steps]

    @property
    def query_string(self) -> str:
        return urlencode(self.query())

    @property
    def option_choices(self) -> list[tuple[str, str]]:
        """The options as chosen, for the printed aid (« Durée de la partie : Moyenne »)."""
        shown = []
        for name in self.options:
            bound, value = self[name], self.cleaned_data.get(name)
            if isinstance(value, bool):
                text = gettext("oui") if value else gettext("non")
            else:
                choices = dict(getattr(bound.field, "choices", ()))
                text = str(choices.get(value, value)) if value not in (None, "") else "—"
            shown.append((bound.label, text))
        return shown


# --- referee check ----------------------------------------------------------------------------------------

ALIGNMENT_LABELS = {
    "row": _("Ligne"),
    "column": _("Colonne"),
    "diagonal": _("Diagonale"),
    "square": _("Carré"),
}


@dataclass
class Grid:
    """A board of cells (Quarto's 4 × 4), each cell a field `board.<row>.<column>`."""

    form: CheckForm
    name: str
    label: str
    shape: tuple[int, int]
    found: set[tuple[int, int]] = field(default_factory=set)  # cells a check's result lights

    @property
    def rows(self) -> list[list[tuple[Any, bool]]]:
        return [
            [
                (self.form[f"{self.name}.{row}.{column}"], (row, column) in self.found)
                for column in range(self.shape[1])
            ]
            for row in range(self.shape[0])
        ]

    @property
    def errors(self) -> list[str]:
        paths = [self.name, *(join_path(self.name, row) for row in range(self.shape[0]))]
        return [message for path in paths for message in self.form.errors.get(path, [])]


def drawn_pieces(game: GameRules) -> tuple:
    """The pieces a board's cells are picked from, drawn (rules/drawings.py), where the game has them."""
    from .drawings import PIECE_SET

    return PIECE_SET if getattr(game, "slug", "") == "quarto" else ()


class CheckForm(DeclaredForm):
    """A position to check (Quarto's board), drawn from the game's check fields."""

    tool_template = "rules/includes/check_tool.html"

    def __init__(self, game: GameRules, data=None):
        super().__init__(game, data)
        self.chosen = chosen_variants(data) if data is not None else []
        known = {variant.slug for variant in game.variants}
        self.check_fields = game.check_fields(frozenset(v for v in self.chosen if v in known))
        if game.variants:
            self.fields["variants"] = variants_field(game)
        self.containers.add("variants")
        self.controls: list = []
        self.pieces = drawn_pieces(game)
        for declared in self.check_fields:
            shape = grid_shape(declared)
            if shape is None:
                self.fields[declared.name] = formfield(declared)
                self.controls.append(declared.name)
                continue
            grid = Grid(self, declared.name, translate(declared.label), shape)
            self.containers |= {declared.name, *(join_path(declared.name, row) for row in range(shape[0]))}
            for row in range(shape[0]):
                for column in range(shape[1]):
                    self.fields[f"{declared.name}.{row}.{column}"] = cell_field(
                        declared, row, column, pieces=self.pieces
                    )
            self.controls.append(grid)

    @property
    def piece_sprite(self):
        from .drawings import quarto_sprite

        return quarto_sprite()

    @property
    def inputs(self) -> list:
        """What the form draws in order: a board, or a field."""
        return [control if isinstance(control, Grid) else self[control] for control in self.controls]

    def run(self):
        return self.game.run_check({"variants": self.chosen, **self.values(self.check_fields, "")})

    @cached_property
    def display(self) -> dict | None:
        """A check result for people: yes/no verdicts, the lines found (with their cells lit on the board)."""
        result = self.result
        if result is None:
            return None
        verdicts = [
            (self.game.title if key == self.game.slug else key.replace("_", " ").capitalize(), value)
            for key, value in result.items()
            if isinstance(value, bool)
        ]
        grid = next((control for control in self.controls if isinstance(control, Grid)), None)
        lines = []
        for line in result.get("lines", []) if isinstance(result.get("lines"), list) else []:
            cells = line.get("cells", [])
            # A game may name the words of its result (Quarto's `shared`: "tall" → « hautes »).
            shared = [translate(self.game.check_labels.get(name, name)) for name in line.get("shared", [])]
            lines.append(
                {
                    "kind": str(ALIGNMENT_LABELS.get(line.get("kind"), line.get("kind", ""))),
                    "cells": ", ".join(f"({row + 1}, {column + 1})" for row, column in cells),
                    "shared": shared,
                }
            )
            if grid is not None:
                grid.found.update((row, column) for row, column in cells)
        others = [
            (key, value) for key, value in result.items() if not isinstance(value, bool) and key != "lines"
        ]
        return {"verdicts": verdicts, "lines": lines, "others": others}
