"""Pages of games: the paginators of the page /jeux/ and of the API, and a result page's rows."""

import functools

from django.core.exceptions import EmptyResultSet
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import (
    BooleanField,
    Case,
    QuerySet,
    Value,
    When,
)
from django.db.models.expressions import RawSQL
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from ludotheque.prepared import UNUSED_ID, PreparedRead

from ..models import Game
from . import ordering
from .ordering import FITS_FIRST
from .postings import (
    _ids,
    _sql,
    _unnested,
    count_statement,
    one_word_page,
    ranked_page,
)

# The page /jeux/ and the API's game lists.
GAMES_PER_PAGE = 20
MAX_COUNT_LIMIT = 10**9
# A text search with `disponible` counts its games up to this many (EXACT_COUNT_LIMIT for the others):
# each game it counts is checked for a copy on the shelf, while its page checks only its best ranked
# matches (first_ids()). A desk looking for a copy to hand out reads the first page.
AVAILABLE_COUNT_LIMIT = 100


# A result page's games, read with what a result shows (`result_list()`) from the page's ids, found
# first: the query reads them, in order, from `page` (PAGE_IDS, written before it). Compiled once per
# connection and prepared once per session (ludotheque/prepared.py): compiling and planning the six
# correlated subqueries of a result costs several times their SQL's time, a round trip for the ids
# little. Each result says whether it
# fits the oldest at the table (`fits_everyone`, NULL when no ages were given: the page /jeux/ flags
# the others); the placeholders are ids no row has and an age no search accepts.
PAGE_IDS = "WITH page AS (SELECT id, n FROM unnest(%s::bigint[]) WITH ORDINALITY AS ids (id, n)) "


def _in_page(games: QuerySet) -> QuerySet:
    table = Game._meta.db_table
    position = RawSQL(f'SELECT page.n FROM page WHERE page.id = "{table}"."id"', ())
    return games.filter(pk__in=RawSQL("SELECT page.id FROM page", ())).annotate(page_position=position)


def _page_rows(*, api: bool) -> PreparedRead:
    def build(ids: list[int], oldest: int | None) -> QuerySet:  # the ids go to PAGE_IDS
        return _in_page(result_list(api=api).fitting_ages([oldest])).order_by("page_position")

    def plain(ids: list[int], oldest: int | None) -> QuerySet:
        games = result_list(api=api).filter(pk__in=ids)
        if oldest is None:  # as the prepared SQL gives it: NULL
            games = games.annotate(fits_everyone=Value(None, output_field=BooleanField()))
        else:
            games = games.fitting_ages([oldest])
        return games.order_by(Case(*(When(pk=pk, then=n) for n, pk in enumerate(ids))))

    label = f"result rows ({'API' if api else '/jeux/'})"
    return PreparedRead(label, build, [UNUSED_ID], 32_123, prefix=(PAGE_IDS, [[UNUSED_ID]]), plain=plain)


