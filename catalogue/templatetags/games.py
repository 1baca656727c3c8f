"""How a game reads to a person: its facts (player and age ranges, duration), where a copy waits, the
placeholder of a box without a picture, and a search result made of them.

The pieces a result shows are written here rather than in templates: twenty results a page, and
Django's template language, through four templates with their tags and filters for each, was a large
share of the page /jeux/.
"""

import datetime
import zlib

from django import template
from django.db.models import Exists, OuterRef
from django.template.loader import get_template
from django.utils import formats, timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

register = template.Library()

# PMB's habit for "and up": an upper bound of 99 (or more) is no upper bound for a reader.
OPEN_ENDED = 99
# Words a title's initials skip: « Les colons de Catane » is CC, « L'or des dragons » OD.
SMALL_WORDS = {
    "le",
    "la",
    "les",
    "l",
    "un",
    "une",
    "des",
    "de",
    "du",
    "d",
    "aux",
    "au",
    "en",
    "à",
    "the",
    "a",
    "an",
    "of",
    "et",
    "and",
}


# The thumbnails the pages show (game_result(), catalogue/game_detail.html): geometry, crop.
THUMBNAILS = [("80x80", "center"), ("160x160", "noop")]


def make_thumbnails(image) -> None:
    """Make a box picture's thumbnails now (sorl-thumbnail would make them on first display)."""
    from sorl.thumbnail import get_thumbnail

    for geometry, crop in THUMBNAILS:
        get_thumbnail(image, geometry, crop=crop)


@register.filter
def players_range(game) -> str:
    """« 2 joueurs », « 1 à 5 joueurs », « à partir de 2 joueurs », or "" when not catalogued."""
    low, high = game.players_min, game.players_max
    if high is not None and high >= OPEN_ENDED:
        high = None
    if low and high:
        if low == high:
            return ngettext("%(counter)s joueur", "%(counter)s joueurs", low) % {"counter": low}
        return _("%(min)s à %(max)s joueurs") % {"min": low, "max": high}
    if low:
        return ngettext("à partir de %(counter)s joueur", "à partir de %(counter)s joueurs", low) % {
            "counter": low
        }
    if high:
        return ngettext("jusqu'à %(counter)s joueur", "jusqu'à %(counter)s joueurs", high) % {"counter": high}
    return ""


@register.filter
def age_range(game) -> str:
    """« dès 8 ans », « de 5 à 7 ans », « jusqu'à 7 ans », or "" when not catalogued."""
    low, high = game.age_min, game.age_max
    if high is not None and high >= OPEN_ENDED:
        high = None
    if low is not None and high is not None:
        if low == high:
            return ngettext("%(counter)s an", "%(counter)s ans", high) % {"counter": high}
        return _("de %(min)s à %(max)s ans") % {"min": low, "max": high}
    if low:
        return ngettext("dès %(counter)s an", "dès %(counter)s ans", low) % {"counter": low}
    if high is not None:
        return ngettext("jusqu'à %(counter)s an", "jusqu'à %(counter)s ans", high) % {"counter": high}
    return _("tous âges") if low == 0 else ""


@register.filter
def duration(game) -> str:
    """« 30 min », or "" when not catalogued."""
    return _("%(minutes)s min") % {"minutes": game.duration_minutes} if game.duration_minutes else ""


def _translated(message: str, **values) -> str:
    """A message from the translation catalogues with `values` in it, as {% blocktranslate %} writes it:
    the catalogue's words as they are, the values escaped."""
    return mark_safe(
        message % {name: conditional_escape(value) for name, value in values.items()} if values else message
    )


@register.filter
def late_since(due_on: datetime.date | None) -> datetime.date | None:
    """The day a copy due on `due_on` is late since, or None while that day has not passed: a return
    date gone by is no return to expect, so the pages say « en retard depuis le … » instead."""
    if due_on is None or due_on >= timezone.localdate():
        return None
    return due_on + datetime.timedelta(days=1)


@register.filter
def shelf_status(game) -> str:
    """The line under a game's title (shelf_line()): where a copy waits on a shelf, else when the first
    one comes back, else why none can be borrowed."""
    if game.shelf_site:
        others = game.shelf_sites - 1
        if others > 0:
            return _translated(
                ngettext(
                    "En rayon à %(site)s et sur %(counter)s autre site",
                    "En rayon à %(site)s et sur %(counter)s autres sites",
                    others,
                ),
                site=game.shelf_site,
                counter=others,
            )
        return _translated(_("En rayon à %(site)s"), site=game.shelf_site)
    if getattr(game, "in_transit", False):
        return _translated(_("En transit entre deux sites"))
    if game.next_due_on:
        if late := late_since(game.next_due_on):
            return _translated(
                _("Tous sortis — en retard depuis le %(date)s"), date=formats.date_format(late, "d/m")
            )
        return _translated(
            _("Tous sortis — retour prévu le %(date)s"), date=formats.date_format(game.next_due_on, "d/m")
        )
    if game.lendable_count:
        return _translated(_("Tous mis de côté pour des réservations"))
    if game.copies_count:
        return _translated(_("Pas d'exemplaire à emprunter pour l'instant"))
    return _translated(_("Pas d'exemplaire"))


