"""The family search page, the game page, and the read-only catalogue API."""

import functools
from collections.abc import Callable
from urllib.parse import urlencode

from django.core.exceptions import EmptyResultSet
from django.core.paginator import Paginator
from django.db import OperationalError, connections
from django.db.models import BooleanField, Case, QuerySet, Value, When
from django.db.models.expressions import RawSQL
from django.db.models.lookups import IsNull
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from ludotheque.access import staff_required
from ludotheque.prepared import UNUSED_ID, PreparedRead
from ludotheque.timeouts import statement_timed_out

from . import esar, registry
from .filters import GameFilter
from .forms import BoxStickerForm, LabelSheetForm
from .labels import code128, label_sheets
from .models import Category, Copy, Game
from .registry import notice_links
from .search import (
    EXACT_COUNT_LIMIT,
    FITS_FIRST,
    FITS_FIRST_RANKED,
    POSTINGS_SQL,
    RANKED,
    SEARCH_CONFIG,
    AvailableCopy,
    keys_name_a_tag,
    notice_copies,
    one_word,
    posting_conditions,
    prefetched,
)
from .serializers import CopyWithGameSerializer, FacetsSerializer, GameDetailSerializer, GameSerializer

# The page /jeux/ and the API's game lists.
GAMES_PER_PAGE = 20
MAX_COUNT_LIMIT = 10**9


def _ids(games: QuerySet, *columns: str) -> QuerySet:
    """The ids of `games` (and these columns), for a subquery: without the annotations that read other
    tables.

    A subquery's annotations are all resolved and relabelled again in the outer query, even those it
    neither selects, filters nor sorts by: the counts and lists a result shows (correlated subqueries)
    took ~1 ms of Python per page. What the games are filtered on is in the WHERE clause itself, and
    they are sorted by their own columns, `fits_everyone` or `rank`, never by a subquery.
    """
    ids = games.values("pk", *columns)
    ids.query.annotations = {
        name: annotation
        for name, annotation in ids.query.annotations.items()
        if not any(getattr(expression, "subquery", False) for expression in annotation.flatten())
    }
    return ids


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


def _sql(queryset: QuerySet) -> tuple[str, list]:
    sql, params = queryset.query.sql_with_params()
    return sql, list(params)


# How many of a word's postings one_word_page() reads, at most, looking for the games of a page that also
# pass the search's other conditions (ages, time, category…): past them, the whole search is ranked.
# Without other conditions it reads the page's games only.
POSTINGS_READ = 2000


