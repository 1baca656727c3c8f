"""The search's functions, triggers and indexes in a migrated database are those of
catalogue/search/triggers.py, the source a reader finds in the search package."""

import pytest
from django.db import connection

from catalogue.search import triggers
from catalogue.search.models import SearchPosting, SearchWord
from tests.search_helpers import family_catalogue

pytestmark = pytest.mark.postgresql


def _rows(sql: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(cursor.fetchall())


def test_the_databases_search_functions_are_the_packages_source(db):
    functions = _rows(
        "SELECT proname, pg_get_functiondef(oid) FROM pg_proc "
        "WHERE pronamespace = 'public'::regnamespace AND proname LIKE 'catalogue%'"
    )
    assert functions == triggers.FUNCTIONS


def test_the_databases_search_triggers_and_indexes_are_the_packages_source(db):
    found = _rows(
        "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE 'catalogue%'"
    )
    assert found == triggers.TRIGGERS
    indexes = _rows(
        f"SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN {tuple(triggers.INDEXES)}"
    )
    assert indexes == triggers.INDEXES


def test_the_postings_and_the_lexicon_read_through_their_models(db):
    """The database writes them (the triggers); the ORM reads them."""
    catalogue = family_catalogue()
    postings = SearchPosting.objects.filter(game=catalogue.chateau)
    assert postings.exists() and all(posting.title == catalogue.chateau.title for posting in postings)
    assert SearchWord.objects.filter(word="chateau").exists()
