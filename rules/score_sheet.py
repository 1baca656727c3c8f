"""The score sheet's form: one column per player, one row per declared field, scored by the engine.

Groups get a heading row, lists of groups (Martian Dice's turns) one row per item, drawn as many as
`<list>._slots` says (« + une ligne » adds one); the rest is DeclaredForm's (rules/forms.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import cached_property
from django.utils.translation import gettext

from .engine import Field, GameRules, Group, join_path
from .fields import RowCountInput, formfield, is_rows, name_field
from .forms import DeclaredForm, variant_labels
from .serializers import score_data
from .services import render_text, translate

INITIAL_SLOTS = 3  # rows first drawn for a list of turns (more on request)
PAD_SLOTS = 8  # rows a printed pad draws for a list of turns: what one A4 page holds
MAX_SLOTS = 60
SLOTS = "_slots"  # `<list>._slots`: how many rows of the list are drawn


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

    def __init__(
        self,
        game: GameRules,
        *,
        players: int,
        variants: frozenset[str],
        data=None,
        more: str = "",
        slots: int = INITIAL_SLOTS,
    ):
        super().__init__(game, data)
        self.initial_slots = slots
        self.count, self.variants, self.more = players, variants, more
        self.player_fields = game.player_fields(variants)
        self.shared_fields = game.sheet_shared_fields(variants, players)
        self.containers |= {"players", "variants"}
        self.names = []
        for index in range(players):
            name = f"players.{index}.name"
            if game.sheet_players.teams:
                label = gettext("Nom de l'équipe %(number)s") % {"number": index + 1}
            else:
                label = gettext("Nom du joueur %(number)s") % {"number": index + 1}
            self.fields[name] = name_field(label, self.player_name(index))
            self.names.append(name)
            self.containers.add(f"players.{index}")
        self.rows = self._rows(self.player_fields, [f"players.{index}" for index in range(players)])
        self.shared_rows = self._rows(self.shared_fields, [""])

    @property
    def cache_key(self) -> tuple | None:
        """For an unbound sheet of a title whose rules say what it is drawn from (`sheet_key()`, the
        default sheet's), what its HTML depends on besides the language; None otherwise (a sheet as
        typed, a declared or coded game's)."""
        sheet_key = getattr(self.game, "sheet_key", None)
        if self.is_bound or sheet_key is None:
            return None
        return (*sheet_key(), self.count, *sorted(self.variants), self.initial_slots)

    def name_of(self, index: int) -> str:
        """The name typed in the column, or its placeholder « Joueur N » when left blank."""
        typed = self.cleaned_data.get(self.names[index]) if hasattr(self, "cleaned_data") else None
        if typed is None and self.is_bound:
            typed = self[self.names[index]].value()
        typed = typed.strip() if isinstance(typed, str) else typed
        return typed or self.player_name(index)

    @property
    def name_fields(self) -> list:
        return [self[name] for name in self.names]

    def player_name(self, index: int) -> str:
        if self.game.sheet_players.teams:
            return gettext("Équipe %(number)s") % {"number": index + 1}
        return gettext("Joueur %(number)s") % {"number": index + 1}

    def _rows(
        self, fields: tuple[Field, ...], bases: list[str], relative: str = "", depth: int = 0
    ) -> list[Row]:
        rows: list[Row] = []
        for declared in fields:
            here = join_path(relative, declared.name)
            label, help_text = translate(declared.label), translate(declared.help)
            paths = [join_path(base, here) for base in bases]
            if isinstance(declared, Group):
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
            count = self.initial_slots
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
        if isinstance(declared, Group):
            names = []
            for member in declared.fields:
                names += self._leaves(member, join_path(path, member.name), (*trail, translate(member.label)))
            return names
        self.fields[path] = formfield(declared, label=" › ".join(trail) if trail else None)
        return [path]

    def body(self) -> dict[str, Any]:
        """The API's score body this form stands for."""
        players = [
            {"name": self.name_of(index), **self.values(self.player_fields, f"players.{index}")}
            for index in range(self.count)
        ]
        return {"variants": sorted(self.variants), "players": players, **self.values(self.shared_fields, "")}

    def run(self):
        return None if self.more else self.game.run_score(self.body())

    @property
    def variant_names(self) -> list[str]:
        return variant_labels(self.game, self.variants)

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
        shown = score_data(result)  # the API's result, rendered in the reader's language
        for player in shown["players"]:
            player["winner"] = player["name"] in result.winners
        shown["lines"] = [
            {
                "slug": line.slug,
                "label": translate(line.label),
                "points": [player.breakdown.get(line.slug, 0) for player in result.players],
            }
            for line in self.game.lines(self.variants)
        ]
        shown["decided_by"] = translate(criteria[result.decided_by]) if result.decided_by in criteria else ""
        return shown

    @property
    def columns(self) -> list[dict]:
        players = self.display["players"] if self.display else [{}] * self.count
        return [
            {"name": player.get("name", self.name_of(index)), **player}
            for index, player in enumerate(players)
        ]

    @property
    def lines(self) -> list[dict]:
        if self.display:
            return self.display["lines"]
        return [
            {"slug": line.slug, "label": translate(line.label), "points": [None] * self.count}
            for line in self.game.lines(self.variants)
        ]
