"""How much a rules page's revision may hold, so that no page built from it costs more than a moment.

The renderer (markup.py) and the comparison (diff.py) are linear, but what a page costs is also what
is done per piece: the renderer per line and per table cell, the page's template per section and per
compared line. A 100 KB text of 12,500 one-line sections, of 50,000 lines or of 33,000 cells made
pages of seconds, some of them for anyone, every time. So a revision holds at most MAX_LINES lines,
MAX_CELL_SEPARATORS cells written on a line and MAX_SECTIONS sections (a real page, 7 Wonders'
17 KB, has 159 lines and 8 sections), refused with a message when saved; a revision saved before
these limits is shown with its sections past MAX_SECTIONS folded into the last one
(`bounded_sections()`), and the comparison stops at diff.DIFF_MAX_ROWS rows.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from .markup import Section, SectionKind, cut_sections

MAX_LINES = 3_000
MAX_SECTIONS = 100
# Cells written on one line (`| a || b`, `! a !! b`): each is rendered as a line is, so they count too.
MAX_CELL_SEPARATORS = 3_000


def check_revision_size(content: str) -> None:
    """Refuse a text of more than MAX_LINES lines, MAX_CELL_SEPARATORS cells or MAX_SECTIONS sections,
    saying which and by how much."""
    lines = content.count("\n") + 1
    if lines > MAX_LINES:
        raise ValidationError(
            _(
                "Une version compte %(limit)s lignes au plus ; ce texte en compte %(count)s. "
                "Regroupez des lignes, ou mettez une partie des règles dans un document joint à la notice."
            ),
            code="too_many_lines",
            params={"limit": MAX_LINES, "count": lines},
        )
    separators = content.count("||") + content.count("!!")
    if separators > MAX_CELL_SEPARATORS:
        raise ValidationError(
            _(
                "Une version compte %(limit)s cellules de tableau sur une même ligne (« || », « !! ») au plus ; "
                "ce texte en compte %(count)s. Écrivez une cellule par ligne, ou faites plusieurs tableaux."
            ),
            code="too_many_cells",
            params={"limit": MAX_CELL_SEPARATORS, "count": separators},
        )
    sections = len(cut_sections(content)) - 1  # the first is the text before any heading
    if sections > MAX_SECTIONS:
        raise ValidationError(
            _(
                "Une version compte %(limit)s sections au plus (titres « == … == ») ; ce texte en compte "
                "%(count)s. Faites des sous-sections (« === … === »)."
            ),
            code="too_many_sections",
            params={"limit": MAX_SECTIONS, "count": sections},
        )


def bounded_sections(sections: list[Section]) -> list[Section]:
    """At most MAX_SECTIONS sections: those past it become sub-headings of the last one, nothing lost."""
    if len(sections) <= MAX_SECTIONS:
        return sections
    kept, rest = sections[: MAX_SECTIONS - 1], sections[MAX_SECTIONS - 1 :]
    body = format_html_join(
        "\n",
        "{}{}",
        (
            (
                format_html('<h3 id="{}">{}</h3>', section.anchor, section.title) if index else "",
                section.body_html,
            )
            for index, section in enumerate(rest)
        ),
    )
    first = rest[0]
    return [*kept, Section(first.kind or SectionKind.OTHER, first.title, mark_safe(body), first.anchor)]
