"""The report's charts: horizontal bars drawn as SVG on the server, readable printed in black and white.

Each series has its own fill pattern (solid, hatched, dotted, cross-hatched), shown in a legend, and
every bar carries its value: nothing is told by colour alone. The table beside the chart holds the
same figures (the chart's `<desc>` says so), for screen readers and for anyone who wants them exact.
"""

from dataclasses import dataclass

from .registry import Table

WIDTH = 680
LABEL_WIDTH = 240
VALUE_WIDTH = 50
BAR = 14
SERIES_GAP = 2
ROW_GAP = 8
LEGEND = 22
PATTERNS = ["solid", "hatch", "dots", "cross", "empty"]
LABEL_CHARS = 34


@dataclass
class Bar:
    x: int
    y: int
    width: float
    pattern: str
    value: int

    @property
    def value_x(self) -> float:
        return self.x + self.width + 4


@dataclass
class Row:
    label: str
    y: int
    bars: list[Bar]


def _short(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def bar_chart(table: Table) -> dict:
    """The geometry of `table`'s chart: a row of bars per table row, one bar per charted column."""
    series = table.charted if table.charted is not None else list(range(len(table.numbers)))
    legend = [
        {"label": table.numbers[index], "pattern": PATTERNS[number % len(PATTERNS)], "x": 10 + number * 150}
        for number, index in enumerate(series)
    ]
    top = LEGEND + 8 if len(series) > 1 else 4
    # Several series: thinner bars, so that twelve months of three fit on an A4 page with their table.
    bar = BAR if len(series) == 1 else BAR - 4
    largest = max((row[1 + index] for row in table.rows for index in series), default=0) or 1
    plot = WIDTH - LABEL_WIDTH - VALUE_WIDTH
    rows = []
    y = top
    for row in table.rows:
        bars = []
        for number, index in enumerate(series):
            value = row[1 + index]
            bar_y = y + number * (bar + SERIES_GAP)
            bars.append(
                Bar(LABEL_WIDTH, bar_y, round(plot * value / largest, 1), legend[number]["pattern"], value)
            )
        rows.append(Row(_short(str(row[0])), y + (len(series) * (bar + SERIES_GAP)) // 2, bars))
        y += len(series) * (bar + SERIES_GAP) + ROW_GAP
    return {
        "width": WIDTH,
        "height": y + 4,
        "label_x": LABEL_WIDTH - 6,
        "axis_x": LABEL_WIDTH,
        "top": top - 2,
        "legend": legend if len(series) > 1 else [],
        "rows": rows,
        "bar": bar,
        "text_dy": bar - 2,
    }
