"""QuerySet methods of `Game` for the family search page and the API."""

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.lookups import DataContains, Overlap
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connections, models
from django.db.models import (
    Count,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce, JSONObject

from ..registry import circulation
from .availability import AvailableCopy
from .facets import facets
from .keys import (
    TableKeys,
    TagIds,
)
from .notice import (
    NOTICE_PREFIX,
    NoticeIterable,
    _notice_lists,
)
from .ordering import FITS_FIRST, FITS_FIRST_RANKED, RANKED
from .text import (
    CORRECTION_SQL,
    FUZZY_MIN_LENGTH,
    ONE_WORD,
    SEARCH_CONFIG,
    WORD,
)

# Long texts a search result does not show.
LONG_FIELDS = ("rules_summary", "contents", "pedagogical_analysis", "search_vector")


def _count(queryset: models.QuerySet) -> Coalesce:
    """Count the rows of a subquery correlated on `game`, as an annotation (0 when none)."""
    counted = queryset.order_by().values("game").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=models.IntegerField()), 0)


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
        `lendable_count` (copies whose status allows lending, out or set aside included), `in_transit`
        (a copy travels between two sites):
        subqueries of the same query, never one query per game (see `includes/shelf_status.html`).
        """
        from ..models import Copy

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
            in_transit=Exists(Copy.objects.filter(game=OuterRef("pk"), status=Copy.Status.IN_TRANSIT)),
        )

    def with_tag_names(self):
        """Bring each game's tag names along: `tag_names`, sorted, in the same query on PostgreSQL."""
        if not self._on_postgresql():
            return self.prefetch_related("tags")
        from ..models import Tag

        names = Tag.objects.filter(games=OuterRef("pk")).order_by("name").values("name")
        return self.annotate(tag_names=ArraySubquery(names))

    def for_notice(self):
        """Everything the game page and the API notice show but the copies (`notice_copies()`).

        On PostgreSQL the authors, publishers, languages, tags, pieces and documents come with the
        game's row, as one JSON array each (`NoticeIterable` puts them where a prefetch would); on
        SQLite (a newcomer's first run) each list is prefetched, one query per kind of thing.
        """
        from ..models import Authorship, Component, Document, PublisherCredit

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
        from ..models import Authorship

        return self._credited(Authorship.objects, "author__name", name)

    def by_publisher(self, name: str):
        """Games of a publisher whose name contains `name` (accents and case ignored)."""
        from ..models import PublisherCredit

        return self._credited(PublisherCredit.objects, "publisher__name", name)

    def _credited(self, credits, field: str, name: str):
        lookup = f"{field}__unaccent__icontains" if self._on_postgresql() else f"{field}__icontains"
        return self.filter(Exists(credits.filter(game=OuterRef("pk"), **{lookup: name})))

    def with_copies(self, *, location=None, available: bool = False, players: int | None = None):
        """Games with a copy at this location, and/or one a family can take home now (for `players`)."""
        from ..models import Copy, Location

        location = location.pk if isinstance(location, Location) else location
        if available:
            # "Has an available copy" as a scalar subquery, which PostgreSQL cannot turn into a join:
            # it looks at each candidate game's copies (a few index lookups, and a first page sorted by
            # title stops after ~20 games) instead of first listing the available copies of the whole
            # catalogue, as it tends to plan an EXISTS.
            return self.alias(available_copy=AvailableCopy(location, players)).filter(
                available_copy__isnull=False
            )
        copies = Copy.objects.filter(game=OuterRef("pk"))
        return self.filter(Exists(copies if location is None else copies.filter(location=location)))

    def with_copies_count(self):
        """Annotate `copies_count`: the game's copies, whatever their status."""
        from ..models import Copy

        return self.annotate(copies_count=_count(Copy.objects.filter(game=OuterRef("pk"))))

    def with_availability(self):
        """Annotate `copies_count` and `available_count` (copies a family could take home now)."""
        from ..models import Copy

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
        """How many games there are, and how many fall in each category and carry each tag (facets())."""
        return facets(self)
