"""Replay a mix of family searches against a running site and print p50/p95/p99 per kind of search.

    .venv/bin/python bench/search.py --serve            # starts gunicorn on ludo_bench, DEBUG off
    .venv/bin/python bench/search.py --url http://127.0.0.1:8000   # or against a site already up

Kinds (the target, API search p95 <= 20 ms at 100,000 games, is for the first four; bench/README.md):
  ages+durée      /api/games/?ages=…&duree_max=…
  texte           /api/games/?q=…  (titles, themes, authors, publishers, misspellings)
  texte+filtres   /api/games/?q=…&ages=…|joueurs=…|categorie=…|tag=…
  facettes        /api/games/facets/?…  (category and tag counts of an ages+time or text search)
and, reported apart: "disponible" (an ages+time or text search with disponible=oui), "texte+disponible"
(a text search with disponible=oui, as a desk looks for a copy to hand out), the HTML page
/jeux/?… (results and facets), the sort by popularity, a game's notice /api/games/<slug>/, its page
/jeux/<slug>/ and a copy by barcode /api/copies/<barcode>/. Requests go one at a time, in a shuffled
but seeded order, after a warm-up; each must answer 200. A result list counts its games up to 1,000
only: "median results" then reads "> 1000".

Requests ask for gzip, as browsers do (`--no-gzip`: not). With `--serve` the site runs with
SERVER_TIMING=true: each answer says how long it spent in SQL (ludotheque/timing.py), printed per
kind beside the request's own time ("sql p50", "× sql": the request's p50 over its SQL's p50).
"""

import argparse
import gzip
import http.client
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlencode, urlsplit

import machine

ROOT = Path(__file__).resolve().parent.parent
TARGET_KINDS = ["ages+durée", "texte", "texte+filtres", "facettes"]
# Words whose unaccented forms are French stop words or look like them: each must find games.
ACCENTED = ["dés", "jeu de dés", "été", "thé"]
WORDS = [
    "chateau",
    "dragons",
    "pirates",
    "tresor",
    "foret",
    "chevaliers",
    "monstres",
    "ile",
    "labyrinthe",
    "licornes",
    "sorcieres",
    "vikings",
    "pyramide",
    "jungle",
    "banquise",
    "cirque",
    "train",
    "volcan",
    "jardin",
    "ferme",
    "potion",
    "legende",
    "robots",
    "abeilles",
    "temple",
    "samourais",
    "caravane",
    "bauza",
    "knizia",
    "cathala",
    "faidutti",
    "teuber",
    "gigamic",
    "iello",
    "haba",
    "djeco",
    "cooperatif",
    "memoire",
    "bluff",
    "enchères",
    "adresse",
    "dés",
    "jeu de dés",
    "été",
    "thé",
    "mime",
    "enquête",
    "tresor pirates",
    "chateau dragons",
    "foret enchantee",
    "ile secret",
    "course des sables",
    "catane",
    "carcassonne",
    "babylone",
    "avalon",
    "venise",
    # one typo each: the lexicon corrects them
    "chevalliers",
    "labyrinte",
    "pirattes",
    "sorcierres",
    "dragonns",
    "tressor",
    "catanne",
    "chatteau",
]
DURATIONS = [15, 20, 30, 30, 45, 45, 60, 90]
CATEGORIES = ["A 406", "A 405", "A 409", "A 404", "A 408"]
TAGS = ["cooperatif", "des", "cartes", "memoire", "strategie", "famille", "pirates", "dragons"]


def family_ages(rng: random.Random) -> str:
    children = [rng.randint(4, 14) for _ in range(rng.randint(1, 3))]
    adults = [rng.randint(30, 48) for _ in range(rng.randint(0, 2))]
    return ", ".join(str(age) for age in children + adults)


