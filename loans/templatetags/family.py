"""What a family's own session adds to pages the catalogue draws: « Réserver » on a game's page."""

from django import template

from catalogue.models import Copy

from ..models import Member

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
        return _visitor_offer(request, game)
    member = Member.objects.filter(user=user).first()
    if member is None:
        return {"show": False}
    copies = Copy.objects.filter(game=game)
    return {
        "show": True,
        "game": game,
        "lendable": copies.in_circulation().exists(),
        "on_shelf": copies.available().exists(),
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
