"""Searching the catalogue: the free-text query, ranking, availability counts, popularity and facets.

On PostgreSQL the database keeps the search machinery up to date itself, whatever writes the games
(the triggers of migrations `0003_search_triggers_and_lexicon`, `0013_search_postings` and
`0014_search_posting_table_columns`, and the index of `0015_game_search_table_keys`):

- `Game.search_vector`: a weighted tsvector in the `french_unaccent` configuration (the French
  stemmer, with its stop words for words without accents; a word with accents loses them, then is
  stemmed without stop words: « dés » is not the article « des », migration 0017): title (A), authors
  and publishers (B), tags (C), summary (D);
- `catalogue_search_word`: the lexicon of every word of the catalogue, which pg_trgm searches to
  correct a misspelt query word;
- `catalogue_game.tag_ids`: a database-only array of the game's tag ids for the tag facets, in the
  covering index `catalogue_game_family_idx` with the family filters (ages, players, duration), and
  GIN-indexed for the tag filter (`catalogue_game_tag_ids_gin`, same migration).
- `catalogue_search_posting` (migrations 0013 and 0014): each word of a game's title, names and tags
  (A, B, C) with the game's rank for it, its title and the columns a table's search reads (players,
  ages, time, category, tags), B-tree-indexed in the order of the search: a search of one word reads
  its page, its count and its facets there, not every match (`catalogue.views.one_word_page()`,
  `posting_conditions()`).
- `catalogue_table_keys()` (migration 0015): a game's « table keys », its numbers of players, ages,
  times, category and tags as numbers (`table_keys()`), in the text's GIN index beside its search
  document: a text search with a table's criteria reads only the games that pass them.

On SQLite (a newcomer's first run) the text query falls back to `icontains`, without typo tolerance.
"""

import functools
import re

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.lookups import DataContains, Overlap
from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVectorExact
from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import connections, models
from django.db.models import DEFERRED, Count, Exists, ExpressionWrapper, F, OuterRef, Q, Subquery, Value
from django.db.models.expressions import Col, RawSQL
from django.db.models.functions import Coalesce, JSONObject
from django.db.models.lookups import Lookup
from django.db.models.sql.constants import INNER
from django.db.models.sql.where import WhereNode

from .registry import circulation

SEARCH_CONFIG = "french_unaccent"
# Shorter words are never corrected: one letter off in three is another word, not a typo.
FUZZY_MIN_LENGTH = 4
# The most frequent tags a search offers to narrow it.
FACET_TAGS = 30
# A search counts its games exactly up to this many, then only says "more than" (as search engines
# do): "more than 1,000 games" helps a family as much as "13,112", and the cost of a search then grows
# with the page, not with the catalogue. Its facets are those of the first games found, as many.
EXACT_COUNT_LIMIT = 1000
# The order of a table's search without text: the games that fit everyone first, then by title.
FITS_FIRST = (F("fits_everyone").desc(), "title", "pk")
# The order of a text search without ages: the best ranked first, then by title.
RANKED = (F("rank").desc(), "title", "pk")
# A table's text search: the games that fit everyone first, then the same.
FITS_FIRST_RANKED = (F("fits_everyone").desc(), *RANKED)
# A text search of one word carries the word (alias `one_word`): its first pages come from the search's
# postings, the games with that word in their title, names or tags in the order of the search
# (`catalogue_search_posting`, migration 0013; see `catalogue.views.one_word_page()`). One word of French
# letters and digits: one token for PostgreSQL's parser, so one lexeme at most once stemmed (none for a
# stop word), which a posting is. Other scripts are ranked whole.
ONE_WORD = re.compile(r"[0-9a-zà-öø-ÿœæ]+", re.IGNORECASE)
# A word of the query, as the correction of misspellings reads it: letters and digits of any script.
WORD = re.compile(r"[^\W_]+")
# Long texts a search result does not show.
LONG_FIELDS = ("rules_summary", "contents", "pedagogical_analysis", "search_vector")

