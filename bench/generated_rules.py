"""Rules pages at catalogue scale: every title's page made from its notice in bulk, then a generated
title's rules page and score sheet timed beside its notice and its game page.

On a database made by bench/generate.py (its name contains `bench`):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench .venv/bin/python bench/generated_rules.py

First `generate_rule_pages` as a librarian would run it after a bulk load (timed), then once more (it
must write nothing); then `--requests` requests of each kind, in process (Django's test client, no
server), over `--titles` generated titles drawn at random, after a warm-up: wall-time p50/p95/max and
the SQL's p50 per kind. The notice and the game page are measured the same way, so the rules pages
compare with their targets (bench/README.md, « Search »: a notice ≤ 8 ms, a game's page ≤ 15 ms, p95).
"""

import argparse
import gc
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

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from bench.machine import describe  # noqa: E402
from rules.models import RulePage  # noqa: E402
from rules.pages.generate import rule_pages_generate  # noqa: E402


class SqlTimer:
    """The time the database took during one request (connection.execute_wrapper)."""

    def __init__(self):
        self.seconds = 0.0
        self.queries = 0

    def __call__(self, execute, sql, params, many, context):
        self.queries += 1
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - began


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def timed(client: Client, urls: list[str], requests: int) -> tuple[list[float], list[float], set[int], int]:
    walls, sqls, statuses, queries = [], [], set(), 0
    for index in range(requests):
        timer = SqlTimer()
        with connection.execute_wrapper(timer):
            began = time.perf_counter()
            statuses.add(client.get(urls[index % len(urls)]).status_code)
            walls.append((time.perf_counter() - began) * 1000)
        sqls.append(timer.seconds * 1000)
        queries = timer.queries
    return walls, sqls, statuses, queries


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

    settings.ALLOWED_HOSTS = ["*"]
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
    client = Client()
    gc.freeze()  # as ludotheque/wsgi.py does in production
    print(f"{'kind':24} {'p50':>8} {'p95':>8} {'max':>8} {'sql p50':>8} queries status")
    for kind, urls in kinds.items():
        timed(client, urls, min(20, args.requests))  # warm-up: compiled statements, templates
        walls, sqls, statuses, queries = timed(client, urls, args.requests)
        print(
            f"{kind:24} {statistics.median(walls):6.1f} ms {percentile(walls, 0.95):6.1f} ms "
            f"{max(walls):6.1f} ms {statistics.median(sqls):6.1f} ms {queries:7d} {sorted(statuses)}"
        )


if __name__ == "__main__":
    main()
