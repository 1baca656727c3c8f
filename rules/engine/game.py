"""The shape every game module declares, and the request cleaning shared by all of them.

A game module subclasses `GameRules` and declares, like its rule book: the player range, the
variants, the setup (components, steps and values for N players), the score sheet (player and
shared fields, score lines, tie-breakers, how each line is scored) and, where the game has one, a
referee check. The web layer (pages, API, print aids) only ever calls `run_setup`, `run_score`,
`run_check` and the schema methods, so nothing of a game's rules is written twice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .fields import Errors, Field, InvalidInput, add_error, clean_fields, join_path, object_schema
from .ranking import Criterion, Ranking, ScoredPlayer, points, rank, tie_break_rule
from .text import Sentences, Text, _, text

NAME_MAX_LENGTH = 40
# The most players the engine sets up or scores, whatever the game: a real table, even for a game
# whose rule book sets no limit (Martian Dice, a declared sheet without a maximum). docs/RULES_API.md.
TABLE_LIMIT = 20
VARIANTS_LIMIT = 20  # no game has half as many: a longer list is not a choice of variants


@dataclass(frozen=True)
class PlayerRange:
    minimum: int
    maximum: int | None = None  # None: no upper limit in the rule book ("2 joueurs ou plus")
    teams: bool = False  # a range of teams (a sheet's columns), not of players

    @property
    def highest(self) -> int:
        """The largest table the engine takes: the game's maximum, never more than TABLE_LIMIT."""
        return TABLE_LIMIT if self.maximum is None else min(self.maximum, TABLE_LIMIT)

    def __contains__(self, count: int) -> bool:
        return self.minimum <= count <= self.highest

    def as_dict(self) -> dict:
        return {"min": self.minimum, "max": self.maximum}

    def refusal(self, count: int | None = None) -> Text:
        """Why `count` players cannot play (the rule book's range, or a table over TABLE_LIMIT)."""
        if count is not None and count > TABLE_LIMIT and (self.maximum is None or self.maximum > TABLE_LIMIT):
            return text(_("Le moteur de règles compte au plus %(max)s joueurs par partie."), max=TABLE_LIMIT)
        if self.teams:
            if self.maximum == self.minimum:
                return text(_("Ce jeu se joue à %(min)s équipes exactement."), min=self.minimum)
            return text(_("Ce jeu se joue de %(min)s à %(max)s équipes."), min=self.minimum, max=self.maximum)
        if self.maximum is None:
            return text(_("Ce jeu se joue à partir de %(min)s joueurs."), min=self.minimum)
        if self.maximum == self.minimum:
            return text(_("Ce jeu se joue à %(min)s joueurs exactement."), min=self.minimum)
        return text(_("Ce jeu se joue de %(min)s à %(max)s joueurs."), min=self.minimum, max=self.maximum)


@dataclass(frozen=True)
class Variant:
    slug: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class Line:
    """A line of the score sheet: one key of every player's breakdown."""

    slug: str
    label: str


@dataclass(frozen=True)
class Component:
    """A piece to put on the table and how many."""

    name: str | Text
    count: int


@dataclass(frozen=True)
class Setup:
    """A cleaned setup request."""

    players: int
    variants: frozenset[str] = frozenset()
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SetupResult:
    components: list[Component]
    steps: list[Text | Sentences]
    values: dict[str, Any]


@dataclass(frozen=True)
class ScoreSheet:
    """A cleaned score request: the players' fields (each with its "name") and the shared fields."""

    variants: frozenset[str]
    players: list[dict[str, Any]]
    shared: dict[str, Any]


@dataclass(frozen=True)
class PlayerResult:
    name: str
    total: int
    breakdown: dict[str, int]
    rank: int
    eliminated: bool = False


@dataclass(frozen=True)
class ScoreResult:
    players: list[PlayerResult]
    winners: list[str]
    decided_by: str | None
    explanation: Text | Sentences


