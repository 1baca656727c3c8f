"""Small scoring primitives that rule books keep reusing: majorities, places, tables, sets.

Every function is pure and works on plain mappings keyed by player name (or any hashable key).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from enum import Enum
from itertools import combinations_with_replacement


class AmbiguousTie(ValueError):
    """A tie the declared tie-break cannot settle (two players with the same deciding value)."""

    def __init__(self, keys: Sequence):
        super().__init__(f"tie between {list(keys)} cannot be broken")
        self.keys = list(keys)


def leaders[K: Hashable](counts: Mapping[K, int], *, minimum: int = 1) -> list[K]:
    """The keys holding the highest count, provided it reaches `minimum`; in input order."""
    if not counts:
        return []
    best = max(counts.values())
    if best < minimum:
        return []
    return [key for key, count in counts.items() if count == best]


class Tie(Enum):
    """What happens when several players share a majority."""

    ALL_SCORE = "all_score"  # every tied player scores the full amount
    HALF_IF_TWO = "half_if_two"  # two tied score half each (rounded down), three or more score nothing
    NOBODY = "nobody"  # a tie scores nothing
    SPLIT = "split"  # the tied players share the amount, rounded down
    BREAK = "break"  # a tie-break key decides; equal keys are an AmbiguousTie


def majority[K: Hashable](
    counts: Mapping[K, int],
    points: int,
    *,
    tie: Tie,
    minimum: int = 1,
    tie_break: Callable[[K], object] | None = None,
) -> dict[K, int]:
    """Points won by each key for holding the most of something (absent keys score nothing).

    With `Tie.BREAK`, `tie_break(key)` gives a value where *lower* wins (a card letter closest to A).
    """
    top = leaders(counts, minimum=minimum)
    if not top:
        return {}
    if len(top) == 1:
        return {top[0]: points}
    if tie is Tie.ALL_SCORE:
        return dict.fromkeys(top, points)
    if tie is Tie.HALF_IF_TWO:
        return dict.fromkeys(top, points // 2) if len(top) == 2 else {}
    if tie is Tie.NOBODY:
        return {}
    if tie is Tie.SPLIT:
        return dict.fromkeys(top, points // len(top))
    if tie is Tie.BREAK:
        if tie_break is None:
            raise ValueError("Tie.BREAK needs a tie_break key")
        best = min(tie_break(key) for key in top)
        winners = [key for key in top if tie_break(key) == best]
        if len(winners) > 1:
            raise AmbiguousTie(winners)
        return {winners[0]: points}
    raise ValueError(tie)


def places[K: Hashable](
    counts: Mapping[K, int], points_by_place: Sequence[int], *, minimum: int = 1
) -> dict[K, int]:
    """Points for first, second, third… place; tied keys pool the places they occupy and share them.

    Keys below `minimum` take no place. Shares are rounded down (Alhambra's scoring rounds).
    """
    ranked = sorted((count for count in counts.values() if count >= minimum), reverse=True)
    awarded: dict[K, int] = {}
    position = 0
    for count in sorted(set(ranked), reverse=True):
        holders = [key for key, value in counts.items() if value == count]
        occupied = points_by_place[position : position + len(holders)]
        if occupied:
            share = sum(occupied) // len(holders)
            for key in holders:
                awarded[key] = share
        position += len(holders)
    return awarded


class Table:
    """A lookup table from a count to a value, as printed in a rule book.

    `clamp=True` makes counts above the last entry read the last value ("8 sets or more").
    """

    def __init__(self, values: Mapping[int, object] | Sequence[object], *, clamp: bool = False):
        self.values = dict(enumerate(values)) if isinstance(values, Sequence) else dict(values)
        self.clamp = clamp

    def __getitem__(self, count: int):
        if count in self.values:
            return self.values[count]
        if self.clamp and count > max(self.values):
            return self.values[max(self.values)]
        raise KeyError(count)

    def __contains__(self, count: int) -> bool:
        return count in self.values or (self.clamp and count > max(self.values))


def complete_sets(
    counts: Mapping[str, int], kinds: Iterable[str], *, wild: int = 0, wild_per_set: int | None = None
) -> int:
    """The most complete sets (one of each kind) the counts make, wild cards standing in for any kind.

    A set may hold at most `wild_per_set` wild cards. With deficits d_k = max(0, s − count_k), s sets
    are possible exactly when Σ d_k ≤ wild and Σ d_k ≤ wild_per_set × s (each set misses a kind at
    most once, so spreading the missing cards round-robin keeps every set within the limit).
    """
    kinds = list(kinds)
    limit = len(kinds) if wild_per_set is None else wild_per_set

    def possible(sets: int) -> bool:
        missing = sum(max(0, sets - counts.get(kind, 0)) for kind in kinds)
        return missing <= wild and missing <= limit * sets

    sets = 0
    upper = max((counts.get(kind, 0) for kind in kinds), default=0) + wild
    while sets < upper and possible(sets + 1):
        sets += 1
    return sets


def best_with_wilds(
    counts: Mapping[str, int], kinds: Sequence[str], wild: int, score: Callable[[dict[str, int]], int]
) -> tuple[int, dict[str, int]]:
    """Place each wild symbol where it scores most; return the best score and the counts it uses."""
    best: tuple[int, dict[str, int]] | None = None
    for choice in combinations_with_replacement(kinds, wild):
        trial = dict(counts)
        for kind in choice:
            trial[kind] = trial.get(kind, 0) + 1
        trial_score = score(trial)
        if best is None or trial_score > best[0]:
            best = (trial_score, trial)
    assert best is not None
    return best