def one_word_page(
    games: QuerySet, bottom: int, top: int, counted: QuerySet | None = None
) -> tuple[str, list] | None:
    """For a text search of one word sorted by rank (after `fits_everyone`), the SQL of one row: the
    count of `counted` (the games' ids up to a limit; NULL without it) and the ids of
    `games[bottom:top]`, in an array. None for another search.

    Ranking reads the search document of every match (`pirates`: 9,552 games at 100,000, 96,023 at
    1,000,000). For one word, `ts_rank` with its default weights (D 0.1, C 0.2, B 0.4, A 1.0;
    `calc_rank_or()` in PostgreSQL's `tsrank.c`) gives a game with the word in its title, names or
    tags at least 0.2 / 1.645 = 0.12, and one with the word in its summary only less than 0.1. So the
    games with the word in their title, names or tags rank above all others, and the search's
    postings (`catalogue_search_posting`, migration 0013) hold exactly those, with their rank, in an
    index ordered as the search sorts them. When the first POSTINGS_READ of them hold `top` games that
    pass the search's other conditions (in the index itself when they read only the columns a posting
    copies from its game, posting_conditions(); else in each posting's game), the first `top` are the
    page, read from the index's first entries whatever the size of the catalogue; when the search has
    at least the count's limit of them passing its other conditions, that is the count's answer too
    (count_statement()). Otherwise the whole search is ranked or counted: the ELSE of a CASE, which
    PostgreSQL runs only when reached. With ages, the same holds among the games for everyone.
    """
    order = tuple(games.query.order_by)
    word = one_word(games)
    if word is None or order not in (RANKED, FITS_FIRST_RANKED):
        return None
    word, others = word
    # A table's search: its games for everyone first (`fits_everyone`), the same way among them.
    fits = order == FITS_FIRST_RANKED
    conditions = [*others.query.where.children, *([games.query.annotations["fits_everyone"]] if fits else [])]
    # The word's postings, best first, as far as the page looks for its games among them, with the
    # search's other conditions: in the postings' index when a posting holds what they read, else in
    # each posting's game.
    if (on_postings := posting_conditions(others, *conditions, alias="p")) is not None:
        passing, passing_params = f"WHERE {on_postings[0]}", on_postings[1]
    else:
        others_sql, passing_params = _sql(_ids(others, *(["fits_everyone"] if fits else [])))
        passing = f"JOIN ({others_sql}) AS g ON g.pk = p.game_id {'WHERE g.fits_everyone' if fits else ''}"
    sql = (
        f"WITH best AS MATERIALIZED (SELECT p.game_id AS pk, p.rank, p.title FROM ({POSTINGS_SQL} LIMIT %s) AS p "
        f"{passing} ORDER BY p.rank DESC, p.title, p.game_id LIMIT %s) "
    )
    params = [SEARCH_CONFIG, word, POSTINGS_READ, *passing_params, top]
    if counted is None:
        count_sql = "NULL"
    else:
        count_sql, count_params = count_statement(games, counted)
        params += count_params
    full_sql, full_params = _sql(_ids(games[bottom:top]))
    sql += (
        f"SELECT {count_sql}, CASE WHEN (SELECT count(*) FROM best) >= %s "
        f"THEN ARRAY(SELECT pk FROM best ORDER BY rank DESC, title, pk OFFSET %s) ELSE ARRAY({full_sql}) END"
    )
    params += [top, bottom, *full_params]
    return sql, params


def ranked_page(games: QuerySet, bottom: int, top: int, limit: int) -> tuple[str, list] | None:
    """For a text search sorted by rank (after `fits_everyone`), the SQL of one row: its count up to
    `limit` and the ids of `games[bottom:top]`, in an array, both from one list of its matches. None
    for another order.

    Its page ranks every match, whose rows are read for their search documents; counted apart, the
    same matches were found again in the text's index and their rows read again up to the limit:
    `q=tresor+pirates` at 1,000,000 games found its 6,208 matches twice (4.4 ms each) and read 1,001 of
    them again (1 ms) for a count that its page's list holds. (A search of one word reads its page and
    count from its postings first: one_word_page().)
    """
    order = tuple(games.query.order_by)
    if order not in (RANKED, FITS_FIRST_RANKED):
        return None
    fits = order == FITS_FIRST_RANKED
    sql, params = _sql(_ids(games.order_by(), "rank", "title", *(["fits_everyone"] if fits else [])))
    sort = f"{'fits_everyone DESC, ' if fits else ''}rank DESC, title, pk"
    return (
        f"WITH matches AS MATERIALIZED ({sql}) "
        "SELECT (SELECT count(*) FROM (SELECT 1 FROM matches LIMIT %s) AS counted), "
        f"ARRAY(SELECT pk FROM matches ORDER BY {sort} OFFSET %s LIMIT %s)",
        [*params, limit, bottom, top - bottom],
    )


