"""A bulk write of games in one session finds each game's postings by their index, not by reading them all.

On a new site the postings were analysed empty (migration 0017 vacuums them). The postings trigger,
planned while the table was still small, kept reading the whole table to replace each game's
postings, for every later game of the session: a first import or the search documents of a bulk load
took time in the square of their games (migration 0018).
"""

import pytest
from django.db import connection

from catalogue.models import Game

pytestmark = pytest.mark.postgresql

GAMES = 1200


def posting_scans(cursor) -> tuple[int, int]:
    """This transaction's whole-table scans and index scans of the postings, so far."""
    cursor.execute(
        "SELECT seq_scan, coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables "
        "WHERE relname = 'catalogue_search_posting'"
    )
    return cursor.fetchone()


def test_a_bulk_load_replaces_each_games_postings_through_their_index(db):
    with connection.cursor() as cursor:
        # A new site: no postings, and the planner knows it (what migration 0017's VACUUM leaves).
        cursor.execute("TRUNCATE catalogue_search_posting")
        cursor.execute(
            "UPDATE pg_class SET relpages = 0, reltuples = 0 WHERE relname = 'catalogue_search_posting'"
        )
        # A load with the triggers off, then the search documents in one UPDATE (docs/development.md).
        cursor.execute("SET LOCAL session_replication_role = replica")
        Game.objects.bulk_create(
            Game(title=f"Pirates du lagon {n}", slug=f"pirates-du-lagon-{n}", summary="Un trésor caché.")
            for n in range(GAMES)
        )
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")
        whole_before, index_before = posting_scans(cursor)
        cursor.execute("UPDATE catalogue_game SET search_vector = NULL")
        whole_after, index_after = posting_scans(cursor)
        cursor.execute(
            "SELECT count(DISTINCT game_id), count(*) FROM catalogue_search_posting WHERE lexeme = 'pirat'"
        )
        assert cursor.fetchone() == (GAMES, GAMES)
    # The first games' postings while they fill a few pages; then each game's through the index.
    assert whole_after - whole_before < GAMES / 4
    assert index_after - index_before > GAMES * 3 / 4
