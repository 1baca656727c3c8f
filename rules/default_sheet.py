"""The score sheet every title has out of the box: one row per round, a total, the highest (or lowest) wins.

A title without coded rules (`rules/games/`) and without a declared sheet (`rules/declared/`) still
gets a working sheet: its players (within its notice's range) write their points round after round;
the sheet adds them up and ranks the totals, the highest first unless the page says the lowest wins
(`RulePage.sheet_winning`, set on the staff page); players with the same total share their rank, as
the rule books that name no tie-break want it (a title that has one declares a sheet with its lines).
Built as a GameRules, it has the same page, blank pad, filled sheet and `/api/rules/<slug>/score/`
as the coded games, through the one lookup `rules.services.game_rules()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import (
    GameRules,
    Group,
    Integer,
    Line,
    ListOf,
    PlayerRange,
    ScoreSheet,
    Setup,
    SetupResult,
    _,
)
from rules.engine.fields import INTEGER_LIMIT

from .declared.sheets import DEFAULT_PLAYERS_MIN
from .models import RulePage, Winning

ROUNDS = "rounds"
POINTS = "points"
ROUNDS_MAX = 60  # a sheet's rows: more rounds than any real game plays in one sitting


class DefaultRules(GameRules):
    """The round-by-round sheet of one page; built per request from the page and its notice."""

    def __init__(
        self,
        *,
        slug: str,
        title: str,
        players: PlayerRange,
        highest_total_wins: bool,
        setup_from: GameRules | None = None,
    ):
        self.slug = slug
        self.title = title
        self.players = players
        self.highest_total_wins = highest_total_wins
        # A title with a declared setup but no declared sheet: its calculator, beside this sheet.
        self.setup_from = setup_from
        self.variants = setup_from.variants if setup_from is not None else ()

    @property
    def features(self) -> list[str]:
        return [*(["setup"] if self.setup_from is not None else []), "score"]

    def setup(self, setup: Setup) -> SetupResult:
        return self.setup_from.setup(setup)

    @property
    def sources(self) -> tuple[str, ...]:
        """Where the setup beside this sheet comes from (its declaration's sources)."""
        return getattr(self.setup_from, "sources", ())

    @property
    def declared_setup(self):
        """The declaration behind the setup beside this sheet (its pieces: rules/pieces.py), or None."""
        return getattr(self.setup_from, "declared_setup", None)

    @classmethod
    def from_page(cls, page: RulePage, setup_from: GameRules | None = None) -> DefaultRules:
        """Read a page fetched with its notice (`select_related("game")`)."""
        notice = page.game
        low = (notice.players_min if notice else None) or DEFAULT_PLAYERS_MIN
        high = notice.players_max if notice else None
        return cls(
            slug=page.slug,
            title=page.title,
            players=PlayerRange(low, high if high is None or high >= low else low),
            highest_total_wins=page.sheet_winning != Winning.LOWEST,
            setup_from=setup_from,
        )

    def sheet_key(self) -> tuple:
        """Everything a blank default sheet is drawn from: the same key, the same HTML (the score tool
        caches it, templates/rules/includes/score_tool.html). Neither the title nor its slug: every
        title of the same range and variants shares one (what names the page is drawn apart)."""
        return (self.players, self.highest_total_wins, tuple(self.variants))

    def player_fields(self, variants: frozenset[str]) -> tuple[ListOf, ...]:
        # Points may be negative (a round lost, cards left in hand): any whole number a sheet can hold.
        round_points = Integer(POINTS, _("Points"), minimum=-INTEGER_LIMIT, maximum=INTEGER_LIMIT, default=0)
        return (
            ListOf(
                ROUNDS,
                _("Points de chaque manche"),
                item=Group("round", _("Manche"), fields=(round_points,)),
                max_items=ROUNDS_MAX,
                help=_("Une ligne par manche (ou par tour) ; « + une ligne » en ajoute une."),
            ),
        )

    def lines(self, variants: frozenset[str]) -> tuple[Line, ...]:
        return (Line(ROUNDS, _("Total des manches")),)

    def breakdown(self, player: Mapping[str, Any], sheet: ScoreSheet) -> dict[str, int]:
        return {ROUNDS: sum(played[POINTS] for played in player[ROUNDS])}