def count_statement(games: QuerySet, counted: QuerySet) -> tuple[str, list]:
    """The SQL of the count of `counted`, the ids of `games` up to a limit, as a scalar expression.

    A search of one word has at least as many games as its postings (see one_word_page()): without
    other conditions, when it has `limit` postings, `limit` is the count's answer, read from the index
    alone. With `disponible` as its only other condition, a posting's game id is enough to look for a
    copy on the shelf, without reading the game's row: `pirates` checks ~1,150 of its postings instead
    of building the bitmap of its 9,552 matches and reading their rows (96,000 at 1,000,000 games). Only
    a word with at least POSTINGS_READ postings is counted so (half of them on the shelf reach the
    limit): with fewer (`ile`, 1,051), three in four on the shelf would fall short, the checks spent for
    nothing. Conditions on the game's own columns that a posting holds too (players, ages, time,
    category, tags: posting_conditions()) are checked in the postings' index, every posting of the
    word if need be: `pirates` for 3 players aged 5 to 41 in 30 minutes reads its 6,569 postings
    (~1.7 ms) at 100,000 games and finds 720, short of the limit (the whole count follows); at
    1,000,000 games it finds 1,001 among the first 9,127 of its 65,801 (~4 ms), where the whole count
    read 96,000 games' rows (46–68 ms; ~20 ms since the text's index holds the table keys). A tag is
    the exception (keys_name_a_tag()): few of a word's postings carry it, so the postings were all read
    for nothing before the whole count (`q=vikings&tag=memoire` at 1,000,000 games: 736 of its 34,010
    postings, 8.3 ms), while the text's index, which holds the tag beside the word, gives the whole
    count at once (2.5 ms): a word with a tag is counted whole. Other conditions (an author, a
    publisher, a site) read other tables: the whole search's count, up to the limit, costs less.
    Whatever the postings do not answer is counted whole: the ELSE of a CASE, run only when reached.
    """
    full_sql, full_params = _sql(counted)
    sql = f"(SELECT count(*) FROM ({full_sql}) AS counted)"
    limit, word = counted.query.high_mark, one_word(games)
    if limit is None or word is None:
        return sql, full_params
    word, others = word
    match others.query.where.children:
        case [IsNull(lhs=AvailableCopy() as available, rhs=False)] if limit <= POSTINGS_READ:
            # Those with a copy on the shelf among its first POSTINGS_READ postings, when it has as many.
            passing, passing_params = available.sql_for(counted.db, "known.game_id")
            reached = (
                f"(CASE WHEN (SELECT count(*) FROM ({POSTINGS_SQL} LIMIT %s) AS known) >= %s "
                f"THEN (SELECT count(*) FROM (SELECT 1 FROM ({POSTINGS_SQL} LIMIT %s) AS known "
                f"WHERE {passing} IS NOT NULL LIMIT %s) AS passing) END) >= %s"
            )
            reached_params = [SEARCH_CONFIG, word, POSTINGS_READ, POSTINGS_READ]
            reached_params += [SEARCH_CONFIG, word, POSTINGS_READ, *passing_params, limit, limit]
        case _ if (
            not keys_name_a_tag(games)
            and (on_postings := posting_conditions(others, alias="known")) is not None
        ):
            # Those of its postings that pass the conditions (none: every posting is a game of the
            # search), read in the postings' index.
            passing, passing_params = on_postings
            reached = (
                f"(SELECT count(*) FROM (SELECT 1 FROM ({POSTINGS_SQL}) AS known WHERE {passing} "
                "LIMIT %s) AS passing) >= %s"
            )
            reached_params = [SEARCH_CONFIG, word, *passing_params, limit, limit]
        case _:
            return sql, full_params
    return f"CASE WHEN {reached} THEN %s ELSE {sql} END", [*reached_params, limit, *full_params]


