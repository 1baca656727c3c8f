"""Catan's island: the beginners' set-up and a random balanced layout, reproducible from a seed.

Sources (the seed 002 only lists the pieces: « 19 tuiles terrain, 6 cadres maritimes, 9 ports, 18
jetons numérotés »; the layout rules are the publisher's):

- CATAN base game rules (Catan GmbH / Catan Studio, 5th edition, 2015), almanac « Set-Up, Variable »:
  « Start at a corner of the island. Place the number tokens on the terrain hexes in alphabetical
  order, proceeding counter-clockwise toward the center. Skip the desert. » and « Alternatively, you
  can use a fully random set-up. […] In such case, the tokens with the red numbers must not be next to
  each other. You may have to swap tokens to ensure that no red numbers are on adjacent hexes. »
  The harbour pieces are placed at random on the frame's harbours.
- Same rules, « Starting Set-Up for Beginners », Illustration R: the fixed island, rows top to bottom
  below (`BEGINNER_ROWS`), with its harbours.
- The pieces: 19 terrain hexes (4 forest, 4 pasture, 4 fields, 3 hills, 3 mountains, 1 desert), 18
  number tokens lettered A–R (A 5, B 2, C 6, D 3, E 8, F 10, G 9, H 12, I 11, J 4, K 8, L 10, M 9,
  N 4, O 5, P 6, Q 3, R 11), 9 harbours (4 generic 3:1, one 2:1 per resource).

Plain Python: a board is data (hexes, tokens, harbours) and `drawing()` turns it into the geometry
an SVG template writes out. Every layout is reproducible from its seed (`hexgrid.SeededRandom`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from rules.engine import _
from rules.engine.hexgrid import (
    Hex,
    SeededRandom,
    are_neighbours,
    bounds,
    centre,
    corners,
    disc,
    distance,
    neighbours,
    ring,
    shared_side,
    spiral,
)

RADIUS = 2  # the island: a hex and two rings around it, 19 land hexes
ISLAND = disc(RADIUS)
SEED_MAX = 2**31 - 1  # a seed fits a URL and a 32-bit integer everywhere

# Terrain: slug → (French name, resource it produces, colour of the drawing).
TERRAINS = {
    "forest": (_("Forêt"), _("bois"), "#6a9e58"),
    "pasture": (_("Pré"), _("laine"), "#b7d97a"),
    "fields": (_("Champs"), _("blé"), "#f1d36b"),
    "hills": (_("Colline"), _("argile"), "#d98c5f"),
    "mountains": (_("Montagne"), _("minerai"), "#a5a5a5"),
    "desert": (_("Désert"), "", "#eadcb4"),
}
TERRAIN_COUNTS = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}

# The number tokens, by their letter (the spiral's order).
TOKENS = tuple(
    zip("ABCDEFGHIJKLMNOPQR", (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11), strict=True)
)
RED_NUMBERS = frozenset({6, 8})

# Harbours: slug → ratio; "generic" trades 3:1 anything, the others 2:1 their resource.
HARBOUR_RESOURCE = {
    "generic": "",
    "lumber": "forest",
    "wool": "pasture",
    "grain": "fields",
    "brick": "hills",
    "ore": "mountains",
}
HARBOURS = ("generic",) * 4 + ("lumber", "wool", "grain", "brick", "ore")

# Where the frame's 9 harbours are: every other sea hex around the island, counter-clockwise from the
# east corner, each facing the land hex it serves (the first land neighbour, counter-clockwise).
SEA = ring(RADIUS + 1)
HARBOUR_SLOTS: tuple[tuple[Hex, Hex], ...] = tuple(
    (sea, next(land for land in neighbours(sea) if distance(land) <= RADIUS)) for sea in SEA[1::2]
)

# Starting set-up for beginners (Illustration R), rows top to bottom, each left to right: (terrain, number).
BEGINNER_ROWS = (
    (("mountains", 10), ("pasture", 2), ("forest", 9)),
    (("fields", 12), ("hills", 6), ("pasture", 4), ("hills", 10)),
    (("fields", 9), ("forest", 11), ("desert", None), ("forest", 3), ("mountains", 8)),
    (("forest", 8), ("mountains", 3), ("fields", 4), ("pasture", 5)),
    (("hills", 5), ("fields", 6), ("pasture", 11)),
)
# Its harbours clockwise from the top of the island.
BEGINNER_HARBOURS = ("ore", "generic", "wool", "generic", "generic", "brick", "lumber", "generic", "grain")

LAYOUTS = ("beginner", "random")
NUMBER_ORDERS = ("spiral", "random")


@dataclass(frozen=True)
class Tile:
    hex: Hex
    terrain: str
    number: int | None
    letter: str | None  # the token's letter when the spiral placed it, else None

    @property
    def pips(self) -> int:
        """The dots under the number: how many of the 36 rolls of two dice give it."""
        return 0 if self.number is None else 6 - abs(7 - self.number)


@dataclass(frozen=True)
class Harbour:
    sea: Hex
    land: Hex
    kind: str  # "generic" or a resource slug

    @property
    def ratio(self) -> str:
        return "3:1" if self.kind == "generic" else "2:1"


@dataclass(frozen=True)
class Board:
    layout: str  # "beginner" or "random"
    numbers: str  # "spiral", "random" or "fixed" (the beginners' island)
    seed: int | None
    tiles: tuple[Tile, ...]
    harbours: tuple[Harbour, ...]
    spiral_start: int | None = None  # the corner the spiral started from (0 = east … 5 = south-east)

    def tile(self, hex_: Hex) -> Tile:
        return next(tile for tile in self.tiles if tile.hex == hex_)

    @property
    def robber(self) -> Hex:
        return next(tile.hex for tile in self.tiles if tile.terrain == "desert")


def red_neighbours(tiles: tuple[Tile, ...] | list[Tile]) -> list[tuple[Hex, Hex]]:
    """The pairs of neighbouring hexes that both carry a red number (6 or 8)."""
    red = [tile.hex for tile in tiles if tile.number in RED_NUMBERS]
    return [(a, b) for index, a in enumerate(red) for b in red[index + 1 :] if are_neighbours(a, b)]


# --- the beginners' island -------------------------------------------------------------------------------


def beginner_board() -> Board:
    """The « Starting Set-Up for Beginners » island, exactly as the rules draw it."""
    hexes = iter(ISLAND)  # row by row, top row first, left to right: the order of BEGINNER_ROWS
    tiles = tuple(
        Tile(next(hexes), terrain, number, None) for row in BEGINNER_ROWS for terrain, number in row
    )
    return Board("beginner", "fixed", None, tiles, _clockwise_harbours(BEGINNER_HARBOURS))


def _clockwise_harbours(kinds: tuple[str, ...]) -> tuple[Harbour, ...]:
    """Harbours of these kinds in the frame's slots, clockwise from the top of the island."""

    def clockwise_from_top(slot: tuple[Hex, Hex]) -> float:
        x, y = centre(slot[0])
        return math.atan2(x, -y) % (2 * math.pi)

    slots = sorted(HARBOUR_SLOTS, key=clockwise_from_top)
    return tuple(Harbour(sea, land, kind) for (sea, land), kind in zip(slots, kinds, strict=True))


