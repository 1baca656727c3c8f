"""What the apps tell the annual report: the only way their figures reach it.

The report app imports no app that keeps the figures (loans, on-site play, events…): each of them
registers here, from its `AppConfig.ready()`, the sections it writes, so that none of them is imported
back and a new app adds its section without the report knowing it. Only the catalogue, which imports
nothing of the others, is read directly (the sites, the collection).

- **Sections**: `build(year, site)` gives a `Section` of tables for a year, all sites (site None) or
  one (a `catalogue.Location` id); the page draws a chart beside each table, and exports each as CSV.
- **Served families**: a label and `member_ids(year, site)` gives a queryset of the ids of the member families an
  app served that year (the lending app: they borrowed; on-site play: they came to play). The section
  of families served counts the union, each family once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import QuerySet


@dataclass
class Table:
    """A table of figures: a label per row, then one number per column; charted and exported as is."""

    slug: str
    title: str
    columns: list[str]
    rows: list[list]
    # The columns drawn on the chart (indexes into the numbers); None: all of them.
    charted: list[int] | None = None
    total: bool = True

    @property
    def numbers(self) -> list[str]:
        return self.columns[1:]

    @property
    def total_row(self) -> list[int]:
        return [sum(row[index] for row in self.rows) for index in range(1, len(self.columns))]


@dataclass
class Section:
    """One part of the report (« Prêts », « Collection »…): its tables and what a reader should know."""

    slug: str
    title: str
    tables: list[Table]
    notes: list[str] = field(default_factory=list)


Builder = Callable[[int, int | None], Section]

_sections: dict[str, tuple[int, Builder]] = {}
_served: list[tuple[Callable[[], str], Callable[[int, int | None], QuerySet]]] = []


def register_section(slug: str, build: Builder, *, order: int) -> None:
    _sections[slug] = (order, build)


def sections(year: int, site: int | None) -> list[Section]:
    """Every registered section for the year and site, in their order."""
    return [build(year, site) for _, build in sorted(_sections.values(), key=lambda entry: entry[0])]


def section_slugs() -> list[str]:
    return [slug for slug, _ in sorted(_sections.items(), key=lambda entry: entry[1][0])]


def register_served(label: Callable[[], str], member_ids: Callable[[int, int | None], QuerySet]) -> None:
    """`label()` says how the app served them (« Ont emprunté un jeu »), in the reader's language."""
    if (label, member_ids) not in _served:
        _served.append((label, member_ids))


def served_member_ids(year: int, site: int | None) -> list[tuple[str, QuerySet]]:
    """Each app's label and queryset of the member families it served (ids), to be counted as one union."""
    return [(str(label()), member_ids(year, site)) for label, member_ids in _served]
