"""Railroad Ink's board read square by square: networks, longest routes, centre squares and errors.

Rules from seed 003 (BGA help page « Gamehelprailroadink », 2021-05-05), quoted where applied:

- The route dice: « 3 dés ont les faces suivantes : Chemin de fer courbé, Chemin de fer avec jonction
  en T, Chemin de fer tout droit, Autoroute courbée, Autoroute avec jonction en T, Autoroute toute
  droite » and « 1 dé a les faces suivantes : 2 × Pont (Autoroute droite + Chemin de fer droit, ils ne
  sont pas connectés), 2 × Gare toute droite (le Chemin de fer et l'Autoroute sont connectés), 2 × Gare
  courbée ». « Vous pouvez librement tourner et/ou retourner le motif » (rotation, mirror).
- « Vous ne pouvez dessiner qu'une seule Route spéciale par tour », « jusqu'à 3 Routes spéciales pour
  toute la partie », each « utilisée qu'une seule fois ». The six special routes of the board (the
  publisher's player board): highway crossroads, railway crossroads, a station with three highways and
  a railway, one with three railways and a highway, a straight station crossing (highway one way,
  railway the other, connected) and a corner station (two highways on adjacent sides, two railways).
- Réseaux: « Pour chaque réseau, comptez le nombre de Sorties connectées à celui-ci. »
- « La plus longue Autoroute : C'est la plus longue suite ininterrompue d'Autoroutes connectées. Les
  Gares au milieu de la suite n'interrompent pas votre Autoroute. Vous marquez 1 point pour chaque
  case » (and the same for the railway).
- « Vous marquez 1 point pour chaque Case Centrale où vous avez dessiné quelque chose. Les Cases
  Centrales sont les 9 cases au centre du plateau. »
- « Chaque fin de Route (Autoroute ou Chemin de fer) qui n'est pas connectée à une autre Route où sur
  un bord extérieur (sortie ou simple bord) compte comme 1 Erreur. »

The board's 12 exits (the publisher's player board): on the top and bottom sides, highways at the 2nd
and 6th columns and a railway at the 4th; on the left and right sides, railways at the 2nd and 6th
rows and a highway at the 4th.

A square is 4 sides (0 north, 1 east, 2 south, 3 west), each a highway, a railway or nothing, and the
groups of sides its drawing connects (an overpass has two groups, every other route one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine import Boolean, Choice, Errors, Group, Integer, ListOf, Table, _, add_error, text

SIZE = 7
CENTER = range(2, 5)  # the 3 × 3 central squares (0-based rows and columns)
ROAD, RAIL = "road", "rail"
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
SIDES = (NORTH, EAST, SOUTH, WEST)
STEP = {NORTH: (-1, 0), EAST: (0, 1), SOUTH: (1, 0), WEST: (0, -1)}
SIDE_NAMES = {NORTH: "north", EAST: "east", SOUTH: "south", WEST: "west"}
SIDE_LABELS = {NORTH: _("haut"), EAST: _("droite"), SOUTH: _("bas"), WEST: _("gauche")}
KIND_LABELS = {ROAD: _("autoroute"), RAIL: _("chemin de fer")}

# (row, column, side) → kind of each exit, 0-based.
EXITS: dict[tuple[int, int, int], str] = {}
for _index, _kind in ((1, ROAD), (3, RAIL), (5, ROAD)):
    EXITS[(0, _index, NORTH)] = _kind
    EXITS[(SIZE - 1, _index, SOUTH)] = _kind
for _index, _kind in ((1, RAIL), (3, ROAD), (5, RAIL)):
    EXITS[(_index, 0, WEST)] = _kind
    EXITS[(_index, SIZE - 1, EAST)] = _kind

# Where a tile comes from: the three plain route dice, the special die, the board's special routes.
PLAIN_DIE, SPECIAL_DIE, SPECIAL_ROUTE = "die", "special_die", "special"
PLAIN_DICE_PER_ROUND, SPECIAL_DIE_PER_ROUND, SPECIAL_ROUTES_PER_ROUND = 3, 1, 1
MAX_SPECIAL_ROUTES = 3
MOST_ROUNDS = 7
MOST_ROUTES = MOST_ROUNDS * (PLAIN_DICE_PER_ROUND + SPECIAL_DIE_PER_ROUND) + MAX_SPECIAL_ROUTES  # 31
# Longest routes are searched path by path: a real board (31 routes at most) needs far fewer steps.
SEARCH_STEPS = 200_000


@dataclass(frozen=True)
class Tile:
    slug: str
    label: str
    source: str
    sides: tuple[tuple[int, str], ...]  # (side, kind) at rotation 0
    groups: tuple[frozenset[int], ...]  # sides connected together

    def placed(self, rotation: int, mirrored: bool) -> tuple[dict[int, str], tuple[frozenset[int], ...]]:
        """Its sides and groups once mirrored (east ↔ west) then turned clockwise by `rotation` degrees."""
        turns = rotation // 90

        def move(side: int) -> int:
            if mirrored and side in (EAST, WEST):
                side = EAST + WEST - side
            return (side + turns) % 4

        return (
            {move(side): kind for side, kind in self.sides},
            tuple(frozenset(move(side) for side in group) for group in self.groups),
        )


def _tile(
    slug: str,
    label: str,
    source: str,
    roads: tuple[int, ...] = (),
    rails: tuple[int, ...] = (),
    *,
    overpass: bool = False,
) -> Tile:
    sides = tuple(sorted([(side, ROAD) for side in roads] + [(side, RAIL) for side in rails]))
    groups = (frozenset(roads), frozenset(rails)) if overpass else (frozenset(roads) | frozenset(rails),)
    return Tile(slug, label, source, sides, groups)


TILES = {
    tile.slug: tile
    for tile in (
        _tile("road_straight", _("Autoroute droite"), PLAIN_DIE, roads=(NORTH, SOUTH)),
        _tile("road_curve", _("Autoroute courbée"), PLAIN_DIE, roads=(NORTH, EAST)),
        _tile("road_t", _("Autoroute en T"), PLAIN_DIE, roads=(EAST, SOUTH, WEST)),
        _tile("rail_straight", _("Chemin de fer droit"), PLAIN_DIE, rails=(NORTH, SOUTH)),
        _tile("rail_curve", _("Chemin de fer courbé"), PLAIN_DIE, rails=(NORTH, EAST)),
        _tile("rail_t", _("Chemin de fer en T"), PLAIN_DIE, rails=(EAST, SOUTH, WEST)),
        _tile(
            "overpass",
            _("Pont (non connecté)"),
            SPECIAL_DIE,
            roads=(NORTH, SOUTH),
            rails=(EAST, WEST),
            overpass=True,
        ),
        _tile("station_straight", _("Gare droite"), SPECIAL_DIE, roads=(NORTH,), rails=(SOUTH,)),
        _tile("station_curve", _("Gare courbée"), SPECIAL_DIE, roads=(NORTH,), rails=(EAST,)),
        _tile("special_road_cross", _("Route spéciale : carrefour d'autoroutes"), SPECIAL_ROUTE, roads=SIDES),
        _tile(
            "special_rail_cross",
            _("Route spéciale : croisement de chemins de fer"),
            SPECIAL_ROUTE,
            rails=SIDES,
        ),
        _tile(
            "special_station_roads",
            _("Route spéciale : gare, 3 autoroutes et 1 chemin de fer"),
            SPECIAL_ROUTE,
            roads=(NORTH, EAST, WEST),
            rails=(SOUTH,),
        ),
        _tile(
            "special_station_rails",
            _("Route spéciale : gare, 1 autoroute et 3 chemins de fer"),
            SPECIAL_ROUTE,
            roads=(NORTH,),
            rails=(EAST, SOUTH, WEST),
        ),
        _tile(
            "special_station_cross",
            _("Route spéciale : gare en croix (autoroute droite, chemin de fer droit)"),
            SPECIAL_ROUTE,
            roads=(NORTH, SOUTH),
            rails=(EAST, WEST),
        ),
        _tile(
            "special_station_corner",
            _("Route spéciale : gare en angle (2 autoroutes, 2 chemins de fer)"),
            SPECIAL_ROUTE,
            roads=(NORTH, WEST),
            rails=(EAST, SOUTH),
        ),
    )
}
ROTATIONS = (0, 90, 180, 270)


def orientations(tile: Tile) -> list[tuple[int, bool]]:
    """The (rotation, mirrored) that draw this tile differently, each once (a straight road has 2)."""
    seen, found = set(), []
    for mirrored in (False, True):
        for rotation in ROTATIONS:
            sides, groups = tile.placed(rotation, mirrored)
            key = (tuple(sorted(sides.items())), tuple(sorted(tuple(sorted(g)) for g in groups)))
            if key not in seen:
                seen.add(key)
                found.append((rotation, mirrored))
    return found


# --- the declared input (the check's body) ---------------------------------------------------------------


def route_fields(rounds: int) -> tuple:
    return (
        Integer("row", _("Ligne (1 en haut)"), minimum=1, maximum=SIZE),
        Integer("column", _("Colonne (1 à gauche)"), minimum=1, maximum=SIZE),
        Choice("tile", _("Route"), choices=tuple((tile.slug, tile.label) for tile in TILES.values())),
        Integer("rotation", _("Rotation (degrés, sens horaire)"), minimum=0, maximum=270, default=0),
        Boolean("mirrored", _("Retournée (miroir)")),
        Integer("round", _("Manche"), minimum=1, maximum=rounds, default=None),
    )


def routes_field(rounds: int) -> ListOf:
    return ListOf(
        "routes",
        _("Routes dessinées"),
        item=Group("route", _("Route"), fields=route_fields(rounds)),
        max_items=MOST_ROUTES,
        default=[],
        help=_(
            "Une entrée par case dessinée : ligne et colonne (1 à 7), route, rotation (0, 90, 180 ou 270), "
            "retournée ou non, et la manche où elle a été dessinée."
        ),
    )


def validate_routes(routes: list[dict], errors: Errors, path: str = "routes") -> None:
    """Refuse what cannot be on a board: two routes on a square, a wrong rotation, too many dice or specials."""
    taken: dict[tuple[int, int], int] = {}
    specials: dict[str, int] = {}
    per_round: dict[tuple[int, str], int] = {}
    for index, route in enumerate(routes):
        here = f"{path}.{index}"
        tile = TILES[route["tile"]]
        if route["rotation"] % 90:
            add_error(
                errors,
                f"{here}.rotation",
                text(_("Une route tourne par quarts de tour : 0, 90, 180 ou 270.")),
            )
        cell = (route["row"], route["column"])
        if cell in taken:
            add_error(
                errors,
                f"{here}.row",
                text(
                    _("La case ligne %(row)s, colonne %(column)s porte déjà une route (route n° %(other)s)."),
                    row=cell[0],
                    column=cell[1],
                    other=taken[cell] + 1,
                ),
            )
        else:
            taken[cell] = index
        if tile.source == SPECIAL_ROUTE:
            if tile.slug in specials:
                add_error(
                    errors, f"{here}.tile", text(_("Chaque Route spéciale ne sert qu'une fois par partie."))
                )
            specials[tile.slug] = index
            if len(specials) > MAX_SPECIAL_ROUTES:
                add_error(
                    errors,
                    f"{here}.tile",
                    text(_("Au plus %(max)s Routes spéciales par partie."), max=MAX_SPECIAL_ROUTES),
                )
        if route["round"] is not None:
            key = (route["round"], tile.source)
            per_round[key] = per_round.get(key, 0) + 1
            limit, message = {
                PLAIN_DIE: (
                    PLAIN_DICE_PER_ROUND,
                    _("La manche %(round)s n'a que %(count)s dés Route ordinaires."),
                ),
                SPECIAL_DIE: (
                    SPECIAL_DIE_PER_ROUND,
                    _("La manche %(round)s n'a qu'%(count)s dé Route spécial (ponts et gares)."),
                ),
                SPECIAL_ROUTE: (
                    SPECIAL_ROUTES_PER_ROUND,
                    _("Une seule Route spéciale par manche (manche %(round)s)."),
                ),
            }[tile.source]
            if per_round[key] > limit:
                add_error(errors, f"{here}.round", text(message, round=route["round"], count=limit))


def validate_connections(routes: list[dict], errors: Errors, path: str = "routes") -> None:
    """When every route has its round: each must join an exit or a route of an earlier round.

    « Chaque Route que vous dessinez doit être connectée par au moins un côté à une sortie ou à une
    Route existante. » Routes of one round are drawn in any order, so a route may also join one of its
    round that is itself joined.
    """
    if not routes or any(route["round"] is None for route in routes):
        return
    squares = _squares(routes)
    round_of = {(route["row"] - 1, route["column"] - 1): route["round"] for route in routes}
    joined: set[tuple[int, int]] = set()
    for number in sorted(set(round_of.values())):
        pending = [cell for cell, drawn in round_of.items() if drawn == number]
        changed = True
        while changed:
            changed = False
            for cell in pending:
                if cell not in joined and _touches(squares, cell, joined):
                    joined.add(cell)
                    changed = True
    for index, route in enumerate(routes):
        if (route["row"] - 1, route["column"] - 1) not in joined:
            add_error(
                errors,
                f"{path}.{index}.round",
                text(
                    _(
                        "Cette route n'est reliée ni à une sortie ni à une route dessinée avant elle "
                        "(manche %(round)s)."
                    ),
                    round=route["round"],
                ),
            )


def _touches(
    squares: dict[tuple[int, int], Square], cell: tuple[int, int], joined: set[tuple[int, int]]
) -> bool:
    """Whether a side of this square meets an exit of its kind or the same kind on a square already joined."""
    square = squares[cell]
    for side, kind in square.sides.items():
        if EXITS.get((cell[0], cell[1], side)) == kind:
            return True
        dr, dc = STEP[side]
        neighbour = (cell[0] + dr, cell[1] + dc)
        if neighbour in joined and squares[neighbour].sides.get(_opposite(side)) == kind:
            return True
    return False


# --- reading the board ----------------------------------------------------------------------------------


@dataclass
class Square:
    row: int  # 0-based
    column: int
    tile: Tile
    sides: dict[int, str]
    groups: tuple[frozenset[int], ...]

    def group_of(self, side: int) -> int:
        return next(index for index, group in enumerate(self.groups) if side in group)


def _squares(routes: list[Mapping[str, Any]]) -> dict[tuple[int, int], Square]:
    squares = {}
    for route in routes:
        tile = TILES[route["tile"]]
        sides, groups = tile.placed(route.get("rotation", 0) or 0, bool(route.get("mirrored")))
        row, column = route["row"] - 1, route["column"] - 1
        squares[(row, column)] = Square(row, column, tile, sides, groups)
    return squares


def _opposite(side: int) -> int:
    return (side + 2) % 4


class _Union:
    def __init__(self):
        self.parent: dict = {}

    def find(self, item):
        self.parent.setdefault(item, item)
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def join(self, a, b) -> None:
        self.parent[self.find(a)] = self.find(b)


def _longest(squares: dict[tuple[int, int], Square], kind: str, budget: list[int]) -> list[tuple[int, int]]:
    """The squares of the longest unbroken run of one kind (no square twice), searched path by path."""
    links: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for cell, square in squares.items():
        for side, side_kind in square.sides.items():
            if side_kind != kind:
                continue
            dr, dc = STEP[side]
            other = squares.get((cell[0] + dr, cell[1] + dc))
            if other is not None and other.sides.get(_opposite(side)) == kind:
                links.setdefault(cell, []).append((other.row, other.column))
        if any(side_kind == kind for side_kind in square.sides.values()):
            links.setdefault(cell, [])
    best: list[tuple[int, int]] = []
    path: list[tuple[int, int]] = []
    on_path: set[tuple[int, int]] = set()

    def walk(cell: tuple[int, int]) -> None:
        nonlocal best
        if budget[0] <= 0:
            return
        budget[0] -= 1
        path.append(cell)
        on_path.add(cell)
        if len(path) > len(best):
            best = list(path)
        for following in links[cell]:
            if following not in on_path:
                walk(following)
        path.pop()
        on_path.discard(cell)

    for start in sorted(links):
        walk(start)
        if len(best) == len(links):
            break
    return best


def read_board(routes: list[Mapping[str, Any]], network_points: Table) -> dict:
    """What the sheet asks, read from the board: networks, longest routes, centre squares, errors."""
    squares = _squares(routes)
    union = _Union()
    open_ends = []
    exits_of: dict = {}
    for cell, square in squares.items():
        for index, _group in enumerate(square.groups):
            union.find((cell, index))
        for side, kind in square.sides.items():
            node = (cell, square.group_of(side))
            dr, dc = STEP[side]
            neighbour = (cell[0] + dr, cell[1] + dc)
            outside = not (0 <= neighbour[0] < SIZE and 0 <= neighbour[1] < SIZE)
            if outside:
                exit_kind = EXITS.get((cell[0], cell[1], side))
                if exit_kind == kind:
                    exits_of.setdefault(node, set()).add((cell[0], cell[1], side))
                elif exit_kind is not None:
                    # A highway against a railway exit: the two do not connect (you need a station).
                    open_ends.append((cell, side, "mismatch"))
                # Otherwise a plain edge of the board: « sur un bord extérieur », not an error.
                continue
            other = squares.get(neighbour)
            facing = other.sides.get(_opposite(side)) if other is not None else None
            if facing == kind:
                union.join(node, (neighbour, other.group_of(_opposite(side))))
            elif facing is None:
                open_ends.append((cell, side, "open"))
            else:
                open_ends.append((cell, side, "mismatch"))
    networks: dict = {}
    for node, exits in exits_of.items():
        networks.setdefault(union.find(node), set()).update(exits)
    members: dict = {}
    for cell, square in squares.items():
        for index in range(len(square.groups)):
            members.setdefault(union.find((cell, index)), set()).add(cell)
    found = sorted(
        (
            {
                "exits": len(exits),
                "points": network_points[len(exits)],
                "cells": [[row + 1, column + 1] for row, column in sorted(members[root])],
            }
            for root, exits in networks.items()
        ),
        key=lambda network: (-network["exits"], network["cells"]),
    )
    budget = [SEARCH_STEPS]
    highway = _longest(squares, ROAD, budget)
    railway = _longest(squares, RAIL, budget)
    centre = sum(1 for row, column in squares if row in CENTER and column in CENTER)
    sheet = {
        "networks": [network["exits"] for network in found],
        "longest_highway": len(highway),
        "longest_railway": len(railway),
        "center_squares": centre,
        "errors": len(open_ends),
    }
    points = {
        "networks": sum(network["points"] for network in found),
        "longest_highway": len(highway),
        "longest_railway": len(railway),
        "center_squares": centre,
        "errors": -len(open_ends),
    }
    return {
        "networks": found,
        "longest_highway": {"length": len(highway), "cells": [[r + 1, c + 1] for r, c in highway]},
        "longest_railway": {"length": len(railway), "cells": [[r + 1, c + 1] for r, c in railway]},
        "center_squares": centre,
        "errors": [
            {"row": cell[0] + 1, "column": cell[1] + 1, "side": SIDE_NAMES[side], "reason": reason}
            for cell, side, reason in sorted(open_ends)
        ],
        "sheet": sheet,
        "points": {**points, "total": sum(points.values())},
        "complete_search": budget[0] > 0,
    }


# --- the drawing ----------------------------------------------------------------------------------------------

CELL = 40  # SVG units per square


def drawing(routes: list[Mapping[str, Any]], result: dict | None = None) -> dict:
    """The geometry of the board's SVG: its squares' strokes, the exits, the errors marked."""
    squares = _squares(routes)
    half = CELL / 2
    strokes = []
    for (row, column), square in sorted(squares.items()):
        cx, cy = column * CELL + half, row * CELL + half
        for side, kind in square.sides.items():
            dr, dc = STEP[side]
            strokes.append({"kind": kind, "x1": cx, "y1": cy, "x2": cx + dc * half, "y2": cy + dr * half})
        station = (
            square.tile.source != PLAIN_DIE
            and len(set(square.sides.values())) == 2
            and len(square.groups) == 1
        )
        strokes.append(
            {
                "kind": "station" if station else ("overpass" if len(square.groups) == 2 else "joint"),
                "x": cx,
                "y": cy,
            }
        )
    exits = []
    for (row, column, side), kind in EXITS.items():
        dr, dc = STEP[side]
        cx, cy = column * CELL + half, row * CELL + half
        exits.append(
            {
                "kind": kind,
                "x1": cx + dc * half,
                "y1": cy + dr * half,
                "x2": cx + dc * (half + 10),
                "y2": cy + dr * (half + 10),
            }
        )
    marks = []
    for error in (result or {}).get("errors", []):
        side = {name: number for number, name in SIDE_NAMES.items()}[error["side"]]
        dr, dc = STEP[side]
        cx, cy = (error["column"] - 1) * CELL + half, (error["row"] - 1) * CELL + half
        marks.append({"x": cx + dc * (half - 4), "y": cy + dr * (half - 4)})
    size = SIZE * CELL
    return {
        "size": size,
        "view_box": f"-14 -14 {size + 28} {size + 28}",
        "lines": [index * CELL for index in range(SIZE + 1)],
        "center": {"x": 2 * CELL, "y": 2 * CELL, "size": 3 * CELL},
        "strokes": strokes,
        "exits": exits,
        "errors": marks,
    }
