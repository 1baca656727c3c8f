"""A setup declared as data (docs/declared-rules.md), once read: computed for N players, and its pieces.

`rules.engine.declared.parse_setup()` reads and checks a librarian's declaration into a
`SetupDeclaration`; its `result()` is then what a coded game's `setup()` is, and `pieces()` what its
`COMPONENTS` are, for « jouable malgré les pièces manquantes ». The staff form's counts are typed as
text (`count_from_text`, « 2: 24, 3: 12 »), read here once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .game import Component, PlayerRange, SetupResult, Variant
from .pieces import Piece, Pieces, Way
from .text import Text, _, text

FORMAT = 1
COMPONENTS_LIMIT = 50
VARIANTS_LIMIT = 8  # every choice of variants is checked against the box: 2⁸ choices at most
STEPS_LIMIT = 100
TEXT_LIMIT = 500
NAME_LIMIT = 80
QUANTITY_LIMIT = 10_000
KEY = re.compile(r"[a-z][a-z0-9_-]{0,39}")
# A player count or a span of them: « 2 », « 3-4 », « 5+ » (no nested quantifier: linear).
SPAN = re.compile(r"\s*([0-9]{1,2})\s*(?:(-)\s*([0-9]{1,2})|(\+))?\s*")
ACTIONS = {
    "each": _("à chaque joueur"),
    "table": _("sur la table"),
    "remove": _("retirés du jeu"),
}
RESERVED_VALUES = {"players"}


@dataclass(frozen=True)
class Span:
    low: int
    high: int | None  # None: and more

    def __contains__(self, players: int) -> bool:
        return self.low <= players and (self.high is None or players <= self.high)


@dataclass(frozen=True)
class Count:
    """A number (or a value) at N players: a constant, « n per player (+ k) », or a table by player count."""

    constant: Any = None
    per_player: int | None = None
    plus: int = 0
    table: tuple[tuple[Span, Any], ...] = ()

    def at(self, players: int) -> Any:
        """The count at `players`, or None when a table has no entry for it."""
        if self.per_player is not None:
            return self.per_player * players + self.plus
        if self.table:
            return next((value for span, value in self.table if players in span), None)
        return self.constant


@dataclass(frozen=True)
class DeclaredComponent:
    key: str
    name: str
    in_box: int


@dataclass(frozen=True)
class DeclaredStep:
    text: str = ""
    component: str = ""
    action: str = ""
    count: Count | None = None
    set_key: str = ""
    label: str = ""
    players: tuple[Span, ...] = ()
    variants: frozenset[str] = frozenset()
    unless: frozenset[str] = frozenset()

    def applies(self, players: int, chosen: frozenset[str]) -> bool:
        if self.players and not any(players in span for span in self.players):
            return False
        return self.variants <= chosen and not (self.unless & chosen)


@dataclass(frozen=True)
class Use:
    """What a table does with one component: put out, removed, and whether any of its steps applied."""

    put: int = 0
    removed: int = 0
    applied: bool = False
    puts: bool = False


@dataclass(frozen=True)
class SetupDeclaration:
    players: PlayerRange
    variants: tuple[Variant, ...] = ()
    components: tuple[DeclaredComponent, ...] = ()
    steps: tuple[DeclaredStep, ...] = ()
    put_out: frozenset[str] = field(default=frozenset())  # those some step deals or puts on the table

    def uses(self, players: int, chosen: frozenset[str]) -> dict[str, Use]:
        found: dict[str, Use] = {}
        for step in self.steps:
            if not step.component or not step.applies(players, chosen):
                continue
            use = found.get(step.component, Use())
            count = step.count.at(players) or 0
            if step.action == "remove":
                use = Use(use.put, use.removed + count, True, use.puts)
            else:
                put = count * players if step.action == "each" else count
                use = Use(use.put + put, use.removed, True, True)
            found[step.component] = use
        return found

    def in_play(self, players: int, chosen: frozenset[str]) -> dict[str, int]:
        """How many of each component the table uses (docs/declared-rules.md, « What the page computes »)."""
        uses = self.uses(players, chosen)
        counts = {}
        for component in self.components:
            use = uses.get(component.key)
            if use is not None and use.puts:
                counts[component.key] = use.put
            elif component.key in self.put_out:
                continue  # dealt or put out at other tables (a variant's cards): not used at this one
            else:  # used whole, less what this table removes (a board, the dominoes)
                counts[component.key] = component.in_box - (use.removed if use else 0)
        return counts

    def result(self, players: int, chosen: frozenset[str]) -> SetupResult:
        names = {component.key: component.name for component in self.components}
        in_play = self.in_play(players, chosen)
        values: dict[str, Any] = {"players": players, **in_play}
        steps: list[Any] = []
        for step in self.steps:
            if not step.applies(players, chosen):
                continue
            if step.component:
                count = step.count.at(players)
                if step.action == "remove":
                    key = f"{step.component}_removed"
                    values[key] = values.get(key, 0) + count
                if count:  # « retirez 0 dominos » is no step
                    steps.append(_count_sentence(step, names[step.component], count))
            elif step.set_key:
                value = step.count.at(players)
                values[step.set_key] = value
                steps.append(
                    step.text.replace("{n}", str(value))
                    if step.text
                    else text(_("%(label)s : %(value)s."), label=step.label, value=value)
                )
            else:
                steps.append(step.text)
        components = [Component(names[key], count) for key, count in in_play.items()]
        return SetupResult(components=components, steps=steps, values=values)

    def pieces(self) -> Pieces:
        """The box's contents and each way's needs, for playable_with() (rules/engine/pieces.py)."""
        ways = (
            Way("", _("règle de base")),
            *(
                Way(variant.slug, variant.label, query={"variants": variant.slug})
                for variant in self.variants
            ),
        )

        def needs(players: int, way: str) -> dict[str, int]:
            return self.in_play(players, frozenset({way} - {""}))

        return Pieces(
            pieces=tuple(Piece(c.key, c.name, c.in_box) for c in self.components), ways=ways, needs=needs
        )


def _count_sentence(step: DeclaredStep, name: str, count: int) -> Text | str:
    if step.text:
        return step.text.replace("{n}", str(count))
    if step.action == "each":
        return text(_("%(name)s : %(count)s à chaque joueur."), name=name, count=count)
    if step.action == "table":
        return text(_("%(name)s : %(count)s sur la table."), name=name, count=count)
    return text(_("%(name)s : retirez-en %(count)s (ils restent dans la boîte)."), name=name, count=count)


def parse_span(raw: Any) -> Span | None:
    """« 2 », « 3-4 », « 5+ » (or an int) → Span; None when it is not one."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return Span(raw, raw) if 0 <= raw <= 99 else None
    if not isinstance(raw, str):
        return None
    match = SPAN.fullmatch(raw)
    if match is None:
        return None
    low = int(match.group(1))
    if match.group(4):
        return Span(low, None)
    high = int(match.group(3)) if match.group(2) else low
    return Span(low, high) if high >= low else None


