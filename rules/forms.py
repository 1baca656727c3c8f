"""Forms of the rules pages: setup calculator, score sheet, referee check, built from a game's declarations.

Each is a Django form whose fields are the game's declared inputs (rules/fields.py). It reads a GET
or POST into the engine's request (`query()`, `body()`: the one parser of a sheet; the score page's
script posts this same form and reads JSON back) and leaves every check to the engine: `clean()`
runs it and puts each error on the input its path names, or on the group, list or board around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.utils.functional import cached_property
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .engine import Field, GameRules, InvalidInput, join_path
from .fields import (
    Checkboxes,
    ChoiceInput,
    MultipleChoiceInput,
    PathBoundField,
    RowCountInput,
    cell_field,
    formfield,
    grid_shape,
    is_group,
    is_rows,
    name_field,
)
from .services import error_messages, render_text, translate

DEFAULT_PLAYERS = 3  # what the calculator and the sheet show first, within the game's range
MAX_SHEET_PLAYERS = 12  # columns of an online sheet for games with no maximum (Martian Dice)
INITIAL_SLOTS = 3  # rows first drawn for a list of turns (more on request)
MAX_SLOTS = 60
SLOTS = "_slots"  # `<list>._slots`: how many rows of the list are drawn
OMIT = object()  # a blank input the request leaves out, so that the engine applies its default


def default_players(game: GameRules) -> int:
    high = game.players.maximum or MAX_SHEET_PLAYERS
    return min(max(DEFAULT_PLAYERS, game.players.minimum), high)


def most_players(game: GameRules) -> int:
    """The largest table a page draws: the game's maximum, capped for games without one."""
    return min(game.players.maximum or MAX_SHEET_PLAYERS, MAX_SHEET_PLAYERS)


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
        if is_group(declared):
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


def players_field(game: GameRules) -> ChoiceInput:
    """The number of players: a select over the game's range (the engine says why a number does not fit)."""
    counts = [(str(count), str(count)) for count in range(game.players.minimum, most_players(game) + 1)]
    return ChoiceInput(
        label=_("Nombre de joueurs"), choices=counts, required=False, initial=default_players(game)
    )


def variants_field(game: GameRules) -> MultipleChoiceInput:
    return MultipleChoiceInput(
        label=_("Variantes"),
        choices=[(variant.slug, translate(variant.label)) for variant in game.variants],
        widget=Checkboxes(option_help={v.slug: translate(v.description) for v in game.variants}),
        required=False,
    )


class TableForm(DeclaredForm):
    """How many play and with which variants: what a setup, a score sheet or a pad is drawn for.

    Without `players` in the query it stands for the default table, which it computes like any other.
    """

    def __init__(self, game: GameRules, data=None):
        self.asked = data is not None and "players" in data
        super().__init__(game, data if self.asked else None)
        self.fields["players"] = players_field(game)
        if game.variants:
            self.fields["variants"] = variants_field(game)
        self.chosen = chosen_variants(data) if self.asked else []

    @property
    def variant_names(self) -> list[str]:
        return [translate(variant.label) for variant in self.game.variants if variant.slug in self.chosen]


class SheetChoiceForm(TableForm):
    """The table of a score sheet: its columns (one per player) and rows depend on it."""

    def __init__(self, game: GameRules, data=None):
        super().__init__(game, data)
        self.count, self.variant_set, self.refusal = 0, frozenset(), ""
        if not self.asked:
            self.bind_defaults()

    def run(self) -> None:
        errors: dict = {}
        count = self.game.clean_players_count(self.data.get("players"), errors)
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

    @property
    def variant_names(self) -> list[str]:
        return [
            translate(variant.label) for variant in self.game.variants if variant.slug in self.variant_set
        ]


# --- setup calculator -------------------------------------------------------------------------------------


class SetupForm(TableForm):
    """`?players=N&variants=a,b&<option>=…` → the components and steps for that table."""

    def __init__(self, game: GameRules, data=None):
        super().__init__(game, data)
        self.options = [option.name for option in game.setup_options]
        for option in game.setup_options:
            self.fields[option.name] = formfield(option)
        if not self.asked:
            self.bind_defaults()

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


