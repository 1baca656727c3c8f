"""The lending app's part of the annual report: families and people served, loans, members.

Registered with the report (`report/registry.py`) from `LoansConfig.ready()`. Loans count from the
history as kept: an anonymised loan (its family link cut, privacy/) still counts as a loan, by
month, site and ESAR group; only the families served no longer know it.
"""

import datetime
from functools import reduce
from operator import or_

from django.db.models import Count, Exists, F, OuterRef, Q, Value
from django.db.models.functions import TruncMonth
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ledger.models import Membership
from members.models import HouseholdMember, Member
from report.figures import AGE_GROUPS, by_month, esar_rows, month_rows
from report.registry import Section, Table, served_member_ids

from .models import Loan


def _loans(year: int, site: int | None):
    loans = Loan.objects.filter(lent_at__year=year).order_by()
    return loans if site is None else loans.filter(copy__location_id=site)


def borrowers(year: int, site: int | None):
    """The families that borrowed a game in the year (of the site), as ids (a registered served list)."""
    return _loans(year, site).filter(member__isnull=False).values("member_id")


def borrowers_label() -> str:
    return _("Ont emprunté un jeu")


def _age_filter(low: int, high: int | None) -> Q:
    return Q(age__gte=low) if high is None else Q(age__gte=low, age__lte=high)


def _anonymised_note(count: int) -> list[str]:
    if not count:
        return []
    message = ngettext(
        "%(count)s prêt de l'année est anonymisé : il compte parmi les prêts, pas sa famille, qui n'est plus connue.",
        "%(count)s prêts de l'année sont anonymisés : ils comptent parmi les prêts, pas leurs familles, qui ne sont plus connues.",
        count,
    )
    return [message % {"count": count}]


def served_section(year: int, site: int | None) -> Section:
    """Member families served (by each app, then each once) and the people of their households by age group."""
    sources = served_member_ids(year, site)
    served = reduce(or_, (Q(pk__in=ids) for _label, ids in sources), Q(pk__in=[]))
    counts = Member.objects.aggregate(
        all=Count("pk", filter=served),
        **{f"s{index}": Count("pk", filter=Q(pk__in=ids)) for index, (_label, ids) in enumerate(sources)},
    )
    groups = {
        f"g{index}": Count("pk", filter=_age_filter(low, high))
        for index, (low, high, _label) in enumerate(AGE_GROUPS)
    }
    ages = (
        HouseholdMember.objects.filter(member__in=Member.objects.filter(served).values("pk"))
        .annotate(age=Value(year) - F("birth_year"))
        .aggregate(**groups)
    )
    families = [[label, counts[f"s{index}"]] for index, (label, _ids) in enumerate(sources)]
    families.append([_("Familles servies (chacune une fois)"), counts["all"]])
    people = [[str(label), ages[f"g{index}"]] for index, (_low, _high, label) in enumerate(AGE_GROUPS)]
    return Section(
        slug="familles",
        title=_("Familles et personnes servies"),
        tables=[
            Table(
                "familles",
                _("Familles adhérentes servies"),
                [_("Familles"), _("Nombre")],
                families,
                total=False,
            ),
            Table("ages", _("Personnes des familles servies, par âge"), [_("Âge"), _("Personnes")], people),
        ],
        notes=_anonymised_note(_loans(year, site).filter(member__isnull=True).count()),
    )


def loans_section(year: int, site: int | None) -> Section:
    """Loans made in the year, by month, by site (the copy's) and by ESAR group (the game's category)."""
    loans = _loans(year, site)
    months = by_month(loans.annotate(month=TruncMonth("lent_at")).values("month").annotate(n=Count("pk")))
    sites = loans.values_list("copy__location__name").annotate(n=Count("pk")).order_by("copy__location__name")
    codes = loans.values_list("copy__game__category__code").annotate(n=Count("pk"))
    return Section(
        slug="prets",
        title=_("Prêts"),
        tables=[
            Table(
                "prets-mois",
                _("Prêts par mois"),
                [_("Mois"), _("Prêts")],
                month_rows(year, {month: [count] for month, count in months.items()}, 1),
            ),
            Table(
                "prets-sites", _("Prêts par site"), [_("Site"), _("Prêts")], [[name, n] for name, n in sites]
            ),
            Table(
                "prets-esar",
                _("Prêts par groupe ESAR"),
                [_("Groupe ESAR"), _("Prêts")],
                esar_rows(((code, [n]) for code, n in codes), 1),
            ),
        ],
    )


def members_section(year: int, site: int | None) -> Section:
    """New families (registered in the year) by month, and the families whose membership ran in the year."""
    start, end = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
    new = by_month(
        Member.objects.filter(created_at__year=year)
        .annotate(month=TruncMonth("created_at"))
        .order_by()
        .values("month")
        .annotate(n=Count("pk"))
    )
    recorded = Membership.objects.filter(member=OuterRef("pk"), start__lte=end, end__gte=start)
    active = Member.objects.filter(
        Q(membership_start__lte=end, membership_expiry__gte=start) | Exists(recorded)
    ).count()
    renewed = Membership.objects.filter(start__year=year).count()
    notes = [_("Les adhésions valent pour tous les sites.")] if site is not None else []
    return Section(
        slug="adherents",
        title=_("Adhérents"),
        tables=[
            Table(
                "adherents-mois",
                _("Nouvelles familles adhérentes par mois"),
                [_("Mois"), _("Nouvelles familles")],
                month_rows(year, {month: [count] for month, count in new.items()}, 1),
            ),
            Table(
                "adherents",
                _("Familles adhérentes de l'année"),
                [_("Familles"), _("Nombre")],
                [
                    [_("Nouvelles familles inscrites"), sum(new.values())],
                    [_("Familles adhérentes un jour de l'année (actives)"), active],
                    [_("Adhésions enregistrées dans l'année"), renewed],
                ],
                total=False,
            ),
        ],
        notes=notes,
    )