def make_requests(
    rng: random.Random, count: int, slugs: list[str], barcodes: list[str]
) -> list[tuple[str, str]]:
    """`count` requests of each kind, shuffled."""
    requests = []
    for _ in range(count):
        ages = {"ages": family_ages(rng), "duree_max": rng.choice(DURATIONS)}
        requests.append(("ages+durée", "/api/games/?" + urlencode(ages)))
        requests.append(("texte", "/api/games/?" + urlencode({"q": rng.choice(WORDS)})))
        filtered = {"q": rng.choice(WORDS)}
        extra = rng.choice(["ages", "joueurs", "categorie", "tag"])
        if extra == "ages":
            filtered |= {"ages": family_ages(rng), "duree_max": rng.choice(DURATIONS)}
        elif extra == "joueurs":
            filtered["joueurs"] = rng.randint(2, 6)
        elif extra == "categorie":
            filtered["categorie"] = rng.choice(CATEGORIES)
        else:
            filtered["tag"] = rng.choice(TAGS)
        requests.append(("texte+filtres", "/api/games/?" + urlencode(filtered)))
        facets = ages if rng.random() < 0.6 else {"q": rng.choice(WORDS)}
        requests.append(("facettes", "/api/games/facets/?" + urlencode(facets)))
        available = ages if rng.random() < 0.6 else {"q": rng.choice(WORDS)}
        requests.append(("disponible", "/api/games/?" + urlencode({**available, "disponible": "oui"})))
        page = {"ages": family_ages(rng), "duree_max": rng.choice(DURATIONS)}
        if rng.random() < 0.5:
            page = {"q": rng.choice(WORDS)}
        requests.append(("page /jeux/", "/jeux/?" + urlencode(page)))
        requests.append(("tri popularité", "/api/games/?" + urlencode({**ages, "tri": "popularite"})))
        requests.append(("fiche d'un jeu", f"/api/games/{rng.choice(slugs)}/"))
        requests.append(("page d'un jeu", f"/jeux/{rng.choice(slugs)}/"))
        requests.append(("exemplaire", f"/api/copies/{rng.choice(barcodes)}/"))
        # A desk looking for a copy to hand out: a text search of the games on the shelf.
        desk = {"q": rng.choice(WORDS), "disponible": "oui"}
        requests.append(("texte+disponible", "/api/games/?" + urlencode(desk)))
    rng.shuffle(requests)
    return requests


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


GZIP = True


