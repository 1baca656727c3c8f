"""What a family's own session adds to pages the catalogue draws: « Réserver » on a game's page."""

from django import template

from catalogue.models import Copy

from ..models import Member

register = template.Library()


@register.inclusion_tag("loans/includes/hold_offer.html", takes_context=True)
def hold_offer(context, game) -> dict:
    """« Réserver » for a logged-in family; « en rayon » when a copy waits on the shelf; nothing otherwise."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.is_staff:
        return {"show": False}
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