# When the query's words match no game, the query with each word (lower-case) replaced by the nearest
# word of the lexicon, which has them unaccented (the word as typed when it is there itself, or shorter
# than the first parameter: « dés » unaccented would be the article « des »); NULL when they match
# games. `%` is pg_trgm's similarity operator, served by the lexicon's GIN index. One round trip either
# way: the correction (an InitPlan) runs only when the EXISTS finds nothing.
CORRECTION_SQL = """
SELECT CASE WHEN EXISTS (SELECT 1 FROM catalogue_game
                          WHERE search_vector @@ websearch_to_tsquery(%s::regconfig, %s))
       THEN NULL
       ELSE (SELECT string_agg(corrected.word, ' ' ORDER BY corrected.n)
               FROM (SELECT q.n, CASE WHEN length(q.word) < %s THEN q.word ELSE coalesce(
                                   (SELECT CASE WHEN w.word = unaccent(q.word) THEN q.word ELSE w.word END
                                      FROM catalogue_search_word w
                                     WHERE w.word %% unaccent(q.word)
                                     ORDER BY similarity(w.word, unaccent(q.word)) DESC, w.word
                                     LIMIT 1),
                                   q.word) END AS word
                       FROM unnest(%s::text[]) WITH ORDINALITY AS q(word, n)) AS corrected)
       END
"""

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


class TagIds(models.Expression):
    """`catalogue_game.tag_ids`: a database-only column (no model field), under the query's own alias
    (or the alias it is relabelled to, like a column: see posting_conditions())."""

    output_field = ArrayField(models.BigIntegerField())
    alias = None

    def resolve_expression(self, query=None, *args, **kwargs):
        resolved = super().resolve_expression(query, *args, **kwargs)
        if query is not None and resolved.alias is None:  # a lookup resolves its side again to compile it
            resolved.alias = query.get_initial_alias()
        return resolved

    def relabeled_clone(self, change_map):
        clone = self.copy()
        clone.alias = change_map.get(self.alias, self.alias)
        return clone

    def as_sql(self, compiler, connection):
        alias = self.alias or compiler.query.get_initial_alias()
        return f"{compiler.quote_name(alias)}.{connection.ops.quote_name('tag_ids')}", []


class TableKeys(models.Func):
    """`catalogue_table_keys()` of the game's row (migration 0015): the game's « table keys », each a
    condition of a table's search it meets, in the text's index beside its search document (see
    table_keys()). The SQL must be the index's expression, argument for argument."""

    function = "catalogue_table_keys"
    output_field = ArrayField(models.BigIntegerField())

    def __init__(self):
        columns = ("players_min", "players_max", "age_min", "age_max", "duration_minutes", "category_id")
        super().__init__(*map(F, columns), TagIds())


# What a game's table keys hold (migration 0015's catalogue_table_keys(), which must agree): its
# numbers of players up to TABLE_KEYS_PLAYERS, its ages up to TABLE_KEYS_AGE, the steps of this ladder of
# times it fits in, its category and its tags.
TABLE_KEYS_PLAYERS = 12
TABLE_KEYS_AGE = 18
TABLE_KEYS_MINUTES = (5, 10, 15, 20, 25, 30, 40, 45, 60, 75, 90, 120, 180, 240)


def table_keys(
    *, players=(), youngest=(), minutes: int | None = None, category: int | None = None, tags=()
) -> list[int]:
    """The table keys every game of a table's search carries: for each number of `players` and each
    `youngest` age its games must admit, the time they must fit in (`minutes`), their `category` id and
    `tags` ids. A game that passes those criteria carries them all; one that carries them all may still
    miss a criterion the keys round up (a time between two steps of the ladder, more than 12 players,
    someone older than 18), which the search checks on the game itself as before."""
    keys = list(tags)
    keys += [-100 - count for count in players if 1 <= count <= TABLE_KEYS_PLAYERS]
    keys += [-200 - age for age in youngest if 0 <= age <= TABLE_KEYS_AGE]
    if minutes is not None:
        keys += [-1000 - step for step in TABLE_KEYS_MINUTES if step >= minutes][:1]
    if category is not None:
        keys += category_keys([category])
    return sorted(set(keys))


def category_keys(categories) -> list[int]:
    """The table keys of these category ids: a game of one of them carries one of these keys."""
    return [-1_000_000_000 - category for category in categories]


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


