"""The current source of the search's functions, triggers and indexes in the database.

The migrations installed them (0003, 0013, 0014, 0015, 0017 and 0018, each in its own words, which stay as
they were: a landed migration keeps installing what it installed); this module is what they add up
to, as PostgreSQL gives them back (`pg_get_functiondef()`, `pg_get_triggerdef()`, `pg_indexes`), so
that a reader finds here what the database runs. `tests/test_search_triggers.py` checks that a
migrated database holds exactly these: a migration that changes one changes it here too.

- `catalogue_game_search_document()`: a game's search document (title A, authors and publishers B,
  tags C, summary D) and its `tag_ids`, before each write of the game; the words go to the lexicon.
- `catalogue_game_search_touch_game()` and `catalogue_game_search_touch_named()`: a credit, a tag
  link, or an author's, publisher's or tag's name changed: the games concerned are written again.
- `catalogue_game_search_postings()`: a game's postings (`models.SearchPosting`) replaced after each
  change of its document, title or the columns a posting copies.
- `catalogue_table_keys()`: a game's table keys (`keys.TableKeys`, `keys.table_keys()`), in the text's
  index `catalogue_game_search_gin` beside its search document.
"""

FUNCTIONS = {
    "catalogue_game_search_document": r"""CREATE OR REPLACE FUNCTION public.catalogue_game_search_document()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$
""",
    "catalogue_game_search_postings": r"""CREATE OR REPLACE FUNCTION public.catalogue_game_search_postings()
 RETURNS trigger
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM catalogue_search_posting WHERE game_id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.search_vector IS NOT NULL THEN
        INSERT INTO catalogue_search_posting (lexeme, rank, title, game_id, players_min, players_max, age_min, age_max, duration_minutes, category_id, tag_ids)
        SELECT u.lexeme, ts_rank(NEW.search_vector, ('''' || replace(replace(u.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery), NEW.title, NEW.id, NEW.players_min, NEW.players_max, NEW.age_min, NEW.age_max, NEW.duration_minutes, NEW.category_id, NEW.tag_ids
          FROM unnest(NEW.search_vector) AS u
         WHERE u.weights && '{A,B,C}'::text[];
    END IF;
    RETURN NULL;
END
$function$
""",
    "catalogue_game_search_touch_game": r"""CREATE OR REPLACE FUNCTION public.catalogue_game_search_touch_game()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE catalogue_game SET search_vector = NULL WHERE id = OLD.game_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE catalogue_game SET search_vector = NULL WHERE id = NEW.game_id;
    END IF;
    RETURN NULL;
END
$function$
""",
    "catalogue_game_search_touch_named": r"""CREATE OR REPLACE FUNCTION public.catalogue_game_search_touch_named()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$
""",
    "catalogue_table_keys": r"""CREATE OR REPLACE FUNCTION public.catalogue_table_keys(players_min integer, players_max integer, age_min integer, age_max integer, duration_minutes integer, category_id bigint, tag_ids bigint[])
 RETURNS bigint[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
SELECT coalesce(tag_ids, '{}')
    || ARRAY(SELECT -100 - n FROM generate_series(players_min, least(players_max, 12)) AS n)
    || ARRAY(SELECT -200 - a FROM generate_series(age_min, least(coalesce(age_max, 18), 18)) AS a)
    || ARRAY(SELECT -1000 - m FROM unnest('{5,10,15,20,25,30,40,45,60,75,90,120,180,240}'::integer[]) AS m
              WHERE duration_minutes <= m)
    || array_remove(ARRAY[-1000000000 - category_id], NULL)
$function$
""",
}

