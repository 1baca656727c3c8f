"""Hexagonal boards: axial coordinates, neighbours, rings and spirals, and the geometry to draw them.

Plain Python (no Django): a hex is `(q, r)` in axial coordinates, pointy side up, `r` growing
downwards (the rows of the drawing) and `q` to the right along a row. The drawing's geometry (hex
corners, centres, the two corners of a shared side) is computed here, in units of a hex's radius;
a template only writes the numbers into an SVG.

Also a tiny deterministic random generator (SplitMix64): a board drawn from a seed must be the same
board next year, whatever Python's `random` module does between versions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Hex = tuple[int, int]

# The six neighbours, counter-clockwise on the drawing from east: E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQRT3 = math.sqrt(3)


def add(a: Hex, b: Hex, times: int = 1) -> Hex:
    return a[0] + b[0] * times, a[1] + b[1] * times


def distance(a: Hex, b: Hex = (0, 0)) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(hex_: Hex) -> list[Hex]:
    return [add(hex_, direction) for direction in DIRECTIONS]


def are_neighbours(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def disc(radius: int) -> list[Hex]:
    """Every hex within `radius` of the centre, row by row (top row first, left to right)."""
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(max(-radius, -radius - r), min(radius, radius - r) + 1)
    ]


def ring(radius: int, start: int = 0) -> list[Hex]:
    """The hexes at `radius` from the centre, counter-clockwise on the drawing.

    It starts at the corner hex in direction `start` (0 = east, 1 = north-east, … 5 = south-east).
    """
    if radius == 0:
        return [(0, 0)]
    hex_ = add((0, 0), DIRECTIONS[start % 6], radius)
    found = []
    for side in range(6):
        # Walking counter-clockwise from a corner goes along the direction two steps further on.
        step = DIRECTIONS[(start + side + 2) % 6]
        for _ in range(radius):
            found.append(hex_)
            hex_ = add(hex_, step)
    return found


def spiral(radius: int, start: int = 0) -> list[Hex]:
    """From the corner hex in direction `start`, counter-clockwise ring after ring towards the centre."""
    order: list[Hex] = []
    for level in range(radius, -1, -1):
        order.extend(ring(level, start))
    return order


# --- drawing ---------------------------------------------------------------------------------------------


def centre(hex_: Hex) -> tuple[float, float]:
    """The centre of a hex on the drawing, a hex's radius being 1."""
    q, r = hex_
    return SQRT3 * (q + r / 2), 1.5 * r


def corners(hex_: Hex) -> list[tuple[float, float]]:
    """The six corners of a pointy-topped hex, clockwise from the upper right."""
    x, y = centre(hex_)
    return [
        (x + math.cos(math.radians(60 * i - 30)), y + math.sin(math.radians(60 * i - 30))) for i in range(6)
    ]


def shared_side(a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of the side that neighbours `a` and `b` share."""
    ax, ay = centre(a)
    bx, by = centre(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    nearest = sorted(corners(a), key=lambda corner: (corner[0] - mx) ** 2 + (corner[1] - my) ** 2)
    first, second = sorted(nearest[:2])
    return first, second


def bounds(hexes: Iterable[Hex], margin: float = 0.0) -> tuple[float, float, float, float]:
    """(x, y, width, height) around these hexes' corners, plus `margin`."""
    points = [corner for hex_ in hexes for corner in corners(hex_)]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (
        min(xs) - margin,
        min(ys) - margin,
        max(xs) - min(xs) + 2 * margin,
        max(ys) - min(ys) + 2 * margin,
    )


# --- a reproducible random generator -------------------------------------------------------------------

MASK64 = (1 << 64) - 1


class SeededRandom:
    """SplitMix64 (Steele, Lea, Flood 2014): the same seed gives the same draws on every Python."""

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A whole number in [0, bound), without modulo bias."""
        limit = MASK64 - (MASK64 + 1) % bound
        while True:
            value = self.next64()
            if value <= limit:
                return value % bound

    def shuffled(self, items: Sequence) -> list:
        """A Fisher–Yates shuffle of a copy of `items`."""
        result = list(items)
        for index in range(len(result) - 1, 0, -1):
            other = self.below(index + 1)
            result[index], result[other] = result[other], result[index]
        return result

    def choice(self, items: Sequence):
        return items[self.below(len(items))]
