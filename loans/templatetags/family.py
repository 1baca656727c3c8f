"""What a family's own session adds to pages the catalogue draws (« Réserver » on a game's page, the
calendar's webcal:// address), and the home page's « Devenir membre »."""

from django import template
from django.utils import timezone

from catalogue.models import Copy, Location
from members.models import Member, MembershipType
from opening.models import Weekday
from opening.schedule import site_calendars

from ..holds import usual_site
from ..transfer_forms import PickupSiteForm

register = template.Library()


@register.filter
def webcal(url: str) -> str:
    """A calendar feed's address as calendar apps subscribe to it (webcal://): a tap opens the phone's
    own calendar to subscribe, instead of downloading the file once."""
    return "webcal://" + url.split("://", 1)[-1]


@register.inclusion_tag("loans/includes/hold_offer.html", takes_context=True)
def hold_offer(context, game) -> dict:
    """« Réserver » for a logged-in family; « en rayon » when a copy waits on the shelf; nothing otherwise."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or user.is_staff:
        return {"show": False}
    if not user.is_authenticated:
        if game.date_bookable:
            return {"show": True, "visitor": True, "date_bookable": True, "next": request.get_full_path()}
        return _visitor_offer(request, game)
    member = Member.objects.filter(user=user).first()
    if member is None:
        return {"show": False}
    if game.date_bookable:
        # Giant games are booked for dates, not queued for (loans/bookings.py).
        return {"show": True, "date_bookable": True, "game": game}
    copies = Copy.objects.filter(game=game)
    usual = usual_site(member)
    available = copies.available()
    return {
        "show": True,
        "game": game,
        "lendable": copies.in_circulation().exists(),
        "on_shelf": available.filter(location=usual).exists() if usual else available.exists(),
        "on_shelf_elsewhere": available.exists(),
        "usual_site": usual,
        "pickup_form": PickupSiteForm(initial={"pickup_site": usual}, auto_id="pickup_%s"),
        "hold": member.holds.active().filter(game=game).first(),
        "borrowed": member.loans.open().filter(copy__game=game).exists(),
        "csrf_token": context.get("csrf_token"),
    }


def _visitor_offer(request, game) -> dict:
    """« Connectez-vous pour le réserver » when every copy that can go out is out (or set aside), read
    from the copies the game page already holds: no query of its own."""
    copies = game.copies.all()
    in_circulation = set(Copy.Status.in_circulation())
    out = any(copy.status in in_circulation for copy in copies) and not any(
        copy.is_available for copy in copies
    )
    return {"show": out, "visitor": True, "next": request.get_full_path()}


@register.inclusion_tag("loans/includes/how_to_join.html")
def how_to_join() -> dict:
    """The home page's « Devenir membre »: the memberships offered with their price, and each site a
    family can come to with its address, contact and weekly hours (three or four queries)."""
    calendars_from = timezone.localdate()
    sites = list(Location.objects.order_by("name"))
    calendars = site_calendars(sites, from_day=calendars_from)
    return {
        "types": list(MembershipType.objects.filter(public=True).order_by("price", "name")),
        "sites": [
            {"site": site, "hours": _weekly_hours(calendars[site.pk])}
            for site in sites
            if site.address or site.phone or site.email or calendars[site.pk].has_hours
        ],
    }


def _weekly_hours(calendar) -> list[tuple[str, str]]:
    """« mercredi », « 14:00–18:00 » for each weekday the site opens, Monday first."""
    return [
        (Weekday(day).label, ", ".join(f"{opens:%H:%M}–{closes:%H:%M}" for opens, closes in spans))
        for day, spans in sorted(calendar.hours.items())
    ]
