"""Template helpers of the opening calendar: a day with its weekday, and the sites' next openings."""

import datetime

from django import template
from django.utils import timezone

from catalogue.models import Game, Location

from ..schedule import game_site_calendars, hours_text, site_calendars, weekday_date

register = template.Library()

# How many opening days a page shows per site, and how far ahead it announces a closure.
OPENING_DAYS_SHOWN = 3
CLOSURES_AHEAD_DAYS = 45


@register.filter(name="weekday_date")
def weekday_date_filter(value: datetime.date | None) -> str:
    """« mercredi 23/12/2026 »: the day a family must come back, with its weekday."""
    return weekday_date(value) if value else ""


@register.inclusion_tag("includes/next_openings.html")
def next_openings(game: Game | None = None) -> dict:
    """The next openings of every site with hours, or of the sites holding a copy of `game`."""
    now = timezone.localtime()
    today = now.date()
    if game is None:
        sites = list(Location.objects.filter(opening_hours__isnull=False).distinct().order_by("name"))
        calendars = site_calendars(sites, from_day=today)
    else:
        sites, calendars = game_site_calendars(game.pk, from_day=today)
    horizon = today + datetime.timedelta(days=CLOSURES_AHEAD_DAYS)
    return {
        "sites": [
            {
                "site": site,
                "days": [
                    (day, hours_text(openings))
                    for day, openings in calendars[site.pk].opening_days(
                        today, OPENING_DAYS_SHOWN, after=now.time()
                    )
                ],
                "closures": calendars[site.pk].closures_between(today, horizon),
            }
            for site in sites
        ],
        "today": today,
    }
