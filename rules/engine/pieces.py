"""Playable with missing pieces: what a box holds, what each way of playing needs, and what is left.

A game module declares, apart from its rules class, a `PIECES = Pieces(…)` block:

- `pieces`: the box's contents as the rule book lists them, each with a stable key (`monster_cards`)
  that the librarian links the catalogue's piece list to, once, in the admin;
- `ways`: the ways of playing whose needs differ (a short game, a variant), the standard game first;
- `needs(players, way)`: how many of each piece that table uses, citing the rule.

`playable_with(pieces, players, missing)` answers, for the counts missing per key, which ways and
player counts the remaining pieces still allow: a way is playable at N players when, for every piece,
what the box still holds covers what the rule book puts on the table. Fewer missing pieces never allow
less, and a complete box allows every way at every player count of the game (tests/test_pieces.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .game import PlayerRange
from .text import Joined, Label, Text, _, ngettext, text

# A catalogue piece that no way of playing needs (the rule book, a score pad the library prints):
# missing, it never stops a game. Offered with the game's keys in the admin.
ACCESSORY = "accessory"
ACCESSORY_LABEL = _("Accessoire sans effet sur la partie (règle, bloc de score…)")


@dataclass(frozen=True)
class Piece:
    key: str
    name: str | Text  # French, through _()
    in_box: int
    # One of the players' colour sets (Catan's roads, K2's tents): the catalogue does not note a missing
    # piece's colour, so each missing one may spoil another colour (see Pieces.colours).
    per_colour: bool = False
    # A line as a catalogue lists the box (« 49 cartes âge 1 », « 37 hexagones »): several of the
    # game's pieces at once. Which of them a missing one is, nobody noted: it counts as missing from
    # each of them (the engine does not guess). `in_box` is then the line's total.
    covers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Way:
    """A way of playing whose needs differ: the standard game, a shorter game, a variant."""

    slug: str
    label: str  # French, through _(), as it reads after « jouable : » (« parties courtes »)
    players: PlayerRange | None = None  # None: the game's range
    # The setup calculator's query for this way (`{"length": "short"}`, `{"variants": "easy"}`).
    query: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Pieces:
    pieces: tuple[Piece, ...]
    ways: tuple[Way, ...]
    needs: Callable[[int, str], Mapping[str, int]]
    # The players' colours in the box: a table of N needs N colour sets with none of their pieces missing.
    colours: int = 0
    # A further condition where the pieces a table takes are a choice (Marrakech's carpet colours):
    # (players, way, what is left per key) -> bool. It must never refuse a box that has more left.
    fits: Callable[[int, str, Mapping[str, int]], bool] | None = None

    @property
    def keys(self) -> dict[str, Piece]:
        return {piece.key: piece for piece in self.pieces}


@dataclass(frozen=True)
class Playability:
    """The ways and player counts a copy's remaining pieces allow."""

    allowed: tuple[tuple[Way, tuple[int, ...]], ...]  # every way, with the counts it still allows
    full: tuple[tuple[Way, tuple[int, ...]], ...]  # every way, with the counts a complete box allows
    unknown: tuple[str, ...] = ()  # missing pieces the engine cannot weigh (no key): nothing is allowed

    @property
    def playable(self) -> bool:
        return any(counts for _way, counts in self.allowed)

    @property
    def complete(self) -> bool:
        """Whether what is missing stops nothing: every way at every count of a complete box."""
        return self.allowed == self.full

    def counts(self) -> tuple[int, ...]:
        """Every player count at least one way still allows."""
        return tuple(sorted({count for _way, counts in self.allowed for count in counts}))

    def allows(self, players: int) -> bool:
        return players in self.counts()

    def summary(self) -> Text:
        """« jouable : parties courtes, 2 à 5 joueurs » (the ways with the same counts grouped)."""
        if not self.playable:
            return text(_("pas jouable avec les pièces qui restent"))
        if self.complete:
            return text(_("jouable comme un jeu complet"))
        groups: dict[tuple[int, ...], list[Way]] = {}
        for way, counts in self.allowed:
            if counts:
                groups.setdefault(counts, []).append(way)
        if len(self.allowed) == 1:  # one way of playing: the counts say it all
            return text(_("jouable : %(what)s"), what=players_text(self.allowed[0][1]))
        parts = [
            text(
                _("%(ways)s, %(players)s"),
                ways=Joined(tuple(Label(way.label) for way in ways), ", "),
                players=players_text(counts),
            )
            for counts, ways in groups.items()
        ]
        return text(_("jouable : %(what)s"), what=Joined(tuple(parts), " ; "))


def players_text(counts: tuple[int, ...]) -> Text:
    """« 2 à 5 joueurs », « 3 joueurs », « 2, 4 à 5 joueurs » for runs of counts."""
    runs: list[list[int]] = []
    for count in counts:
        if runs and count == runs[-1][-1] + 1:
            runs[-1].append(count)
        else:
            runs.append([count])
    if len(runs) == 1 and len(runs[0]) == 1:
        return text(ngettext("%(count)s joueur", "%(count)s joueurs", counts[0]), count=counts[0])
    if len(runs) == 1:
        return text(_("%(low)s à %(high)s joueurs"), low=runs[0][0], high=runs[0][-1])
    shown = ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)
    return text(_("%(counts)s joueurs"), counts=shown)


def colour_sets_left(pieces: Pieces, left: Mapping[str, int]) -> int:
    """The colour sets surely whole: every missing piece of a colour set may be of another colour."""
    spoilt = sum(max(0, piece.in_box - left.get(piece.key, 0)) for piece in pieces.pieces if piece.per_colour)
    return pieces.colours - min(pieces.colours, spoilt)


def _fits(pieces: Pieces, count: int, way: str, left: Mapping[str, int]) -> bool:
    if not all(left.get(key, 0) >= need for key, need in pieces.needs(count, way).items() if need):
        return False
    if pieces.colours and colour_sets_left(pieces, left) < count:
        return False
    return pieces.fits is None or pieces.fits(count, way, left)


def _allowed(pieces: Pieces, players: PlayerRange, left: Mapping[str, int]):
    found = []
    for way in pieces.ways:
        span = way.players or players
        counts = tuple(
            count for count in range(span.minimum, span.highest + 1) if _fits(pieces, count, way.slug, left)
        )
        found.append((way, counts))
    return tuple(found)


def playable_with(
    pieces: Pieces, players: PlayerRange, missing: Mapping[str, int], unknown: tuple[str, ...] = ()
) -> Playability:
    """The ways and player counts a box missing `missing[key]` of each piece still allows.

    Keys that are not the game's are ignored only when they are ACCESSORY; any other unknown key, or a
    missing piece listed in `unknown` (a catalogue piece not linked to a key), allows nothing: the
    engine does not guess.
    """
    known = pieces.keys
    box = {piece.key: piece.in_box for piece in pieces.pieces if not piece.covers}
    full = _allowed(pieces, players, box)
    strange = tuple(key for key, count in missing.items() if count and key not in known and key != ACCESSORY)
    if strange or unknown:
        return Playability(
            allowed=tuple((way, ()) for way, _counts in full), full=full, unknown=(*unknown, *strange)
        )
    left = dict(box)
    for key, count in missing.items():
        if key == ACCESSORY or count <= 0:
            continue
        for covered in known[key].covers or (key,):
            left[covered] -= count
    return Playability(allowed=_allowed(pieces, players, left), full=full)
