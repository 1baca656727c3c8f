"""A family's calendar feed: its due dates, pick-up deadlines and date bookings' first days, for a calendar
app to subscribe to.

RFC 5545 through the `icalendar` library: one all-day event per open loan (« Rendre 7 Wonders à la
ludothèque ») and per hold ready at the desk, each with a stable UID so that a renewal moves its event.
"""

import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, vDuration

from members.models import Member
from opening.schedule import SiteCalendar, hours_text, site_calendars, weekday_date

# How often calendar apps are asked to fetch the feed again.
REFRESH_INTERVAL = datetime.timedelta(hours=6)


def _site_text(calendars: dict[int, SiteCalendar], copy, day: datetime.date) -> str:
    location = copy.location
    openings = [opening for opening in calendars[location.pk].openings(day, 4) if opening.day == day]
    if not openings:
        return location.name
    return _("%(site)s, ouvert ce jour-là : %(hours)s") % {
        "site": location.name,
        "hours": hours_text(openings),
    }


def _event(*, uid: str, day: datetime.date, summary: str, description: str, location, now) -> Event:
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", now)
    event.add("dtstart", day)
    event.add("dtend", day + datetime.timedelta(days=1))
    event.add("summary", summary)
    event.add("description", description)
    event.add("location", ", ".join([location.name, *location.address.splitlines()]))
    event.add("transp", "TRANSPARENT")
    return event


def member_calendar(member: Member) -> bytes:
    """The family's feed: each open loan on its due date, each ready hold on its pick-up deadline, each date
    booking to come on its first day."""
    now = timezone.now()
    today = timezone.localdate(now)
    host = urlsplit(settings.SITE_URL).hostname
    loans = list(member.loans.open().select_related("copy__game", "copy__location").order_by("due_on", "pk"))
    holds = list(member.holds.ready().select_related("game", "copy__location").order_by("ready_until", "pk"))
    bookings = list(
        member.date_bookings.upcoming(today)
        .select_related("copy__game", "copy__location")
        .order_by("starts_on", "pk")
    )
    calendars = site_calendars(
        {loan.copy.location_id for loan in loans}
        | {hold.copy.location_id for hold in holds}
        | {booking.copy.location_id for booking in bookings},
        from_day=min([today, *(loan.due_on for loan in loans)]),
    )

    calendar = Calendar()
    calendar.add("prodid", "-//Ludotheque//Prets//FR")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", _("Ludothèque : jeux à rendre"))
    calendar.add("refresh-interval", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH_INTERVAL))
    for loan in loans:
        calendar.add_component(
            _event(
                uid=f"loan-{loan.pk}@{host}",
                day=loan.due_on,
                summary=_("Rendre %(game)s à la ludothèque") % {"game": loan.copy.game.title},
                description=_("Code-barres %(barcode)s. %(site)s.")
                % {"barcode": loan.copy.barcode, "site": _site_text(calendars, loan.copy, loan.due_on)},
                location=loan.copy.location,
                now=now,
            )
        )
    for hold in holds:
        calendar.add_component(
            _event(
                uid=f"hold-{hold.pk}@{host}",
                day=hold.ready_until,
                summary=_("Retirer %(game)s à la ludothèque (réservation)") % {"game": hold.game.title},
                description=_("Dernier jour pour retirer la réservation. %(site)s.")
                % {"site": _site_text(calendars, hold.copy, hold.ready_until)},
                location=hold.copy.location,
                now=now,
            )
        )
    for booking in bookings:
        calendar.add_component(
            _event(
                uid=f"date-booking-{booking.pk}@{host}",
                day=booking.starts_on,
                summary=_("Retirer %(game)s à la ludothèque (réservé jusqu'au %(date)s)")
                % {"game": booking.copy.game.title, "date": weekday_date(booking.ends_on)},
                description=_("Réservation à date, du %(start)s au %(end)s. %(site)s.")
                % {
                    "start": weekday_date(booking.starts_on),
                    "end": weekday_date(booking.ends_on),
                    "site": _site_text(calendars, booking.copy, booking.starts_on),
                },
                location=booking.copy.location,
                now=now,
            )
        )
    return calendar.to_ical()
