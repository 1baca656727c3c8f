"""A month at the ludothèque, played through the running site, held to the year's invariants.

`bench/year.py` (see bench/README.md, « A year ») builds a small ludothèque in a database of its own,
copied from this test's (already migrated), starts gunicorn on it with a simulated clock and a real
SMTP server, and plays thirty days: the daily run each morning, families at home, clerks at each
opening, every fault of the year (run_daily twice, skipped and caught up, two at once; the mail server
down two days; two clerks racing on one copy; a gunicorn worker killed and the site's database
sessions cut during an opening) and a stocktake at the end. It exits 1 at the first invariant that
does not hold, saying which; its report lists every check and how many times it held.
"""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.db import connection, connections

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.postgresql


def database_url(name: str) -> str:
    settings = connection.settings_dict
    password = f":{quote(settings['PASSWORD'])}" if settings["PASSWORD"] else ""
    return f"postgres://{quote(settings['USER'])}{password}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/{name}"


def drop(name: str) -> None:
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_month_keeps_every_invariant_through_the_site_with_every_fault(transactional_db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        (template,) = cursor.fetchone()
    simulated = f"{template}_year_bench"
    url = database_url(simulated)
    # The month's database is a copy of this one (migrated, empty): nothing here may hold a session on it.
    connections.close_all()
    # Small on purpose (the full-size year is bench/year.py's): every fault still strikes on its day and
    # every check runs every day; what shrinks is the number of visits between them.
    try:
        finished = subprocess.run(
            [sys.executable, "bench/year.py", "--days", "30", "--titles", "60", "--copies", "90"]
            + ["--families", "30", "--home-visits", "2", "--clerks", "2", "--workers", "2"]
            + ["--template", template, "--seed", "11"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": url},
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        drop(simulated)
    report = finished.stdout
    assert finished.returncode == 0, report[-4000:] + finished.stderr[-4000:]
    assert "Every invariant held, every day of the 30." in report
    # Every fault struck and was lived through, and every invariant was checked every day.
    for fault in [
        "run_daily run twice",
        "run_daily skipped",
        "caught the missed day up",
        "two run_daily at once: exit codes [0, 0]",
        "mail server down for two days",
        "mail server back after two days down",
        "two clerks lent",
        "gunicorn worker",
        "session(s) of the site terminated",
    ]:
        assert fault in report
    checked = [
        line
        for line in report.splitlines()
        if line.startswith(
            ("money: each family", "copies: each in one", "holds:", "notices: once", "no 5xx:")
        )
    ]
    assert len(checked) == 5 and all(line.endswith(": 31") for line in checked), checked
    assert "5xx outside the faults: none" in report
    assert "loans " in report and "returns" in report