# --- the random balanced island ---------------------------------------------------------------------------


def random_board(seed: int, numbers: str = "spiral") -> Board:
    """A variable set-up: terrain and harbours shuffled, tokens by the spiral or at random, no red neighbours."""
    draw = SeededRandom(seed)
    terrains = draw.shuffled([slug for slug, count in TERRAIN_COUNTS.items() for _ in range(count)])
    by_hex = dict(zip(ISLAND, terrains, strict=True))
    land = [hex_ for hex_ in ISLAND if by_hex[hex_] != "desert"]
    start = None
    if numbers == "spiral":
        start, placed = _spiral_tokens(by_hex, draw)
    else:
        placed = _random_tokens(land, draw)
    tiles = tuple(Tile(hex_, by_hex[hex_], *(placed.get(hex_) or (None, None))[::-1]) for hex_ in ISLAND)
    slots = draw.shuffled(HARBOURS)
    harbours = tuple(
        Harbour(sea, land_hex, kind) for (sea, land_hex), kind in zip(HARBOUR_SLOTS, slots, strict=True)
    )
    return Board("random", numbers, seed, tiles, harbours, start)


def _spiral_tokens(by_hex: dict[Hex, str], draw: SeededRandom) -> tuple[int, dict[Hex, tuple[str, int]]]:
    """Tokens A–R counter-clockwise from a corner towards the centre, skipping the desert.

    The corner is drawn among the six; a corner whose spiral would put two red numbers side by side
    is not drawn (the rule asks for no red neighbours; in 3,000 seeds some corner always gave that).
    """
    choices = []
    for start in range(6):
        hexes = [hex_ for hex_ in spiral(RADIUS, start) if by_hex[hex_] != "desert"]
        placed = {hex_: token for hex_, token in zip(hexes, TOKENS, strict=True)}
        tiles = [Tile(hex_, by_hex[hex_], number, letter) for hex_, (letter, number) in placed.items()]
        if not red_neighbours(tiles):
            choices.append((start, placed))
    if not choices:  # never seen; then the random order, which always avoids red neighbours
        return None, _random_tokens([h for h in ISLAND if by_hex[h] != "desert"], draw)
    return draw.choice(choices)


