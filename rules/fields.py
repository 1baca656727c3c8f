"""Django form fields for a game's declared inputs: they read what the browser sends, the engine checks it.

A game declares its inputs with the engine's fields (`rules.engine.fields`); `formfield()` gives each
one a Django field — Integer → IntegerField, Choice → ChoiceField, Boolean → BooleanField, a list of
choices → MultipleChoiceField, a list of numbers → one text input — named on the form by the
engine's dotted path (`players.1.categories.moines.total`), so an error of the engine lands on the
input it names. Groups, lists of groups (rows) and boards (a grid of cells) are laid out by the forms
(rules/forms.py) as several of these fields.

The fields only parse: "5" becomes 5, a blank input None, anything else stays as typed for the
engine to refuse in its own words. No field validates (no `required`, no range, no choice check):
the engine does, once, in the form's `clean()`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.forms.utils import flatatt
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from .engine import MISSING, Boolean, Choice, Field, Group, Integer, ListOf
from .services import translate

INTEGER = re.compile(r"-?[0-9]{1,15}")
NUMBERS = re.compile(r"[\s,;]+")
GRID_MAX = 12  # an array of arrays larger than this is not drawn as a grid
SELECT_MAX = 40  # an integer range up to this many values is a select in a grid
NAME_MAX_LENGTH = 40


class PathBoundField(BoundField):
    """A field named by an engine path: its id is `id_players-1-gold`, its errors `id_players-1-gold-errors`."""

    @cached_property
    def auto_id(self) -> str:
        if self.is_hidden:
            return ""
        return "id_" + re.sub(r"[^A-Za-z0-9_-]", "-", self.html_name)

    @property
    def aria_describedby(self) -> str:
        return f"{self.auto_id}-errors" if self.errors and self.auto_id else ""


# --- widgets: name, id and value first, then the other attributes (see templates/rules/widgets/) ----------


class Attributes:
    """Name, id and value first, then the other attributes, written out in Python (as
    templates/rules/widgets/input.html would): a sheet draws dozens of inputs."""

    template_name = "rules/widgets/input.html"

    def get_context(self, name: str, value: Any, attrs: dict | None) -> dict:
        context = super().get_context(name, value, attrs)
        widget = context["widget"]
        widget["more_attrs"] = flatatt({key: item for key, item in widget["attrs"].items() if key != "id"})
        return context

    def _render(self, template_name: str, context: dict, renderer=None) -> SafeString:
        if template_name != Attributes.template_name:
            return super()._render(template_name, context, renderer)
        widget = context["widget"]
        return format_html(
            '<input type="{}" name="{}"{}{}{}>',
            widget["type"],
            widget["name"],
            format_html(' id="{}"', widget["attrs"]["id"]) if widget["attrs"].get("id") else "",
            format_html(' value="{}"', str(widget["value"])) if widget["value"] is not None else "",
            widget["more_attrs"],
        )


class NumberInput(Attributes, forms.NumberInput):
    pass


class TextInput(Attributes, forms.TextInput):
    pass


class CheckboxInput(Attributes, forms.CheckboxInput):
    pass


class HiddenInput(Attributes, forms.HiddenInput):
    pass


class Select(Attributes, forms.Select):
    """A select whose options are joined in Python: a Biblios sheet draws 15 selects of 27 letters."""

    template_name = "rules/widgets/select.html"

    def get_context(self, name: str, value: Any, attrs: dict | None) -> dict:
        context = super().get_context(name, value, attrs)
        options = (option for _group, group, _index in context["widget"]["optgroups"] for option in group)
        context["widget"]["options"] = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (option["value"], " selected" if option["selected"] else "", option["label"])
                for option in options
            ),
        )
        return context

    def _render(self, template_name: str, context: dict, renderer=None) -> SafeString:
        widget = context["widget"]
        return format_html(
            '<select name="{}"{}{}>{}</select>',
            widget["name"],
            format_html(' id="{}"', widget["attrs"]["id"]) if widget["attrs"].get("id") else "",
            widget["more_attrs"],
            widget["options"],
        )


class Checkboxes(forms.CheckboxSelectMultiple):
    """Checkboxes, each in its label, with an optional help per option (a variant's description)."""

    template_name = "rules/widgets/checkboxes.html"

    def __init__(self, *args, option_help: Mapping[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.option_help = dict(option_help or {})

    def create_option(self, *args, **kwargs) -> dict:
        option = super().create_option(*args, **kwargs)
        option["help"] = self.option_help.get(str(option["value"]), "")
        return option


class PieceRadios(forms.RadioSelect):
    """A board cell's piece, picked among drawn pieces (Quarto): one radio per piece, styled as the piece.

    Radios keep what a select gave for free: Tab reaches the cell, the arrow keys move between the
    pieces, a click picks one, and a screen reader reads each piece's name; without a script.
    """

    template_name = "rules/widgets/pieces.html"

    def __init__(self, *args, pieces: Mapping[str, Any] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.pieces = dict(pieces or {})

    def create_option(self, *args, **kwargs) -> dict:
        option = super().create_option(*args, **kwargs)
        option["piece"] = self.pieces.get(str(option["value"]))
        return option


# --- fields -------------------------------------------------------------------------------------------


class Unchecked:
    """A field that parses only: the engine checks the value (see the module's docstring)."""

    def validate(self, value: Any) -> None:
        pass


class IntegerInput(Unchecked, forms.IntegerField):
    """A whole number: `5` → 5, blank → None, anything else passed on as typed."""

    def to_python(self, value: Any) -> int | str | None:
        raw = "" if value is None else str(value).strip()
        if not raw:
            return None
        return int(raw) if INTEGER.fullmatch(raw) else raw


class ChoiceInput(Unchecked, forms.ChoiceField):
    """One value among the declared ones; blank → ""."""

    widget = Select


class MultipleChoiceInput(Unchecked, forms.MultipleChoiceField):
    """Values among the declared ones (checkboxes); a link may also say `a,b` in one parameter."""

    def to_python(self, value: Any) -> list[str]:
        chosen: list[str] = []
        for item in super().to_python(value):
            chosen.extend(part.strip() for part in item.split(",") if part.strip())
        return list(dict.fromkeys(chosen))


class IntegerListInput(Unchecked, forms.Field):
    """Numbers in one text input, separated by commas or spaces (Railroad Ink's networks)."""

    def to_python(self, value: Any) -> list[int | str]:
        items = [item for item in NUMBERS.split(str(value or "").strip()) if item]
        return [int(item) if INTEGER.fullmatch(item) else item for item in items]

    def prepare_value(self, value: Any) -> Any:
        return ", ".join(str(item) for item in value) if isinstance(value, list | tuple) else value


class JSONInput(Unchecked, forms.Field):
    """Any other declared field: its JSON, typed in a text area."""

    widget = forms.Textarea(attrs={"rows": 3})

    def to_python(self, value: Any) -> Any:
        raw = str(value or "").strip()
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw


class RowCountInput(forms.IntegerField):
    """How many rows of a list are drawn (`<list>._slots`): always what the form draws, whatever was posted."""

    widget = HiddenInput

    def bound_data(self, data: Any, initial: Any) -> Any:
        return initial


def name_field(label: str, placeholder: str) -> forms.CharField:
    """A player's name (the engine checks it: present, unique, not too long).

    Empty, « Joueur 1 » as its placeholder: tapping the field and typing gives what was typed; left
    blank, the sheet names the player « Joueur 1 » (ScoreSheetForm.body).
    """
    attrs = {"maxlength": NAME_MAX_LENGTH, "autocomplete": "off", "placeholder": placeholder}
    return forms.CharField(label=label, required=False, widget=TextInput(attrs=attrs))


def number_widget(minimum: int | None, maximum: int | None, **attrs: Any) -> NumberInput:
    attrs = {"inputmode": "numeric", "step": 1, "min": minimum, "max": maximum, **attrs}
    return NumberInput(attrs={key: value for key, value in attrs.items() if value is not None})


def initial_text(declared: Field) -> Any:
    """The declared default, as an unbound input shows it (None: nothing)."""
    return None if declared.default is MISSING else declared.default


def formfield(declared: Field, *, label: str | None = None) -> forms.Field:
    """The Django field of one declared input (not a group, a list of groups or a board).

    A number (or a list of numbers) is drawn empty, its default as a placeholder: typing 9 gives 9
    (not 90 after a pre-filled 0), a blank input is left out of the request so that the engine applies
    the default, and a row of a list left blank is not mistaken for a played turn of zeros.
    """
    options = {
        "label": translate(declared.label) if label is None else label,
        "help_text": translate(declared.help),
        "required": False,
        "initial": initial_text(declared),
    }
    if isinstance(declared, Boolean):
        return forms.BooleanField(widget=CheckboxInput, **options)
    if isinstance(declared, Choice):
        choices = [("", "—"), *((value, translate(text)) for value, text in declared.choices)]
        return ChoiceInput(choices=choices, **options)
    if isinstance(declared, ListOf) and isinstance(declared.item, Choice):
        choices = [(value, translate(text)) for value, text in declared.item.choices]
        return MultipleChoiceInput(choices=choices, widget=Checkboxes, **options)
    options["initial"] = None
    if isinstance(declared, Integer):
        widget = number_widget(declared.minimum, declared.maximum, placeholder=initial_text(declared))
        return IntegerInput(widget=widget, **options)
    if isinstance(declared, ListOf) and isinstance(declared.item, Integer):
        attrs = {"inputmode": "numeric", "placeholder": gettext("ex. 5, 3, 2"), "autocomplete": "off"}
        return IntegerListInput(widget=TextInput(attrs=attrs), **options)
    return JSONInput(**options)


# --- shapes the forms lay out as several fields ------------------------------------------------------------


def is_rows(declared: Field) -> bool:
    """A list of groups: one row of inputs per item (Martian Dice's turns, K2's climbers)."""
    return isinstance(declared, ListOf) and not isinstance(declared.item, Choice | Integer)


def grid_shape(declared: Field) -> tuple[int, int] | None:
    """(rows, columns) of a board: a fixed-size array of arrays of scalars, known by its JSON Schema."""
    if isinstance(declared, Group | ListOf | Integer | Choice):
        return None
    schema = declared.schema()
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


def cell_field(declared: Field, row: int, column: int, pieces: Sequence[Any] = ()) -> IntegerInput:
    """A cell of a board: drawn pieces to pick from when the game has them (Quarto, rules/drawings.py),
    a select when its schema lists the values, else a number."""
    cell = declared.schema()["items"]["items"]
    label = gettext("Ligne %(row)s, colonne %(column)s") % {"row": row + 1, "column": column + 1}
    if pieces:
        choices = [("", gettext("Case vide")), *((str(piece.value), piece.name) for piece in pieces)]
        widget = PieceRadios(choices=choices, pieces={str(piece.value): piece for piece in pieces})
        return IntegerInput(label=label, required=False, widget=widget)
    choices = None
    if "oneOf" in cell:
        choices = [
            (str(option["const"]), str(option.get("title", option["const"]))) for option in cell["oneOf"]
        ]
    elif "enum" in cell:
        choices = [(str(value), str(value)) for value in cell["enum"] if value is not None]
    elif "minimum" in cell and "maximum" in cell and cell["maximum"] - cell["minimum"] < SELECT_MAX:
        choices = [(str(value), str(value)) for value in range(cell["minimum"], cell["maximum"] + 1)]
    if choices is not None:
        return IntegerInput(label=label, required=False, widget=Select(choices=[("", "—"), *choices]))
    return IntegerInput(
        label=label, required=False, widget=number_widget(cell.get("minimum"), cell.get("maximum"))
    )
