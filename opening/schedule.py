"""The opening calendar of a site, for every app that needs a day the ludothèque is open.

    next_opening_day(site, day)     the first day on or after `day` the site is open
    is_open(site, day)              whether the site opens at all that day
    next_openings(site, day, n)     its next `n` openings (day, opening and closing time) from `day`

`site` is a `catalogue.Location` or its id. A site without opening hours has no calendar: every day
counts as open (`next_opening_day` returns the day itself) and it has no openings to show. Each call
costs one or two queries; to ask many questions about one or several sites, load their calendars
once with `site_calendar()` / `site_calendars()` and ask the `SiteCalendar` objects.
"""

import datetime
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet
from django.utils import formats

from catalogue.models import Copy, Location
from ludotheque.prepared import UNUSED_ID, PreparedRead

from .models import Closure, OpeningHours

# How far ahead a calendar looks for an opening: a site closed longer than that is treated as having
# no calendar (the day asked for is kept) rather than searched forever.
HORIZON_DAYS = 366


@dataclass(frozen=True)
class Opening:
    """One opening of a site: the day, and from when to when."""

    day: datetime.date
    opens_at: datetime.time
    closes_at: datetime.time


@dataclass
class SiteCalendar:
    """A site's weekly hours and its closures from some day on, read once and asked many times."""

    location_id: int
    # weekday (Monday 0) -> [(opens_at, closes_at)] in order
    hours: dict[int, list[tuple[datetime.time, datetime.time]]] = field(default_factory=dict)
    # (first day, last day, reason) of the closures ending on or after the day the calendar was read for
    closures: list[tuple[datetime.date, datetime.date, str]] = field(default_factory=list)

    @property
    def has_hours(self) -> bool:
        return bool(self.hours)

    def is_closed_by_closure(self, day: datetime.date) -> bool:
        return any(first <= day <= last for first, last, _reason in self.closures)

    def is_open(self, day: datetime.date) -> bool:
        """Whether the site opens on `day` (a site without hours counts as always open)."""
        if not self.has_hours:
            return True
        return day.weekday() in self.hours and not self.is_closed_by_closure(day)

    def next_opening_day(self, day: datetime.date) -> datetime.date:
        """The first day on or after `day` the site is open; `day` itself without hours or within the horizon."""
        if not self.has_hours:
            return day
        for offset in range(HORIZON_DAYS):
            candidate = day + datetime.timedelta(days=offset)
            if self.is_open(candidate):
                return candidate
        return day

    def openings(
        self, day: datetime.date, count: int, *, after: datetime.time | None = None
    ) -> list[Opening]:
        """The next `count` openings from `day` on; with `after`, those of `day` closed by then are skipped."""
        return list(itertools.islice(self._openings_from(day, after), count))

    def opening_days(
        self, day: datetime.date, count: int, *, after: datetime.time | None = None
    ) -> list[tuple[datetime.date, list[Opening]]]:
        """The next `count` days the site opens, each with its openings (see `openings`)."""
        days: dict[datetime.date, list[Opening]] = {}
        # Read lazily, up to the first opening of the day after the last one shown: asked for a fixed
        # number of openings, the game page's three days looked at half a year of days per site.
        for opening in self._openings_from(day, after):
            if opening.day not in days and len(days) == count:
                break
            days.setdefault(opening.day, []).append(opening)
        return list(days.items())

    def _openings_from(self, day: datetime.date, after: datetime.time | None) -> Iterator[Opening]:
        if not self.has_hours:
            return
        for offset in range(HORIZON_DAYS):
            candidate = day + datetime.timedelta(days=offset)
            if not self.is_open(candidate):
                continue
            for opens_at, closes_at in self.hours[candidate.weekday()]:
                if offset == 0 and after is not None and closes_at <= after:
                    continue
                yield Opening(candidate, opens_at, closes_at)

    def closures_between(
        self, first: datetime.date, last: datetime.date
    ) -> list[tuple[datetime.date, datetime.date, str]]:
        """The closures overlapping the days from `first` to `last`."""
        return [closure for closure in self.closures if closure[0] <= last and closure[1] >= first]


def hours_text(openings: list[Opening]) -> str:
    """A day's openings as a line: « 10:00–12:00, 14:00–17:00 »."""
    return ", ".join(f"{opening.opens_at:%H:%M}–{opening.closes_at:%H:%M}" for opening in openings)


def weekday_date(day: datetime.date) -> str:
    """A day as families are told to come: its weekday, then the short date (« mercredi 23/12/2026 »)."""
    return f"{formats.date_format(day, 'l')} {formats.date_format(day, 'SHORT_DATE_FORMAT')}"


def _location_id(site: Location | int) -> int:
    return site if isinstance(site, int) else site.pk


