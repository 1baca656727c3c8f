"""The family search's machinery inside PostgreSQL (hand-written: carry over when squashing).

- `catalogue_game.tag_ids` (bigint[]): the game's tag ids, for the tag facet counts. A database-only
  column, like the trigger that fills it: Django never reads it through the model nor writes it.
- `catalogue_search_word`: the lexicon, every word (three letters or more, lower-case, unaccented)
  of the titles, names, tags and summaries, with a trigram index: a misspelt query word is replaced
  by its nearest lexicon word ("catanne" → "catane"). Insert-only: a word left over from an edited
  notice only ever offers a correction that finds nothing.
- `catalogue_game_search_document()`, BEFORE INSERT OR UPDATE on `catalogue_game`: fills
  `search_vector` (title A, authors and publishers B, tags C, summary D, in `french_unaccent`) and
  `tag_ids`, and adds the game's words to the lexicon.
- AFTER triggers on the credits, the game-tag links and the names of authors, publishers and tags
  recompute the games concerned: the document is right whatever writes the catalogue (the import,
  the admin, the shell, bulk_create, loaddata). A bulk loader may disable the triggers and then run
  `UPDATE catalogue_game SET search_vector = NULL` on its rows (see bench/generate.py).
- Indexes: GIN on `search_vector` (Game.objects.search()), GIN on `tag_ids` (the tag filter), and the covering index of the family
  search without text (ages, players, age, duration, category): its count and its facets read
  this index only, never the wide rows.

Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql

FORWARD = r"""
ALTER TABLE catalogue_game ADD COLUMN IF NOT EXISTS tag_ids bigint[] NOT NULL DEFAULT '{}';

CREATE TABLE IF NOT EXISTS catalogue_search_word (word text PRIMARY KEY);
CREATE INDEX IF NOT EXISTS catalogue_search_word_trgm ON catalogue_search_word USING gin (word gin_trgm_ops);

CREATE FUNCTION catalogue_game_search_document() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    author_names text;
    publisher_names text;
    tag_names text;
BEGIN
    SELECT coalesce(string_agg(a.name, ' ' ORDER BY s.position, a.name), '') INTO author_names
      FROM catalogue_authorship s JOIN catalogue_author a ON a.id = s.author_id
     WHERE s.game_id = NEW.id;
    SELECT coalesce(string_agg(p.name, ' ' ORDER BY c.position, p.name), '') INTO publisher_names
      FROM catalogue_publishercredit c JOIN catalogue_publisher p ON p.id = c.publisher_id
     WHERE c.game_id = NEW.id;
    SELECT coalesce(string_agg(t.name, ' ' ORDER BY t.name), ''), coalesce(array_agg(t.id ORDER BY t.id), '{}')
      INTO tag_names, NEW.tag_ids
      FROM catalogue_game_tags gt JOIN catalogue_tag t ON t.id = gt.tag_id
     WHERE gt.game_id = NEW.id;
    NEW.search_vector :=
           setweight(to_tsvector('french_unaccent', coalesce(NEW.title, '')), 'A')
        || setweight(to_tsvector('french_unaccent', author_names || ' ' || publisher_names), 'B')
        || setweight(to_tsvector('french_unaccent', tag_names), 'C')
        || setweight(to_tsvector('french_unaccent', coalesce(NEW.summary, '')), 'D');
    -- In word order, so that two games written at once never wait for each other's words crosswise.
    INSERT INTO catalogue_search_word (word)
        SELECT DISTINCT word
          FROM regexp_split_to_table(
                   lower(unaccent(concat_ws(' ', NEW.title, author_names, publisher_names, tag_names, NEW.summary))),
                   '[^a-z0-9]+') AS word
         WHERE length(word) >= 3
         ORDER BY word
        ON CONFLICT DO NOTHING;
    RETURN NEW;
END
$$;

CREATE TRIGGER catalogue_game_search_document
    BEFORE INSERT OR UPDATE ON catalogue_game
    FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_document();

-- A credit or a tag link changed: recompute the game(s) concerned (the BEFORE trigger above does).
CREATE FUNCTION catalogue_game_search_touch_game() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE catalogue_game SET search_vector = NULL WHERE id = OLD.game_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE catalogue_game SET search_vector = NULL WHERE id = NEW.game_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER catalogue_authorship_search_document
    AFTER INSERT OR UPDATE OR DELETE ON catalogue_authorship
    FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_touch_game();
