"""« Compter cette partie »: the button a rules page's score sheet shows staff while a session is open."""

from django import template
from django.http import QueryDict

from ludotheque.access import is_librarian
from rules.models import RulePage

from ..models import Play, Session

register = template.Library()


def _sheet_address(request) -> str:
    kept = QueryDict(mutable=True)
    for key in ("players", "variants"):
        values = [value for value in request.POST.getlist(key) if value.strip()]
        if values:
            kept.setlist(key, values)
    return f"{request.path}?{kept.urlencode()}" if kept else request.path


@register.inclusion_tag("onsite/includes/count_play.html", takes_context=True)
def count_play_button(context, slug: str, players=None, source: str = Play.Source.SCORE_SHEET) -> dict:
    """For staff while a session is open, a button per open session to count a play of the game whose
    rules page is `slug` (its catalogue notice); for anyone else, or a page without notice, nothing."""
    request = context.get("request")
    if request is None or not is_librarian(request.user):
        return {"sessions": []}
    sessions = list(Session.objects.open().select_related("location").order_by("location__name"))
    page = (
        RulePage.objects.filter(slug=slug, game__isnull=False).only("game_id").first() if sessions else None
    )
    if page is None:
        return {"sessions": []}
    return {
        "sessions": sessions,
        "game_id": page.game_id,
        "players": players,
        "source": source,
        # After a computed sheet (a POST), back to the same table: its player count and variants.
        "next": request.get_full_path() if request.method == "GET" else _sheet_address(request),
    }