def _calendars(
    location_ids: Iterable[int], hours: Iterable[tuple], closures: Callable
) -> dict[int, SiteCalendar]:
    """The calendars of `location_ids` from their `hours` rows (location id, weekday, opens, closes),
    then, for the sites that have hours, `closures(their ids)`' rows (location id, or None for every
    site, first day, last day, reason)."""
    calendars = {location_id: SiteCalendar(location_id) for location_id in location_ids}
    for location_id, weekday, opens_at, closes_at in hours:
        calendars[location_id].hours.setdefault(weekday, []).append((opens_at, closes_at))
    with_hours = [location_id for location_id, calendar in calendars.items() if calendar.has_hours]
    if with_hours:
        by_site = defaultdict(list)
        for location_id, first_day, last_day, reason in closures(with_hours):
            by_site[location_id].append((first_day, last_day, reason))
        for location_id in with_hours:
            calendars[location_id].closures = sorted(by_site[location_id] + by_site[None])
    return calendars


def site_calendars(sites: Iterable[Location | int], *, from_day: datetime.date) -> dict[int, SiteCalendar]:
    """The calendars of several sites, keyed by location id, with the closures from `from_day` on (two queries)."""
    ids = {_location_id(site) for site in sites}
    if not ids:
        return {}
    return _calendars(
        ids,
        OpeningHours.objects.filter(location_id__in=ids)
        .order_by("location_id", "weekday", "opens_at")
        .values_list("location_id", "weekday", "opens_at", "closes_at"),
        lambda with_hours: (
            Closure.objects.filter(
                Q(location_id__in=with_hours) | Q(location__isnull=True), last_day__gte=from_day
            )
            .order_by("first_day")
            .values_list("location_id", "first_day", "last_day", "reason")
        ),
    )


# The sites holding a copy of a game, their hours and closures: the game page's « Prochaines
# ouvertures », prepared once per connection (ludotheque/prepared.py): compiling these three queries
# per request was a fifth of the page.
def _sites_holding(game: int) -> QuerySet:
    return (
        Location.objects.filter(opening_hours__isnull=False)
        .distinct()
        .order_by("name")
        .filter(copies__game_id=game)
    )


def _holding(game: int) -> QuerySet:
    return Copy.objects.filter(game_id=game).values("location_id")


_GAME_SITES = PreparedRead("game sites", _sites_holding, UNUSED_ID)
_GAME_HOURS = PreparedRead(
    "game hours",
    lambda game: (
        OpeningHours.objects.filter(location_id__in=_holding(game))
        .order_by("location_id", "weekday", "opens_at")
        .values_list("location_id", "weekday", "opens_at", "closes_at")
    ),
    UNUSED_ID,
)
_GAME_CLOSURES = PreparedRead(
    "game closures",
    lambda game, day: (
        Closure.objects.filter(
            Q(location_id__in=_holding(game)) | Q(location__isnull=True), last_day__gte=day
        )
        .order_by("first_day")
        .values_list("location_id", "first_day", "last_day", "reason")
    ),
    UNUSED_ID,
    datetime.date(1, 1, 1),
)


def game_site_calendars(
    game: int, *, from_day: datetime.date
) -> tuple[list[Location], dict[int, SiteCalendar]]:
    """The sites with opening hours that hold a copy of the game `game` (an id), by name, and their
    calendars keyed by location id, with the closures from `from_day` on: what site_calendars() reads
    for those sites, in three queries (one without such a site)."""
    sites = list(_GAME_SITES.queryset(game))
    if not sites:
        return sites, {}
    # Every hours row is of one of `sites`: the sites holding a copy that have hours.
    calendars = _calendars(
        [site.pk for site in sites],
        _GAME_HOURS.queryset(game),
        lambda _: _GAME_CLOSURES.queryset(game, from_day),
    )
    return sites, calendars


def site_calendar(site: Location | int, *, from_day: datetime.date) -> SiteCalendar:
    """One site's calendar, with its closures from `from_day` on (one query, two with hours)."""
    calendar = SiteCalendar(_location_id(site))
    site = calendar.location_id
    hours = OpeningHours.objects.filter(location_id=site).order_by("weekday", "opens_at")
    for weekday, opens_at, closes_at in hours.values_list("weekday", "opens_at", "closes_at"):
        calendar.hours.setdefault(weekday, []).append((opens_at, closes_at))
    if calendar.has_hours:
        closures = Closure.objects.filter(
            Q(location_id=site) | Q(location__isnull=True), last_day__gte=from_day
        )
        calendar.closures = sorted(closures.values_list("first_day", "last_day", "reason"))
    return calendar


def next_opening_day(site: Location | int, day: datetime.date) -> datetime.date:
    """The first day on or after `day` the site is open (`day` itself for a site without hours)."""
    return site_calendar(site, from_day=day).next_opening_day(day)


def is_open(site: Location | int, day: datetime.date) -> bool:
    """Whether the site opens on `day` (always, for a site without hours)."""
    return site_calendar(site, from_day=day).is_open(day)


def next_openings(site: Location | int, day: datetime.date, count: int = 3) -> list[Opening]:
    """The site's next `count` openings from `day` on (none for a site without hours)."""
    return site_calendar(site, from_day=day).openings(day, count)
