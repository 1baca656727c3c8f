"""HTML inputs for a game's declared fields, and the JSON body they make, for any game module.

A declared field (`rules.engine.fields`) becomes a *plan* node — a small JSON description shared by
the server, which reads posted forms, and `static/js/score-sheet.js`, which reads the same form to
post it to the API for live totals — and one or more *inputs*, each named by the engine's dotted
path (`players.1.categories.moines.total`), so an engine error lands on the input it is about.

Plan nodes (`t`): `int`, `choice`, `bool` (a checkbox), `intlist` (one text input, numbers separated
by commas or spaces: Railroad Ink's networks), `multi` (checkboxes: Quarto's characters), `obj` (a
Group: `omit` when left blank and the engine has a default for it), `list` (a ListOf objects: as
many slots as the hidden `<path>._slots` says; trailing blank slots are dropped), `grid` (an array
of arrays of fixed size, known only by its JSON Schema: Quarto's board) and `json` (any other field:
a textarea of JSON).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext

from .engine import Boolean, Choice, Field, Group, Integer, InvalidInput, ListOf
from .engine.fields import MISSING, join_path
from .engine.text import render

OMIT = object()
SLOTS = "_slots"
GRID_MAX = 12  # an array of arrays larger than this is not drawn as a grid
SELECT_MAX = 40  # an integer range up to this many values is a select in a grid
NUMBERS = re.compile(r"[\s,;]+")


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


# --- plans ------------------------------------------------------------------------------------------


def plan(declared: Field) -> dict:
    """The plan node of a declared field."""
    if isinstance(declared, Boolean):
        return {"t": "bool"}
    if isinstance(declared, Choice):
        return {"t": "choice"}
    if isinstance(declared, Integer):
        return {"t": "int"}
    if isinstance(declared, Group):
        return {
            "t": "obj",
            "fields": [[member.name, plan(member)] for member in declared.fields],
            # Left blank, the group is left out when the engine has a default for it (Biblios' optional
            # categories, dice on 3); otherwise it is sent empty so each missing member is named.
            "omit": not declared.required,
        }
    if isinstance(declared, ListOf):
        if isinstance(declared.item, Choice):
            return {"t": "multi"}
        if isinstance(declared.item, Integer) and not isinstance(declared.item, Boolean):
            return {"t": "intlist"}
        return {"t": "list", "item": plan(declared.item), "min": declared.min_items}
    grid = grid_shape(declared.schema())
    if grid is not None:
        return {"t": "grid", "rows": grid[0], "cols": grid[1]}
    return {"t": "json"}


def grid_shape(schema: Mapping) -> tuple[int, int] | None:
    """(rows, columns) of a fixed-size array of arrays of scalars (a board), or None."""
    inner = schema.get("items") or {}
    if schema.get("type") != "array" or inner.get("type") != "array":
        return None
    rows, columns = schema.get("minItems"), inner.get("minItems")
    if rows != schema.get("maxItems") or columns != inner.get("maxItems") or not rows or not columns:
        return None
    cell_type = (inner.get("items") or {}).get("type")
    types = set(cell_type) if isinstance(cell_type, list) else {cell_type}
    if not types & {"integer", "string"} or rows > GRID_MAX or columns > GRID_MAX:
        return None
    return rows, columns


def plans(fields: Iterable[Field]) -> list:
    return [[declared.name, plan(declared)] for declared in fields]


# --- reading a posted form --------------------------------------------------------------------------


class FormData:
    """A QueryDict (or plain dict) seen as the browser's FormData: get, getlist."""

    def __init__(self, data: Mapping):
        self.data = data

    def get(self, name: str) -> str:
        value = self.data.get(name, "")
        return value if isinstance(value, str) else str(value)

    def getlist(self, name: str) -> list[str]:
        if hasattr(self.data, "getlist"):
            return self.data.getlist(name)
        value = self.data.get(name)
        if value is None:
            return []
        return list(value) if isinstance(value, list | tuple) else [value]


