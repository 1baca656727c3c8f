"""Declared inputs of a game: what a setup query or a score sheet may contain.

Each field cleans a raw JSON value (or the string an HTML form sends) into a Python value, adding
per-field error Texts under a dotted path (`players.1.gold`), and describes itself as JSON Schema.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .text import Text, _, ngettext, text

MISSING: Any = object()

Errors = dict[str, list[Text]]

# Bounds of every request, whatever the game declares, so that no input costs more than a real sheet:
# a number without a declared maximum (or minimum) stops at ±INTEGER_LIMIT, a list without a declared
# maximum holds LIST_LIMIT items (Martian Dice's turns), and an answer names ERRORS_LIMIT errors.
INTEGER_LIMIT = 999_999
LIST_LIMIT = 100
ERRORS_LIMIT = 50


class InvalidInput(Exception):
    """Bad input: per-field error Texts keyed by dotted path, the first ERRORS_LIMIT of them."""

    def __init__(self, errors: Errors):
        errors = _first_errors(errors)
        super().__init__(errors)
        self.errors = errors

    @classmethod
    def one(cls, path: str, message: Text) -> InvalidInput:
        return cls({path: [message]})


def _first_errors(errors: Errors) -> Errors:
    """The first ERRORS_LIMIT messages, then one saying how many more there are."""
    total = sum(len(messages) for messages in errors.values())
    if total <= ERRORS_LIMIT:
        return errors
    kept: Errors = {}
    room = ERRORS_LIMIT
    for path, messages in errors.items():
        if room <= 0:
            break
        kept[path] = messages[:room]
        room -= len(kept[path])
    more = total - ERRORS_LIMIT
    add_error(
        kept,
        "non_field_errors",
        text(ngettext("… et %(count)s autre erreur.", "… et %(count)s autres erreurs.", more), count=more),
    )
    return kept


def add_error(errors: Errors, path: str, message: Text) -> None:
    errors.setdefault(path, []).append(message)


def join_path(prefix: str, name: str | int) -> str:
    return f"{prefix}.{name}" if prefix else str(name)


REQUIRED = text(_("Ce champ est obligatoire."))


@dataclass(frozen=True)
class Field:
    """A named input with a French label; `default` makes it optional."""

    name: str
    label: str
    default: Any = MISSING
    help: str = ""

    @property
    def required(self) -> bool:
        return self.default is MISSING

    def clean(self, raw: Any, path: str, errors: Errors) -> Any:
        """Return the cleaned value, or None after adding an error under `path`."""
        raise NotImplementedError

    def clean_member(self, container: dict, path: str, errors: Errors) -> Any:
        """Clean this field's entry of a dict, applying the default when it is absent."""
        here = join_path(path, self.name)
        if self.name not in container or container[self.name] is None or container[self.name] == "":
            if self.required:
                add_error(errors, here, REQUIRED)
                return None
            return self.default
        return self.clean(container[self.name], here, errors)

    def schema(self) -> dict:
        raise NotImplementedError

    def _describe(self, schema: dict) -> dict:
        schema["title"] = self.label
        if self.help:
            schema["description"] = self.help
        if self.default is not MISSING and self.default is not None:
            schema["default"] = self.default
        return schema


@dataclass(frozen=True)
class Integer(Field):
    """A whole number, at least `minimum` (0 by default) and at most `maximum`; ±INTEGER_LIMIT when None."""

    minimum: int | None = 0
    maximum: int | None = None

    @property
    def low(self) -> int:
        return self.minimum if self.minimum is not None else -INTEGER_LIMIT

    @property
    def high(self) -> int:
        return self.maximum if self.maximum is not None else INTEGER_LIMIT

    def clean(self, raw: Any, path: str, errors: Errors) -> int | None:
        if isinstance(raw, bool):
            value = None
        elif isinstance(raw, int):
            value = raw
        elif isinstance(raw, float) and raw.is_integer():
            value = int(raw)
        elif isinstance(raw, str) and re.fullmatch(r"-?[0-9]{1,18}", raw.strip()):
            # ASCII digits only: str.isdigit() also accepts « ¹ » or « --5 », which int() refuses.
            value = int(raw.strip())
        else:
            value = None
        if value is None:
            add_error(errors, path, text(_("Saisissez un nombre entier.")))
            return None
        if value < self.low:
            add_error(errors, path, text(_("La valeur doit être au moins %(minimum)s."), minimum=self.low))
            return None
        if value > self.high:
            add_error(errors, path, text(_("La valeur doit être au plus %(maximum)s."), maximum=self.high))
            return None
        return value

    def schema(self) -> dict:
        return self._describe({"type": "integer", "minimum": self.low, "maximum": self.high})


TRUE_STRINGS = {"true", "1", "on", "yes", "oui"}
FALSE_STRINGS = {"false", "0", "off", "no", "non"}


@dataclass(frozen=True)
class Boolean(Field):
    """Yes or no; absent means no."""

    default: Any = False

    def clean(self, raw: Any, path: str, errors: Errors) -> bool | None:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in TRUE_STRINGS | FALSE_STRINGS:
            return raw.strip().lower() in TRUE_STRINGS
        add_error(errors, path, text(_("Répondez par vrai ou faux.")))
        return None

    def schema(self) -> dict:
        return self._describe({"type": "boolean"})


