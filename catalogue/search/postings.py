"""A search of one word read from its postings, and the statements that give a page's ids with its count."""

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import models
from django.db.models import (
    ExpressionWrapper,
    QuerySet,
    Value,
)
from django.db.models.expressions import Col
from django.db.models.functions import Coalesce
from django.db.models.lookups import IsNull, Lookup
from django.db.models.sql.constants import INNER
from django.db.models.sql.where import WhereNode

from .availability import AvailableCopy
from .keys import (
    TagIds,
)
from .ordering import FITS_FIRST_RANKED, RANKED
from .text import (
    SEARCH_CONFIG,
    keys_name_a_tag,
    one_word,
)

# A word's postings (migration 0013), best first: the games with the word in their title, names or
# tags, in the order a search of that one word sorts them. Parameters: the configuration, the word.
# Each posting also carries the game's columns a table's search asks about (migration 0014), in the
# index's leaves (see posting_conditions()), and its tags for the facets.
POSTING_COLUMNS = ("players_min", "players_max", "age_min", "age_max", "duration_minutes", "category_id")
POSTINGS_SQL = (
    f"SELECT game_id, rank, title, {', '.join(POSTING_COLUMNS)}, tag_ids FROM catalogue_search_posting "
    "WHERE lexeme = (SELECT tsvector_to_array(to_tsvector(%s::regconfig, %s)))[1] "
    "ORDER BY rank DESC, title, game_id"
)


def posting_conditions(games: models.QuerySet, *expressions, alias: str) -> tuple[str, list] | None:
    """The SQL of `expressions` (the WHERE clause of `games` when none is given), each a condition
    of `games` on its own row, as conditions of a posting named `alias`: None when one reads anything
    but the columns a posting copies from its game (POSTING_COLUMNS and its tags), such as an author's
    name or a copy on the shelf.

    The conditions of a table's search (players, ages, time, category, tags) are then checked in the
    postings' index alone, without reading the games' rows."""
    query = games.query
    base = query.get_initial_alias()
    if (
        query.distinct
        or query.combinator
        or any(
            getattr(join, "join_type", None) == INNER and query.alias_refcount[name]
            for name, join in query.alias_map.items()
        )
    ):
        return None
    expressions = expressions or (query.where,)
    nodes = list(expressions)
    while nodes:
        node = nodes.pop()
        if isinstance(node, WhereNode):
            nodes += node.children
        elif isinstance(node, Col):
            if node.alias != base or node.target.column not in POSTING_COLUMNS:
                return None
        elif isinstance(node, TagIds):
            if node.alias != base:
                return None
        elif isinstance(node, (Lookup, ExpressionWrapper, Value, Coalesce)):
            nodes += node.get_source_expressions()
        else:
            return None
    compiler = query.get_compiler(using=games.db)
    parts, params = [], []
    for expression in expressions:
        try:
            sql, part_params = compiler.compile(expression.relabeled_clone({base: alias}))
        except FullResultSet:
            sql, part_params = "TRUE", []
        except EmptyResultSet:
            return None
        parts.append(f"({sql})")
        params += part_params
    return " AND ".join(parts), params


def _ids(games: QuerySet, *columns: str) -> QuerySet:
    """The ids of `games` (and these columns), for a subquery: without the annotations that read other
    tables.

    A subquery's annotations are all resolved and relabelled again in the outer query, even those it
    neither selects, filters nor sorts by: the counts and lists a result shows (correlated subqueries)
    cost a page more Python than its SQL. What the games are filtered on is in the WHERE clause itself, and
    they are sorted by their own columns, `fits_everyone` or `rank`, never by a subquery.
    """
    ids = games.values("pk", *columns)
    ids.query.annotations = {
        name: annotation
        for name, annotation in ids.query.annotations.items()
        if not any(getattr(expression, "subquery", False) for expression in annotation.flatten())
    }
    return ids


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
    `q=tresor+pirates` at 1,000,000 games found its 6,208 matches twice and read 1,001 of them again
    for a count that its page's list holds. (A search of one word reads its page and
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
    word if need be: `pirates` for 3 players aged 5 to 41 in 30 minutes reads its 6,569 postings at
    100,000 games and finds 720, short of the limit (the whole count follows); at 1,000,000 games it
    finds 1,001 among the first 9,127 of its 65,801, where the whole count reads the rows of the games
    the text's index yields with the table keys. A tag is
    the exception (keys_name_a_tag()): few of a word's postings carry it, so the postings were all read
    for nothing before the whole count (`q=vikings&tag=memoire` at 1,000,000 games: 736 of its 34,010
    postings), while the text's index, which holds the tag beside the word, gives the whole count at
    once: a word with a tag is counted whole. Other conditions (an author, a
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
