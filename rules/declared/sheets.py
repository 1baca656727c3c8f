"""Declared score sheets: a librarian's sheet (`rules.models.DeclaredSheet`) read as a GameRules.

A title without a coded module in `rules/games/` can still have a score sheet, declared in the admin
without code: lines worth « units × points », added or taken away; the highest (or the lowest) total
wins; then the declared tie-breakers compare the units written on their lines, in order. Built as a
GameRules, the sheet gets what the coded games get — its rules page's score form, the printable pad
and filled sheet, `/api/rules/<slug>/score/` — through the one lookup, `rules.services.game_rules()`.

A declared setup (`rules.models.DeclaredSetup`, rules/declared/setups.py) on the same page joins the
sheet in one GameRules: its calculator, print aid and `/api/rules/<slug>/setup/`. A declared title has
no referee check; its player range is its notice's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery, prefetch_related_objects
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from catalogue.models import Game
from ludotheque.prepared import PreparedRead
from rules.engine import (
    Boolean,
    Choice,
    Criterion,
    Errors,
    Field,
    GameRules,
    Integer,
    InvalidInput,
    Line,
    PlayerRange,
    Ranking,
    ScoredPlayer,
    ScoreSheet,
    Setup,
    SetupResult,
    add_error,
)
from rules.engine.declared import SetupDeclaration, parse_setup
from rules.engine.declared_play import (
    Play,
    parse_play,
    role_choices,
    sides_ranking,
    sides_refusal,
    together_ranking,
)
from rules.games import all_games, get_game
from rules.models import (
    LINE_UNITS_MAX,
    DeclaredLine,
    DeclaredSetup,
    DeclaredSheet,
    DeclaredTieBreaker,
    RulePage,
    Sign,
    Winning,
)
from rules.pages.services import revision_create

# When the notice does not say how many play: at least two, no upper limit (the online sheet stops at 12).
DEFAULT_PLAYERS_MIN = 2
SLUG_MAX_LENGTH = 90  # RulePage.slug holds 100; room left for a « -2 » suffix


@dataclass(frozen=True)
class DeclaredLineRule:
    """A line as the engine uses it: plain values, no database."""

    key: str
    label: str
    points: int
    sign: int  # +1 or −1
    max_units: int | None
    knocks_out: bool = False  # a box that puts its column out (the table loses, played together)

    def points_for(self, units: int) -> int:
        return units * self.points * self.sign


@dataclass(frozen=True)
class DeclaredTieBreakRule:
    key: str
    label: str
    highest_wins: bool


class DeclaredRules(GameRules):
    """The GameRules of one declared sheet; built per request, in the reader's language."""

    def __init__(
        self,
        *,
        slug: str,
        title: str,
        players: PlayerRange,
        highest_total_wins: bool,
        lines: tuple[DeclaredLineRule, ...] = (),
        tie_breaks: tuple[DeclaredTieBreakRule, ...] = (),
        setup: SetupDeclaration | None = None,
        sources: tuple[str, ...] = (),
        play: Play | None = None,
    ):
        self.slug = slug
        self.title = title
        self.players = players
        self.highest_total_wins = highest_total_wins
        self.declared_lines = lines
        self.declared_tie_breaks = tie_breaks
        self.declared_setup = setup
        self.variants = setup.variants if setup is not None else ()
        # Where the declared numbers come from (the publisher's rule book and its sections), one per line.
        self.sources = sources
        self.play = play or Play()  # how the sheet is won: each for themselves, together, by teams, by sides

    @property
    def features(self) -> list[str]:
        return [
            *(["setup"] if self.declared_setup is not None else []),
            *(["score"] if self.declared_lines or self.play.mode == "sides" else []),
        ]

    @property
    def sheet_players(self) -> PlayerRange:
        if self.play.teams is not None:
            return PlayerRange(self.play.teams.minimum, self.play.teams.maximum, teams=True)
        return self.players

    def setup(self, setup: Setup) -> SetupResult:
        return self.declared_setup.result(setup.players, setup.variants)

    @classmethod
    def from_page(cls, page: RulePage) -> DeclaredRules | None:
        """Read a page fetched `with_declarations()`; None when it declares neither a sheet nor a setup."""
        sheet = getattr(page, "declared_sheet", None)
        stored = getattr(page, "declared_setup", None)
        if sheet is None and stored is None:
            return None
        players = notice_players(page.game)
        lines = tuple(
            DeclaredLineRule(
                key=line.key,
                label=line.label,
                points=line.points,
                sign=-1 if line.sign == Sign.MINUS else 1,
                max_units=line.max_units,
                knocks_out=line.knocks_out,
            )
            for line in (sheet.lines.all() if sheet else ())
        )
        tie_breaks = tuple(
            DeclaredTieBreakRule(
                key=tie_breaker.line.key,
                label=tie_breaker.line.label,
                highest_wins=tie_breaker.winning == Winning.HIGHEST,
            )
            for tie_breaker in (sheet.tie_breakers.all() if sheet else ())
        )
        return cls(
            slug=page.slug,
            title=page.title,
            players=players,
            highest_total_wins=sheet is None or sheet.winning == Winning.HIGHEST,
            lines=lines,
            tie_breaks=tie_breaks,
            setup=stored_setup(stored, players) if stored is not None else None,
            sources=tuple(line.strip() for line in stored.sources.splitlines() if line.strip())
            if stored
            else (),
            play=stored_play(sheet, players),
        )

    # The labels are the librarian's French words; the words around them are rendered now, in the
    # request's language (this object lives for one request).

    def _line_fields(self) -> tuple[Field, ...]:
        return tuple(
            Boolean(line.key, line.label, help=gettext("Cochée : hors course."))
            if line.knocks_out
            else Integer(
                line.key,
                line.label,
                default=0,
                minimum=0,
                maximum=line.max_units or LINE_UNITS_MAX,
                help=units_help(line),
            )
            for line in self.declared_lines
        )

    def player_fields(self, variants: frozenset[str]) -> tuple[Field, ...]:
        if self.play.mode == "sides":
            return (
                Choice("role", gettext("Rôle"), choices=role_choices(self.play)),
                Boolean("out", gettext("Éliminé")),
            )
        return () if self.play.mode == "together" else self._line_fields()

    def shared_fields(self, variants: frozenset[str]) -> tuple[Field, ...]:
        return self._line_fields() if self.play.mode == "together" else ()

    def lines(self, variants: frozenset[str]) -> tuple[Line, ...]:
        return tuple(
            Line(line.key, f"{line.label} ({points_factor(line)})")
            for line in self.declared_lines
            if not line.knocks_out
        )

    def tie_breakers(self, variants: frozenset[str]) -> tuple[Criterion, ...]:
        return tuple(
            Criterion(
                tie_break.key,
                criterion_label(tie_break),
                key=_units_of(tie_break.key),
                highest_wins=tie_break.highest_wins,
            )
            for tie_break in self.declared_tie_breaks
        )

    def breakdown(self, player: Mapping[str, Any], sheet: ScoreSheet) -> dict[str, int]:
        written = sheet.shared if self.play.mode == "together" else player
        return {
            line.key: line.points_for(written[line.key])
            for line in self.declared_lines
            if not line.knocks_out
        }

    def eliminated(self, player: Mapping[str, Any], sheet: ScoreSheet) -> bool:
        if self.play.mode == "sides":
            return player["out"]
        written = sheet.shared if self.play.mode == "together" else player
        return any(written[line.key] for line in self.declared_lines if line.knocks_out)

    def validate_sheet(self, sheet: ScoreSheet, errors: Errors) -> None:
        if self.play.mode != "sides":
            return
        refusal = sides_refusal(self.play, [(player["role"], player["out"]) for player in sheet.players])
        if refusal is not None:
            add_error(errors, "players", refusal)

    def ranking(self, scored: list[ScoredPlayer], sheet: ScoreSheet) -> Ranking:
        if self.play.mode == "together":
            lost_by = [
                line.label for line in self.declared_lines if line.knocks_out and sheet.shared[line.key]
            ]
            return together_ranking(scored, self.play, lost_by)
        if self.play.mode == "sides":
            return sides_ranking(scored, self.play)
        return super().ranking(scored, sheet)


