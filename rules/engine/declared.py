"""Reading a setup declared as data (docs/declared-rules.md), as strictly as a coded game's module is written.

A librarian's declaration (a JSON object: variants, components, steps) is read by `parse_setup()`,
which refuses what cannot produce a setup with per-path French reasons (`steps.2.count`): every
player count of the range has its counts, no quantity is negative, every step names declared
components and variants, and no choice of players and variants removes or puts out more than the
box holds. What it returns is computed by rules/engine/declared_setup.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from .declared_setup import (
    ACTIONS,
    COMPONENTS_LIMIT,
    KEY,
    NAME_LIMIT,
    QUANTITY_LIMIT,
    RESERVED_VALUES,
    STEPS_LIMIT,
    TEXT_LIMIT,
    VARIANTS_LIMIT,
    Count,
    DeclaredComponent,
    DeclaredStep,
    SetupDeclaration,
    Span,
    parse_span,
)
from .fields import Errors, InvalidInput, add_error, join_path
from .game import PlayerRange, Variant
from .text import _, text


class Reader:
    """Reads one declaration, collecting every error under its path."""

    def __init__(self, players: PlayerRange):
        self.range = players
        self.errors: Errors = {}

    def error(self, path: str, message: str, **params: Any) -> None:
        add_error(self.errors, path, text(message, **params))

    def mapping(self, raw: Any, path: str) -> Mapping:
        if isinstance(raw, Mapping):
            return raw
        self.error(path, _("Attendu : un objet JSON."))
        return {}

    def items(self, raw: Any, path: str, limit: int) -> list:
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.error(path, _("Attendu : une liste."))
            return []
        if len(raw) > limit:
            self.error(path, _("Au plus %(limit)s éléments."), limit=limit)
            return []
        return raw

    def string(self, raw: Any, path: str, limit: int, required: bool = True) -> str:
        value = raw.strip() if isinstance(raw, str) else ""
        if raw is not None and not isinstance(raw, str):
            self.error(path, _("Attendu : un texte."))
        elif required and not value:
            self.error(path, _("Ce champ est obligatoire."))
        elif len(value) > limit:
            self.error(path, _("Au plus %(limit)s caractères."), limit=limit)
        return value

    def key(self, raw: Any, path: str, seen: set[str]) -> str:
        value = raw if isinstance(raw, str) else ""
        if not KEY.fullmatch(value):
            self.error(
                path,
                _(
                    "Un identifiant commence par une lettre, puis lettres minuscules sans accent, chiffres, « - » ou « _ »."
                ),
            )
        elif value in seen:
            self.error(path, _("L'identifiant « %(key)s » est déjà pris."), key=value)
        seen.add(value)
        return value

    def quantity(self, raw: Any, path: str, players: int | None = None) -> int | None:
        where = text(_(" (à %(players)s joueurs)"), players=players) if players is not None else ""
        if not isinstance(raw, int) or isinstance(raw, bool):
            self.error(path, _("Attendu : un nombre entier%(where)s."), where=where)
            return None
        if raw < 0:
            self.error(path, _("Une quantité ne peut pas être négative%(where)s."), where=where)
            return None
        if raw > QUANTITY_LIMIT:
            self.error(path, _("Au plus %(limit)s%(where)s."), limit=QUANTITY_LIMIT, where=where)
            return None
        return raw

    def spans(self, raw: Any, path: str) -> tuple[Span, ...]:
        if raw is None or raw == "" or raw == []:
            return ()
        found = []
        for item in raw if isinstance(raw, list) else [raw]:
            span = parse_span(item)
            if span is None:
                self.error(path, _("Nombres de joueurs : « 2 », « 3-4 » ou « 5+ »."))
                return ()
            if span.low not in self.range or (span.high is not None and span.high not in self.range):
                add_error(
                    self.errors,
                    path,
                    self.range.refusal(span.low if span.low not in self.range else span.high),
                )
                return ()
            found.append(span)
        return tuple(found)

    def counts_at(self, step_spans: tuple[Span, ...]) -> list[int]:
        """The player counts a step applies to: its own, within the title's range."""
        every = range(self.range.minimum, self.range.highest + 1)
        return [n for n in every if not step_spans or any(n in span for span in step_spans)]

    def count(self, raw: Any, path: str, at: list[int], value: bool = False) -> Count | None:
        """A count (or a value: a string) for every player count of `at`."""
        if isinstance(raw, Mapping) and "per_player" in raw and not value:
            per = self.quantity(raw.get("per_player"), join_path(path, "per_player"))
            plus = raw.get("plus", 0)
            if not isinstance(plus, int) or isinstance(plus, bool) or abs(plus) > QUANTITY_LIMIT:
                self.error(join_path(path, "plus"), _("Attendu : un nombre entier."))
                return None
            if per is None:
                return None
            found = Count(per_player=per, plus=plus)
            for players in at:
                if per * players + plus < 0:
                    self.error(
                        path,
                        _("Une quantité ne peut pas être négative (à %(players)s joueurs)."),
                        players=players,
                    )
                    return None
            return found
        if isinstance(raw, Mapping):
            table = []
            for key, item in raw.items():
                span = parse_span(key)
                if span is None:
                    self.error(path, _("Nombres de joueurs : « 2 », « 3-4 » ou « 5+ »."))
                    return None
                checked = (
                    self.string(item, path, NAME_LIMIT) if value else self.quantity(item, path, span.low)
                )
                if checked is None or checked == "":
                    return None
                table.append((span, checked))
            found = Count(table=tuple(table))
            missing = [players for players in at if found.at(players) is None]
            if missing:
                self.error(
                    path,
                    _("Indiquez le nombre pour %(players)s joueurs."),
                    players=", ".join(map(str, missing)),
                )
                return None
            return found
        if value:
            checked = self.string(raw, path, NAME_LIMIT)
            return Count(constant=checked) if checked else None
        checked = self.quantity(raw, path)
        return None if checked is None else Count(constant=checked)


