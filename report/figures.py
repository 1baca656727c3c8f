"""Shared shapes of the report's tables: twelve months, the ESAR groups, the age groups."""

import datetime
from collections.abc import Iterable

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from catalogue.esar import GROUPS, group_of

MONTHS = range(1, 13)
# The age groups funders ask for (age reached during the year: the birth year is all that is kept).
AGE_GROUPS = [
    (0, 3, _("0 à 3 ans")),
    (4, 6, _("4 à 6 ans")),
    (7, 11, _("7 à 11 ans")),
    (12, 17, _("12 à 17 ans")),
    (18, None, _("adultes (18 ans et plus)")),
]
OTHER_GROUP = _("autre classement ou sans catégorie")


def month_of(value) -> int:
    """The month of a `TruncMonth` value, in the site's time zone."""
    return timezone.localtime(value).month if isinstance(value, datetime.datetime) else value.month


def month_label(year: int, month: int) -> str:
    return date_format(datetime.date(year, month, 1), "F Y")


def month_rows(year: int, counts: dict[int, list[int]], width: int) -> list[list]:
    """One row per month of the year: its label, then `width` numbers (0 for a month without any)."""
    return [[month_label(year, month), *counts.get(month, [0] * width)] for month in MONTHS]


def by_month(rows: Iterable[dict], key: str = "n") -> dict[int, int]:
    """Sum the `key` of grouped rows (with a `month` from `TruncMonth`) per month."""
    counts: dict[int, int] = {}
    for row in rows:
        month = month_of(row["month"])
        counts[month] = counts.get(month, 0) + (row[key] or 0)
    return counts


def esar_rows(counts: Iterable[tuple[str | None, list[int]]], width: int) -> list[list]:
    """Sum numbers per category code into ESAR facet A groups: one row per group, the others last."""
    groups: dict[str | None, list[int]] = {code: [0] * width for code in GROUPS}
    for code, numbers in counts:
        group = group_of(code) if code else None
        total = groups.setdefault(group, [0] * width)
        groups[group] = [a + b for a, b in zip(total, numbers, strict=True)]
    rows = [[f"{code} {GROUPS[code]}", *groups[code]] for code in GROUPS]
    if None in groups:
        rows.append([str(OTHER_GROUP), *groups[None]])
    return rows
