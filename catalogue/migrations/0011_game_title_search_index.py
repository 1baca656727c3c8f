"""The title's own search document, GIN-indexed: a text search of one word ranks the games with that
word in their title first (`catalogue.views.one_word_page()`), without reading every match.

The expression is the one Django compiles for `catalogue.search.TITLE_VECTOR` (`SearchVector("title",
config="french_unaccent")`), so that PostgreSQL matches the index to the query. Hand-written: carry it
over when squashing. Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0010_game_loans_last_year"),
    ]

    operations = [
        run_on_postgresql(
            "CREATE INDEX IF NOT EXISTS catalogue_game_title_search_gin ON catalogue_game "
            "USING gin (to_tsvector('french_unaccent'::regconfig, COALESCE(title, '')))",
            "DROP INDEX IF EXISTS catalogue_game_title_search_gin",
        ),
    ]
