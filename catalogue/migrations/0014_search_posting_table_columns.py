"""The search's postings carry what a table's search asks of a game: its numbers of players, its ages,
its time and its category, and the tags its facets count, copied from the game's row, in the index's
leaves.

A search of one word with such conditions (`q=pirates&ages=5,35,41&duree_max=30`, `q=dragons&joueurs=4`,
`q=chateau&categorie=A400`) looked for its page among the word's postings by reading each posting's
game (1,128 buffers for 376 postings at 100,000 games), and counted its games from the whole search
(the bitmap of every match, then their rows: 96,000 matches at 1,000,000 games), and a broad word
counted its facets by reading the rows of its 1,001 best ranked games (3,003 buffers for `robots`).
The postings now answer all three from their index alone (`catalogue.search.posting_conditions()`).

- `catalogue_search_posting` gains `players_min`, `players_max`, `age_min`, `age_max`,
  `duration_minutes`, `category_id` and `tag_ids`, the game's own columns, same names and types.
- `catalogue_game_search_postings()` writes them; its update trigger also fires when one of them
  changes (the function replaces the game's postings, as for a new title).
- The postings are written anew (the table is derived: emptied, then filled from the games), and
  `catalogue_search_posting_order` keeps its key, the columns in its leaves (`INCLUDE`).

Hand-written: carry it over when squashing. Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql

# The game's columns a posting copies (catalogue.search.POSTING_COLUMNS, and its tags).
COLUMNS = ("players_min", "players_max", "age_min", "age_max", "duration_minutes", "category_id", "tag_ids")
# A lexeme as a query of its own: quoted, its quotes and backslashes doubled.
LEXEME_QUERY = r"""('''' || replace(replace(u.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery"""


def postings_function(columns: tuple[str, ...]) -> str:
    """The trigger function that replaces a game's postings, copying these columns of the game."""
    names = "".join(f", {column}" for column in columns)
    values = "".join(f", NEW.{column}" for column in columns)
    return f"""
CREATE OR REPLACE FUNCTION catalogue_game_search_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM catalogue_search_posting WHERE game_id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.search_vector IS NOT NULL THEN
        INSERT INTO catalogue_search_posting (lexeme, rank, title, game_id{names})
        SELECT u.lexeme, ts_rank(NEW.search_vector, {LEXEME_QUERY}), NEW.title, NEW.id{values}
          FROM unnest(NEW.search_vector) AS u
         WHERE u.weights && '{{A,B,C}}'::text[];
    END IF;
    RETURN NULL;
END
$$;
"""


def update_trigger(columns: tuple[str, ...]) -> str:
    """The trigger that calls it when the game's search document, title or one of these columns changes."""
    old = "".join(f", OLD.{column}" for column in columns)
    new = "".join(f", NEW.{column}" for column in columns)
    return f"""
DROP TRIGGER catalogue_game_search_postings_update ON catalogue_game;
CREATE TRIGGER catalogue_game_search_postings_update
    AFTER UPDATE ON catalogue_game
    FOR EACH ROW
    WHEN (ROW(OLD.search_vector, OLD.title{old}) IS DISTINCT FROM ROW(NEW.search_vector, NEW.title{new}))
    EXECUTE FUNCTION catalogue_game_search_postings();
"""


FORWARD = f"""
ALTER TABLE catalogue_search_posting
    ADD COLUMN players_min smallint,
    ADD COLUMN players_max smallint,
    ADD COLUMN age_min smallint,
    ADD COLUMN age_max smallint,
    ADD COLUMN duration_minutes smallint,
    ADD COLUMN category_id bigint,
    ADD COLUMN tag_ids bigint[] NOT NULL DEFAULT '{{}}';
{postings_function(COLUMNS)}{update_trigger(COLUMNS)}
-- Written anew, the index built once at the end.
DROP INDEX catalogue_search_posting_order;
DROP INDEX catalogue_search_posting_game;
TRUNCATE catalogue_search_posting;
INSERT INTO catalogue_search_posting (lexeme, rank, title, game_id, {", ".join(COLUMNS)})
SELECT u.lexeme, ts_rank(g.search_vector, {LEXEME_QUERY}), g.title, g.id, {", ".join(f"g.{c}" for c in COLUMNS)}
  FROM catalogue_game g, unnest(g.search_vector) AS u
 WHERE u.weights && '{{A,B,C}}'::text[];
CREATE INDEX catalogue_search_posting_order ON catalogue_search_posting (lexeme, rank DESC, title, game_id)
    INCLUDE ({", ".join(COLUMNS)});
CREATE INDEX catalogue_search_posting_game ON catalogue_search_posting (game_id);
"""

# Back to migration 0013's index, trigger, function and table.
BACKWARD = f"""
DROP INDEX catalogue_search_posting_order;
CREATE INDEX catalogue_search_posting_order ON catalogue_search_posting (lexeme, rank DESC, title, game_id);
{update_trigger(())}{postings_function(())}
ALTER TABLE catalogue_search_posting {", ".join(f"DROP COLUMN {column}" for column in COLUMNS)};
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0013_search_postings"),
    ]

    operations = [
        run_on_postgresql(FORWARD, BACKWARD),
    ]
