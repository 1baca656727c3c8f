"""Desk benchmark: checkouts per second and latency percentiles with concurrent clients.

Recreates a PostgreSQL database of its own, migrates it, fills it with families and copies, starts
gunicorn with DEBUG off, then lets N clients lend copies through the API (POST /api/loans/ with a
barcode and a member, token auth), each as fast as it can, one keep-alive connection per client.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_deskbench \\
        .venv/bin/python bench/desk.py --clients 20 --checkouts 4000 --workers 4

The database name must contain "bench": it is dropped and created again.
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"Refusing to drop {name!r}: the benchmark database name must contain 'bench'.")
    admin = psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username,
        password=parts.password,
        dbname="postgres",
    )
    admin.autocommit = True
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    admin.close()


def seed(clients: int, checkouts: int) -> tuple[str, list[list[tuple[str, int]]]]:
    """Families, games and copies; returns the staff token and each client's (barcode, member) list."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")
    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from catalogue.models import Component, Copy, Game, Location
    from loans.models import Member, MembershipType

    location = Location.objects.create(name="Maison des Enfants")
    games = Game.objects.bulk_create(Game(title=f"Jeu {i}", slug=f"jeu-{i}") for i in range(200))
    Component.objects.bulk_create(Component(game=game, quantity=10, label="cartes") for game in games)
    copies = Copy.objects.bulk_create(
        Copy(game=games[i % len(games)], cote="BEN", location=location, barcode=f"B{i:06d}")
        for i in range(checkouts)
    )
    membership = MembershipType.objects.create(
        name="Banc d'essai", loan_quota=10_000, loan_period_days=21, renewals_allowed=1
    )
    import datetime

    today = datetime.date.today()
    members = Member.objects.bulk_create(
        Member(
            card_barcode=f"M{i:05d}",
            name=f"Famille {i}",
            membership_type=membership,
            membership_start=today - datetime.timedelta(days=10),
            membership_expiry=today + datetime.timedelta(days=300),
        )
        for i in range(clients * 10)
    )
    staff = get_user_model().objects.create_user("bench", password="bench-desk-only", is_staff=True)
    token = Token.objects.create(user=staff).key
    # Client k lends copies k, k+clients, …; to the families of its own desk (10 each).
    plans = [
        [(copies[i].barcode, members[k * 10 + (i // clients) % 10].pk) for i in range(k, checkouts, clients)]
        for k in range(clients)
    ]
    from django.db import connections

    connections.close_all()
    return token, plans


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("gunicorn did not start")


def client(
    port: int,
    token: str,
    plan,
    latencies: list,
    errors: list,
    barrier: threading.Barrier,
    interval: float,
    seed: int,
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Host": "127.0.0.1"}
    # Clerks are not in step: each scans at random moments, `interval` seconds apart on average
    # (a Poisson process, seeded per client so that runs are comparable).
    rhythm = random.Random(seed)
    barrier.wait()
    next_scan = time.perf_counter()
    for barcode, member in plan:
        body = json.dumps({"barcode": barcode, "member": member})
        if interval:
            next_scan += rhythm.expovariate(1 / interval)
            time.sleep(max(0.0, next_scan - time.perf_counter()))
        start = time.perf_counter()
        connection.request("POST", "/api/loans/", body, headers)
        response = connection.getresponse()
        response.read()
        latencies.append(time.perf_counter() - start)
        if response.status != 201:
            errors.append(response.status)
    connection.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--checkouts", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--interval",
        type=float,
        default=0.0,
        help="mean seconds between two scans of one client (0: as fast as the server answers)",
    )
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL=postgres://…/ludo_deskbench (PostgreSQL, a name containing 'bench').")

    recreate_database(url)
    env = os.environ | {
        "DEBUG": "false",
        "SECRET_KEY": "desk-benchmark-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        # No collectstatic for an API benchmark: silence whitenoise about the missing directory.
        "PYTHONWARNINGS": "ignore:No directory at",
    }
    os.environ.update(env)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    token, plans = seed(args.clients, args.checkouts)

    gunicorn = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "ludotheque.wsgi",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        wait_for_port(args.port)
        # Warm up every worker (imports, connections) outside the measurement.
        warm = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
        for _ in range(args.workers * 5):
            warm.request("GET", "/api/loans/?page_size=1", headers={"Authorization": f"Token {token}"})
            warm.getresponse().read()
        warm.close()

        latencies: list[float] = []
        errors: list[int] = []
        barrier = threading.Barrier(args.clients + 1)
        threads = [
            threading.Thread(
                target=client, args=(args.port, token, plan, latencies, errors, barrier, args.interval, seed)
            )
            for seed, plan in enumerate(plans)
        ]
        for thread in threads:
            thread.start()
        barrier.wait()
        start = time.perf_counter()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
    finally:
        os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait(timeout=30)

    from loans.models import Loan

    open_loans = Loan.objects.open().count()
    load = os.getloadavg()
    print(
        f"clients={args.clients} workers={args.workers} interval={args.interval}s "
        f"checkouts={len(latencies)} errors={len(errors)}"
    )
    print(f"open loans in the database: {open_loans}")
    print(f"elapsed {elapsed:.2f} s, {len(latencies) / elapsed:.0f} checkouts/s")
    print(
        "latency ms: "
        f"p50 {1000 * statistics.median(latencies):.1f}, "
        f"p95 {1000 * percentile(latencies, 0.95):.1f}, "
        f"p99 {1000 * percentile(latencies, 0.99):.1f}, "
        f"max {1000 * max(latencies):.1f}"
    )
    print(f"load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    if errors or open_loans != len(latencies):
        sys.exit(f"FAILED: {len(errors)} errors, {open_loans} loans for {len(latencies)} checkouts")


if __name__ == "__main__":
    main()
