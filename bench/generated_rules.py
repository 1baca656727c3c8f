"""Rules pages at catalogue scale: every title's page made from its notice in bulk, then a generated
title's rules page and score sheet timed beside its notice and its game page.

On a database made by bench/generate.py (its name contains `bench`):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench .venv/bin/python bench/generated_rules.py

First `generate_rule_pages` as a librarian would run it after a bulk load (timed), then once more (it
must write nothing); then `--requests` requests of each kind over HTTP, as
bench/search.py measures the notice (gunicorn, `DEBUG` off, one request at a time, the kinds shuffled),
over `--titles` generated titles drawn at random, after a warm-up: wall-time p50/p95/max and the SQL's
p50 per kind (`Server-Timing`). The notice and the game page are measured the same way, so the rules
pages compare with their targets (bench/README.md, « Search »: a notice ≤ 8 ms, a game's page ≤ 15 ms, p95).
"""

import argparse
import http.client
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")

import django  # noqa: E402

django.setup()

from bench.machine import describe  # noqa: E402
from bench.search import get, percentile, serve  # noqa: E402
from bench.yearsim.server import free_port  # noqa: E402
from rules.models import RulePage  # noqa: E402
from rules.pages.generate import rule_pages_generate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="Generated rules pages at catalogue scale.")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--titles", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(describe(os.environ.get("DATABASE_URL", "")))

    began = time.perf_counter()
    report = rule_pages_generate()
    print(f"generate_rule_pages: {report.line()} in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    again = rule_pages_generate()
    print(f"again: {again.line()} in {time.perf_counter() - began:.1f} s")

    rng = random.Random(args.seed)
    pages = list(
        RulePage.objects.filter(generated=True)
        .select_related("game")
        .only("slug", "game__slug", "game__players_min")
        .order_by("pk")
    )
    sample = rng.sample(pages, min(args.titles, len(pages)))
    kinds = {
        "fiche d'un jeu (API)": [f"/api/games/{page.game.slug}/" for page in sample],
        "page d'un jeu": [f"/jeux/{page.game.slug}/" for page in sample],
        "règles (page générée)": [f"/regles/{page.slug}/" for page in sample],
        "feuille de score": [
            f"/regles/{page.slug}/feuille-de-score/?players={page.game.players_min or 2}" for page in sample
        ],
        "bloc vierge (A4)": [
            f"/regles/{page.slug}/feuille-de-score/vierge/?players={page.game.players_min or 2}"
            for page in sample
        ],
    }
    # Over HTTP, as bench/search.py times the notice: gunicorn with DEBUG off, the kinds interleaved.
    requests = [(kind, url) for kind, urls in kinds.items() for url in urls]
    rng.shuffle(requests)
    port = free_port()
    server = serve(port)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for _, url in requests[: 20 * len(kinds)]:  # warm-up: compiled statements, templates
            get(connection, url)
        walls: dict[str, list[float]] = {kind: [] for kind in kinds}
        sqls: dict[str, list[float]] = {kind: [] for kind in kinds}
        statuses: dict[str, set[int]] = {kind: set() for kind in kinds}
        for index in range(args.requests * len(kinds)):
            kind, url = requests[index % len(requests)]
            began = time.perf_counter()
            status, _, sql = get(connection, url)
            walls[kind].append((time.perf_counter() - began) * 1000)
            sqls[kind].append(sql or 0.0)
            statuses[kind].add(status)
    finally:
        server.terminate()
        server.wait()
    notice = percentile(walls["fiche d'un jeu (API)"], 0.95)
    print(f"{'kind':24} {'p50':>8} {'p95':>8} {'max':>8} {'sql p50':>8} {'p95/notice':>10} status")
    for kind in kinds:
        p95 = percentile(walls[kind], 0.95)
        print(
            f"{kind:24} {statistics.median(walls[kind]):6.1f} ms {p95:6.1f} ms {max(walls[kind]):6.1f} ms "
            f"{statistics.median(sqls[kind]):6.1f} ms {p95 / notice:10.1f} {sorted(statuses[kind])}"
        )


if __name__ == "__main__":
    main()
