"""The search's database-only tables, described as models so that a reader and the ORM see them.

The database writes them itself (the triggers of `triggers.py`), whatever writes the catalogue:
Django neither creates nor changes them (`managed = False`; the migrations 0003, 0013, 0014 and 0017
made them), and the site never writes them through these models. They exist on PostgreSQL only.
Two other database-only parts of the search are not tables: `catalogue_game.tag_ids`, a column no
model field declares (`keys.TagIds`), and a game's table keys, an expression of the text's index
(`keys.TableKeys`).
"""

from django.contrib.postgres.fields import ArrayField
from django.db import models


class SearchPosting(models.Model):
    """A word of a game's title, names or tags (weights A, B, C of its search document), with the
    game's rank for that word alone and the game's columns a table's search asks about, so that a
    search of one word reads its page, count and facets in the index `catalogue_search_posting_order`
    (lexeme, rank DESC, title, game_id; the other columns in its leaves). See `postings.py`."""

    pk = models.CompositePrimaryKey("lexeme", "game")
    lexeme = models.TextField()
    rank = models.FloatField()
    title = models.CharField(max_length=200)
    game = models.ForeignKey("catalogue.Game", models.DO_NOTHING, related_name="+", db_constraint=False)
    players_min = models.SmallIntegerField(null=True)
    players_max = models.SmallIntegerField(null=True)
    age_min = models.SmallIntegerField(null=True)
    age_max = models.SmallIntegerField(null=True)
    duration_minutes = models.SmallIntegerField(null=True)
    category = models.ForeignKey(
        "catalogue.Category", models.DO_NOTHING, null=True, related_name="+", db_constraint=False
    )
    tag_ids = ArrayField(models.BigIntegerField(), default=list)

    class Meta:
        managed = False
        db_table = "catalogue_search_posting"

    def __str__(self) -> str:
        return f"{self.lexeme} → {self.title}"


class SearchWord(models.Model):
    """A word of the catalogue (three letters or more, lower-case, unaccented), for the correction of a
    misspelt query word (`text.CORRECTION_SQL`, pg_trgm's GIN index `catalogue_search_word_trgm`)."""

    word = models.TextField(primary_key=True)

    class Meta:
        managed = False
        db_table = "catalogue_search_word"

    def __str__(self) -> str:
        return self.word


# A flush (`manage.py flush`, a transactional test's teardown) empties the managed tables only: these
# would keep the words and postings of games that are gone, and a later search would read them.
EMPTY_WHEN_NO_GAME = """
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM catalogue_game) THEN
        TRUNCATE catalogue_search_posting, catalogue_search_word;
    END IF;
END $$"""


def empty_after_a_flush(sender, using: str, **kwargs) -> None:
    """After the catalogue's post_migrate (emitted after a migration and after a flush): a catalogue
    without games has no search words or postings. A catalogue with games keeps them all."""
    from django.db import connections

    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(EMPTY_WHEN_NO_GAME)
