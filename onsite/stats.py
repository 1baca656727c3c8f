"""On-site play's figures for a year: attendance per month and site, plays per game, on-site vs loans,
and the events' attendance (their sheets ticked on the day: present, absent, walk-ins).

Each table is a few grouped queries (months in the site's time zone, `TruncMonth`), shown on the
statistics page and exported as CSV for the annual report to funders.
"""

from collections import defaultdict

from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncMonth
from django.utils import timezone

from events.models import Booking, Event
from loans.models import Loan

from .models import Play, Session, TableUse, Visit

MONTHS = range(1, 13)


def _month(value) -> int:
    return timezone.localtime(value).month if timezone.is_aware(value) else value.month


def attendance(year: int) -> list[dict]:
    """One row per month and site that had sessions: sessions, families (members, others), children, adults."""
    rows: dict[tuple[int, str], dict] = {}
    sessions = (
        Session.objects.filter(opened_at__year=year)
        .annotate(month=TruncMonth("opened_at"))
        .values("month", "location__name")
        .annotate(sessions=Count("pk"))
    )
    for row in sessions:
        key = (_month(row["month"]), row["location__name"])
        rows[key] = {
            "month": key[0],
            "site": key[1],
            "sessions": row["sessions"],
            "families": 0,
            "members": 0,
            "non_members": 0,
            "children": 0,
            "adults": 0,
        }
    visits = (
        Visit.objects.filter(session__opened_at__year=year)
        .annotate(month=TruncMonth("session__opened_at"))
        .values("month", "session__location__name")
        .annotate(
            families=Count("pk"),
            members=Count("pk", filter=Q(member__isnull=False)),
            children=Sum("children"),
            adults=Sum("adults"),
        )
    )
    for row in visits:
        entry = rows[(_month(row["month"]), row["session__location__name"])]
        entry.update(
            families=row["families"],
            members=row["members"],
            non_members=row["families"] - row["members"],
            children=row["children"] or 0,
            adults=row["adults"] or 0,
        )
    return [rows[key] for key in sorted(rows)]


def attendance_totals(rows: list[dict]) -> dict:
    keys = ("sessions", "families", "members", "non_members", "children", "adults")
    return {key: sum(row[key] for row in rows) for key in keys}


def plays_per_game(year: int) -> list[dict]:
    """Per game: plays counted from its score sheets and copies taken to a table, most played first."""
    games: dict[str, dict] = defaultdict(lambda: {"plays": 0, "tables": 0})
    for row in (
        Play.objects.filter(session__opened_at__year=year).values("game__title").annotate(count=Count("pk"))
    ):
        games[row["game__title"]]["plays"] = row["count"]
    for row in (
        TableUse.objects.filter(session__opened_at__year=year)
        .values("copy__game__title")
        .annotate(count=Count("pk"))
    ):
        games[row["copy__game__title"]]["tables"] = row["count"]
    return sorted(
        ({"game": title} | counts for title, counts in games.items()),
        key=lambda row: (-row["plays"], -row["tables"], row["game"]),
    )


def onsite_vs_loans(year: int) -> list[dict]:
    """Per month: games lent to take home, games taken to a table, plays counted, people who came to play."""
    table = {month: {"month": month, "loans": 0, "tables": 0, "plays": 0, "people": 0} for month in MONTHS}

    def add(queryset, field: str, key: str, value="pk", how=Count) -> None:
        for row in queryset.annotate(month=TruncMonth(field)).values("month").annotate(n=how(value)):
            table[_month(row["month"])][key] += row["n"] or 0

    add(Loan.objects.filter(lent_at__year=year), "lent_at", "loans")
    add(TableUse.objects.filter(session__opened_at__year=year), "session__opened_at", "tables")
    add(Play.objects.filter(session__opened_at__year=year), "session__opened_at", "plays")
    add(Visit.objects.filter(session__opened_at__year=year), "session__opened_at", "people", "children", Sum)
    add(Visit.objects.filter(session__opened_at__year=year), "session__opened_at", "people", "adults", Sum)
    return [table[month] for month in MONTHS]


def event_attendance(year: int) -> list[dict]:
    """One row per month and site that held events (not cancelled): events, bookings present (of
    members, of others, walk-ins among them), children and adults present, bookings absent."""
    rows: dict[tuple[int, str], dict] = {}
    held = Event.objects.not_cancelled().filter(starts_at__year=year)
    for row in (
        held.annotate(month=TruncMonth("starts_at")).values("month", "location__name").annotate(n=Count("pk"))
    ):
        key = (_month(row["month"]), row["location__name"])
        rows[key] = {"month": key[0], "site": key[1], "events": row["n"], "families": 0, "members": 0}
        rows[key] |= {"walk_ins": 0, "children": 0, "adults": 0, "absent": 0}
    present = Q(attendance=Booking.Attendance.PRESENT)
    bookings = (
        Booking.objects.confirmed()
        .filter(event__in=held)
        .annotate(month=TruncMonth("event__starts_at"))
        .values("month", "event__location__name")
        .annotate(
            families=Count("pk", filter=present),
            members=Count("pk", filter=present & Q(member__isnull=False)),
            walk_ins=Count("pk", filter=present & Q(walk_in=True)),
            children=Sum("children", filter=present),
            adults=Sum("adults", filter=present),
            absent=Count("pk", filter=Q(attendance=Booking.Attendance.ABSENT)),
        )
    )
    for row in bookings:
        entry = rows[(_month(row["month"]), row["event__location__name"])]
        entry.update(
            {
                key: row[key] or 0
                for key in ("families", "members", "walk_ins", "children", "adults", "absent")
            }
        )
    return [rows[key] for key in sorted(rows)]
