"""The search document's title, names and tags (weights A, B and C), GIN-indexed: a text search of
one word ranks the games with that word there before those with it in their summary only
(`catalogue.views.one_word_page()`).

The expression is the one Django compiles for `catalogue.search.HEADING_VECTOR`, so that PostgreSQL
matches the index to the query. Hand-written: carry it over when squashing. Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0011_game_title_search_index"),
    ]

    operations = [
        run_on_postgresql(
            "CREATE INDEX IF NOT EXISTS catalogue_game_heading_search_gin ON catalogue_game "
            "USING gin (ts_filter(search_vector, '{a,b,c}'))",
            "DROP INDEX IF EXISTS catalogue_game_heading_search_gin",
        ),
    ]