def _units_of(key: str):
    def units(player: ScoredPlayer) -> int:
        return player.fields[key]

    return units


def points_factor(line: DeclaredLineRule) -> str:
    """« × 15 », « × −1 »: what a unit of the line is worth, as the pad's row heading shows it."""
    return f"× {'−' if line.sign < 0 else ''}{line.points}"


def units_help(line: DeclaredLineRule) -> str:
    if line.points == 0:
        return gettext("Ne rapporte pas de points : sert au départage.")
    if line.sign < 0:
        message = ngettext(
            "Chaque unité retire %(points)s point.", "Chaque unité retire %(points)s points.", line.points
        )
    else:
        message = ngettext(
            "Chaque unité rapporte %(points)s point.", "Chaque unité rapporte %(points)s points.", line.points
        )
    return message % {"points": line.points}


def criterion_label(tie_break: DeclaredTieBreakRule) -> str:
    """The tie-breaker as the explanation names it: « « Billets réalisés » (le plus) »."""
    if tie_break.highest_wins:
        return gettext("« %(line)s » (le plus)") % {"line": tie_break.label}
    return gettext("« %(line)s » (le moins)") % {"line": tie_break.label}


# --- the lookup behind rules.services.game_rules() ------------------------------------------------


def notice_players(notice: Game | None) -> PlayerRange:
    """A declared title's player range: its notice's (at least DEFAULT_PLAYERS_MIN when it says nothing)."""
    low = (notice.players_min if notice else None) or DEFAULT_PLAYERS_MIN
    high = notice.players_max if notice else None
    return PlayerRange(low, high if high is None or high >= low else low)


