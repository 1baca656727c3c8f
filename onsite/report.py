"""On-site play's part of the annual report: attendance, games taken to a table and plays, by month, site and ESAR group.

Registered with the report (`report/registry.py`) from `OnsiteConfig.ready()`; the same counts as the
statistics page (`stats.py`), for one site or all.
"""

from collections import defaultdict

from django.db.models import Count, Sum
from django.db.models.functions import TruncMonth
from django.utils.translation import gettext as _

from report.figures import esar_rows, month_of, month_rows
from report.registry import Section, Table

from .models import Play, Session, TableUse, Visit


def _of(queryset, year: int, site: int | None, session: str = "session__"):
    queryset = queryset.filter(**{f"{session}opened_at__year": year}).order_by()
    return queryset if site is None else queryset.filter(**{f"{session}location_id": site})


def visitors(year: int, site: int | None):
    """The member families that came to play in the year (at the site), as ids (a registered served list)."""
    return _of(Visit.objects, year, site).filter(member__isnull=False).values("member_id")


def visitors_label() -> str:
    return _("Sont venues jouer sur place")


def _per_month_and_site(year: int, site: int | None) -> tuple[dict, dict]:
    """Sessions, families, children, adults, games taken to a table and plays: by month, and by site."""
    months: dict[int, list[int]] = defaultdict(lambda: [0] * 6)
    sites: dict[str, list[int]] = defaultdict(lambda: [0] * 6)
    queries = [
        (_of(Session.objects, year, site, ""), "opened_at", "location__name", {0: Count("pk")}),
        (
            _of(Visit.objects, year, site),
            "session__opened_at",
            "session__location__name",
            {1: Count("pk"), 2: Sum("children"), 3: Sum("adults")},
        ),
        (
            _of(TableUse.objects, year, site),
            "session__opened_at",
            "session__location__name",
            {4: Count("pk")},
        ),
        (_of(Play.objects, year, site), "session__opened_at", "session__location__name", {5: Count("pk")}),
    ]
    for queryset, opened, location, figures in queries:
        rows = (
            queryset.annotate(month=TruncMonth(opened))
            .values("month", location)
            .annotate(**{f"n{index}": figure for index, figure in figures.items()})
        )
        for row in rows:
            for index in figures:
                months[month_of(row["month"])][index] += row[f"n{index}"] or 0
                sites[row[location]][index] += row[f"n{index}"] or 0
    return months, sites


def section(year: int, site: int | None) -> Section:
    months, sites = _per_month_and_site(year, site)
    tables_codes = (
        _of(TableUse.objects, year, site).values_list("copy__game__category__code").annotate(n=Count("pk"))
    )
    plays_codes = _of(Play.objects, year, site).values_list("game__category__code").annotate(n=Count("pk"))
    codes = [(code, [n, 0]) for code, n in tables_codes] + [(code, [0, n]) for code, n in plays_codes]
    people = [_("Séances"), _("Familles venues"), _("Enfants"), _("Adultes")]
    games = [_("Jeux sortis sur table"), _("Parties comptées")]
    return Section(
        slug="sur-place",
        title=_("Jeu sur place"),
        tables=[
            Table(
                "sur-place-frequentation",
                _("Fréquentation du jeu sur place par mois"),
                [_("Mois"), *people],
                month_rows(year, {month: counts[:4] for month, counts in months.items()}, 4),
                charted=[1, 2, 3],
            ),
            Table(
                "sur-place-jeux",
                _("Jeux sortis sur table et parties comptées par mois"),
                [_("Mois"), *games],
                month_rows(year, {month: counts[4:] for month, counts in months.items()}, 2),
            ),
            Table(
                "sur-place-sites",
                _("Jeu sur place par site"),
                [_("Site"), *people, *games],
                [[name, *counts] for name, counts in sorted(sites.items())],
                charted=[1, 4, 5],
            ),
            Table(
                "sur-place-esar",
                _("Jeu sur place par groupe ESAR"),
                [_("Groupe ESAR"), *games],
                esar_rows(codes, 2),
            ),
        ],
        notes=[
            _(
                "Les familles non adhérentes venues jouer comptent dans la fréquentation, pas parmi les familles servies."
            )
        ],
    )
