"""Every CSV the site exports, written one way: as a French spreadsheet opens it, and safe to open.

UTF-8 with the BOM spreadsheets look for, `;` between cells, decimal commas. A text cell that a
spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return:
a ledger note `=cmd|' /C calc'!A0`, a title `=HYPERLINK(…)`) is written after an apostrophe, which
makes it text; numbers the export writes itself (an int, a Decimal: « -25,00 ») are left as they are.
The site's own imports take that apostrophe off again (`plain_cell()`), so an export re-imports as is.
"""

import csv
import datetime
from collections.abc import Iterable, Iterator
from decimal import Decimal

SEPARATOR = ";"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value) -> str:
    """One cell's text: numbers as numbers (decimal comma), text made inert if it starts a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Decimal):
        return f"{value:.2f}".replace(".", ",")
    if isinstance(value, int | float | datetime.date | datetime.time):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def plain_cell(text: str) -> str:
    """A cell as it was before safe_cell() made it inert (the imports read back what the site wrote)."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text


class _Echo:
    """A file whose write() returns the line: the CSV is streamed, never held whole."""

    def write(self, value: str) -> str:
        return value


def csv_lines(header: list[str], rows: Iterable[Iterable]) -> Iterator[str]:
    """The header and the rows as CSV text, line by line (for a StreamingHttpResponse)."""
    writer = csv.writer(_Echo(), delimiter=SEPARATOR, lineterminator="\r\n")
    yield "\ufeff" + writer.writerow([safe_cell(name) for name in header])
    for row in rows:
        yield writer.writerow([safe_cell(value) for value in row])