def is_text_condition(condition, model: type[models.Model]) -> bool:
    """Whether `condition`, in the WHERE clause of a search of `model` (the games), is one of the
    conditions of its text that `GameQuerySet.search()` adds: its words, or its table keys."""
    if isinstance(condition, SearchVectorExact):
        return getattr(condition.lhs, "target", None) is model.search_vector.field
    return isinstance(condition, (DataContains, Overlap)) and isinstance(condition.lhs, TableKeys)


def keys_name_a_tag(games: models.QuerySet) -> bool:
    """Whether the table keys of a text search (`GameQuerySet.search(table=…)`) ask for a tag: its text's
    index then yields only the games carrying it (a tag's key is its id, the only positive keys)."""
    return any(
        isinstance(condition, DataContains)
        and isinstance(condition.lhs, TableKeys)
        and any(key > 0 for key in condition.rhs.value)
        for condition in games.query.where.children
    )


def one_word(games: models.QuerySet) -> tuple[str, models.QuerySet] | None:
    """For a search of one word (`GameQuerySet.search()`), the word and the same games without the
    text's conditions (its words and its table keys): the search's other conditions (ages, time,
    category…). None for another search."""
    if "one_word" not in games.query.annotations:
        return None
    others = games.order_by()
    others.query.where.children = [
        child for child in others.query.where.children if not is_text_condition(child, games.model)
    ]
    return games.query.annotations["one_word"].value, others


def _count(queryset: models.QuerySet) -> Coalesce:
    """Count the rows of a subquery correlated on `game`, as an annotation (0 when none)."""
    counted = queryset.order_by().values("game").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=models.IntegerField()), 0)


# The lists of a notice that come with the game's row on PostgreSQL (`for_notice()`): the game's related
# managers, each annotated as a JSON array under the prefix.
NOTICE_LISTS = ("authorships", "publisher_credits", "languages", "tags", "components", "documents")
NOTICE_PREFIX = "notice_"


def _notice_lists() -> dict[str, tuple[models.QuerySet, tuple[str, ...]]]:
    """The lists of a notice read with the game's row: for each (the game's related manager), the rows
    of the game `OuterRef("pk")` in the notice's order, and their fields the notice reads
    (`author__name`: the field of the object a foreign key names; other fields stay deferred)."""
    from .models import Authorship, Component, Document, Language, PublisherCredit, Tag

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
    from .models import Copy

    return Copy.objects.with_availability().select_related("section", "location").order_by("barcode")


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


