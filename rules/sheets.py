"""The score sheet form: one column per player, one row per declared field, scored by the engine.

Its inputs come from the game's declarations (`rules/inputs.py`); the engine checks everything and
its per-path errors are put back on the inputs they name. `static/js/score-sheet.js` reads the same
form (following its plan) to post it to the API for live totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from .engine import GameRules, InvalidInput, ScoreResult
from .engine.fields import Errors, join_path
from .forms import (
    MAX_SHEET_PLAYERS,
    EngineForm,
    chosen_variants,
    default_players,
    players_input,
    variant_labels,
    variants_input,
)
from .inputs import (
    SLOTS,
    FormData,
    Input,
    build_fields,
    leaves,
    make_input,
    plan,
    plans,
    render_text,
    slot_count,
    translate,
)

INITIAL_SLOTS = 3  # rows first drawn for a list of turns (more on request)
MAX_SLOTS = 60


class SheetChoiceForm(EngineForm):
    """How many players and which variants: what the score sheet's columns and rows depend on."""

    def __init__(self, game: GameRules, data: Mapping | None = None):
        super().__init__()
        self.game = game
        source = FormData(data) if data is not None and "players" in data else None
        raw_players = source.get("players") if source else str(default_players(game))
        chosen = chosen_variants(source) if source else []
        errors: Errors = {}
        count = game.clean_players_count(raw_players, errors)
        variants = game.clean_variants(chosen, errors)
        self.players = players_input(game, raw_players)
        self.variants = variants_input(game, chosen)
        self.count = count or 0
        self.variant_set = variants
        self.refusal = ""
        if errors:
            self.fail(InvalidInput(errors), {"players", "variants"}, {})
        elif count > MAX_SHEET_PLAYERS:
            self.errors = {
                "players": [
                    gettext("La feuille de score en ligne va jusqu'à %(max)s joueurs.")
                    % {"max": MAX_SHEET_PLAYERS}
                ]
            }
            self.placed = self.errors
        else:
            refusal = game.score_refusal(variants)
            self.refusal = render_text(refusal) if refusal is not None else ""
        self.attach(self.players, self.variants)

    def is_valid(self) -> bool:
        return not self.errors and not self.refusal

    @property
    def variant_names(self) -> list[str]:
        return variant_labels(self.game, self.variant_set)


@dataclass
class Cell:
    anchor: str
    inputs: list[Input] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    hidden: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Row:
    kind: str  # input, group, list, slot
    label: str
    cells: list[Cell]
    help: str = ""
    depth: int = 0
    more: str = ""  # the list a "one more row" button adds to


