"""The difference between two revisions of a page, line by line, as rows of a side-by-side table.

The lines are matched by Myers' algorithm (a shortest edit script, as `diff` and git find it), whose
cost grows with the size of the texts times the number of lines that differ, and which stops after
DIFF_BUDGET steps: two revisions too different to be compared within it are refused with a message
(difflib's SequenceMatcher, used before, took two minutes on two 4 KB texts of repeated lines).
Lines found in only one of the texts can match nothing: they are set aside first, as GNU diff does,
so a rewritten page costs no more than the lines the two versions still share.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

CONTEXT = 2  # unchanged lines shown around each change
# Steps of the comparison: about a third of a second here, and far more than two versions of a real
# page need (7 Wonders' page, 17 KB, against itself with every other line rewritten).
DIFF_BUDGET = 2_000_000
# Rows of the comparison's table: each costs the page's template its share, and two real versions of
# a page (under 200 lines) never need more; two versions changed in more lines are not compared.
DIFF_MAX_ROWS = 500


class TooDifferent(Exception):
    """The two texts differ in too many lines to be compared within DIFF_BUDGET steps or shown in
    DIFF_MAX_ROWS rows."""


@dataclass(frozen=True)
class DiffRow:
    kind: str  # "equal", "delete", "insert", "replace", "skip" (unchanged lines left out)
    old_number: int | None = None
    old_text: str = ""
    new_number: int | None = None
    new_text: str = ""


def matching_blocks(old: list[str], new: list[str], *, budget: int = DIFF_BUDGET) -> list[difflib.Match]:
    """The runs of equal lines of a shortest edit script, as difflib's `get_matching_blocks()` gives them."""
    # The common start and end cost nothing to match.
    start = 0
    while start < len(old) and start < len(new) and old[start] == new[start]:
        start += 1
    end = 0
    while end < len(old) - start and end < len(new) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    # Lines as numbers, so comparing two long lines is one integer comparison; a line of only one
    # side can match nothing and is left out (kept: the positions of the others).
    numbers: dict[str, int] = {}
    old_middle = [numbers.setdefault(line, len(numbers)) for line in old[start : len(old) - end]]
    new_middle = [numbers.setdefault(line, len(numbers)) for line in new[start : len(new) - end]]
    shared = set(old_middle) & set(new_middle)
    old_kept = [i for i, line in enumerate(old_middle) if line in shared]
    new_kept = [j for j, line in enumerate(new_middle) if line in shared]
    a, b = [old_middle[i] for i in old_kept], [new_middle[j] for j in new_kept]
    blocks: list[list[int]] = [[0, 0, start]] if start else []
    for i, j in _myers(a, b, budget):
        i, j = old_kept[i] + start, new_kept[j] + start
        if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
            blocks[-1][2] += 1
        else:
            blocks.append([i, j, 1])
    if end:
        i, j = len(old) - end, len(new) - end
        if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
            blocks[-1][2] += end
        else:
            blocks.append([i, j, end])
    return [difflib.Match(*block) for block in blocks] + [difflib.Match(len(old), len(new), 0)]


def _myers(a: list[int], b: list[int], budget: int) -> list[tuple[int, int]]:
    """The (i, j) pairs of equal items along a shortest edit script from `a` to `b` (Myers, 1986)."""
    n, m = len(a), len(b)
    if not n or not m:
        return []
    offset = n + m + 1
    furthest = [0] * (2 * offset + 1)  # furthest x reached on each diagonal k = x - y, at index k + offset
    trace: list[list[int]] = []
    steps = 0
    for d in range(n + m + 1):
        low, high = offset - d, offset + d + 1
        trace.append(furthest[low - 1 : high + 1])
        steps += high - low + 2
        for k in range(-d, d + 1, 2):
            index = k + offset
            if k == -d or (k != d and furthest[index - 1] < furthest[index + 1]):
                x = furthest[index + 1]  # a line inserted
            else:
                x = furthest[index - 1] + 1  # a line deleted
            y = x - k
            run = x
            while x < n and y < m and a[x] == b[y]:
                x, y = x + 1, y + 1
            steps += 1 + x - run
            furthest[index] = x
            if x >= n and y >= m:
                return _backtrack(trace, offset, n, m)
        if steps > budget:
            raise TooDifferent
    raise AssertionError("unreachable: d = n + m always ends the script")


def _backtrack(trace: list[list[int]], offset: int, n: int, m: int) -> list[tuple[int, int]]:
    """Walk the recorded diagonals back from the end, collecting the equal pairs in order."""
    pairs: list[tuple[int, int]] = []
    x, y = n, m
    for d in range(len(trace) - 1, -1, -1):
        saved = trace[d]  # furthest[offset - d - 1 : offset + d + 2] before step d: diagonal k at k + d + 1
        k = x - y
        down = k == -d or (k != d and saved[k - 1 + d + 1] < saved[k + 1 + d + 1])
        previous_k = k + 1 if down else k - 1
        previous_x = saved[previous_k + d + 1]
        previous_y = previous_x - previous_k
        while x > previous_x and y > previous_y:
            x, y = x - 1, y - 1
            pairs.append((x, y))
        x, y = previous_x, previous_y
    pairs.reverse()
    return pairs


class _Matcher(difflib.SequenceMatcher):
    """difflib's opcodes and grouping, over the matching blocks of `matching_blocks()`."""

    def __init__(self, old: list[str], new: list[str]):
        super().__init__(a=old, b=new, autojunk=False)
        self.matching_blocks = matching_blocks(old, new)


def diff_rows(old: str, new: str, *, context: int = CONTEXT) -> list[DiffRow]:
    """Rows of a side-by-side diff: changed lines paired up, unchanged runs cut to `context` lines.

    Raises TooDifferent when the texts differ in too many lines to be compared quickly, or to be shown
    in DIFF_MAX_ROWS rows.
    """
    old_lines, new_lines = old.splitlines(), new.splitlines()
    rows: list[DiffRow] = []
    matcher = _Matcher(old_lines, new_lines)
    for group in matcher.get_grouped_opcodes(context):
        if rows:
            rows.append(DiffRow("skip"))
        for tag, i1, i2, j1, j2 in group:
            if len(rows) + max(i2 - i1, j2 - j1) > DIFF_MAX_ROWS:
                raise TooDifferent
            if tag == "equal":
                for offset in range(i2 - i1):
                    rows.append(
                        DiffRow(
                            "equal",
                            i1 + offset + 1,
                            old_lines[i1 + offset],
                            j1 + offset + 1,
                            new_lines[j1 + offset],
                        )
                    )
            elif tag == "delete":
                rows.extend(DiffRow("delete", i + 1, old_lines[i]) for i in range(i1, i2))
            elif tag == "insert":
                rows.extend(DiffRow("insert", None, "", j + 1, new_lines[j]) for j in range(j1, j2))
            else:
                for offset in range(max(i2 - i1, j2 - j1)):
                    i, j = i1 + offset, j1 + offset
                    rows.append(
                        DiffRow(
                            "replace",
                            i + 1 if i < i2 else None,
                            old_lines[i] if i < i2 else "",
                            j + 1 if j < j2 else None,
                            new_lines[j] if j < j2 else "",
                        )
                    )
    return rows