def stored_play(sheet: DeclaredSheet | None, players: PlayerRange) -> Play:
    """A saved sheet's way of winning, read again (each for themselves if the notice's range changed under it)."""
    try:
        return parse_play(sheet.play, players) if sheet is not None else Play()
    except InvalidInput:
        return Play()


def stored_setup(stored: DeclaredSetup, players: PlayerRange) -> SetupDeclaration | None:
    """A saved declaration, read again; None when the notice's range changed under it (no count for a new count)."""
    try:
        return parse_setup(stored.definition, players, check_box=False)  # checked when saved
    except InvalidInput:
        return None


def _with_declarations():
    return RulePage.objects.select_related("game", "declared_sheet", "declared_setup").prefetch_related(
        "declared_sheet__lines", "declared_sheet__tie_breakers__line"
    )


def _page_read(slug: str):
    """A page by its slug, with its notice, the notice's copies and those available, and its declarations."""
    notice = Game.objects.with_availability().filter(pk=OuterRef("game_id"))
    return (
        RulePage.objects.filter(slug=slug)
        .select_related("game", "declared_sheet", "declared_setup")
        .annotate(
            notice_copies=Subquery(notice.values("copies_count")[:1]),
            notice_available=Subquery(notice.values("available_count")[:1]),
        )
    )


# The busiest read of the rules pages, sheets and pads, prepared once per connection (ludotheque/prepared.py).
_PAGE = PreparedRead("rules page with its notice and declarations", _page_read, "prepared rules page slug")


def declared_page(slug: str) -> RulePage | None:
    """The page with this slug, with its notice (`copies_count`, `available_count`) and declarations
    (what DeclaredRules.from_page reads): one query, and two more for a declared sheet's lines."""
    page = next(iter(_PAGE.queryset(slug)), None)
    if page is None:
        return None
    if page.game is not None:
        page.game.copies_count, page.game.available_count = page.notice_copies, page.notice_available
    if getattr(page, "declared_sheet", None) is not None:
        prefetch_related_objects([page], "declared_sheet__lines", "declared_sheet__tie_breakers__line")
    return page


def declared_rules(slug: str) -> DeclaredRules | None:
    """The declared sheet and setup on the page with this slug, as a GameRules, or None."""
    page = declared_page(slug)
    return DeclaredRules.from_page(page) if page is not None else None


def all_declared_rules() -> list[DeclaredRules]:
    """Every page with a declared sheet or setup (four queries whatever their number)."""
    pages = _with_declarations().filter(Q(declared_sheet__isnull=False) | Q(declared_setup__isnull=False))
    return [rules for page in pages if (rules := DeclaredRules.from_page(page)) is not None]