def parse_setup(raw: Any, players: PlayerRange, *, check_box: bool = True) -> SetupDeclaration:
    """Read and check a `setup` object for a title played by `players`; raise InvalidInput with the reasons.

    `check_box=False` reads a declaration already checked when it was saved (a page's request), without
    trying it against the box at every player count and choice of variants again.
    """
    reader = Reader(players)
    data = reader.mapping(raw, "non_field_errors")
    variants = _variants(reader, data.get("variants"))
    components = _components(reader, data.get("components"))
    by_key = {component.key: component for component in components}
    known = {variant.slug for variant in variants}
    steps = tuple(
        step
        for index, item in enumerate(reader.items(data.get("steps"), "steps", STEPS_LIMIT))
        if (step := _step(reader, item, join_path("steps", index), by_key, known)) is not None
    )
    if reader.errors:
        raise InvalidInput(reader.errors)
    declaration = SetupDeclaration(
        players=players,
        variants=variants,
        components=components,
        steps=steps,
        put_out=frozenset(step.component for step in steps if step.component and step.action != "remove"),
    )
    if check_box:
        _check_box(reader, declaration)
    if reader.errors:
        raise InvalidInput(reader.errors)
    return declaration


def _variants(reader: Reader, raw: Any) -> tuple[Variant, ...]:
    seen: set[str] = set()
    found = []
    for index, item in enumerate(reader.items(raw, "variants", VARIANTS_LIMIT)):
        path = join_path("variants", index)
        item = reader.mapping(item, path)
        key = reader.key(item.get("key"), join_path(path, "key"), seen)
        label = reader.string(item.get("label"), join_path(path, "label"), NAME_LIMIT)
        description = reader.string(
            item.get("description"), join_path(path, "description"), TEXT_LIMIT, False
        )
        found.append(Variant(key, label, description))
    return tuple(found)


def _components(reader: Reader, raw: Any) -> tuple[DeclaredComponent, ...]:
    seen: set[str] = set()
    found = []
    for index, item in enumerate(reader.items(raw, "components", COMPONENTS_LIMIT)):
        path = join_path("components", index)
        item = reader.mapping(item, path)
        key = reader.key(item.get("key"), join_path(path, "key"), seen)
        name = reader.string(item.get("name"), join_path(path, "name"), NAME_LIMIT)
        in_box = reader.quantity(item.get("in_box"), join_path(path, "in_box"))
        found.append(DeclaredComponent(key, name, in_box or 0))
    return tuple(found)