class GamePaginator(Paginator):
    """Pages of games, found by their ids first and only then read whole."""

    rows = _page_rows(api=False)  # the API's paginator reads the API's results

    # The ids of the page asked for, when they came with the count: (number, ids).
    prefetched: tuple[int, list[int]] | None = None

    def page(self, number):
        page = super().page(number)
        ids = self.prefetched[1] if self.prefetched and self.prefetched[0] == page.number else None
        if ids is None:
            ids = self.fetch_ids(page.number)
        if tuple(self.object_list.query.order_by) == FITS_FIRST:
            ids = self.fits_first_ids(page.number, ids)
        elif getattr(self.object_list, "ranked_candidates", None) is not None:
            bottom = (page.number - 1) * self.per_page
            if len(ids) != min(self.per_page, self.count - bottom):  # see first_ids()
                ids = [row["pk"] for row in _ids(self.object_list[bottom : bottom + self.per_page])]
        page.object_list = self.read(ids)
        return page

    def first_ids(self, number: int) -> tuple[str, list]:
        """The SQL of the ids that page `number` reads first, in order: all of them, but on the page where
        a table's games for everyone end (fits_first_ids) or a text search with `disponible` finds too
        few games on the shelf among its best matches. Raises EmptyResultSet when it finds nothing.

        Sorting whole rows (with their category) costs more than sorting ids when a text search ranks
        thousands of matches: the page's 20 games are found by id first, then read whole, in that order.
        A search of one word reads its first pages from its postings (one_word_page()).

        A text search with `disponible` (`ranked_candidates`: the same search without that condition,
        in the same order), asked as one query, made PostgreSQL check every match for an available copy
        before ranking them (9,552 checks for `pirates` at 100,000 games, 96,000 at 1,000,000). The first N available games of the search are also the first N available among its
        first `reach` matches, as soon as that many of them are available: any other match ranks after
        all of those. So the page is looked for among the first `reach` matches, ranked without the
        check; when they hold fewer games than the page shows (few copies on the shelf), page() asks
        the whole search.

        A table's search (FITS_FIRST) sorted as one list read and sorted every match before the first
        page came out, in time proportional to the catalogue. Taken as two lists, the games that fit everyone by title, then the others by title,
        each walks the title index and stops at the page.
        """
        games, bottom = self.object_list, (number - 1) * self.per_page
        top = bottom + self.per_page
        if tuple(games.query.order_by) == FITS_FIRST:
            return _sql(_ids(games.filter(fits_everyone=True).order_by("title", "pk"))[bottom:top])
        candidates = getattr(games, "ranked_candidates", None)
        if candidates is not None:
            reach = 2 * top + self.per_page
            best = _unnested(one_word_page(candidates, 0, reach)) or _sql(_ids(candidates)[:reach])
            return _sql(_ids(games.filter(pk__in=RawSQL(*best)))[bottom:top])
        return _unnested(one_word_page(games, bottom, top)) or _sql(_ids(games[bottom:top]))

    def fetch_ids(self, number: int) -> list[int]:
        """The ids that page `number` reads first (first_ids())."""
        try:
            sql, params = self.first_ids(number)
        except EmptyResultSet:  # e.g. an ESAR group without any category yet
            return []
        with connections[self.object_list.db].cursor() as cursor:
            cursor.execute(sql, params)
            return [row[0] for row in cursor.fetchall()]

    def fits_first_ids(self, number: int, fitting: list[int]) -> list[int]:
        """A table's page: `fitting`, the games for everyone on it, then the others where they end."""
        games, bottom = self.object_list, (number - 1) * self.per_page
        if len(fitting) == self.per_page or self.count <= bottom + len(fitting):
            return fitting
        if fitting:
            fitting_count = bottom + len(fitting)
        else:
            fitting_count = games.filter(fits_everyone=True).order_by().count()
        others = _ids(games.filter(fits_everyone=False).order_by("title", "pk"))
        start = max(0, bottom - fitting_count)
        return fitting + [row["pk"] for row in others[start : start + self.per_page - len(fitting)]]

    def read(self, ids: list[int]) -> list:
        """The games `ids` names, with what a result shows, in that order."""
        if not ids:
            return []
        return list(self.rows.queryset(ids, getattr(self.object_list, "oldest_age", None)))