def _unnested(statement: tuple[str, list] | None) -> tuple[str, list] | None:
    """The ids of one_word_page()'s row, one per row, in order."""
    if statement is None:
        return None
    sql, params = statement
    return (
        f"SELECT page.id FROM ({sql}) AS best (count, ids), unnest(best.ids) WITH ORDINALITY AS page (id, n) "
        "ORDER BY page.n",
        params,
    )


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

        Sorting whole rows (with their category) costs ~2 ms more than sorting ids when a text search
        ranks 10,000 matches: the page's 20 games are found by id first, then read whole, in that order.
        A search of one word reads its first pages from its postings (one_word_page()).

        A text search with `disponible` (`ranked_candidates`: the same search without that condition,
        in the same order), asked as one query, made PostgreSQL check every match for an available copy
        before ranking them (9,552 checks for `pirates` at 100,000 games, 58 ms; 96,000 and seconds at
        1,000,000). The first N available games of the search are also the first N available among its
        first `reach` matches, as soon as that many of them are available: any other match ranks after
        all of those. So the page is looked for among the first `reach` matches, ranked without the
        check; when they hold fewer games than the page shows (few copies on the shelf), page() asks
        the whole search.

        A table's search (FITS_FIRST) sorted as one list read and sorted every match before the first
        page came out (18 ms for 30,000 matches at 100,000 games, ten times more at ten times the
        games). Taken as two lists, the games that fit everyone by title, then the others by title,
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
    """Count the objects up to EXACT_COUNT_LIMIT, or up to the page asked for when it lies further."""

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
            self.count_limit = max(EXACT_COUNT_LIMIT, min(end, MAX_COUNT_LIMIT)) + 1
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
                "Nombre de jeux trouvés. Le décompte s'arrête à %(limit)s jeux (ou à la fin de la page "
                "demandée) : au-delà, count_exact est faux et il y a plus de jeux que count."
            )
            % {"limit": EXACT_COUNT_LIMIT}
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


def _url_with(request: HttpRequest, name: str) -> Callable[[list[str]], str]:
    """A function giving the current search with parameter `name` set to its `values` (removed when
    empty), from page 1.

    The other parameters are encoded once: copying and encoding the whole query for each of the ~50
    facet links cost ~1 ms. Same order as QueryDict.setlist: `name` keeps its place, or comes last.
    """
    query = request.GET
    names = [key for key in query if key != "page"]
    at = names.index(name) if name in names else len(names)
    before = urlencode([(key, value) for key in names[:at] for value in query.getlist(key)])
    after = urlencode([(key, value) for key in names[at + 1 :] for value in query.getlist(key)])

    def url(values: list[str]) -> str:
        return "?" + "&".join(
            part for part in (before, urlencode([(name, value) for value in values]), after) if part
        )

    return url


def _facet_links(request: HttpRequest, filterset: GameFilter, facets: dict) -> dict:
    """Add to each category and tag count the link that narrows the search to it, or widens it back.

    The categories come grouped by ESAR kind (`esar_groups`), each group linking to all of its codes.
    """
    chosen = filterset.form.cleaned_data.get("categorie")
    chosen_code = chosen.code if chosen is not None else None
    category_url = _url_with(request, "categorie")
    for facet in facets["categories"]:
        facet["selected"] = facet["code"] == chosen_code
        facet["url"] = category_url([] if facet["selected"] else [facet["code"]])
    facets["esar_groups"] = esar.grouped_facets(facets["categories"])
    for group in facets["esar_groups"]:
        if group["code"] is not None:
            group["selected"] = group["code"] == chosen_code
            group["url"] = category_url([] if group["selected"] else [group["code"]])
    chosen_tags = [tag.slug for tag in filterset.form.cleaned_data.get("tag") or []]
    tag_url = _url_with(request, "tag")
    for facet in facets["tags"]:
        facet["selected"] = facet["slug"] in chosen_tags
        others = [slug for slug in chosen_tags if slug != facet["slug"]]
        facet["url"] = tag_url(others if facet["selected"] else [*chosen_tags, facet["slug"]])
    return facets


# The criteria a family sets (not the sort or the page): a search with any of them lands on its results.
CRITERIA = (
    "q",
    "ages",
    "joueurs",
    "age",
    "duree_max",
    "categorie",
    "tag",
    "auteur",
    "editeur",
    "localisation",
    "disponible",
)