# --- score sheet -------------------------------------------------------------------------------------------


@dataclass
class Cell:
    """A player's cell of a sheet row: its inputs, or the errors of the group or list it stands for."""

    form: ScoreSheetForm
    anchor: str
    names: list[str] = field(default_factory=list)
    counter: str = ""  # the hidden row count of a list

    @property
    def fields(self) -> list:
        return [self.form[name] for name in self.names]

    @property
    def hidden(self):
        return self.form[self.counter] if self.counter else None

    @property
    def errors(self) -> list[str]:
        # An input shows its own errors; a group, a list or a row shows what the engine said of it.
        return [] if self.anchor in self.names else self.form.errors.get(self.anchor, [])


@dataclass
class Row:
    kind: str  # input, group, list, slot
    label: str
    cells: list[Cell]
    help: str = ""
    depth: int = 0
    more: str = ""  # the list a « + une ligne » button adds to


class ScoreSheetForm(DeclaredForm):
    """One column per player, one row per declared field; the engine scores what is posted.

    `more`: the list (`turns`) a « + une ligne » button asked one more row for; the sheet is then
    drawn again as typed, not scored.
    """

    def __init__(self, game: GameRules, *, players: int, variants: frozenset[str], data=None, more: str = ""):
        super().__init__(game, data)
        self.count, self.variants, self.more = players, variants, more
        self.player_fields = game.player_fields(variants)
        self.shared_fields = game.shared_fields(variants)
        self.containers |= {"players", "variants"}
        self.names = []
        for index in range(players):
            name = f"players.{index}.name"
            label = gettext("Nom du joueur %(number)s") % {"number": index + 1}
            self.fields[name] = name_field(label, self.player_name(index))
            self.names.append(name)
            self.containers.add(f"players.{index}")
        self.rows = self._rows(self.player_fields, [f"players.{index}" for index in range(players)])
        self.shared_rows = self._rows(self.shared_fields, [""])

    @property
    def name_fields(self) -> list:
        return [self[name] for name in self.names]

    def player_name(self, index: int) -> str:
        return gettext("Joueur %(number)s") % {"number": index + 1}

    def _rows(
        self, fields: tuple[Field, ...], bases: list[str], relative: str = "", depth: int = 0
    ) -> list[Row]:
        rows: list[Row] = []
        for declared in fields:
            here = join_path(relative, declared.name)
            label, help_text = translate(declared.label), translate(declared.help)
            paths = [join_path(base, here) for base in bases]
            if is_group(declared):
                self.containers.update(paths)
                rows.append(Row("group", label, [Cell(self, path) for path in paths], help_text, depth))
                rows.extend(self._rows(declared.fields, bases, here, depth + 1))
            elif is_rows(declared):
                rows.extend(self._list_rows(declared, paths, here, label, help_text, depth))
            else:
                cells = []
                for index, path in enumerate(paths):
                    column = f"{label} — {self.player_name(index)}" if bases != [""] else None
                    self.fields[path] = formfield(declared, label=column)
                    cells.append(Cell(self, path, [path]))
                rows.append(Row("input", label, cells, help_text, depth))
        return rows

    def _list_rows(
        self, declared, paths: list[str], here: str, label: str, help_text: str, depth: int
    ) -> list[Row]:
        high = min(declared.max_items if declared.max_items is not None else MAX_SLOTS, MAX_SLOTS)
        if self.is_bound:
            count = max(self._posted_slots(path) for path in paths) + (1 if self.more == here else 0)
        else:
            count = INITIAL_SLOTS
        count = max(declared.min_items, min(count, high))
        self.containers.update(paths)
        cells = []
        for path in paths:
            self.slots[path] = count
            self.fields[join_path(path, SLOTS)] = RowCountInput(initial=count, required=False)
            cells.append(Cell(self, path, counter=join_path(path, SLOTS)))
        rows = [Row("list", label, cells, help_text, depth, more=here if count < high else "")]
        item_label = translate(declared.item.label) or label
        for slot in range(count):
            slot_paths = [join_path(path, slot) for path in paths]
            self.containers.update(slot_paths)
            cells = [Cell(self, path, self._leaves(declared.item, path)) for path in slot_paths]
            rows.append(Row("slot", f"{item_label} {slot + 1}", cells, "", depth + 1))
        return rows

    def _posted_slots(self, path: str) -> int:
        raw = str(self.data.get(join_path(path, SLOTS), "")).strip()
        return int(raw) if re.fullmatch(r"[0-9]{1,6}", raw) else 0

    def _leaves(self, declared: Field, path: str, trail: tuple[str, ...] = ()) -> list[str]:
        """The inputs of a list's row, nested groups flattened with their labels, numbers left blank."""
        if is_group(declared):
            names = []
            for member in declared.fields:
                names += self._leaves(member, join_path(path, member.name), (*trail, translate(member.label)))
            return names
        self.fields[path] = formfield(declared, label=" › ".join(trail) if trail else None, prefill=False)
        return [path]

    def body(self) -> dict[str, Any]:
        """The API's score body this form stands for."""
        players = [
            {"name": self.cleaned_data.get(name, ""), **self.values(self.player_fields, f"players.{index}")}
            for index, name in enumerate(self.names)
        ]
        return {"variants": sorted(self.variants), "players": players, **self.values(self.shared_fields, "")}

    def run(self):
        return None if self.more else self.game.run_score(self.body())

    @property
    def variant_names(self) -> list[str]:
        return [translate(variant.label) for variant in self.game.variants if variant.slug in self.variants]

    @property
    def tie_break_rule(self) -> str:
        return render_text(self.game.tie_break_rule(self.variants))

    # what the result area shows (empty until computed: the live script fills it in)

    @cached_property
    def display(self) -> dict | None:
        """A computed sheet as pages show it: lines × players, totals, ranks, winners and why."""
        result = self.result
        if result is None:
            return None
        criteria = {criterion.slug: criterion.label for criterion in self.game.tie_breakers(self.variants)}
        return {
            "players": [
                {
                    "name": player.name,
                    "total": player.total,
                    "rank": player.rank,
                    "eliminated": player.eliminated,
                    "winner": player.name in result.winners,
                }
                for player in result.players
            ],
            "lines": [
                {
                    "slug": line.slug,
                    "label": translate(line.label),
                    "points": [player.breakdown.get(line.slug, 0) for player in result.players],
                }
                for line in self.game.lines(self.variants)
            ],
            "winners": result.winners,
            "decided_by": translate(criteria[result.decided_by]) if result.decided_by in criteria else "",
            "explanation": render_text(result.explanation),
        }

    @property
    def columns(self) -> list[dict]:
        players = self.display["players"] if self.display else [{}] * self.count
        return [
            {"name": player.get("name", self[name].value()), **player}
            for name, player in zip(self.names, players, strict=True)
        ]

    @property
    def lines(self) -> list[dict]:
        if self.display:
            return self.display["lines"]
        return [
            {"slug": line.slug, "label": translate(line.label), "points": [None] * self.count}
            for line in self.game.lines(self.variants)
        ]


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


class CheckForm(DeclaredForm):
    """A position to check (Quarto's board), drawn from the game's check fields."""

    def __init__(self, game: GameRules, data=None):
        super().__init__(game, data)
        self.chosen = chosen_variants(data) if data is not None else []
        known = {variant.slug for variant in game.variants}
        self.check_fields = game.check_fields(frozenset(v for v in self.chosen if v in known))
        if game.variants:
            self.fields["variants"] = variants_field(game)
        self.containers.add("variants")
        self.controls: list = []
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
                    self.fields[f"{declared.name}.{row}.{column}"] = cell_field(declared, row, column)
            self.controls.append(grid)

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