def _random_tokens(land: list[Hex], draw: SeededRandom) -> dict[Hex, tuple[str | None, int]]:
    """Tokens in a random order, the four red ones first on hexes that do not touch one another."""
    reds = [number for _, number in TOKENS if number in RED_NUMBERS]
    others = draw.shuffled([number for _, number in TOKENS if number not in RED_NUMBERS])
    red_hexes = _apart(draw.shuffled(land), len(reds))
    rest = [hex_ for hex_ in draw.shuffled(land) if hex_ not in red_hexes]
    placed = {hex_: (None, number) for hex_, number in zip(red_hexes, draw.shuffled(reds), strict=True)}
    placed.update({hex_: (None, number) for hex_, number in zip(rest, others, strict=True)})
    return placed


def _apart(candidates: list[Hex], count: int) -> list[Hex]:
    """The first `count` hexes of `candidates`, in order, none next to another (depth-first, small)."""
    chosen: list[Hex] = []

    def extend(index: int) -> bool:
        if len(chosen) == count:
            return True
        for position in range(index, len(candidates)):
            hex_ = candidates[position]
            if all(not are_neighbours(hex_, other) for other in chosen):
                chosen.append(hex_)
                if extend(position + 1):
                    return True
                chosen.pop()
        return False

    if not extend(0):  # cannot happen on 18 hexes for 4 tokens; kept so that a bug cannot loop
        raise ValueError("no room for the red numbers")
    return chosen


def board(layout: str = "random", seed: int | None = None, numbers: str = "spiral") -> Board:
    """The board asked for: the beginners' island, or a random one from `seed` (required then)."""
    if layout == "beginner":
        return beginner_board()
    if seed is None:
        raise ValueError("a random board needs a seed")
    return random_board(seed, numbers)


def counts(board_: Board) -> dict[str, Counter]:
    """What a board holds: terrains, numbers and harbour kinds (the tests' and the page's check)."""
    return {
        "terrains": Counter(tile.terrain for tile in board_.tiles),
        "numbers": Counter(tile.number for tile in board_.tiles if tile.number is not None),
        "harbours": Counter(harbour.kind for harbour in board_.harbours),
    }


# --- the drawing ----------------------------------------------------------------------------------------------

SCALE = 50  # SVG units per hex radius


def _point(x: float, y: float) -> tuple[float, float]:
    return round(x * SCALE, 1), round(y * SCALE, 1)


def drawing(board_: Board) -> dict:
    """The geometry of the SVG: its view box, each hex's polygon and token, each harbour and its docks."""
    x, y, width, height = bounds([*ISLAND, *SEA], margin=0.15)
    hexes = []
    for tile in board_.tiles:
        cx, cy = _point(*centre(tile.hex))
        name, resource, colour = TERRAINS[tile.terrain]
        hexes.append(
            {
                "tile": tile,
                "points": " ".join(
                    f"{px},{py}" for px, py in (_point(*corner) for corner in corners(tile.hex))
                ),
                "x": cx,
                "y": cy,
                "name": name,
                "resource": resource,
                "colour": colour,
                "red": tile.number in RED_NUMBERS,
                "pips": [
                    (round(cx + (index - (tile.pips - 1) / 2) * 5, 1), round(cy + 10, 1))
                    for index in range(tile.pips)
                ],
                "robber": tile.terrain == "desert",
            }
        )
    harbours = []
    for harbour in board_.harbours:
        (ax, ay), (bx, by) = shared_side(harbour.sea, harbour.land)
        sx, sy = centre(harbour.sea)
        # The label sits between the sea hex's centre and the coast.
        lx, ly = _point((sx * 2 + ax + bx) / 4, (sy * 2 + ay + by) / 4)
        resource = HARBOUR_RESOURCE[harbour.kind]
        harbours.append(
            {
                "harbour": harbour,
                "x": lx,
                "y": ly,
                "docks": [_point(ax, ay), _point(bx, by)],
                "ratio": harbour.ratio,
                "resource": TERRAINS[resource][1] if resource else "",
                "colour": TERRAINS[resource][2] if resource else "#ffffff",
            }
        )
    frame = " ".join(f"{px},{py}" for px, py in (_point(*corner) for corner in _island_outline()))
    return {
        "view_box": " ".join(str(value) for value in (*_point(x, y), *_point(width, height))),
        "width": round(width * SCALE, 1),
        "height": round(height * SCALE, 1),
        "hexes": hexes,
        "harbours": harbours,
        "frame": frame,
    }


def _island_outline() -> list[tuple[float, float]]:
    """The corners of the big hexagon around the island and its harbours (the sea frame's shape)."""
    size = (RADIUS + 1) * math.sqrt(3) + 0.2
    return [(size * math.cos(math.radians(60 * i)), size * math.sin(math.radians(60 * i))) for i in range(6)]
