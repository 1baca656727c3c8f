"""How a game's facts read to a person: player and age ranges, and the placeholder of a box without a picture."""

import zlib

from django import template
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


# The thumbnails the pages show (includes/game_result.html, catalogue/game_detail.html): geometry, crop.
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


@register.inclusion_tag("includes/box_placeholder.html")
def box_placeholder(game, size: int = 80):
    """A box without a picture: its initials on its category's colour, drawn inline (no file, no request)."""
    category = game.category
    return {
        "initials": initials(game.title),
        "hue": hue(category.code) if category is not None else None,
        "size": size,
        "label": category.label if category is not None else "",
    }