def _criteria_summary(data: dict) -> list[str]:
    """The search in a few words, for the one-line summary above the results."""
    parts = []
    if data.get("q"):
        parts.append(_("« %(text)s »") % {"text": data["q"]})
    if ages := data.get("ages"):
        parts.append(
            ngettext("%(counter)s joueur (%(ages)s ans)", "%(counter)s joueurs (%(ages)s ans)", len(ages))
            % {"counter": len(ages), "ages": ", ".join(str(age) for age in ages)}
        )
    if data.get("joueurs"):
        n = data["joueurs"]
        parts.append(ngettext("%(counter)s joueur", "%(counter)s joueurs", n) % {"counter": n})
    if data.get("age") is not None:
        parts.append(_("le plus jeune a %(age)s ans") % {"age": data["age"]})
    if data.get("duree_max"):
        parts.append(_("%(minutes)s min au plus") % {"minutes": data["duree_max"]})
    if category := data.get("categorie"):
        # A category (« A 406 jeu de stratégie ») or a whole ESAR group (« A400 »).
        parts.append(str(category) if isinstance(category, Category) else category.code)
    for tag in data.get("tag") or []:
        parts.append(tag.name)
    if data.get("auteur"):
        parts.append(_("par %(name)s") % {"name": data["auteur"]})
    if data.get("editeur"):
        parts.append(_("chez %(name)s") % {"name": data["editeur"]})
    if data.get("localisation"):
        parts.append(_("à %(site)s") % {"site": data["localisation"]})
    if data.get("disponible"):
        parts.append(_("disponibles maintenant"))
    return parts


def _relaxed(request: HttpRequest, label: str, drop: tuple[str, ...], **extra: str) -> dict | None:
    """The search without the parameters `drop` (and with `extra`): its link and how many games it finds,
    counted up to EXACT_COUNT_LIMIT as every search is (`more_than`: the formatted limit, past it).
    Counted whole, « sans le texte recherché » counted the whole catalogue: 28 ms at 1,000,000 games."""
    query = request.GET.copy()
    query.pop("page", None)
    for name in drop:
        query.pop(name, None)
    for name, value in extra.items():
        query[name] = value
    filterset = GameFilter(query, queryset=Game.objects.all())
    if not filterset.is_valid():
        return None
    count = filterset.qs.order_by().values("pk")[: EXACT_COUNT_LIMIT + 1].count()
    if not count:
        return None
    more_than = None
    if count > EXACT_COUNT_LIMIT:
        more_than = formats.number_format(EXACT_COUNT_LIMIT, force_grouping=True)
    return {"label": label, "count": count, "more_than": more_than, "url": f"?{query.urlencode()}"}


def _relax_suggestions(request: HttpRequest, data: dict) -> list[dict]:
    """What to give up when a search finds nothing: each criterion left out in turn, counted (at most ~8 counts)."""
    options = []
    if ages := data.get("ages"):
        players = len(ages)
        options.append(
            (
                ngettext("pour %(counter)s joueur", "pour %(counter)s joueurs", players)
                % {"counter": players},
                ("ages",),
                {"joueurs": str(players)},
            )
        )
        options.append((_("sans les âges"), ("ages",), {}))
    labels = {
        "duree_max": _("sans la durée"),
        "q": _("sans le texte recherché"),
        "disponible": _("même s'il n'est pas en rayon"),
        "categorie": _("toutes catégories"),
        "tag": _("sans les mots-clés"),
        "joueurs": _("quel que soit le nombre de joueurs"),
        "age": _("sans l'âge du plus jeune"),
        "auteur": _("tous auteurs"),
        "editeur": _("tous éditeurs"),
        "localisation": _("sur tous les sites"),
    }
    for name, label in labels.items():
        if data.get(name) not in (None, "", [], False):
            options.append((label, (name,), {}))
    suggestions = [_relaxed(request, label, drop, **extra) for label, drop, extra in options]
    return [suggestion for suggestion in suggestions if suggestion]


TOO_BROAD = gettext_lazy(
    "Cette recherche demande trop de travail : elle a été arrêtée. Précisez-la (un mot de plus, des "
    "âges, une durée) ou enlevez « Disponible maintenant », puis relancez-la."
)


class SearchTooBroad(APIException):
    """A search cut off by the web processes' statement timeout (ludotheque/wsgi.py)."""

    status_code = 503
    default_detail = TOO_BROAD
    default_code = "search_too_broad"


