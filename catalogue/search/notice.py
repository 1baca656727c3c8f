"""A game's notice (the API's `/api/games/<slug>/` and the game page): the game's row with its lists
as JSON, then its copies, by two prepared reads.
"""

import functools

from django.db import models
from django.db.models import (
    DEFERRED,
    OuterRef,
    QuerySet,
)
from django.http import Http404
from django.utils.translation import gettext as _

from ludotheque.prepared import UNUSED_ID, PreparedRead

# The lists of a notice that come with the game's row on PostgreSQL (`for_notice()`): the game's related
# managers, each annotated as a JSON array under the prefix.
NOTICE_LISTS = ("authorships", "publisher_credits", "languages", "tags", "components", "documents")
NOTICE_PREFIX = "notice_"


def _notice_lists() -> dict[str, tuple[models.QuerySet, tuple[str, ...]]]:
    """The lists of a notice read with the game's row: for each (the game's related manager), the rows
    of the game `OuterRef("pk")` in the notice's order, and their fields the notice reads
    (`author__name`: the field of the object a foreign key names; other fields stay deferred)."""
    from ..models import Authorship, Component, Document, Language, PublisherCredit, Tag

    game = OuterRef("pk")
    return {
        "authorships": (
            Authorship.objects.filter(game=game).order_by("position"),
            ("id", "game_id", "author_id", "role", "position", "author__name"),
        ),
        "publisher_credits": (
            PublisherCredit.objects.filter(game=game).order_by("position"),
            ("id", "game_id", "publisher_id", "position", "publisher__name", "publisher__place"),
        ),
        "languages": (Language.objects.filter(games=game).order_by("name"), ("id", "code", "name")),
        "tags": (Tag.objects.filter(games=game).order_by("name"), ("id", "name", "slug")),
        "components": (
            Component.objects.filter(game=game).order_by("position", "pk"),
            ("id", "game_id", "position", "quantity", "label", "rules_key"),
        ),
        "documents": (
            Document.objects.filter(game=game).order_by("position", "file_name"),
            ("id", "game_id", "file_name", "file", "position"),
        ),
    }


def _from_json(model: type[models.Model], db: str, row: dict, game: models.Model) -> models.Model:
    """A model instance from a row of a notice's JSON list, with the object its foreign key names."""
    instance = _instance(model, db, {name: value for name, value in row.items() if "__" not in name})
    named: dict[str, dict] = {}
    for key, value in row.items():
        if "__" in key:
            relation, name = key.split("__")
            named.setdefault(relation, {})[name] = value
    for relation, fields in named.items():
        field = model._meta.get_field(relation)
        fields["id"] = row[field.attname]
        field.set_cached_value(instance, _instance(field.related_model, db, fields))
    if "game_id" in row:
        model._meta.get_field("game").set_cached_value(instance, game)
    return instance


def _instance(model: type[models.Model], db: str, values: dict) -> models.Model:
    """The instance as the database would give it, the fields not in `values` deferred."""
    fields = model._meta.concrete_fields
    return model.from_db(
        db, [field.attname for field in fields], [values.get(field.attname, DEFERRED) for field in fields]
    )


def prefetched(instance: models.Model, name: str, related: list[models.Model]) -> None:
    """Put `related` where a prefetch of the related manager `name` would: `instance.<name>.all()`."""
    manager = getattr(instance, name)
    queryset = manager.get_queryset()
    queryset._result_cache = related
    queryset._prefetch_done = True
    instance.__dict__.setdefault("_prefetched_objects_cache", {})[name] = queryset


def notice_copies():
    """A notice's copies, with their availability, section and site, by barcode."""
    from ..models import Copy

    return Copy.objects.with_availability().select_related("section", "location", "kind").order_by("barcode")


class NoticeIterable(models.query.ModelIterable):
    """Games of `for_notice()` on PostgreSQL: their lists, read as JSON with each game's row, become
    model instances in the game's prefetch cache, where `game.authorships.all()` finds them."""

    def __iter__(self):
        db = self.queryset.db
        for game in super().__iter__():
            for name in NOTICE_LISTS:
                rows = game.__dict__.pop(f"{NOTICE_PREFIX}{name}")
                model = getattr(game, name).model
                prefetched(game, name, [_from_json(model, db, row, game) for row in rows])
            yield game


# A game's notice by its slug, then its copies: compiled to SQL once per connection, not per request
# (ludotheque/prepared.py). The placeholders are values no request
# sends: an invalid slug, an id no row has.
def _notice(slug: str, *, page: bool) -> QuerySet:
    from ..models import Game

    games = Game.objects.for_notice()
    return (games.with_availability().with_shelf_status() if page else games).filter(slug=slug)


_NOTICES = {
    page: PreparedRead(
        f"notice{' (game page)' if page else ''}", functools.partial(_notice, page=page), "prepared slug"
    )
    for page in (False, True)
}
_NOTICE_COPIES = PreparedRead("notice copies", lambda game: notice_copies().filter(game_id=game), UNUSED_ID)


def notice_of(slug: str, *, page: bool = False):
    """The game whose slug this is, with everything its notice (or, `page`, its page) shows, in two
    queries; Http404 when there is none."""
    from ..models import Copy

    games = list(_NOTICES[page].queryset(slug))
    if not games:
        raise Http404(_("Aucun jeu ne porte cet identifiant."))
    game = games[0]
    copies = list(_NOTICE_COPIES.queryset(game.pk))
    for copy in copies:
        Copy.game.field.set_cached_value(copy, game)
    prefetched(game, "copies", copies)
    return game