class GameSearchMixin:
    """QuerySet methods of `Game` for the family search page and the API."""

    def for_result_list(self, *, shelf_status: bool = True):
        """What a search result shows: the category and the copies available, not the long texts; and
        where a copy waits (`with_shelf_status()`), which the page shows and the API does not."""
        games = self.select_related("category").defer(*LONG_FIELDS)
        if not shelf_status:
            return games.with_availability()
        # The status line says whether a copy is available: `available_count` would be one more subquery.
        return games.with_shelf_status().with_copies_count()

    def with_shelf_status(self):
        """Annotate where a copy waits on the shelf, or when the first one comes back, for the one-line status.

        `shelf_site` (the first site, by name, with a copy a family can take now), `shelf_sites` (how
        many sites have one), `next_due_on` (the earliest return date of the copies out on loan) and
        `lendable_count` (copies whose status allows lending, out or set aside included):
        subqueries of the same query, never one query per game (see `includes/shelf_status.html`).
        """
        from .models import Copy

        available = Copy.objects.available().filter(game=OuterRef("pk")).order_by()
        out = (
            Copy.objects.filter(game=OuterRef("pk"))
            .annotate(due=circulation().due_on())
            .filter(due__isnull=False)
            .order_by("due")
        )
        sites = available.values("game").annotate(n=Count("location", distinct=True)).values("n")
        return self.annotate(
            shelf_site=Subquery(available.order_by("location__name").values("location__name")[:1]),
            shelf_sites=Coalesce(Subquery(sites, output_field=models.IntegerField()), 0),
            next_due_on=Subquery(out.values("due")[:1]),
            lendable_count=_count(Copy.objects.lendable().filter(game=OuterRef("pk"))),
        )

    def with_tag_names(self):
        """Bring each game's tag names along: `tag_names`, sorted, in the same query on PostgreSQL."""
        if not self._on_postgresql():
            return self.prefetch_related("tags")
        from .models import Tag

        names = Tag.objects.filter(games=OuterRef("pk")).order_by("name").values("name")
        return self.annotate(tag_names=ArraySubquery(names))

    def for_notice(self):
        """Everything the game page and the API notice show but the copies (`notice_copies()`).

        On PostgreSQL the authors, publishers, languages, tags, pieces and documents come with the
        game's row, as one JSON array each (`NoticeIterable` puts them where a prefetch would); on
        SQLite (a newcomer's first run) each list is prefetched, one query per kind of thing.
        """
        from .models import Authorship, Component, Document, PublisherCredit

        games = self.select_related("category").defer("search_vector")
        if self._on_postgresql():
            lists = {
                f"{NOTICE_PREFIX}{name}": ArraySubquery(
                    rows.values(row=JSONObject(**{field: field for field in fields}))
                )
                for name, (rows, fields) in _notice_lists().items()
            }
            games = games.annotate(**lists)
            games._iterable_class = NoticeIterable
            return games
        # Each related list in its own order: their default orderings would join the game again.
        return games.prefetch_related(
            models.Prefetch("authorships", Authorship.objects.select_related("author").order_by("position")),
            models.Prefetch(
                "publisher_credits", PublisherCredit.objects.select_related("publisher").order_by("position")
            ),
            "languages",
            "tags",
            models.Prefetch("components", Component.objects.order_by("position", "pk")),
            models.Prefetch("documents", Document.objects.order_by("position", "file_name")),
        )

    def _on_postgresql(self) -> bool:
        return connections[self.db].vendor == "postgresql"

    def search(self, text: str, *, table: list[int] = (), table_any: list[int] = ()):
        """Games matching free text over title, authors, publishers, tags and summary, with a `rank`.

        Whole words, French stemming, accents and case ignored, every word required. When the words
        match no game at all, each word missing from the catalogue's lexicon is taken as misspelt and
        replaced by the nearest word there ("catanne" becomes "catane"). This asks the database now,
        once or twice, so that the filtering itself stays one index lookup.

        `table`: the table keys (table_keys()) of the search's other criteria, which the caller filters
        by as well; `table_any`: keys of which a game carries at least one (the categories of an ESAR
        group: category_keys()). The text's index holds each game's keys beside its words (migration
        0015), so the same index scan yields only the games that carry them: a search with a table's
        criteria reads the rows of the games that pass them, not of every match (811 instead of 10,363
        for `q=labyrinthe&ages=9,4,42,32&duree_max=30` at 100,000 games).
        """
        text = " ".join(text.split())
        if not text:
            return self.annotate(rank=Value(0.0, output_field=models.FloatField()))
        if not self._on_postgresql():
            return self._search_icontains(text)
        if len(text) >= FUZZY_MIN_LENGTH:
            text = self._corrected(text) or text
        query = SearchQuery(text, config=SEARCH_CONFIG, search_type="websearch")
        games = self.filter(search_vector=query)
        for lookup, keys in ((DataContains, table), (Overlap, table_any)):
            if keys:
                games = games.filter(lookup(TableKeys(), Value(keys, output_field=TableKeys.output_field)))
        games = games.annotate(rank=SearchRank(F("search_vector"), query))
        if ONE_WORD.fullmatch(text):
            games = games.alias(one_word=Value(text))
        return games

    def _corrected(self, text: str) -> str | None:
        """None when the words match games; else the query with each word that is not in the lexicon
        replaced by the nearest one that is."""
        with connections[self.db].cursor() as cursor:
            # Split here, where lower() and letters do not depend on the database's locale.
            words = WORD.findall(text.lower())
            cursor.execute(CORRECTION_SQL, [SEARCH_CONFIG, text, FUZZY_MIN_LENGTH, words])
            return cursor.fetchone()[0]

    def _search_icontains(self, text: str):
        """The SQLite fallback: every word somewhere in the title, names, tags or summary."""
        queryset = self
        for word in text.split():
            queryset = queryset.filter(
                Q(title__icontains=word)
                | Q(summary__icontains=word)
                | Q(pk__in=self.model.objects.filter(authors__name__icontains=word).values("pk"))
                | Q(pk__in=self.model.objects.filter(publishers__name__icontains=word).values("pk"))
                | Q(pk__in=self.model.objects.filter(tags__name__icontains=word).values("pk"))
            )
        return queryset.annotate(rank=Value(0.0, output_field=models.FloatField()))

    def with_tags(self, tags, *, indexed: bool = True):
        """Games carrying every one of these tags. Not `indexed`: the same condition, which the tags'
        own index cannot serve (see GameFilter.filter_text())."""
        if not tags:
            return self
        if self._on_postgresql():
            # On the game's own row (or the covering index): no join to the game-tag links.
            ids = Value([tag.pk for tag in tags], output_field=TagIds.output_field)
            tag_ids = TagIds() if indexed else Coalesce(TagIds(), Value([], output_field=TagIds.output_field))
            return self.filter(DataContains(tag_ids, ids))
        through = self.model.tags.through
        queryset = self
        for tag in tags:
            queryset = queryset.filter(Exists(through.objects.filter(game=OuterRef("pk"), tag=tag)))
        return queryset

    def by_author(self, name: str):
        """Games credited to an author whose name contains `name` (accents and case ignored)."""
        from .models import Authorship

        return self._credited(Authorship.objects, "author__name", name)

    def by_publisher(self, name: str):
        """Games of a publisher whose name contains `name` (accents and case ignored)."""
        from .models import PublisherCredit

        return self._credited(PublisherCredit.objects, "publisher__name", name)

    def _credited(self, credits, field: str, name: str):
        lookup = f"{field}__unaccent__icontains" if self._on_postgresql() else f"{field}__icontains"
        return self.filter(Exists(credits.filter(game=OuterRef("pk"), **{lookup: name})))

    def with_copies(self, *, location=None, available: bool = False, players: int | None = None):
        """Games with a copy at this location, and/or one a family can take home now (for `players`)."""
        from .models import Copy, Location

        location = location.pk if isinstance(location, Location) else location
        if available:
            # "Has an available copy" as a scalar subquery, which PostgreSQL cannot turn into a join:
            # it looks at each candidate game's copies (a few index lookups, and a first page sorted by
            # title stops after ~20 games) instead of first listing the available copies of the whole
            # catalogue (~140 ms at 300,000 copies), as it tends to plan an EXISTS.
            return self.alias(available_copy=AvailableCopy(location, players)).filter(
                available_copy__isnull=False
            )
        copies = Copy.objects.filter(game=OuterRef("pk"))
        return self.filter(Exists(copies if location is None else copies.filter(location=location)))

    def with_copies_count(self):
        """Annotate `copies_count`: the game's copies, whatever their status."""
        from .models import Copy

        return self.annotate(copies_count=_count(Copy.objects.filter(game=OuterRef("pk"))))

    def with_availability(self):
        """Annotate `copies_count` and `available_count` (copies a family could take home now)."""
        from .models import Copy

        return self.with_copies_count().annotate(
            available_count=_count(Copy.objects.available().filter(game=OuterRef("pk")))
        )

    def fitting_ages(self, ages: list[int]):
        """Annotate `fits_everyone`: false when the game's upper age is below the oldest at the table.

        Such a game stays in the results (a parent can play a game made for 5–7 year olds with a
        child), flagged « conçu pour 5–7 ans », and the pertinence sort puts it after the others.
        """
        oldest = max(ages)
        fits = Q(age_max__isnull=True) | Q(age_max__gte=oldest)
        return self.annotate(fits_everyone=ExpressionWrapper(fits, output_field=models.BooleanField()))

    def sorted_by(self, key: str):
        """Order by a sort key of the search page (pertinence, titre, duree, popularite); title breaks ties."""
        if key == "pertinence":
            if "fits_everyone" in self.query.annotations and "rank" not in self.query.annotations:
                return self.order_by(*FITS_FIRST)  # paged by title index walks: GamePaginator
            if "rank" not in self.query.annotations:
                return self.order_by("title", "pk")
            return self.order_by(
                *(FITS_FIRST_RANKED if "fits_everyone" in self.query.annotations else RANKED)
            )
        if key == "duree":
            return self.order_by(F("duration_minutes").asc(nulls_last=True), "title", "pk")
        if key == "popularite":
            # Counted once a day by the lending app (Game.loans_last_year), not per search.
            return self.order_by("-loans_last_year", "title", "pk")
        return self.order_by("title", "pk")

    def facets(self) -> dict:
        """How many games there are, and how many fall in each category and carry each tag.

        `{"count": n, "count_exact": bool, "categories": [{"code", "label", "count"}…], "tags": [{"slug",
        "name", "count"}…]}`, most frequent first (only the FACET_TAGS most frequent tags). On PostgreSQL
        one query reads the games once (from the covering index when there is no text query) for the
        three counts, and stops after EXACT_COUNT_LIMIT games: past it, `count_exact` is false, `count`
        is the limit, and the categories and tags are counted among the games read (for a word alone,
        its best ranked).
        """
        from .models import Tag

        games = self.order_by()
        if self._on_postgresql():
            columns = games.annotate(tag_ids=TagIds()).values("category_id", "tag_ids")
            columns = columns[: EXACT_COUNT_LIMIT + 1]
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
                limit = EXACT_COUNT_LIMIT
                params = [SEARCH_CONFIG, word[0], *passing_params, limit + 1, limit, *params, limit]
            sql = prefix + FACETS_SQL.format(games=sql)
            with connections[self.db].cursor() as cursor:
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
                {"slug": slug, "name": name, "count": n}
                for key, n, _, _, slug, name in rows
                if key and key > 0
            ]
            tags = sorted(tags, key=lambda facet: (-facet["count"], facet["name"]))[:FACET_TAGS]
            exact = count <= EXACT_COUNT_LIMIT
            count = min(count, EXACT_COUNT_LIMIT)
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


