"""A word written with an accent is kept by the search: « dés » is no longer the article « des ».

The text search configuration `french_unaccent` (migration 0002) took the accents off every word that
has some, then gave it to the French stemmer `french_stem`, whose stop words then dropped those whose
unaccented form is one: « dés » became « des », « dû » « du », « où » « ou », « sûr » « sur », and they
were missing from the search documents and from the queries (`q=dés` found nothing, `q=jeu de dés`
every game with « jeu »). An accented word is no article: such words (the parser's `word`, `hword`,
`hword_part`) now go through `unaccent`, then `french_unaccent_stem`, the same French stemmer without
stop words. Words without accents keep them: « des », « de », « le » are still dropped, from the
documents and from the queries. The accented words of the stop list (« à », « même », « été »…) were
never dropped, their unaccented forms not being in it: « été », « thé » are found as before.

The search documents (`catalogue_game.search_vector`, migration 0003's trigger), their indexes and the
postings (migrations 0013 and 0014) are written anew in the new configuration: the documents by the
trigger, the postings after them in one statement (their trigger off meanwhile, their indexes built at
the end), then every index of the games, whose rows were all rewritten. Both tables are then vacuumed,
outside the transaction: a posting is read from its index alone (an index-only scan) only once its
page is marked all-visible, else a word's page and count read the table too (3,285 buffers instead
of 28 for `robots` at 100,000 games), and the planner sorts the word's postings rather than walk
the index in order.

Hand-written: carry it over when squashing. Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql

# What a posting copies of its game (migration 0014).
COLUMNS = "players_min, players_max, age_min, age_max, duration_minutes, category_id, tag_ids"

REBUILD = rf"""
ALTER TABLE catalogue_game DISABLE TRIGGER catalogue_game_search_postings_update;
UPDATE catalogue_game SET search_vector = NULL;
ALTER TABLE catalogue_game ENABLE TRIGGER catalogue_game_search_postings_update;

DROP INDEX catalogue_search_posting_order;
DROP INDEX catalogue_search_posting_game;
TRUNCATE catalogue_search_posting;
INSERT INTO catalogue_search_posting (lexeme, rank, title, game_id, {COLUMNS})
SELECT u.lexeme, ts_rank(g.search_vector, ('''' || replace(replace(u.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery),
       g.title, g.id, {", ".join(f"g.{column}" for column in COLUMNS.split(", "))}
  FROM catalogue_game g, unnest(g.search_vector) AS u
 WHERE u.weights && '{{A,B,C}}'::text[];
CREATE INDEX catalogue_search_posting_order ON catalogue_search_posting (lexeme, rank DESC, title, game_id)
    INCLUDE ({COLUMNS});
CREATE INDEX catalogue_search_posting_game ON catalogue_search_posting (game_id);

REINDEX TABLE catalogue_game;
"""

FORWARD = f"""
CREATE TEXT SEARCH DICTIONARY french_unaccent_stem (TEMPLATE = snowball, Language = french);
ALTER TEXT SEARCH CONFIGURATION french_unaccent
    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, french_unaccent_stem;
{REBUILD}"""

BACKWARD = f"""
ALTER TEXT SEARCH CONFIGURATION french_unaccent
    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, french_stem;
DROP TEXT SEARCH DICTIONARY french_unaccent_stem;
{REBUILD}"""

# The configuration and what is written from it, or nothing (the migration itself is not atomic).
REBUILD_STEP = run_on_postgresql(FORWARD, BACKWARD)
REBUILD_STEP.atomic = True


def vacuum(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("VACUUM (ANALYZE) catalogue_game, catalogue_search_posting", params=None)


class Migration(migrations.Migration):
    atomic = False  # VACUUM runs outside a transaction

    dependencies = [
        ("catalogue", "0016_location_contact"),
    ]

    operations = [
        REBUILD_STEP,
        migrations.RunPython(vacuum, vacuum, elidable=False),
    ]
