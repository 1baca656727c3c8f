"""Rules pages benchmark: CPU time to draw the pages whose forms are built from a game's declarations.

Renders each page in process (Django's test client, no server), after a warm-up, and prints the
median CPU time of the process per request (CPU time, not wall time: on a shared machine it moves
less with the load) and the number of queries, with the garbage collector set up as in production. Any database with the demo data will do:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludotheque .venv/bin/python bench/rules_pages.py
"""

import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

PAGES = [
    "/regles/biblios/",  # the page with its calculator and score sheet
    "/regles/biblios/feuille-de-score/",  # 3 players: 41 inputs, 15 selects of 27 letters
    "/regles/martian-dice/feuille-de-score/?players=4",  # 4 players × 3 turns × 5 dice: 68 inputs
    "/regles/quarto/arbitrage/",  # a 4 × 4 board of selects
    "/regles/biblios/mise-en-place/?players=2",
]
REQUESTS = 40


def main() -> None:
    settings.ALLOWED_HOSTS = ["*"]
    client = Client()
    client.get(PAGES[0])
    gc.freeze()  # as ludotheque/wsgi.py does in production: no full collection walks Django's objects
    for url in PAGES:
        client.get(url)
        times = []
        for _ in range(REQUESTS):
            start = time.process_time()
            client.get(url)
            times.append((time.process_time() - start) * 1000)
        with CaptureQueriesContext(connection) as queries:
            status = client.get(url).status_code
        print(f"{statistics.median(times):6.1f} ms CPU  {len(queries):2d} queries  {status}  {url}")


if __name__ == "__main__":
    main()
