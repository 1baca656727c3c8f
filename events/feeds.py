"""The upcoming events as a public calendar feed (RFC 5545, the `icalendar` library, as loans/feeds.py).

One event per animation not over yet, with a stable UID (an event moved moves in the calendar apps);
a cancelled one stays, marked CANCELLED, so that the apps that had it take it off.
"""

import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, vDuration
from icalendar import Event as CalendarEvent

from .models import Event

REFRESH_INTERVAL = datetime.timedelta(hours=6)


def events_calendar() -> bytes:
    now = timezone.now()
    host = urlsplit(settings.SITE_URL).hostname
    calendar = Calendar()
    calendar.add("prodid", "-//Ludotheque//Animations//FR")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", _("Ludothèque : animations"))
    calendar.add("refresh-interval", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH_INTERVAL))
    for event in Event.objects.upcoming(now).select_related("location"):
        entry = CalendarEvent()
        entry.add("uid", f"event-{event.pk}@{host}")
        entry.add("dtstamp", now)
        entry.add("dtstart", event.starts_at)
        entry.add("dtend", event.ends_at)
        entry.add("summary", event.title)
        entry.add("description", event.description)
        entry.add("location", ", ".join([event.location.name, *event.location.address.splitlines()]))
        entry.add("url", settings.SITE_URL + event.get_absolute_url())
        entry.add("status", "CANCELLED" if event.cancelled_at else "CONFIRMED")
        calendar.add_component(entry)
    return calendar.to_ical()