TRIGGERS = {
    "catalogue_author_search_document": "CREATE TRIGGER catalogue_author_search_document AFTER UPDATE OF name ON public.catalogue_author FOR EACH ROW WHEN (((old.name)::text IS DISTINCT FROM (new.name)::text)) EXECUTE FUNCTION catalogue_game_search_touch_named()",
    "catalogue_authorship_search_document": "CREATE TRIGGER catalogue_authorship_search_document AFTER INSERT OR DELETE OR UPDATE ON public.catalogue_authorship FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_touch_game()",
    "catalogue_game_search_document": "CREATE TRIGGER catalogue_game_search_document BEFORE INSERT OR UPDATE OF title, summary, search_vector ON public.catalogue_game FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_document()",
    "catalogue_game_search_postings": "CREATE TRIGGER catalogue_game_search_postings AFTER INSERT OR DELETE ON public.catalogue_game FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_postings()",
    "catalogue_game_search_postings_update": "CREATE TRIGGER catalogue_game_search_postings_update AFTER UPDATE ON public.catalogue_game FOR EACH ROW WHEN ((((((((((old.search_vector IS DISTINCT FROM new.search_vector) OR ((old.title)::text IS DISTINCT FROM (new.title)::text)) OR (old.players_min IS DISTINCT FROM new.players_min)) OR (old.players_max IS DISTINCT FROM new.players_max)) OR (old.age_min IS DISTINCT FROM new.age_min)) OR (old.age_max IS DISTINCT FROM new.age_max)) OR (old.duration_minutes IS DISTINCT FROM new.duration_minutes)) OR (old.category_id IS DISTINCT FROM new.category_id)) OR (old.tag_ids IS DISTINCT FROM new.tag_ids))) EXECUTE FUNCTION catalogue_game_search_postings()",
    "catalogue_game_tags_search_document": "CREATE TRIGGER catalogue_game_tags_search_document AFTER INSERT OR DELETE OR UPDATE ON public.catalogue_game_tags FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_touch_game()",
    "catalogue_publisher_search_document": "CREATE TRIGGER catalogue_publisher_search_document AFTER UPDATE OF name ON public.catalogue_publisher FOR EACH ROW WHEN (((old.name)::text IS DISTINCT FROM (new.name)::text)) EXECUTE FUNCTION catalogue_game_search_touch_named()",
    "catalogue_publishercredit_search_document": "CREATE TRIGGER catalogue_publishercredit_search_document AFTER INSERT OR DELETE OR UPDATE ON public.catalogue_publishercredit FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_touch_game()",
    "catalogue_tag_search_document": "CREATE TRIGGER catalogue_tag_search_document AFTER UPDATE OF name ON public.catalogue_tag FOR EACH ROW WHEN (((old.name)::text IS DISTINCT FROM (new.name)::text)) EXECUTE FUNCTION catalogue_game_search_touch_named()",
}

INDEXES = {
    "catalogue_game_family_idx": "CREATE INDEX catalogue_game_family_idx ON public.catalogue_game USING btree (duration_minutes, title, id) INCLUDE (age_min, age_max, players_min, players_max, category_id, tag_ids)",
    "catalogue_game_search_gin": "CREATE INDEX catalogue_game_search_gin ON public.catalogue_game USING gin (search_vector, catalogue_table_keys((players_min)::integer, (players_max)::integer, (age_min)::integer, (age_max)::integer, (duration_minutes)::integer, category_id, tag_ids))",
    "catalogue_game_tag_ids_gin": "CREATE INDEX catalogue_game_tag_ids_gin ON public.catalogue_game USING gin (tag_ids)",
    "catalogue_search_posting_game": "CREATE INDEX catalogue_search_posting_game ON public.catalogue_search_posting USING btree (game_id)",
    "catalogue_search_posting_order": "CREATE INDEX catalogue_search_posting_order ON public.catalogue_search_posting USING btree (lexeme, rank DESC, title, game_id) INCLUDE (players_min, players_max, age_min, age_max, duration_minutes, category_id, tag_ids)",
    "catalogue_search_word_trgm": "CREATE INDEX catalogue_search_word_trgm ON public.catalogue_search_word USING gin (word gin_trgm_ops)",
}