@register.filter
def designed_for(game) -> str:
    """The flag of a game made for younger players: « conçu pour 5–7 ans »."""
    if game.age_min:
        return _("conçu pour %(min)s–%(max)s ans") % {"min": game.age_min, "max": game.age_max}
    return ngettext("conçu jusqu'à %(counter)s an", "conçu jusqu'à %(counter)s ans", game.age_max) % {
        "counter": game.age_max
    }


def initials(title: str) -> str:
    """Up to two initials of a title's meaningful words, upper case (« 7 Wonders » is 7W)."""
    words = [word for word in title.replace("'", " ").replace("’", " ").split() if word[:1].isalnum()]
    meaningful = [word for word in words if word.lower() not in SMALL_WORDS] or words
    return "".join(word[0] for word in meaningful[:2]).upper()


def hue(key: str) -> int:
    """A stable colour (hue in degrees) for a category code: every game of a category looks alike."""
    return zlib.crc32(key.encode()) % 360


PLACEHOLDER = (
    '<svg class="box-picture box-placeholder" width="{size}" height="{size}" viewBox="0 0 80 80" '
    'aria-hidden="true" focusable="false"><rect width="80" height="80" rx="8" fill="{fill}"/>'
    '<text x="40" y="41" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" '
    'font-size="30" font-weight="700" fill="#fff">{initials}</text></svg>'
)


@register.simple_tag
def box_placeholder(game, size: int = 80) -> str:
    """A box without a picture: its initials on its category's colour, drawn inline (no file, no request)."""
    category = game.category
    fill = f"hsl({hue(category.code)} 45% 38%)" if category is not None else "#5b6470"
    return format_html(PLACEHOLDER, size=size, fill=fill, initials=initials(game.title))


@register.simple_tag
def shelf_line(game) -> str:
    """shelf_status() in its paragraph, marked when a copy is on a shelf."""
    return format_html(
        '<p class="shelf-status{}">{}</p>', " on-shelf" if game.shelf_site else "", shelf_status(game)
    )


FACTS = (
    '<ul class="game-facts">\n'
    '  <li class="fact-players">{players}</li>\n'
    '  <li class="fact-ages">{ages}</li>\n'
    '  <li class="fact-duration">{duration}</li>\n'
    "{category}"
    "</ul>"
)


@register.simple_tag
def game_facts(game) -> str:
    """Players, ages, duration and category, each said when the catalogue does not know it."""
    category = game.category
    return format_html(
        FACTS,
        players=players_range(game) or _("joueurs : non précisé"),
        ages=age_range(game) or _("âge : non précisé"),
        duration=duration(game) or _("durée : non précisée"),
        category=format_html('  <li class="fact-category">{} {}</li>\n', category.code, category.label)
        if category is not None
        else "",
    )


RESULT = (
    '<li class="game-result">\n'
    "  {picture}\n"
    '  <div class="game-result-text">\n'
    '    <h3><a href="{url}">{title}</a></h3>\n'
    "    {shelf}\n"
    "    {facts}\n"
    "{flag}"
    "  </div>\n"
    "</li>\n"
)


@register.simple_tag
def game_result(game) -> str:
    """One game of a search's results (the page /jeux/): its box, title, shelf line and facts, and the
    flag of a game made for younger players than someone at the table."""
    if game.image:  # the thumbnail as the game page makes it (includes/box_picture.html)
        picture = get_template("includes/box_picture.html").render(
            {"game": game, "geometry": "80x80", "crop": "center", "size": 80, "alt": ""}
        )
    else:
        picture = box_placeholder(game, 80)
    flag = ""
    # `fits_everyone` is False for a game made for younger players than the oldest at the table; None,
    # or not annotated at all (a first run's SQLite search without ages), when nobody's age is known.
    if getattr(game, "fits_everyone", None) is False:
        flag = format_html('    <p class="age-flag">{}</p>\n', designed_for(game))
    return format_html(
        RESULT,
        picture=mark_safe(picture.strip()),
        url=game.get_absolute_url(),
        title=game.title,
        shelf=shelf_line(game),
        facts=game_facts(game),
        flag=flag,
    )


# How many covers each row of the home page shows.
HOME_COVERS = 6


@register.inclusion_tag("includes/home_covers.html")
def home_covers() -> dict:
    """The home page's covers: the newest titles with a copy to lend, and titles on the shelf now (the
    most lent first). Two queries whatever the catalogue's size; a box picture's thumbnail is the game
    page's, already made."""
    from catalogue.models import Copy, Game

    games = Game.objects.select_related("category").only("title", "slug", "image", "category__code")
    lendable = Exists(Copy.objects.filter(game=OuterRef("pk"), status__in=Copy.Status.in_circulation()))
    on_shelf = Exists(Copy.objects.available().filter(game=OuterRef("pk")))
    return {
        "new": list(games.filter(lendable).order_by("-created_at", "-pk")[:HOME_COVERS]),
        "on_shelf": list(games.filter(on_shelf).order_by("-loans_last_year", "title", "pk")[:HOME_COVERS]),
    }