def get(connection: http.client.HTTPConnection, path: str) -> tuple[int, bytes, float | None]:
    """The status, the body (uncompressed) and the SQL time the site reported, in ms (or None)."""
    headers = {"Accept-Language": "fr"} | ({"Accept-Encoding": "gzip"} if GZIP else {})
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    if response.getheader("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    sql = None
    for metric in (response.getheader("Server-Timing") or "").split(","):
        name, *fields = metric.strip().split(";")
        if name == "db":
            sql = float(next(f for f in fields if f.startswith("dur="))[4:])
    return response.status, body, sql


def serve(port: int, root: Path = ROOT) -> subprocess.Popen:
    """Start gunicorn as production would run it (DEBUG off, 2 workers) on the bench database, from
    the checkout `root` (another one: a version to compare with this one)."""
    env = os.environ | {
        "DATABASE_URL": os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ludo_bench"),
        "DEBUG": "false",
        "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SERVER_TIMING": "true",
        # One address replays thousands of searches a minute: past the production rate (600/minute).
        "API_THROTTLE_ANON": "1000000/minute",
        # The user throttle counts anonymous calls too (per address): without this, a fast machine
        # passes its 1,200 a minute and the run stops on a 429.
        "API_THROTTLE_USER": "1000000/minute",
    }
    python = str(root / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=root, env=env, check=True)
    server = subprocess.Popen(
        [
            str(root / ".venv" / "bin" / "gunicorn"),
            "ludotheque.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
        ],
        cwd=root,
        env=env,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/api/")
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    sys.exit("gunicorn did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description="Replay family searches and print latency percentiles.")
    parser.add_argument("--url", default="http://127.0.0.1:8800")
    parser.add_argument("--serve", action="store_true", help="start gunicorn on DATABASE_URL (ludo_bench)")
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="with --serve: serve this checkout's code"
    )
    parser.add_argument("--requests", type=int, default=200, help="requests of each kind")
    parser.add_argument("--warmup", type=int, default=20, help="rounds of every kind before measuring")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--kinds", help="comma-separated kinds to replay (default: all)")
    parser.add_argument("--slowest", type=int, default=0, help="also list the N slowest requests")
    parser.add_argument("--no-gzip", action="store_true", help="do not ask for compressed answers")
    args = parser.parse_args()
    global GZIP
    GZIP = not args.no_gzip
    target = urlsplit(args.url)
    # Measured before the server starts; PostgreSQL's part only with --serve, which names the database.
    machine_line = machine.describe(os.environ.get("DATABASE_URL", "") if args.serve else "")
    server = serve(target.port, args.checkout.resolve()) if args.serve else None
    try:
        connection = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
        status, body, _ = get(connection, "/api/games/?tri=titre&page=last")
        assert status == 200, f"/api/games/?page=last answered {status}"
        total = json.loads(body)["count"]  # the last page counts them all
        status, body, _ = get(connection, "/api/games/?tri=titre")
        slugs = [game["slug"] for game in json.loads(body)["results"]]
        for page in (50, 500, 2000):
            status, body, _ = get(connection, f"/api/games/?tri=titre&page={min(page, max(1, total // 20))}")
            slugs += [game["slug"] for game in json.loads(body)["results"]]
        barcodes = []
        for slug in slugs[::4]:
            barcodes += [
                copy["barcode"] for copy in json.loads(get(connection, f"/api/games/{slug}/")[1])["copies"]
            ]
        found = {
            word: json.loads(get(connection, "/api/games/?" + urlencode({"q": word}))[1])["count"]
            for word in ACCENTED
        }
        assert all(found.values()), f"a word found no game: {found}"
        rng = random.Random(args.seed)
        kinds = args.kinds.split(",") if args.kinds else None
        for kind, path in make_requests(rng, args.warmup, slugs, barcodes):
            if not kinds or kind in kinds:
                get(connection, path)
        timings: dict[str, list[float]] = {}
        sql_timings: dict[str, list[float]] = {}
        slowest: list[tuple[float, str]] = []
        results: dict[str, list[tuple[int, bool]]] = {}
        for kind, path in make_requests(rng, args.requests, slugs, barcodes):
            if kinds and kind not in kinds:
                continue
            started = time.perf_counter()
            try:
                status, body, sql = get(connection, path)
            except TimeoutError:
                sys.exit(f"{path} did not answer within 30 s")
            elapsed = (time.perf_counter() - started) * 1000
            assert status == 200, f"{path} answered {status}"
            timings.setdefault(kind, []).append(elapsed)
            if sql is not None:
                sql_timings.setdefault(kind, []).append(sql)
            slowest.append((elapsed, path))
            if path.startswith("/api/games/?") or path.startswith("/api/games/facets/"):
                answer = json.loads(body)
                # (count, capped): a list says "more than 1000" with count 1000 and count_exact false.
                results.setdefault(kind, []).append((answer["count"], not answer.get("count_exact", True)))
        print(f"{total} games at {args.url}, {args.requests} requests per kind, one at a time")
        print(machine_line)
        print("found: " + ", ".join(f"« {word} » {count}" for word, count in found.items()))
        print(
            f"{'kind':<16} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}  {'sql p50':>7} {'× sql':>5}  median results"
        )
        for kind in [*TARGET_KINDS, *(k for k in timings if k not in TARGET_KINDS)]:
            values = timings.get(kind)
            if not values:
                continue
            found = ""
            if kind in results:
                count, capped = sorted(results[kind])[len(results[kind]) // 2]
                found = f"{'>' if capped else '':>3}{count:>5}"
            sql = ""
            if kind in sql_timings:
                sql_p50 = percentile(sql_timings[kind], 0.5)
                sql = f"{sql_p50:6.1f}ms {percentile(values, 0.5) / max(sql_p50, 0.01):5.1f}"
            print(
                f"{kind:<16} {percentile(values, 0.5):6.1f}ms {percentile(values, 0.95):6.1f}ms "
                f"{percentile(values, 0.99):6.1f}ms {max(values):6.1f}ms  {sql:>14} {found}"
            )
        api = [value for kind in TARGET_KINDS for value in timings.get(kind, [])]
        if api:
            print(
                f"{'API search (all)':<16} {percentile(api, 0.5):6.1f}ms {percentile(api, 0.95):6.1f}ms "
                f"{percentile(api, 0.99):6.1f}ms {max(api):6.1f}ms"
            )
        for elapsed, path in sorted(slowest, reverse=True)[: args.slowest]:
            print(f"{elapsed:7.1f}ms {unquote(path)}")
    finally:
        if server:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