@functools.cache
def result_list(*, api: bool = False) -> QuerySet:
    """The games of a result list with what each shows, built once per process and copied per request
    (`.all()`): its correlated subqueries cost ~3 ms of Python to build, more than the SQL of a
    search. The facets and the counts select none of them. The API's results carry their tag names,
    and not the one-line shelf status of the page (four subqueries per game less)."""
    if api:
        return Game.objects.for_result_list(shelf_status=False).with_tag_names()
    return Game.objects.for_result_list()


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    filterset = GameFilter(request.GET, queryset=result_list().all())
    searched = any(request.GET.get(name) for name in CRITERIA)
    context = {"form": filterset.form, "searched": searched}
    if not filterset.is_valid():
        return render(request, "catalogue/game_list.html", context, status=400)
    try:
        return _results(request, filterset, context)
    except OperationalError as error:
        if not statement_timed_out(error):
            raise
        # The form again, open, with what to change.
        context.update(searched=False, too_broad=TOO_BROAD)
        return render(request, "catalogue/game_list.html", context, status=503)


def _results(request: HttpRequest, filterset: GameFilter, context: dict) -> HttpResponse:
    games = filterset.qs
    facets = _facet_links(request, filterset, games.facets())
    paginator = LimitedCountPaginator(games, GAMES_PER_PAGE)
    # Counted with the facets, in the same scan: exactly, or up to more than EXACT_COUNT_LIMIT.
    if facets["count_exact"]:
        paginator.count = facets["count"]
    else:
        paginator.more_than = facets["count"]
    page = paginator.get_page(request.GET.get("page"))
    context.update(
        page=page,
        # « Plus de 1 000 jeux » (a non-breaking space in French), when the count stopped.
        more_than=formats.number_format(paginator.shown_count, force_grouping=True),
        category_groups=facets["esar_groups"],
        tag_facets=facets["tags"],
        facets_exact=facets["count_exact"],
        criteria=_criteria_summary(filterset.form.cleaned_data),
        suggestions=_relax_suggestions(request, filterset.form.cleaned_data) if not facets["count"] else [],
    )
    return render(request, "catalogue/game_list.html", context)


# A game's notice by its slug, then its copies: compiled to SQL once per connection, not per request
# (ludotheque/prepared.py). The placeholders are values no request
# sends: an invalid slug, an id no row has.
def _notice(slug: str, *, page: bool) -> QuerySet:
    games = Game.objects.for_notice()
    return (games.with_availability().with_shelf_status() if page else games).filter(slug=slug)


_NOTICES = {
    page: PreparedRead(
        f"notice{' (game page)' if page else ''}", functools.partial(_notice, page=page), "prepared slug"
    )
    for page in (False, True)
}
_NOTICE_COPIES = PreparedRead("notice copies", lambda game: notice_copies().filter(game_id=game), UNUSED_ID)


def notice_of(slug: str, *, page: bool = False) -> Game:
    """The game whose slug this is, with everything its notice (or, `page`, its page) shows, in two
    queries; Http404 when there is none."""
    games = list(_NOTICES[page].queryset(slug))
    if not games:
        raise Http404(_("Aucun jeu ne porte cet identifiant."))
    game = games[0]
    copies = list(_NOTICE_COPIES.queryset(game.pk))
    for copy in copies:
        Copy.game.field.set_cached_value(copy, game)
    prefetched(game, "copies", copies)
    return game


@require_safe
def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = notice_of(slug, page=True)
    # The rules pages and their tools, as the rules app registered them (catalogue/registry.py).
    # What an incomplete copy still allows (« jouable : … »), as the lending app registered it.
    copies = list(game.copies.all())
    playable = registry.playability(copies)
    for copy in copies:
        copy.playable = playable.get(copy.pk, "")
    context = {"game": game, "links": notice_links(game), "copies": copies}
    return render(request, "catalogue/game_detail.html", context)


# Labels and box stickers (staff): printed through the browser, see the print section of the stylesheet.


