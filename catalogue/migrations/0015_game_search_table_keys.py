"""The text's index also holds what a table's search asks of each game: a text search with ages, time,
players, a category or tags finds the games that pass them in the index, before reading any game.

A word with a table's criteria whose postings do not hold the answer (the word is mostly in summaries,
or few of its postings pass: `q=labyrinthe&ages=9,4,42,32&duree_max=30`), and any search of two words
with them, counted or ranked every match of the text, reading each one's row to check its players, ages
and time: 10,363 rows in 7,809 pages for 811 games at 100,000 games, 43,431 rows in 26,160 pages for
`q=temple&ages=7&duree_max=20` at 1,000,000 (210 ms).

- `catalogue_table_keys(players_min, players_max, age_min, age_max, duration_minutes, category_id,
  tag_ids)`: a game's « table keys », each a condition of a table's search that the game meets, as a
  number: each of its tags (its id), each number of players from 1 to 12 it allows (−100 − n), each age
  from 0 to 18 it admits (−200 − age: from its lowest age to its highest), each step of a ladder of
  times it fits in (−1000 − minutes: 5, 10, 15… 240) and its category (−1,000,000,000 − id).
  `catalogue.search.table_keys()` writes a search's criteria the same way (`category_keys()` an ESAR
  group's categories, of which a game carries one).
- `catalogue_game_search_gin` on `(search_vector, catalogue_table_keys(…))`, a GIN index on both,
  replaces `catalogue_game_search_vector_gin` (migration 0003): a search's text and its table keys are
  one index scan, which yields only the games that pass both.

Hand-written: carry it over when squashing. Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql

FORWARD = """
CREATE FUNCTION catalogue_table_keys(
    players_min integer, players_max integer, age_min integer, age_max integer, duration_minutes integer,
    category_id bigint, tag_ids bigint[]
) RETURNS bigint[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT coalesce(tag_ids, '{}')
    || ARRAY(SELECT -100 - n FROM generate_series(players_min, least(players_max, 12)) AS n)
    || ARRAY(SELECT -200 - a FROM generate_series(age_min, least(coalesce(age_max, 18), 18)) AS a)
    || ARRAY(SELECT -1000 - m FROM unnest('{5,10,15,20,25,30,40,45,60,75,90,120,180,240}'::integer[]) AS m
              WHERE duration_minutes <= m)
    || array_remove(ARRAY[-1000000000 - category_id], NULL)
$$;
CREATE INDEX catalogue_game_search_gin ON catalogue_game USING gin (
    search_vector,
    catalogue_table_keys(players_min, players_max, age_min, age_max, duration_minutes, category_id, tag_ids)
);
DROP INDEX catalogue_game_search_vector_gin;
-- The planner's statistics of the new expression: how many games carry each key.
ANALYZE catalogue_game;
"""

BACKWARD = """
CREATE INDEX catalogue_game_search_vector_gin ON catalogue_game USING gin (search_vector);
DROP INDEX catalogue_game_search_gin;
DROP FUNCTION catalogue_table_keys(integer, integer, integer, integer, integer, bigint, bigint[]);
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0014_search_posting_table_columns"),
    ]

    operations = [
        run_on_postgresql(FORWARD, BACKWARD),
    ]