class AvailableCopy(models.Expression):
    """The id of a copy of the game a family can take home now, at `location`, for a table of `players`
    (NULL when none): `CopyQuerySet.available()` as a scalar subquery correlated on the game's id.

    Its SQL is compiled once per process, connection and value (_available_copy_sql()): built, resolved
    and compiled as a Django subquery each time, the conditions of an available copy (its exclusions by
    every registration that takes a copy away) cost ~4 ms of Python for a search with `disponible=oui`,
    compiled twice (the count and the page's ids), more than the SQL of most searches.
    """

    output_field = models.BigIntegerField()

    def __init__(self, location: int | None, players: int | None):
        super().__init__()
        self.location, self.players = location, players
        self.game = F("pk")

    def get_source_expressions(self):
        return [self.game]

    def set_source_expressions(self, exprs):
        (self.game,) = exprs

    def as_sql(self, compiler, connection):
        game_sql, game_params = compiler.compile(self.game)
        sql, params = self.sql_for(connection.alias, game_sql)
        return sql, [*params, *game_params]

    def sql_for(self, alias: str, game_sql: str) -> tuple[str, list]:
        """The subquery's SQL and parameters on database `alias`, for the game id `game_sql`."""
        before, params, after = _available_copy_sql(alias, self.location, self.players)
        return f"({before}{game_sql}{after})", params


# Where the game's id goes in _available_copy_sql(): a raw SQL text no compiled query holds otherwise.
GAME_ID_MARK = "/* the game's id */ NULL"


@functools.lru_cache(maxsize=1024)
def _available_copy_sql(alias: str, location: int | None, players: int | None) -> tuple[str, list, str]:
    """AvailableCopy's SQL before the game's id, its parameters, and its SQL after it. A table size that
    `available()` ignores (it reads 1 to MAX_TABLE) only takes one more entry."""
    from .models import Copy

    copies = Copy.objects.available(players)
    if location is not None:
        copies = copies.filter(location=location)
    copies = copies.filter(game=RawSQL(GAME_ID_MARK, ())).order_by().values("pk")[:1]
    sql, params = copies.query.get_compiler(using=alias).as_sql()
    before, after = sql.split(GAME_ID_MARK)
    # The game's id comes last in the WHERE clause, before LIMIT 1: every parameter is before it.
    assert "%s" not in after, after
    return before, list(params), after