class LimitedCountPaginator(GamePaginator):
    """Count the objects up to EXACT_COUNT_LIMIT (AVAILABLE_COUNT_LIMIT for a text search with
    `disponible`), or up to the page asked for when it lies further."""

    count_limit: int | None = None  # None: count them all (as for `page=last`)
    # Known already to be more than this many (the facets stopped counting there): no count to run
    # for a page within them.
    more_than: int | None = None
    asked: int | None = None  # the page number asked for, when valid: its ids come with the count

    def validate_number(self, number):
        # page() and get_page() both start here, before anything counts.
        if "count" not in self.__dict__:
            try:
                end = int(number) * self.per_page
            except (TypeError, ValueError):
                end = 0  # validate_number refuses it
            # A page far beyond any catalogue is refused by validate_number; counting up to it would
            # overflow PostgreSQL's bigint LIMIT.
            limit = ordering.EXACT_COUNT_LIMIT
            if getattr(self.object_list, "ranked_candidates", None) is not None:
                limit = AVAILABLE_COUNT_LIMIT
            self.count_limit = max(limit, min(end, MAX_COUNT_LIMIT)) + 1
            self.asked = int(number) if 0 < end <= MAX_COUNT_LIMIT else None
            if self.more_than is not None and self.count_limit <= self.more_than + 1:
                self.count = self.count_limit  # what counting would find: it stops there
        return super().validate_number(number)

    @cached_property
    def count(self) -> int:
        # The ids alone, unsorted: no ranking, no annotation, and a count that can stop early.
        ids = self.object_list.order_by().values("pk")
        counted = ids if self.count_limit is None else ids[: self.count_limit]
        if self.asked is None or connections[counted.db].vendor != "postgresql":
            return counted.count()
        # The page's ids in the same round trip, for page(): the count and the page in two queries.
        bottom = (self.asked - 1) * self.per_page
        try:
            both = None
            if getattr(self.object_list, "ranked_candidates", None) is None:  # see first_ids()
                top = bottom + self.per_page
                both = one_word_page(self.object_list, bottom, top, counted)
                both = both or ranked_page(self.object_list, bottom, top, self.count_limit)
            if both is None:
                counted_sql, counted_params = count_statement(self.object_list, counted)
                ids_sql, ids_params = self.first_ids(self.asked)
                both = (f"SELECT {counted_sql}, ARRAY({ids_sql})", counted_params + ids_params)
        except EmptyResultSet:  # e.g. an ESAR group without any category yet
            return counted.count()
        with connections[counted.db].cursor() as cursor:
            cursor.execute(*both)
            count, page_ids = cursor.fetchone()
        self.prefetched = (self.asked, page_ids)
        return count

    @property
    def count_is_exact(self) -> bool:
        return self.count_limit is None or self.count < self.count_limit

    @property
    def shown_count(self) -> int:
        """The exact count, or the number the list has more games than."""
        return self.count if self.count_is_exact else self.count_limit - 1


class ApiPaginator(LimitedCountPaginator):
    rows = _page_rows(api=True)


class GamePagination(PageNumberPagination):
    """Pages of 20 games, with `count` exact up to 1,000 games (`count_exact` false: more than `count`)."""

    django_paginator_class = ApiPaginator
    page_size = GAMES_PER_PAGE

    def get_paginated_response(self, data) -> Response:
        paginator = self.page.paginator
        return Response(
            {
                "count": paginator.shown_count,
                "count_exact": paginator.count_is_exact,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict) -> dict:
        response = super().get_paginated_response_schema(schema)
        response["properties"]["count"]["description"] = str(
            _(
                "Nombre de jeux trouvés. Le décompte s'arrête à %(limit)s jeux (%(available)s pour une "
                "recherche de texte avec disponible=oui), ou à la fin de la page demandée : au-delà, "
                "count_exact est faux et il y a plus de jeux que count."
            )
            % {"limit": ordering.EXACT_COUNT_LIMIT, "available": AVAILABLE_COUNT_LIMIT}
        )
        response["properties"] = {
            "count": response["properties"]["count"],
            "count_exact": {
                "type": "boolean",
                "description": str(
                    _("Vrai si count est le nombre exact de jeux, faux s'il y en a davantage.")
                ),
            },
            **response["properties"],
        }
        response["required"] = [*response["required"], "count_exact"]
        return response


@functools.cache
def result_list(*, api: bool = False) -> QuerySet:
    """The games of a result list with what each shows, built once per process and copied per request
    (`.all()`): building its correlated subqueries costs more Python than the SQL of a search takes. The facets and the counts select none of them. The API's results carry their tag names,
    and not the one-line shelf status of the page (four subqueries per game less)."""
    if api:
        return Game.objects.for_result_list(shelf_status=False).with_tag_names()
    return Game.objects.for_result_list()