class ScoreSheetForm(EngineForm):
    """One column per player, one row per declared field; the engine scores what is posted."""

    def __init__(
        self,
        game: GameRules,
        *,
        players: int,
        variants: frozenset[str],
        data: Mapping | None = None,
        more: str = "",
    ):
        super().__init__()
        self.game = game
        self.count = players
        self.variants = variants
        self.data = FormData(data) if data is not None else None
        self.player_fields = game.player_fields(variants)
        self.shared_fields = game.shared_fields(variants)
        self.plan = {"players": plans(self.player_fields), "shared": plans(self.shared_fields)}
        self.more = more
        self.result: ScoreResult | None = None
        self.display: ScoreDisplay | None = None
        self.labels: dict[str, str] = {}
        self.anchors: set[str] = {"players", "variants"}
        self._build()

    # layout

    def player_name(self, index: int) -> str:
        return gettext("Joueur %(number)s") % {"number": index + 1}

    def _build(self) -> None:
        self.names: list[Input] = []
        for index in range(self.count):
            name = f"players.{index}.name"
            self.names.append(
                Input(
                    name=name,
                    kind="text",
                    label=gettext("Nom du joueur %(number)s") % {"number": index + 1},
                    value=self.data.get(name) if self.data else self.player_name(index),
                )
            )
            self.anchors |= {name, f"players.{index}"}
            self.labels[f"players.{index}"] = self.player_name(index)
        self.rows = self._rows(self.player_fields, [f"players.{index}" for index in range(self.count)])
        self.shared_rows = self._rows(self.shared_fields, [""])

    def _slots(self, declared, bases: list[str], relative: str) -> int:
        high = min(declared.max_items if declared.max_items is not None else MAX_SLOTS, MAX_SLOTS)
        if self.data is None:
            count = INITIAL_SLOTS
        else:
            count = max(slot_count(self.data, join_path(base, relative)) for base in bases)
            if self.more == relative:
                count += 1
        return max(declared.min_items, min(count, high))

    def _rows(self, fields, bases: list[str], relative: str = "", depth: int = 0) -> list[Row]:
        rows: list[Row] = []
        for declared in fields:
            here = join_path(relative, declared.name)
            node = plan(declared)
            label, help_text = translate(declared.label), translate(declared.help)
            paths = [join_path(base, here) for base in bases]
            self.anchors.update(paths)
            for base, path in zip(bases, paths, strict=True):
                self.labels[path] = " › ".join(filter(None, [self.labels.get(base, ""), label]))
            if node["t"] == "obj":
                rows.append(Row("group", label, [Cell(path) for path in paths], help_text, depth))
                rows.extend(self._rows(declared.fields, bases, here, depth + 1))
            elif node["t"] == "list":
                count = self._slots(declared, bases, here)
                high = declared.max_items if declared.max_items is not None else MAX_SLOTS
                cells = [Cell(path, hidden=[(join_path(path, SLOTS), str(count))]) for path in paths]
                rows.append(Row("list", label, cells, help_text, depth, more=here if count < high else ""))
                item_label = translate(declared.item.label) or label
                for slot in range(count):
                    slot_paths = [join_path(path, slot) for path in paths]
                    self.anchors.update(slot_paths)
                    for path, slot_path in zip(paths, slot_paths, strict=True):
                        self.labels[slot_path] = f"{self.labels[path]} {slot + 1}"
                    cells = [Cell(path, leaves(declared.item, path, self.data)) for path in slot_paths]
                    for cell in cells:
                        self.anchors.update(control.name for control in cell.inputs)
                    rows.append(Row("slot", f"{item_label} {slot + 1}", cells, "", depth + 1))
            else:
                cells = []
                for index, path in enumerate(paths):
                    control = make_input(declared, path, self.data)
                    if bases != [""]:
                        control.label = f"{label} — {self.player_name(index)}"
                    cells.append(Cell(path, [control]))
                rows.append(Row("input", label, cells, help_text, depth))
        return rows

    # computing

    def body(self) -> dict[str, Any]:
        """The API's score body this form stands for."""
        data = self.data or FormData({})
        players = []
        for index, name in enumerate(self.names):
            players.append(
                {"name": name.value.strip(), **build_fields(self.plan["players"], data, f"players.{index}")}
            )
        return {
            "variants": sorted(self.variants),
            "players": players,
            **build_fields(self.plan["shared"], data, ""),
        }

    def is_valid(self) -> bool:
        try:
            self.result = self.game.run_score(self.body())
        except InvalidInput as invalid:
            self.fail(invalid, self.anchors, self.labels)
            self._attach_all()
            return False
        return True

    def _attach_all(self) -> None:
        self.attach(*self.names)
        for row in [*self.rows, *self.shared_rows]:
            for cell in row.cells:
                self.attach(*cell.inputs)
                if not cell.inputs or row.kind in ("slot", "list", "group"):
                    cell.errors = self.placed.get(cell.anchor, [])

    @property
    def variant_names(self) -> list[str]:
        return variant_labels(self.game, self.variants)

    # what the result area shows (empty until computed: the live script fills it in)

    @property
    def columns(self) -> list[dict]:
        display = self.display
        columns = []
        for index, name in enumerate(self.names):
            player = display.players[index] if display else {}
            columns.append(
                {
                    "name": player.get("name", name.value),
                    "total": player.get("total"),
                    "rank": player.get("rank"),
                    "winner": player.get("winner", False),
                    "eliminated": player.get("eliminated", False),
                }
            )
        return columns

    @property
    def lines(self) -> list[dict]:
        if self.display:
            return self.display.lines
        return [
            {"slug": line.slug, "label": translate(line.label), "points": [None] * self.count}
            for line in self.game.lines(self.variants)
        ]

    @property
    def tie_break_rule(self) -> str:
        return render_text(self.game.tie_break_rule(self.variants))


@dataclass
class ScoreDisplay:
    """A computed sheet as pages show it: lines × players, totals, ranks, winners and why."""

    players: list[dict]
    lines: list[dict]
    winners: list[str]
    decided_by: str
    explanation: str


def score_display(game: GameRules, variants: frozenset[str], result: ScoreResult) -> ScoreDisplay:
    lines = [{"slug": line.slug, "label": translate(line.label)} for line in game.lines(variants)]
    players = [
        {
            "index": index,
            "name": player.name,
            "total": player.total,
            "rank": player.rank,
            "eliminated": player.eliminated,
            "winner": player.name in result.winners,
        }
        for index, player in enumerate(result.players)
    ]
    for line in lines:
        line["points"] = [player.breakdown.get(line["slug"], 0) for player in result.players]
    criteria = {criterion.slug: criterion.label for criterion in game.tie_breakers(variants)}
    decided_by = translate(criteria[result.decided_by]) if result.decided_by in criteria else ""
    return ScoreDisplay(players, lines, result.winners, decided_by, render_text(result.explanation))