CREATE TRIGGER catalogue_publishercredit_search_document
    AFTER INSERT OR UPDATE OR DELETE ON catalogue_publishercredit
    FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_touch_game();
CREATE TRIGGER catalogue_game_tags_search_document
    AFTER INSERT OR UPDATE OR DELETE ON catalogue_game_tags
    FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_touch_game();

-- An author, publisher or tag was renamed: recompute its games.
CREATE FUNCTION catalogue_game_search_touch_named() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'catalogue_author' THEN
        UPDATE catalogue_game SET search_vector = NULL
         WHERE id IN (SELECT game_id FROM catalogue_authorship WHERE author_id = NEW.id);
    ELSIF TG_TABLE_NAME = 'catalogue_publisher' THEN
        UPDATE catalogue_game SET search_vector = NULL
         WHERE id IN (SELECT game_id FROM catalogue_publishercredit WHERE publisher_id = NEW.id);
    ELSE
        UPDATE catalogue_game SET search_vector = NULL
         WHERE id IN (SELECT game_id FROM catalogue_game_tags WHERE tag_id = NEW.id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER catalogue_author_search_document
    AFTER UPDATE OF name ON catalogue_author
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION catalogue_game_search_touch_named();
CREATE TRIGGER catalogue_publisher_search_document
    AFTER UPDATE OF name ON catalogue_publisher
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION catalogue_game_search_touch_named();
CREATE TRIGGER catalogue_tag_search_document
    AFTER UPDATE OF name ON catalogue_tag
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION catalogue_game_search_touch_named();

-- The games that exist already.
UPDATE catalogue_game SET search_vector = NULL;

-- Game.objects.search(): the full-text match.
CREATE INDEX IF NOT EXISTS catalogue_game_search_vector_gin ON catalogue_game USING gin (search_vector);
-- GameFilter without text (ages, joueurs, age, duree_max, categorie): count, first page by duration,
-- category and tag facets from the index alone (GameSearchMixin.facets).
CREATE INDEX IF NOT EXISTS catalogue_game_family_idx ON catalogue_game (duration_minutes, title, id)
    INCLUDE (age_min, age_max, players_min, players_max, category_id, tag_ids);
-- GameQuerySet.with_tags() (`?tag=…`, `tag_ids @> …`) with a text query: PostgreSQL ANDs this index
-- with the text index and reads only the games carrying the tags (q=pirates&tag=famille: 25 → 1.5 ms).
CREATE INDEX IF NOT EXISTS catalogue_game_tag_ids_gin ON catalogue_game USING gin (tag_ids);
"""

BACKWARD = r"""
DROP INDEX IF EXISTS catalogue_game_tag_ids_gin;
DROP INDEX IF EXISTS catalogue_game_family_idx;
DROP INDEX IF EXISTS catalogue_game_search_vector_gin;
DROP TRIGGER IF EXISTS catalogue_tag_search_document ON catalogue_tag;
DROP TRIGGER IF EXISTS catalogue_publisher_search_document ON catalogue_publisher;
DROP TRIGGER IF EXISTS catalogue_author_search_document ON catalogue_author;
DROP FUNCTION IF EXISTS catalogue_game_search_touch_named();
DROP TRIGGER IF EXISTS catalogue_game_tags_search_document ON catalogue_game_tags;
DROP TRIGGER IF EXISTS catalogue_publishercredit_search_document ON catalogue_publishercredit;
DROP TRIGGER IF EXISTS catalogue_authorship_search_document ON catalogue_authorship;
DROP FUNCTION IF EXISTS catalogue_game_search_touch_game();
DROP TRIGGER IF EXISTS catalogue_game_search_document ON catalogue_game;
DROP FUNCTION IF EXISTS catalogue_game_search_document();
DROP TABLE IF EXISTS catalogue_search_word;
ALTER TABLE catalogue_game DROP COLUMN IF EXISTS tag_ids;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0002_search_extensions"),
    ]

    operations = [
        run_on_postgresql(FORWARD, BACKWARD),
    ]