@dataclass(frozen=True)
class Choice(Field):
    """One value among declared (value, French label) pairs; `nullable` also accepts null."""

    choices: tuple[tuple[str, str], ...] = ()
    nullable: bool = False

    @property
    def values(self) -> list[str]:
        return [value for value, _label in self.choices]

    def clean_member(self, container: dict, path: str, errors: Errors) -> Any:
        if self.nullable and self.name in container and container[self.name] in (None, ""):
            return None
        return super().clean_member(container, path, errors)

    def clean(self, raw: Any, path: str, errors: Errors) -> str | None:
        if isinstance(raw, str) and raw in self.values:
            return raw
        add_error(
            errors,
            path,
            text(_("Choisissez une de ces valeurs : %(choices)s."), choices=", ".join(self.values)),
        )
        return None

    def schema(self) -> dict:
        schema: dict = {"type": ["string", "null"] if self.nullable else "string", "enum": list(self.values)}
        if self.nullable:
            schema["enum"] = [*self.values, None]
        return self._describe(schema)


LETTERS = tuple((letter, letter) for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def Letter(name: str, label: str, **kwargs: Any) -> Choice:  # noqa: N802 - reads as a field type
    """A card letter A–Z, or null when there is none."""
    return Choice(name, label, choices=LETTERS, nullable=True, default=kwargs.pop("default", None), **kwargs)


@dataclass(frozen=True)
class Group(Field):
    """A nested object of declared fields (`science: {tablet, compass, gear, wild}`)."""

    fields: tuple[Field, ...] = ()

    def clean(self, raw: Any, path: str, errors: Errors) -> dict | None:
        if not isinstance(raw, dict):
            add_error(
                errors, path, text(_("Saisissez un objet avec les champs %(fields)s."), fields=self._names())
            )
            return None
        return clean_fields(self.fields, raw, path, errors)

    @property
    def required(self) -> bool:
        # A group whose every member has a default may be left out (Biblios dice on 3).
        return self.default is MISSING and any(member.required for member in self.fields)

    def clean_member(self, container: dict, path: str, errors: Errors) -> Any:
        if self.default is MISSING and not self.required and container.get(self.name) in (None, ""):
            return clean_fields(self.fields, {}, join_path(path, self.name), errors)
        # Otherwise a left-out group is refused, or absent (None) when declared with `default=None`.
        return super().clean_member(container, path, errors)

    def _names(self) -> str:
        return ", ".join(f.name for f in self.fields)

    def schema(self) -> dict:
        return self._describe(object_schema(self.fields))


@dataclass(frozen=True)
class ListOf(Field):
    """A list of items of one declared field type, with a length range (LIST_LIMIT items when no maximum)."""

    item: Field = field(default_factory=lambda: Integer("item", ""))
    min_items: int = 0
    max_items: int | None = None

    @property
    def most_items(self) -> int:
        return self.max_items if self.max_items is not None else LIST_LIMIT

    def clean(self, raw: Any, path: str, errors: Errors) -> list | None:
        if not isinstance(raw, list):
            add_error(errors, path, text(_("Saisissez une liste.")))
            return None
        if len(raw) < self.min_items:
            add_error(errors, path, text(_("Il faut au moins %(count)s éléments."), count=self.min_items))
            return None
        if len(raw) > self.most_items:
            add_error(errors, path, text(_("Il faut au plus %(count)s éléments."), count=self.most_items))
            return None
        before = sum(len(messages) for messages in errors.values())
        values = [self.item.clean(value, join_path(path, index), errors) for index, value in enumerate(raw)]
        if sum(len(messages) for messages in errors.values()) > before:
            return None
        return values

    def clean_member(self, container: dict, path: str, errors: Errors) -> Any:
        if self.name in container and container[self.name] == [] and self.min_items == 0:
            return []
        return super().clean_member(container, path, errors)

    def schema(self) -> dict:
        return self._describe(
            {
                "type": "array",
                "items": self.item.schema(),
                "minItems": self.min_items,
                "maxItems": self.most_items,
            }
        )


def clean_fields(
    fields: Sequence[Field], raw: dict, path: str, errors: Errors, *, strict: bool = True
) -> dict:
    """Clean a dict against declared fields; unknown keys are errors when `strict`."""
    cleaned = {f.name: f.clean_member(raw, path, errors) for f in fields}
    if strict:
        known = {f.name for f in fields}
        for key in raw:
            if key not in known:
                add_error(errors, join_path(path, key), text(_("Champ inconnu pour ce jeu.")))
    return cleaned


def object_schema(fields: Sequence[Field], extra: dict | None = None, required: Sequence[str] = ()) -> dict:
    """JSON Schema of an object holding the declared fields."""
    properties = {**(extra or {}), **{f.name: f.schema() for f in fields}}
    required_names = [*required, *(f.name for f in fields if f.required)]
    schema: dict = {"type": "object", "properties": properties, "additionalProperties": False}
    if required_names:
        schema["required"] = required_names
    return schema
