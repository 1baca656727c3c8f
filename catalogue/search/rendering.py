"""The API's answers for a search result, a notice and a copy, written out as plain dictionaries.

`catalogue/serializers.py` declares each resource once (its fields, their types and help texts: the
OpenAPI schema) and hands its rendering to these functions. DRF's own rendering, field by field (each
field's source looked up, checked for None, converted; the notice's 27 fields and their nested ones
built for each notice), cost ten times these functions' time (`bench/README.md`, « Prepared reads, serializers… »):
more than a search's or a notice's SQL. `tests/test_catalogue_api.py` compares every answer with what
DRF renders of the declared fields, so a field added to a serializer's `Meta.fields` must be added
here too, or the test fails.
"""

from django.urls import reverse
from rest_framework import serializers

# A valid slug, which no other part of the API's URLs contains: a game's link is reversed once per
# answer, with this in place of the slug, then each game's slug replaces it.
SLUG_PLACEHOLDER = "__slug__"

_DATE, _DATETIME = serializers.DateField(), serializers.DateTimeField()


def link_template(view_name: str, request, *, absolute: bool) -> str:
    """The URL of `view_name` for the slug SLUG_PLACEHOLDER, absolute or relative to the site."""
    path = reverse(view_name, kwargs={"slug": SLUG_PLACEHOLDER})
    return request.build_absolute_uri(path) if absolute else path


def category(category) -> dict | None:
    return (
        None
        if category is None
        else {"code": category.code, "label": category.label, "family": category.family}
    )


def copy(copy) -> dict:
    """A copy as CopySerializer declares it (annotated by `Copy.objects.with_availability()`)."""
    return {
        "barcode": copy.barcode,
        "cote": copy.cote,
        "section": category(copy.section),
        "location": copy.location.name,
        "status": copy.status,
        "status_label": str(copy.get_status_display()),
        "available": copy.is_available,
        "due_on": _DATE.to_representation(copy.due_on) if copy.due_on else None,
        "kind": copy.kind.name,
    }


def copy_with_game(copy_: object, game_link: str) -> dict:
    """A copy with its game, as CopyWithGameSerializer declares it; `game_link`: the notice's link template."""
    return {
        "game": game_link.replace(SLUG_PLACEHOLDER, copy_.game.slug),
        "game_title": copy_.game.title,
        **copy(copy_),
    }


def result(game, links: tuple[str, str], tags: list[str]) -> dict:
    """A search result as GameSerializer declares it; `links`: the notice's and the page's link templates."""
    url, page_url = links
    return {
        "url": url.replace(SLUG_PLACEHOLDER, game.slug),
        "page_url": page_url.replace(SLUG_PLACEHOLDER, game.slug),
        "slug": game.slug,
        "title": game.title,
        "players_min": game.players_min,
        "players_max": game.players_max,
        "age_min": game.age_min,
        "age_max": game.age_max,
        "duration_minutes": game.duration_minutes,
        "category": category(game.category),
        "tags": tags,
        "summary": game.summary,
        "copies_count": game.copies_count,
        "available_count": game.available_count,
    }


def _file_url(file, request) -> str | None:
    """A file's address as DRF's FileField gives it: absolute, or None when nothing was uploaded."""
    if not file:
        return None
    return request.build_absolute_uri(file.url) if request is not None else file.url


def notice(game, request) -> dict:
    """The rest of a notice, as GameDetailSerializer declares it (after its result's fields); dates
    through DRF's own fields, files as its FileField gives them."""
    return {
        "document_type": game.document_type,
        "authors": [{"name": credit.author.name, "role": credit.role} for credit in game.authorships.all()],
        "publishers": [
            {"name": credit.publisher.name, "place": credit.publisher.place}
            for credit in game.publisher_credits.all()
        ],
        "languages": [language.code for language in game.languages.all()],
        "rules_summary": game.rules_summary,
        "contents": game.contents,
        "pedagogical_analysis": game.pedagogical_analysis,
        "online_url": game.online_url,
        "components": [
            {"quantity": component.quantity, "label": component.label} for component in game.components.all()
        ],
        "copies": [copy(each) for each in game.copies.all()],
        "documents": [
            {"file_name": document.file_name, "file": _file_url(document.file, request)}
            for document in game.documents.all()
        ],
        "created_at": _DATETIME.to_representation(game.created_at),
        "updated_at": _DATETIME.to_representation(game.updated_at),
    }
