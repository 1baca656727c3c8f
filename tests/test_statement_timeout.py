"""A statement the database gives up on (DATABASE_STATEMENT_TIMEOUT, 5 s in the web processes) is a 503
that says what to do, not the 500 page, and the worker goes on with the next request.

The searches are made slow for real: another connection holds a lock on the games, as a long
migration or a runaway query would, and the site's connection waits until its timeout cuts it off.
"""

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from ludotheque.environment import POSTGRES_SESSION_OPTIONS, database_from_url
from tests.conftest import text_of
from tests.search_helpers import family_catalogue

ROOT = Path(__file__).resolve().parent.parent
TOO_BROAD = "Cette recherche demande trop de travail"


def test_the_timeout_goes_into_the_session_options_and_a_bad_one_is_refused():
    url = "postgres://postgres@localhost/ludo"
    assert database_from_url(url)["OPTIONS"]["options"] == POSTGRES_SESSION_OPTIONS
    bounded = database_from_url(url, statement_timeout="5s")["OPTIONS"]["options"]
    assert bounded == f"{POSTGRES_SESSION_OPTIONS} -c statement_timeout=5s"
    with pytest.raises(ImproperlyConfigured, match="DATABASE_STATEMENT_TIMEOUT must read like 5s"):
        database_from_url(url, statement_timeout="5 seconds; DROP")


def _options_seen_by(code: str, **environ: str) -> str:
    env = {name: value for name, value in os.environ.items() if name != "DATABASE_STATEMENT_TIMEOUT"}
    env.update(DATABASE_URL="postgres://postgres@127.0.0.1/ludo", **environ)
    script = f"{code}\nfrom django.conf import settings\nprint(settings.DATABASES['default']['OPTIONS']['options'])"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.strip().splitlines()[-1]


def test_the_web_processes_are_bounded_and_the_commands_are_not():
    # gunicorn imports ludotheque.wsgi; manage.py (run_daily, migrate, the tasks worker) does not.
    web = _options_seen_by("import ludotheque.wsgi")
    assert web.endswith("-c statement_timeout=5s")
    command = _options_seen_by(
        "import os, django\nos.environ['DJANGO_SETTINGS_MODULE'] = 'ludotheque.settings'\ndjango.setup()"
    )
    assert "statement_timeout" not in command
    # The deployment can lengthen it or turn it off.
    assert _options_seen_by("import ludotheque.wsgi", DATABASE_STATEMENT_TIMEOUT="0").endswith(
        "statement_timeout=0"
    )


@contextlib.contextmanager
def games_locked_and_timeout(milliseconds: int):
    """Another connection holds the games table; the site's connection gives up after `milliseconds`."""
    db = settings.DATABASES["default"]
    with psycopg.connect(
        dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"] or None
    ) as other:
        other.execute("LOCK TABLE catalogue_game IN ACCESS EXCLUSIVE MODE")
        with connection.cursor() as cursor:
            cursor.execute(f"SET statement_timeout = {milliseconds}")
        try:
            yield
        finally:
            other.rollback()
            with connection.cursor() as cursor:
                cursor.execute("RESET statement_timeout")


@pytest.fixture
def catalogue(transactional_db):
    return family_catalogue()


@pytest.mark.postgresql
def test_a_search_cut_off_says_to_narrow_it_and_keeps_the_form(client, catalogue):
    started = time.monotonic()
    with games_locked_and_timeout(300):
        page = client.get("/jeux/", {"q": "dragons", "disponible": "oui"})
        api = client.get("/api/games/", {"q": "dragons"})
        facets = client.get("/api/games/facets/", {"q": "dragons"})
    assert time.monotonic() - started < 10  # three timeouts, not three stuck workers
    assert page.status_code == 503
    text = text_of(page)
    assert TOO_BROAD in text and "Disponible maintenant" in text
    assert 'value="dragons"' in page.content.decode()  # the search to narrow is still in the form
    assert "jeux trouvés" not in text
    for answer in (api, facets):
        assert answer.status_code == 503
        assert answer.json()["detail"].startswith(TOO_BROAD)
    # Once the database answers again, the same search works on the same connection.
    assert client.get("/jeux/", {"q": "dragons"}).status_code == 200
    assert client.get("/api/games/", {"q": "dragons"}).json()["count"] >= 1


@pytest.mark.postgresql
def test_any_other_page_cut_off_gets_a_503_in_the_family_language(client, catalogue):
    # A new session: the notice's statement is prepared there first (ludotheque/prepared.py), and
    # that too is cut off.
    connection.close()
    with games_locked_and_timeout(300):
        notice = client.get("/api/games/le-chateau-des-dragons/")
        page = client.get("/jeux/le-chateau-des-dragons/")
        english = client.get("/api/games/le-chateau-des-dragons/", HTTP_ACCEPT_LANGUAGE="en")
    assert notice.status_code == 503
    assert notice.json()["detail"].startswith("Cette demande a pris trop de temps")
    assert page.status_code == 503 and "Cette page a pris trop de temps" in text_of(page)
    assert english.status_code == 503 and english.json()["detail"].startswith(
        "This request took the database"
    )
