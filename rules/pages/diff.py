"""The difference between two revisions of a page, line by line, as rows of a side-by-side table."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

CONTEXT = 2  # unchanged lines shown around each change


@dataclass(frozen=True)
class DiffRow:
    kind: str  # "equal", "delete", "insert", "replace", "skip" (unchanged lines left out)
    old_number: int | None = None
    old_text: str = ""
    new_number: int | None = None
    new_text: str = ""


def diff_rows(old: str, new: str, *, context: int = CONTEXT) -> list[DiffRow]:
    """Rows of a side-by-side diff: changed lines paired up, unchanged runs cut to `context` lines."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    rows: list[DiffRow] = []
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        if rows:
            rows.append(DiffRow("skip"))
        for tag, i1, i2, j1, j2 in group:
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