def slot_count(data: FormData, path: str) -> int:
    raw = data.get(join_path(path, SLOTS)).strip()
    return min(int(raw), 200) if re.fullmatch(r"[0-9]{1,6}", raw) else 0


def build(node: dict, data: FormData, path: str, *, in_list: bool = False) -> tuple[Any, bool]:
    """(value or OMIT, blank) of a plan node read from form data; mirrored by score-sheet.js."""
    kind = node["t"]
    if kind in ("int", "choice"):
        raw = data.get(path).strip()
        if not raw:
            return OMIT, True
        if kind == "int" and re.fullmatch(r"-?[0-9]{1,15}", raw):
            return int(raw), False
        return raw, False
    if kind == "bool":
        checked = data.get(path).strip().lower() in ("on", "true", "1", "oui", "yes")
        return checked, not checked
    if kind == "intlist":
        items = [item for item in NUMBERS.split(data.get(path).strip()) if item]
        return [int(item) if re.fullmatch(r"-?[0-9]{1,15}", item) else item for item in items], not items
    if kind == "multi":
        values = [value for value in data.getlist(path) if value]
        return values, not values
    if kind == "obj":
        value: dict = {}
        blank = True
        for name, member in node["fields"]:
            member_value, member_blank = build(member, data, join_path(path, name))
            if member_value is not OMIT:
                value[name] = member_value
            blank = blank and member_blank
        if blank and node["omit"] and not in_list:
            return OMIT, True
        return value, blank
    if kind == "list":
        slots = [
            build(node["item"], data, join_path(path, index), in_list=True)
            for index in range(slot_count(data, path))
        ]
        while len(slots) > node["min"] and slots[-1][1]:
            slots.pop()
        return [None if value is OMIT else value for value, _blank in slots], all(
            blank for _value, blank in slots
        )
    if kind == "grid":
        rows = []
        blank = True
        for row in range(node["rows"]):
            cells = []
            for column in range(node["cols"]):
                raw = data.get(join_path(path, f"{row}.{column}")).strip()
                if raw:
                    blank = False
                    cells.append(int(raw) if re.fullmatch(r"-?[0-9]{1,15}", raw) else raw)
                else:
                    cells.append(None)
            rows.append(cells)
        return rows, blank
    # json
    raw = data.get(path).strip()
    if not raw:
        return OMIT, True
    try:
        return json.loads(raw), False
    except ValueError:
        return raw, False


def build_fields(nodes: list, data: FormData, prefix: str) -> dict:
    """The object holding these fields, read from form data under `prefix`."""
    return build({"t": "obj", "fields": nodes, "omit": False}, data, prefix)[0]


# --- inputs to draw ---------------------------------------------------------------------------------


@dataclass
class Option:
    value: str
    label: str
    selected: bool = False
    help: str = ""


@dataclass
class Input:
    """One HTML control, named by its engine path."""

    name: str
    kind: str  # int, choice, bool, intlist, multi, cell, json
    label: str
    help: str = ""
    value: str = ""
    checked: bool = False
    minimum: int | None = None
    maximum: int | None = None
    options: list[Option] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    blank: bool = True  # a select offers "—" (nothing chosen: the engine's default)
    found: bool = False  # a board cell lit by a check's result
    placeholder: str = ""

    @property
    def id(self) -> str:
        return "id_" + re.sub(r"[^A-Za-z0-9_-]", "-", self.name)


@dataclass
class Grid:
    """A board of cells (Quarto's 4 × 4)."""

    name: str
    label: str
    rows: list[list[Input]]
    errors: list[str] = field(default_factory=list)


def initial_text(declared: Field) -> str:
    """What an unbound input shows: the declared default, else nothing."""
    if declared.default is MISSING or declared.default is None:
        return ""
    if isinstance(declared, ListOf):
        return ", ".join(str(item) for item in declared.default)
    return str(declared.default)


