"""PostgreSQL's text search tools for the catalogue (hand-written: carry over when squashing).

The extensions `unaccent` and `pg_trgm`, and a text search configuration `french_unaccent`: the
French stemmer after removing accents, so that "chateau" finds "Château". The triggers, the lexicon
and the indexes that use them are in 0003_search_triggers_and_lexicon. Nothing happens on SQLite,
where the search falls back to icontains.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql

FORWARD = r"""
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'french_unaccent') THEN
        CREATE TEXT SEARCH CONFIGURATION french_unaccent (COPY = pg_catalog.french);
        ALTER TEXT SEARCH CONFIGURATION french_unaccent
            ALTER MAPPING FOR hword, hword_part, word WITH unaccent, french_stem;
    END IF;
END
$$;
"""

BACKWARD = r"""
DROP TEXT SEARCH CONFIGURATION IF EXISTS french_unaccent;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0001_initial"),
    ]

    operations = [
        run_on_postgresql(FORWARD, BACKWARD),
    ]