@staff_required
@require_safe
def label_sheet(request: HttpRequest) -> HttpResponse:
    """A4 sheets of labels (barcode, cote, title, site) for the copies chosen in the admin or added since a date."""
    form = LabelSheetForm(request.GET or None)
    if not form.is_valid():
        return render(
            request, "catalogue/label_sheet.html", {"form": form}, status=400 if form.is_bound else 200
        )
    layout = form.cleaned_data["layout"]
    copies = form.copies()
    context = {
        "form": form,
        "copies": copies,
        "layout": layout,
        "sheets": label_sheets(copies, layout, offset=form.cleaned_data["decalage"]),
    }
    return render(request, "catalogue/label_sheet.html", context)


@staff_required
@require_safe
def box_stickers(request: HttpRequest) -> HttpResponse:
    """Stickers for the inside of the box lid: title, barcode, and the pieces to check at return."""
    form = BoxStickerForm(request.GET or None)
    if not form.is_valid():
        return render(
            request, "catalogue/box_stickers.html", {"form": form}, status=400 if form.is_bound else 200
        )
    copies = form.copies()
    games = Game.objects.filter(pk__in={copy.game_id for copy in copies}).prefetch_related("components")
    components = {game.pk: list(game.components.all()) for game in games}
    stickers = [
        {"copy": copy, "barcode": code128(copy.barcode), "pieces": components[copy.game_id]}
        for copy in copies
    ]
    per_sheet = 4 if form.cleaned_data["format"] == "a6" else 2
    sheets = [stickers[start : start + per_sheet] for start in range(0, len(stickers), per_sheet)]
    context = {"form": form, "copies": copies, "sheets": sheets, "format": form.cleaned_data["format"]}
    return render(request, "catalogue/box_stickers.html", context)


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """The games of the catalogue, searched with the same filters as the page `/jeux/`."""

    lookup_field = "slug"
    filterset_class = GameFilter
    pagination_class = GamePagination

    def get_queryset(self):
        if self.action == "retrieve":
            return Game.objects.all()  # not read: get_object() finds the notice (notice_of)
        return result_list(api=True).all()

    def get_object(self):
        game = notice_of(self.kwargs["slug"])
        self.check_object_permissions(self.request, game)
        # The notice lists every copy with `is_available`: counted here, the two counts are two
        # correlated subqueries less for the game's query, ~1 ms of Python to compile (and its SQL).
        copies = game.copies.all()
        game.copies_count = len(copies)
        game.available_count = sum(copy.is_available for copy in copies)
        return game

    def get_serializer_class(self):
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer

    def filter_queryset(self, queryset):
        # A notice is found by its slug alone: the search's filters (and their form) are for lists.
        return queryset if self.action == "retrieve" else super().filter_queryset(queryset)

    def handle_exception(self, exc):
        if self.action != "retrieve" and statement_timed_out(exc):
            exc = SearchTooBroad()
        return super().handle_exception(exc)

    @extend_schema(responses=FacetsSerializer, filters=True)
    @action(detail=False, pagination_class=None)
    def facets(self, request: Request) -> Response:
        """How many games of this search fall in each category and carry each tag."""
        games = self.filter_queryset(Game.objects.all())
        return Response(FacetsSerializer(games.facets()).data)


class CopyViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A copy found by its barcode: where it is shelved and whether it can be borrowed now."""

    queryset = Copy.objects.with_availability().select_related("game", "section", "location")
    serializer_class = CopyWithGameSerializer
    lookup_field = "barcode"
    # No NUL byte: PostgreSQL text cannot hold one (the query would fail), and no barcode has one.
    lookup_value_regex = "[^/\\x00]+"
    filter_backends = []
    # Prepared once per connection (ludotheque/prepared.py): compiling it cost more than its SQL.
    by_barcode = PreparedRead(
        "copy by barcode", lambda barcode: CopyViewSet.queryset.filter(barcode=barcode), "prepared barcode"
    )

    def get_object(self):
        copies = list(self.by_barcode.queryset(self.kwargs["barcode"]))
        if not copies:
            raise Http404(_("Aucun exemplaire ne porte ce code-barres."))
        self.check_object_permissions(self.request, copies[0])
        return copies[0]