def refuse_over_supply(
    sheet: ScoreSheet, errors: Errors, field: str, supply: int, message: str, **params: Any
) -> None:
    """Refuse more pieces across the players than the game holds.

    `field` is a dotted path inside each player (`vp_cards`, `buildings.tower`). When the players'
    counts add up to more than `supply`, `message` goes on the field of every player who declares some;
    its `%(supply)s` is the supply, its `%(total)s` what the players declare.
    """
    held = {}
    for index, player in enumerate(sheet.players):
        value = player
        for key in field.split("."):
            value = value[key]
        held[f"players.{index}.{field}"] = value
    total = sum(held.values())
    if total > supply:
        for path, count in held.items():
            if count:
                add_error(errors, path, text(message, supply=supply, total=total, **params))


class GameRules:
    """Base class of a game module. Override what the rule book has; the rest stays unavailable."""

    slug: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[PlayerRange]
    variants: ClassVar[tuple[Variant, ...]] = ()
    setup_options: ClassVar[tuple[Field, ...]] = ()
    highest_total_wins: ClassVar[bool] = True
    rulings: ClassVar[tuple[Text, ...]] = ()  # what the page states where the seed is ambiguous
    check_labels: ClassVar[dict[str, str]] = {}  # French names of the words a check's result uses

    @property
    def sheet_players(self) -> PlayerRange:
        """The score sheet's columns: the players, or the teams of a game scored by teams."""
        return self.players

    # --- declarations a game overrides -------------------------------------------------------------

    def setup(self, setup: Setup) -> SetupResult:
        """Components, steps and machine-readable values for this number of players and variants."""
        raise NotImplementedError

    def player_fields(self, variants: frozenset[str]) -> tuple[Field, ...]:
        """What each player writes on the score sheet."""
        return ()

    def shared_fields(self, variants: frozenset[str]) -> tuple[Field, ...]:
        """What the whole table writes once (Biblios' dice values, Alhambra's round)."""
        return ()

    def sheet_shared_fields(self, variants: frozenset[str], players: int) -> tuple[Field, ...]:
        """The shared fields a sheet for this many players shows (Alhambra's Dirk only at two)."""
        return self.shared_fields(variants)

    def lines(self, variants: frozenset[str]) -> tuple[Line, ...]:
        """The score lines: the keys of every player's breakdown, in sheet order."""
        return ()

    def tie_breakers(self, variants: frozenset[str]) -> tuple[Criterion, ...]:
        """The ordered tie-break chain after the total."""
        return ()

    def score_refusal(self, variants: frozenset[str]) -> Text | None:
        """Why these variants have no score at all (a cooperative game), or None."""
        return None

    def validate_sheet(self, sheet: ScoreSheet, errors: Errors) -> None:
        """Add errors for positions that cannot happen (two holders of the longest road…)."""

    def breakdowns(self, sheet: ScoreSheet) -> list[dict[str, int]]:
        """Points per line for every player, in the sheet's order (override for majorities)."""
        return [self.breakdown(player, sheet) for player in sheet.players]

    def breakdown(self, player: Mapping[str, Any], sheet: ScoreSheet) -> dict[str, int]:
        """Points per line for one player, when lines do not depend on the others."""
        raise NotImplementedError

    def unit(self, total: int) -> Text:
        """A total in words: « 12 points », or what the sheet counts (« 5 cartes monstre »)."""
        return points(total)

    def ranking(self, scored: list[ScoredPlayer], sheet: ScoreSheet) -> Ranking:
        """Who wins: the total, then the tie-breakers (override for thresholds or eliminations)."""
        return rank(
            scored,
            tie_breakers=self.tie_breakers(sheet.variants),
            highest_total_wins=self.highest_total_wins,
            unit=self.unit,
        )

    def eliminated(self, player: Mapping[str, Any], sheet: ScoreSheet) -> bool:
        """Whether this player is out of the running (K2's two dead climbers)."""
        return False

    def check_fields(self, variants: frozenset[str]) -> tuple[Field, ...]:
        """What a referee check takes (Quarto's board)."""
        return ()

    def check(self, position: Mapping[str, Any], variants: frozenset[str]) -> dict:
        """Referee check on a position; override where the game has one."""
        raise NotImplementedError

    def validate_variants(self, variants: frozenset[str], errors: Errors) -> None:
        """Add errors for variants that cannot be combined."""

    # --- what the web layer calls ------------------------------------------------------------------

    @property
    def features(self) -> list[str]:
        cls = type(self)
        found = []
        if cls.setup is not GameRules.setup:
            found.append("setup")
        if cls.breakdowns is not GameRules.breakdowns or cls.breakdown is not GameRules.breakdown:
            found.append("score")
        if cls.check is not GameRules.check:
            found.append("check")
        return found

    def tie_break_rule(self, variants: frozenset[str] = frozenset()) -> Text:
        return tie_break_rule(self.tie_breakers(variants), highest_total_wins=self.highest_total_wins)

    def clean_variants(self, raw: Any, errors: Errors, path: str = "variants") -> frozenset[str]:
        if raw is None or raw == "":
            items: list = []
        elif isinstance(raw, str):
            items = [item.strip() for item in raw.split(",") if item.strip()]
        elif isinstance(raw, list | tuple):
            items = list(raw)
        else:
            add_error(errors, path, text(_("Saisissez une liste de variantes.")))
            return frozenset()
        known = {variant.slug for variant in self.variants}
        if len(items) > VARIANTS_LIMIT:
            add_error(errors, path, text(_("Indiquez au plus %(count)s variantes."), count=VARIANTS_LIMIT))
            return frozenset()
        for item in items:
            if not isinstance(item, str) or item not in known:
                # Only a short piece of what was sent is echoed back (it could be anything).
                shown = item if isinstance(item, str) else type(item).__name__
                add_error(
                    errors,
                    path,
                    text(
                        _("Variante inconnue : %(value)s. Variantes de ce jeu : %(known)s."),
                        value=shown if len(shown) <= 40 else shown[:40] + "…",
                        known=", ".join(sorted(known)) or "—",
                    ),
                )
        variants = frozenset(item for item in items if isinstance(item, str) and item in known)
        self.validate_variants(variants, errors)
        return variants

    def clean_players_count(self, raw: Any, errors: Errors, within: PlayerRange | None = None) -> int | None:
        within = within or self.players
        count = None
        if isinstance(raw, int) and not isinstance(raw, bool):
            count = raw
        elif isinstance(raw, str) and re.fullmatch(r"[0-9]{1,18}", raw.strip()):
            # ASCII digits only: str.isdigit() also accepts « ¹ », which int() refuses.
            count = int(raw.strip())
        if count is None:
            add_error(errors, "players", text(_("Indiquez le nombre de joueurs (un nombre entier).")))
            return None
        if count not in within:
            add_error(errors, "players", within.refusal(count))
            return None
        return count

    def clean_setup(self, query: Mapping[str, Any]) -> Setup:
        """Clean `?players=N&variants=a,b&option=…`; raise InvalidInput with per-field errors."""
        errors: Errors = {}
        players = self.clean_players_count(query.get("players"), errors)
        variants = self.clean_variants(query.get("variants"), errors)
        # Other query parameters (a page's `format`, a print flag) are not the engine's business.
        options = clean_fields(self.setup_options, dict(query.items()), "", errors, strict=False)
        if errors:
            raise InvalidInput(errors)
        return Setup(players=players, variants=variants, options=options)

    def clean_score(self, body: Any) -> ScoreSheet:
        """Clean a score request body; raise InvalidInput with per-field errors."""
        errors: Errors = {}
        if not isinstance(body, Mapping):
            raise InvalidInput.one("non_field_errors", text(_("Envoyez un objet JSON.")))
        variants = self.clean_variants(body.get("variants"), errors)
        refusal = self.score_refusal(variants)
        if refusal is not None:
            add_error(errors, "variants", refusal)
            raise InvalidInput(errors)
        raw_players = body.get("players")
        players: list[dict[str, Any]] = []
        if not isinstance(raw_players, list):
            add_error(errors, "players", text(_("Saisissez la liste des joueurs.")))
        elif len(raw_players) not in self.sheet_players:
            add_error(errors, "players", self.sheet_players.refusal(len(raw_players)))
        else:
            fields = self.player_fields(variants)
            seen: set[str] = set()
            for index, raw in enumerate(raw_players):
                path = join_path("players", index)
                if not isinstance(raw, Mapping):
                    add_error(errors, path, text(_("Chaque joueur est un objet avec un nom.")))
                    continue
                name = self._clean_name(raw.get("name"), join_path(path, "name"), errors, seen)
                values = clean_fields(fields, {k: v for k, v in raw.items() if k != "name"}, path, errors)
                players.append({"name": name, **values})
        shared = clean_fields(
            self.shared_fields(variants),
            {k: v for k, v in body.items() if k not in {"variants", "players"}},
            "",
            errors,
        )
        if errors:
            raise InvalidInput(errors)
        sheet = ScoreSheet(variants=variants, players=players, shared=shared)
        self.validate_sheet(sheet, errors)
        if errors:
            raise InvalidInput(errors)
        return sheet

    def _clean_name(self, raw: Any, path: str, errors: Errors, seen: set[str]) -> str:
        name = raw.strip() if isinstance(raw, str) else ""
        if not name:
            add_error(errors, path, text(_("Chaque joueur doit avoir un nom.")))
        elif len(name) > NAME_MAX_LENGTH:
            add_error(
                errors, path, text(_("Un nom tient en %(max)s caractères au plus."), max=NAME_MAX_LENGTH)
            )
        elif name.casefold() in seen:
            add_error(errors, path, text(_("Deux joueurs portent le nom « %(name)s »."), name=name))
        seen.add(name.casefold())
        return name

    def clean_check(self, body: Any) -> tuple[dict[str, Any], frozenset[str]]:
        errors: Errors = {}
        if not isinstance(body, Mapping):
            raise InvalidInput.one("non_field_errors", text(_("Envoyez un objet JSON.")))
        variants = self.clean_variants(body.get("variants"), errors)
        position = clean_fields(
            self.check_fields(variants), {k: v for k, v in body.items() if k != "variants"}, "", errors
        )
        if errors:
            raise InvalidInput(errors)
        return position, variants

    def run_setup(self, query: Mapping[str, Any]) -> SetupResult:
        return self.setup(self.clean_setup(query))

    def score(self, sheet: ScoreSheet) -> ScoreResult:
        """Score a cleaned sheet: breakdowns, totals, ranks, winners and the explanation."""
        scored = [
            ScoredPlayer(
                name=player["name"],
                breakdown=breakdown,
                fields=player,
                eliminated=self.eliminated(player, sheet),
            )
            for player, breakdown in zip(sheet.players, self.breakdowns(sheet), strict=True)
        ]
        ranking = self.ranking(scored, sheet)
        results = [
            PlayerResult(
                name=player.name,
                total=player.total,
                breakdown=player.breakdown,
                rank=ranking.ranks[player.name],
                eliminated=player.eliminated,
            )
            for player in scored
        ]
        return ScoreResult(results, ranking.winners, ranking.decided_by, ranking.explanation)

    def run_score(self, body: Any) -> ScoreResult:
        return self.score(self.clean_score(body))

    def run_check(self, body: Any) -> dict:
        position, variants = self.clean_check(body)
        return self.check(position, variants)

    # --- JSON Schema of the accepted query and body ------------------------------------------------

    def setup_schema(self) -> dict:
        return object_schema(
            self.setup_options,
            extra={
                "players": self._players_schema({"type": "integer"}),
                "variants": {
                    "type": "string",
                    "description": "comma-separated: " + ", ".join(v.slug for v in self.variants),
                },
            },
            required=["players"],
        )

    def score_schema(self) -> dict:
        all_variants = frozenset(variant.slug for variant in self.variants)
        player = object_schema(
            self.player_fields(all_variants),
            extra={"name": {"type": "string", "minLength": 1, "maxLength": NAME_MAX_LENGTH}},
            required=["name"],
        )
        return object_schema(
            self.shared_fields(all_variants),
            extra={
                "variants": {
                    "type": "array",
                    "items": {"enum": [v.slug for v in self.variants]},
                    "uniqueItems": True,
                },
                "players": self._players_schema(
                    {"type": "array", "items": player}, array=True, within=self.sheet_players
                ),
            },
            required=["players"],
        )

    def _players_schema(self, schema: dict, array: bool = False, within: PlayerRange | None = None) -> dict:
        low, high = ("minItems", "maxItems") if array else ("minimum", "maximum")
        within = within or self.players
        schema[low] = within.minimum
        schema[high] = within.highest
        return schema

    def __repr__(self) -> str:
        return f"<GameRules {self.slug}>"