def make_input(
    declared: Field, name: str, data: FormData | None, *, label: str | None = None, prefill: bool = True
) -> Input:
    """The control of a scalar-like field (int, choice, bool, intlist, multi, json).

    `prefill=False` leaves a number empty (its default as a placeholder): a row of a list stays blank,
    so an unused row is not mistaken for a played turn of zeros.
    """
    node = plan(declared)
    control = Input(
        name=name,
        kind=node["t"],
        label=translate(declared.label) if label is None else label,
        help=translate(declared.help),
    )
    if node["t"] == "bool":
        control.checked = (
            data.get(name).strip().lower() in ("on", "true", "1") if data else bool(declared.default)
        )
    elif node["t"] == "choice":
        current = data.get(name) if data else initial_text(declared)
        control.options = [
            Option(value, translate(option_label), value == current)
            for value, option_label in declared.choices
        ]
        control.value = current
    elif node["t"] == "multi":
        chosen = data.getlist(name) if data else list(declared.default or [])
        control.options = [
            Option(value, translate(option_label), value in chosen)
            for value, option_label in declared.item.choices
        ]
    else:
        control.value = data.get(name) if data else (initial_text(declared) if prefill else "")
        if not prefill:
            control.placeholder = initial_text(declared)
        if isinstance(declared, Integer):
            control.minimum, control.maximum = declared.minimum, declared.maximum
    return control


def make_grid(declared: Field, name: str, data: FormData | None) -> Grid:
    """A board of selects (or number inputs) from the field's JSON Schema."""
    schema = declared.schema()
    rows, columns = grid_shape(schema)
    cell = schema["items"]["items"]
    options: list[tuple[str, str]] | None = None
    if "oneOf" in cell:
        options = [
            (str(choice["const"]), str(choice.get("title", choice["const"]))) for choice in cell["oneOf"]
        ]
    elif "enum" in cell:
        options = [(str(value), str(value)) for value in cell["enum"] if value is not None]
    elif "minimum" in cell and "maximum" in cell and cell["maximum"] - cell["minimum"] < SELECT_MAX:
        options = [(str(value), str(value)) for value in range(cell["minimum"], cell["maximum"] + 1)]
    grid_rows = []
    for row in range(rows):
        cells = []
        for column in range(columns):
            cell_name = join_path(name, f"{row}.{column}")
            current = data.get(cell_name) if data else ""
            control = Input(
                name=cell_name,
                kind="cell",
                label=gettext("Ligne %(row)s, colonne %(column)s") % {"row": row + 1, "column": column + 1},
                value=current,
                minimum=cell.get("minimum"),
                maximum=cell.get("maximum"),
            )
            if options is not None:
                control.options = [Option(value, label, value == current) for value, label in options]
            cells.append(control)
        grid_rows.append(cells)
    return Grid(name=name, label=translate(declared.label), rows=grid_rows)


def leaves(declared: Field, name: str, data: FormData | None, trail: tuple[str, ...] = ()) -> list[Input]:
    """Every control of a list row, nested groups flattened with their labels, numbers left blank."""
    if isinstance(declared, Group):
        found = []
        for member in declared.fields:
            found.extend(
                leaves(member, join_path(name, member.name), data, (*trail, translate(member.label)))
            )
        return found
    return [make_input(declared, name, data, label=" › ".join(trail) if trail else None, prefill=False)]


# --- where errors go --------------------------------------------------------------------------------


def place_errors(errors: Mapping[str, list[str]], anchors: set[str]) -> tuple[dict[str, list[str]], list]:
    """Attach each error to the nearest drawn anchor (its input, else an enclosing cell or group).

    Returns ({anchor: messages}, [(path, messages)] for errors no anchor encloses).
    """
    placed: dict[str, list[str]] = {}
    loose = []
    for path, messages in errors.items():
        parts = path.split(".")
        while parts and ".".join(parts) not in anchors:
            parts.pop()
        if parts:
            placed.setdefault(".".join(parts), []).extend(messages)
        else:
            loose.append((path, messages))
    return placed, loose
