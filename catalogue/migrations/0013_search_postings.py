"""The search's postings: for each word of a game's title, names or tags (weights A, B and C of its
search document), the game's rank for that word and its title, in one B-tree index ordered as a
one-word search shows its games (`catalogue.views.one_word_page()`).

A search of one word used to rank every game with the word in its title, names or tags to find its
first page (6,569 games for `pirates` at 100,000 games, 65,801 at 1,000,000): the page now comes
from the first entries of the index, whatever the size of the catalogue. The rank is the one the
search computes, `ts_rank(search_vector, query)` with PostgreSQL's default weights, stored as the
same `real`, so the order is the same.

- `catalogue_search_posting` (lexeme, rank, title, game_id): a database-only table, like the
  lexicon; Django never reads it through a model nor writes it.
- `catalogue_game_search_postings()`, AFTER INSERT, DELETE, and UPDATE of the search document or
  the title on `catalogue_game`: replaces the game's postings. The search document is itself
  recomputed by the triggers of migration 0003 whatever writes the catalogue, so the postings follow
  a renamed author or a new tag.
- The GIN indexes of the title and of the title, names and tags (migrations 0011 and 0012), which
  the postings replace, are dropped.

Hand-written: carry it over when squashing. Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql

FORWARD = r"""
CREATE TABLE catalogue_search_posting (
    lexeme text NOT NULL,
    rank real NOT NULL,
    title varchar(200) NOT NULL,
    game_id bigint NOT NULL
);

CREATE FUNCTION catalogue_game_search_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM catalogue_search_posting WHERE game_id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.search_vector IS NOT NULL THEN
        -- A lexeme as a query of its own: quoted, its quotes and backslashes doubled.
        INSERT INTO catalogue_search_posting (lexeme, rank, title, game_id)
        SELECT u.lexeme,
               ts_rank(NEW.search_vector,
                       ('''' || replace(replace(u.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery),
               NEW.title, NEW.id
          FROM unnest(NEW.search_vector) AS u
         WHERE u.weights && '{A,B,C}'::text[];
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER catalogue_game_search_postings
    AFTER INSERT OR DELETE ON catalogue_game
    FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_postings();
CREATE TRIGGER catalogue_game_search_postings_update
    AFTER UPDATE ON catalogue_game
    FOR EACH ROW
    WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector OR OLD.title IS DISTINCT FROM NEW.title)
    EXECUTE FUNCTION catalogue_game_search_postings();

-- The games that exist already.
INSERT INTO catalogue_search_posting (lexeme, rank, title, game_id)
SELECT u.lexeme,
       ts_rank(g.search_vector, ('''' || replace(replace(u.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery),
       g.title, g.id
  FROM catalogue_game g, unnest(g.search_vector) AS u
 WHERE u.weights && '{A,B,C}'::text[];

-- one_word_page(): a word's games in the order of the search, best rank first, then by title.
CREATE INDEX catalogue_search_posting_order ON catalogue_search_posting (lexeme, rank DESC, title, game_id);
-- The trigger's DELETE.
CREATE INDEX catalogue_search_posting_game ON catalogue_search_posting (game_id);

DROP INDEX IF EXISTS catalogue_game_heading_search_gin;
DROP INDEX IF EXISTS catalogue_game_title_search_gin;
"""

BACKWARD = r"""
CREATE INDEX IF NOT EXISTS catalogue_game_title_search_gin ON catalogue_game
    USING gin (to_tsvector('french_unaccent'::regconfig, COALESCE(title, '')));
CREATE INDEX IF NOT EXISTS catalogue_game_heading_search_gin ON catalogue_game
    USING gin (ts_filter(search_vector, '{a,b,c}'));
DROP TRIGGER IF EXISTS catalogue_game_search_postings_update ON catalogue_game;
DROP TRIGGER IF EXISTS catalogue_game_search_postings ON catalogue_game;
DROP FUNCTION IF EXISTS catalogue_game_search_postings();
DROP TABLE IF EXISTS catalogue_search_posting;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0012_game_heading_search_index"),
    ]

    operations = [
        run_on_postgresql(FORWARD, BACKWARD),
    ]
