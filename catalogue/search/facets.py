"""The facets of a search: how many games, in each category and with each tag, in one pass."""

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import (
    Count,
    F,
    QuerySet,
)

from . import ordering
from .keys import (
    TagIds,
)
from .postings import (
    POSTINGS_SQL,
    posting_conditions,
)
from .text import (
    SEARCH_CONFIG,
    one_word,
)

# The most frequent tags a search offers to narrow it.
FACET_TAGS = 30


# The size of a set of games and its category and tag counts, in one pass that counts keys: each game
# gives the ids of its tags and minus the id of its category (NULL without one). `{games}` is the SQL
# of the filtered games selecting their `category_id` and `tag_ids`.
FACETS_SQL = """
SELECT k.key, k.count, c.code, c.label, t.slug, t.name
  FROM (SELECT key, count(*) AS count
          FROM (SELECT unnest(array_append(games.tag_ids, -games.category_id)) AS key FROM ({games}) AS games) AS keys
         GROUP BY key) AS k
  LEFT JOIN catalogue_category c ON c.id = -k.key
  LEFT JOIN catalogue_tag t ON t.id = k.key
"""


def facets(games: QuerySet) -> dict:
    """How many games there are, and how many fall in each category and carry each tag.

    `{"count": n, "count_exact": bool, "categories": [{"code", "label", "count"}…], "tags": [{"slug",
    "name", "count"}…]}`, most frequent first (only the FACET_TAGS most frequent tags). On PostgreSQL
    one query reads the games once (from the covering index when there is no text query) for the
    three counts, and stops after EXACT_COUNT_LIMIT games: past it, `count_exact` is false, `count`
    is the limit, and the categories and tags are counted among the games read (for a word alone,
    its best ranked).
    """
    from ..models import Tag

    db = games.db
    games = games.order_by()
    if connections[db].vendor == "postgresql":
        columns = games.annotate(tag_ids=TagIds()).values("category_id", "tag_ids")
        columns = columns[: ordering.EXACT_COUNT_LIMIT + 1]
        try:
            sql, params = columns.query.sql_with_params()
        except EmptyResultSet:  # e.g. an ESAR group without any category yet
            return {"count": 0, "count_exact": True, "categories": [], "tags": []}
        prefix, params = "", list(params)
        word = one_word(games)
        if word is not None and (on_postings := posting_conditions(word[1], alias="p")) is not None:
            # A word alone, or with conditions its postings hold (posting_conditions()): when its
            # postings hold more such games than the limit, the games counted are its best ranked,
            # with their category and tags, from the postings' index alone, instead of as many
            # matches read from the text's index, which lists them all first (96,000 for `pirates`
            # at 1,000,000 games), and their rows.
            passing, passing_params = on_postings
            prefix = (
                "WITH best AS MATERIALIZED (SELECT p.category_id, p.tag_ids "
                f"FROM ({POSTINGS_SQL}) AS p WHERE {passing} LIMIT %s) "
            )
            sql = (
                "SELECT category_id, tag_ids FROM best WHERE (SELECT count(*) FROM best) > %s UNION ALL "
                f"SELECT * FROM ({sql}) AS whole WHERE (SELECT count(*) FROM best) <= %s"
            )
            limit = ordering.EXACT_COUNT_LIMIT
            params = [SEARCH_CONFIG, word[0], *passing_params, limit + 1, limit, *params, limit]
        sql = prefix + FACETS_SQL.format(games=sql)
        with connections[db].cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        # Every game has exactly one category key, NULL included.
        count = sum(n for key, n, *_ in rows if key is None or key < 0)
        categories = [
            {"code": code, "label": label, "count": n}
            for key, n, code, label, _, _ in rows
            if key is not None and key < 0
        ]
        tags = [
            {"slug": slug, "name": name, "count": n} for key, n, _, _, slug, name in rows if key and key > 0
        ]
        tags = sorted(tags, key=lambda facet: (-facet["count"], facet["name"]))[:FACET_TAGS]
        exact = count <= ordering.EXACT_COUNT_LIMIT
        count = min(count, ordering.EXACT_COUNT_LIMIT)
    else:  # SQLite, a first run's small catalogue: everything counted
        exact = True
        count = games.count()
        categories = list(
            games.filter(category__isnull=False)
            .values(code=F("category__code"), label=F("category__label"))
            .annotate(count=Count("pk"))
        )
        tags = list(
            Tag.objects.filter(games__in=games.values("pk"))
            .values("slug", "name")
            .annotate(count=Count("pk"))
            .order_by("-count", "name")[:FACET_TAGS]
        )
    return {
        "count": count,
        "count_exact": exact,
        "categories": sorted(categories, key=lambda facet: (-facet["count"], facet["code"])),
        "tags": tags,
    }