# --- the staff form's counts, typed as text: « 4 », « 1 par joueur + 2 », « 2: 24, 3-4: 12 » ---------------

INTEGER = re.compile(r"\s*(-?[0-9]{1,6})\s*")
PER_PLAYER = re.compile(r"\s*([0-9]{1,5})\s*(?:par|/)\s*joueurs?(?:\s*([+-])\s*([0-9]{1,5}))?\s*")
ENTRY = re.compile(r"\s*([0-9]{1,2}(?:\s*-\s*[0-9]{1,2}|\+)?)\s*(?:joueurs?\s*)?:(.*)")


def count_from_text(raw: str, value: bool = False) -> Any:
    """The JSON form of a count typed on the staff page, or None when it is none of the three forms.

    A value (`value=True`: « A », « le plus jeune ») is a table when every part reads « N: value »,
    else the text itself.
    """
    raw = raw.strip()
    if not value and (match := INTEGER.fullmatch(raw)):
        return int(match.group(1))
    if not value and (match := PER_PLAYER.fullmatch(raw)):
        found: dict[str, int] = {"per_player": int(match.group(1))}
        if match.group(2):
            found["plus"] = int(match.group(3)) * (-1 if match.group(2) == "-" else 1)
        return found
    table: dict[str, Any] = {}
    for part in raw.replace(";", ",").split(","):
        match = ENTRY.fullmatch(part)
        if match is None:
            return raw if value and raw else None
        entry = match.group(2).strip()
        if value:
            table["".join(match.group(1).split())] = entry
        elif INTEGER.fullmatch(entry):
            table["".join(match.group(1).split())] = int(entry)
        else:
            return None
    return table or None


def count_to_text(count: Any) -> str:
    """A count's JSON form as the staff page shows it (the inverse of count_from_text)."""
    if isinstance(count, Mapping) and "per_player" in count:
        plus = count.get("plus", 0)
        extra = f" + {plus}" if plus > 0 else f" - {-plus}" if plus < 0 else ""
        return f"{count['per_player']} par joueur{extra}"
    if isinstance(count, Mapping):
        return ", ".join(f"{key}: {value}" for key, value in count.items())
    return "" if count is None else str(count)
