"""Sentences the engine produces, in French, rendered later in the reader's language.

The engine imports nothing of Django. It marks its French strings with `_()` and `ngettext()` (the
names xgettext looks for, so `makemessages` collects them) and returns `Text` objects; the web
layer renders them with Django's gettext/ngettext, the tests with the identity (French).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def _(message: str) -> str:
    """Mark a French string for translation; it is translated when rendered."""
    return message


@dataclass(frozen=True)
class PluralTemplate:
    singular: str
    plural: str
    count: int


def ngettext(singular: str, plural: str, count: int) -> PluralTemplate:
    """Mark a French string with a plural form for translation."""
    return PluralTemplate(singular, plural, count)


Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _identity(message: str) -> str:
    return message


def _french_ngettext(singular: str, plural: str, count: int) -> str:
    # French uses the singular for 0 and 1.
    return singular if abs(count) <= 1 else plural


@dataclass(frozen=True)
class Text:
    """A sentence template with named placeholders; parameters may themselves be Texts."""

    template: str | PluralTemplate
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, gettext: Gettext = _identity, ngettext: Ngettext = _french_ngettext) -> str:
        if isinstance(self.template, PluralTemplate):
            pattern = ngettext(self.template.singular, self.template.plural, self.template.count)
        else:
            pattern = gettext(self.template)
        if not self.params:
            return pattern
        values = {name: render(value, gettext, ngettext) for name, value in self.params.items()}
        return pattern % values

    def __str__(self) -> str:
        return self.render()


def text(template: str | PluralTemplate, **params: Any) -> Text:
    """Build a Text: `text(_("%(n)s cartes"), n=3)`."""
    return Text(template, params)


@dataclass(frozen=True)
class Label:
    """A translatable word or phrase used as a parameter (a field label, a criterion)."""

    message: str

    def render(self, gettext: Gettext = _identity, ngettext: Ngettext = _french_ngettext) -> str:
        return gettext(self.message)


@dataclass(frozen=True)
class NameList:
    """Items joined the way a sentence lists them: « A, B et C » (or « A, puis B » for a chain)."""

    names: Sequence[Any]
    then: bool = False

    def render(self, gettext: Gettext = _identity, ngettext: Ngettext = _french_ngettext) -> str:
        names = [render(name, gettext, ngettext) for name in self.names]
        if len(names) <= 1:
            return "".join(names)
        if self.then:
            return gettext("%(first)s, puis %(last)s") % {
                "first": gettext(", puis ").join(names[:-1]),
                "last": names[-1],
            }
        return gettext("%(first)s et %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def render(value: Any, gettext: Gettext = _identity, ngettext: Ngettext = _french_ngettext) -> str:
    """Render a Text, Label, NameList or plain value as a string."""
    if isinstance(value, Text | Label | NameList | Sentences | Joined):
        return value.render(gettext, ngettext)
    return str(value)


@dataclass(frozen=True)
class Sentences:
    """Several Texts read one after the other."""

    parts: Sequence[Any]

    def render(self, gettext: Gettext = _identity, ngettext: Ngettext = _french_ngettext) -> str:
        return " ".join(render(part, gettext, ngettext) for part in self.parts)

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class Joined:
    """Texts or Labels joined by a separator (« parties courtes, parties moyennes »)."""

    parts: tuple
    separator: str

    def render(self, gettext: Gettext = _identity, ngettext: Ngettext = _french_ngettext) -> str:
        return self.separator.join(render(part, gettext, ngettext) for part in self.parts)
