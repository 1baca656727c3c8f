"""Time the family search with and without an ESAR group, in process, on the search bench database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench .venv/bin/python bench/esar.py

For each search: the number of games, then the medians of 7 runs of its facets (count, category and
tag counts) and of its first page, as the page /jeux/ computes them; then EXPLAIN of one count.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")

SEARCHES = [
    "",
    "categorie=A400",
    "categorie=A 406",
    "ages=8&duree_max=60",
    "categorie=A400&ages=8&duree_max=60",
]


def main() -> None:
    import django

    django.setup()
    from django.db import connection
    from django.http import QueryDict

    from catalogue.filters import GameFilter
    from catalogue.models import Game

    def games(params: str):
        filterset = GameFilter(QueryDict(params), queryset=Game.objects.all())
        assert filterset.is_valid(), filterset.errors
        return filterset.qs

    for params in SEARCHES:
        timings = []
        for _run in range(7):
            started = time.perf_counter()
            count = games(params).facets()["count"]
            facets = time.perf_counter()
            list(games(params).for_result_list()[:20])
            timings.append((facets - started, time.perf_counter() - facets))
        print(
            f"{params or '(no criterion)':<40} {count:>7} games  facets {statistics.median(t[0] for t in timings) * 1000:6.1f} ms"
            f"  page {statistics.median(t[1] for t in timings) * 1000:5.1f} ms"
        )
    sql, values = (
        games("categorie=A400&ages=8,10,40&duree_max=45").order_by().values("pk").query.sql_with_params()
    )
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM ({sql}) AS games", values)
        print("\n".join(row[0] for row in cursor.fetchall()))


if __name__ == "__main__":
    main()