def _variant_keys(reader: Reader, raw: Any, path: str, known: set[str]) -> frozenset[str]:
    keys = reader.items(raw, path, VARIANTS_LIMIT)
    for key in keys:
        if not isinstance(key, str) or key not in known:
            reader.error(
                path,
                _("Variante inconnue : %(value)s. Variantes déclarées : %(known)s."),
                value=str(key)[:40],
                known=", ".join(sorted(known)) or "—",
            )
    return frozenset(key for key in keys if isinstance(key, str))


def _step(
    reader: Reader, raw: Any, path: str, components: Mapping[str, DeclaredComponent], variants: set[str]
) -> DeclaredStep | None:
    item = reader.mapping(raw, path)
    spans = reader.spans(item.get("players"), join_path(path, "players"))
    at = reader.counts_at(spans)
    common = {
        "text": reader.string(item.get("text"), join_path(path, "text"), TEXT_LIMIT, required=False),
        "players": spans,
        "variants": _variant_keys(reader, item.get("variants"), join_path(path, "variants"), variants),
        "unless": _variant_keys(reader, item.get("unless"), join_path(path, "unless"), variants),
    }
    if item.get("component") not in (None, ""):
        key = item.get("component")
        if not isinstance(key, str) or key not in components:
            reader.error(
                join_path(path, "component"),
                _("Élément inconnu : %(value)s. Éléments déclarés : %(known)s."),
                value=str(key)[:40],
                known=", ".join(components) or "—",
            )
            return None
        action = item.get("action")
        if action not in ACTIONS:
            reader.error(
                join_path(path, "action"), _("Choisissez : à chaque joueur, sur la table ou retirés du jeu.")
            )
            return None
        count = reader.count(item.get("count"), join_path(path, "count"), at)
        return DeclaredStep(component=key, action=action, count=count, **common) if count else None
    if item.get("set") not in (None, ""):
        set_key = reader.key(item.get("set"), join_path(path, "set"), set(RESERVED_VALUES))
        label = reader.string(item.get("label"), join_path(path, "label"), NAME_LIMIT)
        to = reader.count(item.get("to"), join_path(path, "to"), at, value=True)
        return DeclaredStep(set_key=set_key, label=label, count=to, **common) if to else None
    if not common["text"]:
        reader.error(
            join_path(path, "text"), _("Une étape dit quelque chose : un texte, un nombre ou une valeur.")
        )
        return None
    return DeclaredStep(**common)


def _choices(variants: list[str]):
    for size in range(len(variants) + 1):
        yield from (frozenset(chosen) for chosen in combinations(variants, size))


def _check_box(reader: Reader, declaration: SetupDeclaration) -> None:
    """Refuse a table, at any player count and choice of variants, that needs more than the box holds.

    Each component is tried with the choices of the variants its own steps name (most name none or
    one), so the cost is that of its steps, not of every choice of every variant.
    """
    counts = range(declaration.players.minimum, declaration.players.highest + 1)
    for index, box in enumerate(declaration.components):
        steps = [step for step in declaration.steps if step.component == box.key]
        relevant = sorted({slug for step in steps for slug in step.variants | step.unless})
        only = SetupDeclaration(declaration.players, declaration.variants, (box,), tuple(steps))
        problem = next(
            (
                (players, use)
                for chosen in _choices(relevant)
                for players in counts
                if (use := only.uses(players, chosen).get(box.key)) is not None
                and (use.removed > box.in_box or use.put > box.in_box - use.removed)
            ),
            None,
        )
        if problem is None:
            continue
        players, use = problem
        path = join_path(join_path("components", index), "in_box")
        where = {"name": box.name, "players": players, "in_box": box.in_box}
        if use.removed > box.in_box:
            reader.error(
                path,
                _(
                    "%(name)s : à %(players)s joueurs, on en retire %(removed)s mais la boîte n'en contient que %(in_box)s."
                ),
                removed=use.removed,
                **where,
            )
        else:
            reader.error(
                path,
                _(
                    "%(name)s : à %(players)s joueurs, il en faut %(put)s mais la boîte n'en contient que %(left)s une fois les pièces retirées mises de côté."
                ),
                put=use.put,
                left=box.in_box - use.removed,
                **where,
            )
