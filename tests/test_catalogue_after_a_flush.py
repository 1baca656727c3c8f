"""After a flush (a transactional test's teardown, `manage.py flush`) the catalogue is as a migrated empty
one: no search posting or word left of the games that are gone, the default kind of item there."""

import pytest
from django.core.management import call_command
from django.db import connection

from catalogue.models import Game, ItemKind
from tests.loan_helpers import make_game

pytestmark = pytest.mark.postgresql


def search_rows() -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT count(*) FROM catalogue_search_posting), (SELECT count(*) FROM catalogue_search_word)"
        )
        return cursor.fetchone()


@pytest.mark.django_db(transaction=True)
def test_a_flushed_catalogue_leaves_no_posting_or_word_to_find():
    make_game("Dragons de papier")
    assert all(search_rows())
    call_command("flush", interactive=False, verbosity=0)
    assert not Game.objects.exists()
    assert search_rows() == (0, 0)
    # A new game after the flush is found by its own words only.
    make_game("Quarto")
    assert list(Game.objects.search("dragons")) == []


@pytest.mark.django_db(transaction=True)
def test_a_migration_on_a_catalogue_with_games_keeps_its_postings():
    make_game("Dragons de papier")
    before = search_rows()
    call_command("migrate", "catalogue", verbosity=0)
    assert search_rows() == before


@pytest.mark.django_db(transaction=True)
def test_a_flushed_catalogue_still_has_its_default_kind_of_item():
    call_command("flush", interactive=False, verbosity=0)
    assert list(ItemKind.objects.filter(is_default=True).values_list("name", flat=True)) == ["Jeu"]
