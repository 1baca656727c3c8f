"""Label sheets and box stickers: Code 128 barcodes as SVG, and where each label goes on an A4 sheet.

The bars are computed by python-barcode (its Code 128 encoder picks the code sets, adds the check
character and the stop pattern); `_Bars` is a writer of that library that keeps each bar as a
rectangle, drawn by the templates with SVG attributes only (no `style` attribute: the site's
Content Security Policy may forbid them). Sizes are millimetres: a sheet is an SVG whose user unit
is the millimetre, so what the browser prints is what this module computes.
"""

import math
from dataclasses import dataclass

from barcode import Code128
from barcode.errors import BarcodeError
from barcode.writer import BaseWriter
from django.utils.translation import gettext_lazy as _

A4_WIDTH, A4_HEIGHT = 210.0, 297.0
# Code 128 wants a blank of at least ten bar widths on each side.
QUIET_MODULES = 10
# Average advance of a character, as a share of the font size (sans-serif, regular and bold): used
# to cut the title before it overflows the label, since SVG text does not wrap.
CHAR_WIDTH = 0.56
MAX_LABELS = 500


@dataclass(frozen=True)
class Bar:
    x: float
    width: float


@dataclass(frozen=True)
class BarcodeDrawing:
    """A barcode's bars in modules (the narrowest bar is 1), quiet zones included in `width`."""

    value: str
    bars: tuple[Bar, ...]
    width: int


class _Bars(BaseWriter):
    """python-barcode's renderer, keeping the black bars instead of writing a file."""

    def __init__(self) -> None:
        super().__init__(self._start, self._paint, None, self._finish)
        self._bars: list[Bar] = []

    def _start(self, code: list[str]) -> None:
        self._bars = []

    def _paint(self, xpos: float, ypos: float, width: float, color: str) -> None:
        if color == self.foreground:
            self._bars.append(Bar(x=xpos, width=width))

    def _finish(self) -> tuple[Bar, ...]:
        return tuple(self._bars)


def code128(value: str) -> BarcodeDrawing | None:
    """The Code 128 bars of `value`, or None if it has characters Code 128 cannot carry (accents)."""
    try:
        symbol = Code128(value, writer=_Bars())
        bars = symbol.render({"module_width": 1, "quiet_zone": QUIET_MODULES, "write_text": False})
    except (BarcodeError, ValueError, KeyError):
        return None
    modules = len(symbol.build()[0])
    return BarcodeDrawing(value=value, bars=bars, width=modules + 2 * QUIET_MODULES)


@dataclass(frozen=True)
class SheetLayout:
    """A sheet of labels: the grid, the sheet's top and side margins, the gaps between labels (mm)."""

    rows: int
    columns: int
    margin_top: float
    margin_side: float
    gap_x: float = 0.0
    gap_y: float = 0.0

    @property
    def per_sheet(self) -> int:
        return self.rows * self.columns

    @property
    def label_width(self) -> float:
        return (A4_WIDTH - 2 * self.margin_side - (self.columns - 1) * self.gap_x) / self.columns

    @property
    def label_height(self) -> float:
        return (A4_HEIGHT - 2 * self.margin_top - (self.rows - 1) * self.gap_y) / self.rows

    def position(self, index: int) -> tuple[float, float]:
        """The top-left corner of the label at `index` on its sheet (row by row)."""
        row, column = divmod(index, self.columns)
        return (
            self.margin_side + column * (self.label_width + self.gap_x),
            self.margin_top + row * (self.label_height + self.gap_y),
        )


# Common A4 label sheets: 24 labels of 70 × 37 mm edge to edge; 14 labels of 99.1 × 38.1 mm.
PRESETS = {
    "3x8": (_("3 × 8 (24 étiquettes de 70 × 37 mm)"), SheetLayout(8, 3, margin_top=0.5, margin_side=0)),
    "2x7": (
        _("2 × 7 (14 étiquettes de 99,1 × 38,1 mm)"),
        SheetLayout(7, 2, margin_top=15.15, margin_side=4.65, gap_x=2.5),
    ),
}


def _lines(text: str, width: float, font_size: float, max_lines: int) -> list[str]:
    """`text` cut into at most `max_lines` lines that fit `width`, the last one ending in … if cut."""
    per_line = max(4, int(width / (font_size * CHAR_WIDTH)))
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and len(line) + 1 + len(words[0]) <= per_line:
            line += " " + words.pop(0)
        lines.append(line)
    if words or (lines and len(lines[-1]) > per_line):
        lines[-1] = lines[-1][: per_line - 1].rstrip() + "…"
    return lines


@dataclass
class Label:
    """One copy's label, laid out in its box: every coordinate is in mm from the sheet's corner."""

    copy: object
    x: float
    y: float
    width: float
    height: float

    def __post_init__(self) -> None:
        pad = min(3.0, self.height * 0.08)
        inner = self.width - 2 * pad
        self.title_size = min(3.4, self.height * 0.095)
        self.small_size = self.title_size * 0.8
        self.cote_size = self.title_size * 1.2
        self.left, self.right = self.x + pad, self.x + self.width - pad
        self.title_lines = [
            (self.y + pad + self.title_size * (1 + 1.15 * n), line)
            for n, line in enumerate(_lines(self.copy.game.title, inner, self.title_size, 2))
        ]
        self.bottom = self.y + self.height - pad
        bars_top = self.y + pad + self.title_size * 2.5
        bars_height = self.bottom - self.cote_size * 1.3 - self.small_size * 1.3 - bars_top
        self.barcode = code128(self.copy.barcode)
        self.digits_y = bars_top + bars_height + self.small_size * 1.1
        self.centre = self.x + self.width / 2
        self.site = _lines(self.copy.location.name, inner * 0.55, self.small_size, 1)[0]
        if self.barcode is not None:
            # As wide as the label allows, never wider than 0.5 mm per module (long labels, short codes).
            module = min(inner / self.barcode.width, 0.5)
            self.bars_x = self.centre - module * self.barcode.width / 2
            self.bars_y, self.bars_width, self.bars_height = (
                bars_top,
                module * self.barcode.width,
                bars_height,
            )
        # Two decimals (1/100 mm) are plenty, and keep the SVG short.
        for name, value in vars(self).items():
            if isinstance(value, float):
                setattr(self, name, round(value, 2))
        self.title_lines = [(round(y, 2), line) for y, line in self.title_lines]


def label_sheets(copies: list, layout: SheetLayout, *, offset: int = 0) -> list[list[Label]]:
    """The copies' labels sheet by sheet, the first sheet starting after `offset` used labels."""
    offset = offset % layout.per_sheet
    sheets: list[list[Label]] = [[] for _ in range(math.ceil((offset + len(copies)) / layout.per_sheet))]
    for number, copy in enumerate(copies, start=offset):
        x, y = layout.position(number % layout.per_sheet)
        sheets[number // layout.per_sheet].append(
            Label(copy=copy, x=x, y=y, width=layout.label_width, height=layout.label_height)
        )
    return sheets