# --- giving a notice a declared sheet -----------------------------------------------------------------


def sheet_refusal(game: Game) -> ValidationError | None:
    """Why this notice cannot get a declared sheet (its page has coded rules, or a sheet already), or None."""
    page = RulePage.objects.filter(game=game).first()
    if page is None:
        return None
    if get_game(page.slug) is not None:
        return ValidationError(
            _("« %(title)s » a déjà une feuille de score programmée, sur sa page de règles."),
            code="coded_rules",
            params={"title": game.title},
        )
    if DeclaredSheet.objects.filter(page=page).exists():
        return ValidationError(
            _("« %(title)s » a déjà une feuille de score déclarée : modifiez-la."),
            code="sheet_exists",
            params={"title": game.title},
        )
    return None


def free_page_slug(base: str) -> str:
    """The notice's slug, or with « -2 », « -3 »… when a page or a coded game already has it."""
    base = base[:SLUG_MAX_LENGTH].strip("-") or "jeu"
    taken = set(RulePage.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    taken |= {rules.slug for rules in all_games()}
    slug, suffix = base, 2
    while slug in taken:
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


FIRST_TEXT = (
    "== Décompte ==\n"
    "Comptez les points avec la feuille de score ci-dessous : chaque ligne vaut le nombre d'unités "
    "inscrit multiplié par ses points.\n"
)


FIRST_SUMMARY = "Page créée avec la feuille de score déclarée."


@transaction.atomic
def declared_sheet_page(*, game: Game, author=None) -> RulePage:
    """The rules page a new declared sheet of this notice goes on: its page, else a new one.

    A new page gets a first revision by `author` (the librarian; None: the demo data, « Ludothèque »).
    """
    refusal = sheet_refusal(game)
    if refusal is not None:
        raise refusal
    page = RulePage.objects.select_for_update().filter(game=game).first()
    if page is not None:
        return page
    page = RulePage.objects.create(slug=free_page_slug(game.slug), title=game.title, game=game)
    revision_create(page=page, content=FIRST_TEXT, summary=FIRST_SUMMARY, author=author, base_number=0)
    return page


@dataclass(frozen=True)
class LineDeclaration:
    """A line to declare: what `declared_sheet_create` takes (the admin's inline rows say the same)."""

    key: str
    label: str
    points: int = 1
    sign: str = Sign.PLUS
    max_units: int | None = None
    knocks_out: bool = False


@transaction.atomic
def declared_sheet_create(
    *,
    game: Game,
    lines: Sequence[LineDeclaration],
    tie_breaks: Sequence[tuple[str, str]] = (),
    winning: str = Winning.HIGHEST,
    play: Mapping[str, Any] | None = None,
    author=None,
) -> DeclaredSheet:
    """Give a notice a declared sheet: its page (created if need be), the lines, the tie-breakers `(key, winning)`,
    and how it is won (`play`, docs/declared-rules.md), checked with its lines (rules/declared/play.py)."""
    from .play import check_play, check_play_lines

    checked = check_play(play or {}, game)
    check_play_lines(checked, [line.__dict__ for line in lines])
    sheet = DeclaredSheet(
        page=declared_sheet_page(game=game, author=author), winning=winning, play=play or {}
    )
    sheet.full_clean()
    sheet.save()
    by_key = {}
    for position, line in enumerate(lines, start=1):
        declared = DeclaredLine(
            sheet=sheet,
            position=position,
            key=line.key,
            label=line.label,
            points=line.points,
            sign=line.sign,
            max_units=line.max_units,
            knocks_out=line.knocks_out,
        )
        declared.full_clean()
        declared.save()
        by_key[line.key] = declared
    for position, (key, tie_winning) in enumerate(tie_breaks, start=1):
        if key not in by_key:
            raise ValidationError(
                _("Aucune ligne de cette feuille n'a l'identifiant « %(key)s »."),
                code="unknown_line",
                params={"key": key},
            )
        tie_breaker = DeclaredTieBreaker(
            sheet=sheet, position=position, line=by_key[key], winning=tie_winning
        )
        tie_breaker.full_clean()
        tie_breaker.save()
    return sheet
