"""The text of a search: its configuration, its words, the correction of misspelt words, and the
conditions it adds to a search's WHERE clause.
"""

import re

from django.contrib.postgres.lookups import DataContains, Overlap
from django.contrib.postgres.search import SearchVectorExact
from django.db import models

from .keys import (
    TableKeys,
)

SEARCH_CONFIG = "french_unaccent"
# Shorter words are never corrected: one letter off in three is another word, not a typo.
FUZZY_MIN_LENGTH = 4


# A text search of one word carries the word (alias `one_word`): its first pages come from the search's
# postings, the games with that word in their title, names or tags in the order of the search
# (`catalogue_search_posting`, migration 0013; see `catalogue.views.one_word_page()`). One word of French
# letters and digits: one token for PostgreSQL's parser, so one lexeme at most once stemmed (none for a
# stop word), which a posting is. Other scripts are ranked whole.
ONE_WORD = re.compile(r"[0-9a-zà-öø-ÿœæ]+", re.IGNORECASE)
# A word of the query, as the correction of misspellings reads it: letters and digits of any script.
WORD = re.compile(r"[^\W_]+")


# When the query's words match no game, the query with each word (lower-case) replaced by the nearest
# word of the lexicon, which has them unaccented (the word as typed when it is there itself, or shorter
# than the first parameter: « dés » unaccented would be the article « des »); NULL when they match
# games. `%` is pg_trgm's similarity operator, served by the lexicon's GIN index. One round trip either
# way: the correction (an InitPlan) runs only when the EXISTS finds nothing.
CORRECTION_SQL = """
SELECT CASE WHEN EXISTS (SELECT 1 FROM catalogue_game
                          WHERE search_vector @@ websearch_to_tsquery(%s::regconfig, %s))
       THEN NULL
       ELSE (SELECT string_agg(corrected.word, ' ' ORDER BY corrected.n)
               FROM (SELECT q.n, CASE WHEN length(q.word) < %s THEN q.word ELSE coalesce(
                                   (SELECT CASE WHEN w.word = unaccent(q.word) THEN q.word ELSE w.word END
                                      FROM catalogue_search_word w
                                     WHERE w.word %% unaccent(q.word)
                                     ORDER BY similarity(w.word, unaccent(q.word)) DESC, w.word
                                     LIMIT 1),
                                   q.word) END AS word
                       FROM unnest(%s::text[]) WITH ORDINALITY AS q(word, n)) AS corrected)
       END
"""


def is_text_condition(condition, model: type[models.Model]) -> bool:
    """Whether `condition`, in the WHERE clause of a search of `model` (the games), is one of the
    conditions of its text that `GameQuerySet.search()` adds: its words, or its table keys."""
    if isinstance(condition, SearchVectorExact):
        return getattr(condition.lhs, "target", None) is model.search_vector.field
    return isinstance(condition, (DataContains, Overlap)) and isinstance(condition.lhs, TableKeys)


def keys_name_a_tag(games: models.QuerySet) -> bool:
    """Whether the table keys of a text search (`GameQuerySet.search(table=…)`) ask for a tag: its text's
    index then yields only the games carrying it (a tag's key is its id, the only positive keys)."""
    return any(
        isinstance(condition, DataContains)
        and isinstance(condition.lhs, TableKeys)
        and any(key > 0 for key in condition.rhs.value)
        for condition in games.query.where.children
    )


def one_word(games: models.QuerySet) -> tuple[str, models.QuerySet] | None:
    """For a search of one word (`GameQuerySet.search()`), the word and the same games without the
    text's conditions (its words and its table keys): the search's other conditions (ages, time,
    category…). None for another search."""
    if "one_word" not in games.query.annotations:
        return None
    others = games.order_by()
    others.query.where.children = [
        child for child in others.query.where.children if not is_text_condition(child, games.model)
    ]
    return games.query.annotations["one_word"].value, others
