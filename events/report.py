"""The events' part of the annual report: events held and who came, by month and by site.

Registered with the report (`report/registry.py`) from `EventsConfig.ready()`; the attendance is the
sheet ticked on the day (present, absent, walk-ins), as on the on-site statistics page.
"""

from collections import defaultdict

from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncMonth
from django.utils.translation import gettext as _

from catalogue.models import Location
from report.figures import month_of, month_rows
from report.registry import Section, Table

from .models import Booking, Event

PRESENT = Q(attendance=Booking.Attendance.PRESENT)


def _held(year: int, site: int | None):
    events = Event.objects.not_cancelled().filter(starts_at__year=year).order_by()
    return events if site is None else events.filter(location_id=site)


def attendees(year: int, site: int | None):
    """The member families present at an event of the year (at the site), as ids (a registered served list)."""
    return (
        Booking.objects.confirmed()
        .filter(PRESENT, event__in=_held(year, site), member__isnull=False)
        .order_by()
        .values("member_id")
    )


def attendees_label() -> str:
    return _("Sont venues à une animation")


def _counts(year: int, site: int | None) -> tuple[dict, dict]:
    """Events, families present, children, adults and bookings absent: by month, and by site."""
    months: dict[int, list[int]] = defaultdict(lambda: [0] * 5)
    sites: dict[str, list[int]] = defaultdict(lambda: [0] * 5)
    held = _held(year, site)
    for row in (
        held.annotate(month=TruncMonth("starts_at")).values("month", "location__name").annotate(n=Count("pk"))
    ):
        months[month_of(row["month"])][0] += row["n"]
        sites[row["location__name"]][0] += row["n"]
    bookings = (
        Booking.objects.confirmed()
        .filter(event__in=held)
        .order_by()
        .annotate(month=TruncMonth("event__starts_at"))
        .values("month", "event__location__name")
        .annotate(
            families=Count("pk", filter=PRESENT),
            children=Sum("children", filter=PRESENT),
            adults=Sum("adults", filter=PRESENT),
            absent=Count("pk", filter=Q(attendance=Booking.Attendance.ABSENT)),
        )
    )
    for row in bookings:
        figures = [row["families"], row["children"] or 0, row["adults"] or 0, row["absent"]]
        for index, value in enumerate(figures, start=1):
            months[month_of(row["month"])][index] += value
            sites[row["event__location__name"]][index] += value
    return months, sites


def _site_names(site: int | None) -> list[str]:
    """Every site (or the one asked for), events or not: the table and its chart list them all."""
    locations = Location.objects.order_by("name")
    return list((locations if site is None else locations.filter(pk=site)).values_list("name", flat=True))


def section(year: int, site: int | None) -> Section:
    months, sites = _counts(year, site)
    columns = [
        _("Animations"),
        _("Familles présentes"),
        _("Enfants"),
        _("Adultes"),
        _("Réservations absentes"),
    ]
    return Section(
        slug="animations",
        title=_("Animations"),
        tables=[
            Table(
                "animations-mois",
                _("Animations et présences par mois"),
                [_("Mois"), *columns],
                month_rows(year, dict(months), 5),
                charted=[1, 2, 3],
            ),
            Table(
                "animations-sites",
                _("Animations par site"),
                [_("Site"), *columns],
                [[name, *sites.get(name, [0] * 5)] for name in _site_names(site)],
                charted=[0, 2, 3],
            ),
        ],
        notes=[
            _(
                "Les présences sont la feuille pointée le jour même ; une personne non adhérente venue compte "
                "dans les présences, pas parmi les familles servies."
            )
        ],
    )
