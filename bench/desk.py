"""Desk benchmark: checkouts per second and latency percentiles with concurrent desk clients.

Recreates a PostgreSQL database of its own, migrates it, fills it with families and copies, starts
gunicorn with DEBUG off, then lets N clients lend copies through the API (POST /api/loans/ with a
barcode and a member, token auth, the same loans.services.loan_create as the desk). Every checkout
lends a different copy, so every answer must be a 201; at the end the database must hold exactly
one open loan per checkout.

With --returns, each client then takes back the copies it lent, in the same order and at the same
pace (POST /api/loans/<id>/return/ with the pieces check, loans.services.loan_return): every fourth
copy comes back with a piece missing ({"missing": [{"component": …, "quantity": 1}]}), the others
complete. Every answer must be a 200; at the end no loan may be open, and each incomplete return
must have recorded its missing piece and made its copy incomplete.

    # 20 clerks, each scanning at random moments 0.5 s apart on average (the target: p95 <= 20 ms; bench/README.md, « Desk »);
    # --loan-fee 0.50 charges each loan, as a ludothèque with fees does (one more ledger entry each)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_deskbench \\
        .venv/bin/python bench/desk.py --clients 20 --interval 0.5 --checkouts 1000
    # closed loop: each client sends its next checkout as soon as the previous one is answered
    DATABASE_URL=… .venv/bin/python bench/desk.py --clients 20 --checkouts 4000
    # the same checkouts, then every copy returned with its pieces check (target: p95 <= 30 ms)
    DATABASE_URL=… .venv/bin/python bench/desk.py --clients 20 --interval 0.5 --checkouts 1000 --returns
    # then as many reads that do next to nothing, the same way: what any request costs this server
    DATABASE_URL=… .venv/bin/python bench/desk.py --clients 20 --checkouts 4000 --floor

The load generator is one asyncio task per client in a single thread, writing prepared requests on
asyncio streams, so that it costs little CPU next to the server on the same machine and adds no
thread switching to the latencies; the CPU time used by the client, gunicorn and the PostgreSQL
sessions during the run is printed per checkout.

The database name must contain "bench": it is dropped and created again.
"""

import argparse
import asyncio
import datetime
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import machine

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# Warm-up checkouts per gunicorn worker process (imports, database connection, first queries).
WARMUP_PER_WORKER = 20


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


def seed(clients: int, checkouts: int, loan_fee: str = "0") -> tuple[str, list[list[tuple[str, int]]]]:
    """Families, games and copies; returns the staff token and each client's (barcode, member) list."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")
    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from catalogue.models import Component, Copy, Game, Location
    from loans.models import Loan
    from members.models import Member, MembershipType

    location = Location.objects.create(name="Maison des Enfants")
    # Game rows as long as real notices (a summary, contents): the desk reads a copy with its game.
    summary = "Un jeu de plateau où chaque joueur pose une tuile, puis déplace son pion vers le trésor. " * 8
    games = Game.objects.bulk_create(
        Game(title=f"Jeu {i}", slug=f"jeu-{i}", summary=summary, contents="1 plateau, 60 tuiles, 4 pions")
        for i in range(200)
    )
    Component.objects.bulk_create(Component(game=game, quantity=10, label="cartes") for game in games)
    copies = Copy.objects.bulk_create(
        Copy(game=games[i % len(games)], cote="BEN", location=location, barcode=f"B{i:06d}")
        for i in range(checkouts)
    )
    # With a loan fee, each checkout also writes a ledger entry, locking the site's row to do so.
    membership = MembershipType.objects.create(
        name="Banc d'essai", loan_quota=10_000, loan_period_days=21, renewals_allowed=1, loan_fee=loan_fee
    )
    today = timezone.localdate()
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
    # A history: every family has borrowed and returned ten games, so that the planner's statistics
    # on loans are those of a library in use, not of an empty table.
    lent_at = timezone.now() - datetime.timedelta(days=60)
    Loan.objects.bulk_create(
        Loan(
            copy=copies[(7 * n) % len(copies)],
            member=member,
            lent_by=staff,
            lent_at=lent_at,
            due_on=lent_at.date() + datetime.timedelta(days=21),
            returned_at=lent_at + datetime.timedelta(days=14),
            returned_by=staff,
            return_check=Loan.ReturnCheck.COMPLETE,
        )
        for n, member in enumerate(m for m in members for _ in range(10))
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    # Client k lends copies k, k+clients, …; to the families of its own desk (10 each).
    plans = [
        [(copies[i].barcode, members[k * 10 + (i // clients) % 10].pk) for i in range(k, checkouts, clients)]
        for k in range(clients)
    ]
    connection.close()
    return token, plans


# One return in MISSING_EVERY comes back with a piece missing (the others complete).
MISSING_EVERY = 4


def checkout_request(token: str, barcode: str, member: int) -> bytes:
    return api_request(token, "/api/loans/", {"barcode": barcode, "member": member})


def return_request(token: str, loan: int, missing_component: int | None) -> bytes:
    """The return of a loan after its pieces check: complete, or one piece of `missing_component` missing."""
    check = {"missing": [{"component": missing_component, "quantity": 1}]} if missing_component else {}
    return api_request(token, f"/api/loans/{loan}/return/", check)


def get_request(token: str, path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n\r\n".encode()


# What --floor asks, as many times as there were checkouts: the API's root (the token checked, the
# links of the API: no other query) and one copy by its barcode (one row read), the simplest answers.
FLOOR_PATHS = {"API root": "/api/", "copy by barcode": "/api/copies/{barcode}/"}


def return_plans(token: str, plans: list[list[tuple[str, int]]]) -> tuple[list[list[bytes]], int]:
    """Each client's returns of the copies it lent, in the same order; and how many miss a piece."""
    from catalogue.models import Copy
    from loans.models import Loan

    loans = dict(Loan.objects.open().values_list("copy__barcode", "pk"))
    # The benchmark's games have one component each.
    components = dict(Copy.objects.values_list("barcode", "game__components"))
    missing = 0
    requests = []
    for plan in plans:
        requests.append([])
        for n, (barcode, _member) in enumerate(plan):
            with_missing = n % MISSING_EVERY == MISSING_EVERY - 1
            missing += with_missing
            requests[-1].append(
                return_request(token, loans[barcode], components[barcode] if with_missing else None)
            )
    return requests, missing


def returns_check(expected_missing: int) -> list[str]:
    """What the database holds after the returns that it should not: open loans, pieces not recorded."""
    from catalogue.models import Copy
    from loans.models import Loan, MissingPiece

    problems = []
    if open_loans := Loan.objects.open().count():
        problems.append(f"{open_loans} loans still open")
    counts = {
        "incomplete returns": Loan.objects.filter(return_check=Loan.ReturnCheck.INCOMPLETE).count(),
        "missing pieces recorded": MissingPiece.objects.still_missing()
        .filter(quantity=1, loan__isnull=False)
        .count(),
        "incomplete copies": Copy.objects.filter(status=Copy.Status.INCOMPLETE).count(),
    }
    problems += [
        f"{count} {what} for {expected_missing}"
        for what, count in counts.items()
        if count != expected_missing
    ]
    return problems


def api_request(token: str, path: str, data: dict) -> bytes:
    body = json.dumps(data).encode()
    head = (
        f"POST {path} HTTP/1.1\r\n"
        "Host: 127.0.0.1\r\n"
        f"Authorization: Token {token}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n"
    )
    return head.encode() + body


async def clerk(
    port: int, requests: list[bytes], interval: float, seed: int, start: asyncio.Event
) -> tuple[list[float], list[int]]:
    """One desk client: sends its checkouts one after another on a keep-alive connection.

    With `interval`, the clerk scans at random moments `interval` seconds apart on average (a
    Poisson process, seeded per client so that runs are comparable) but never before the previous
    answer came back. A latency runs from the moment the request is sent (including a new
    connection when the server closed the previous one) to the last byte of the answer.
    """
    loop = asyncio.get_running_loop()
    rhythm = random.Random(seed)
    latencies: list[float] = []
    statuses: list[int] = []
    reader = writer = None
    await start.wait()
    next_scan = loop.time()
    for request in requests:
        if interval:
            next_scan += rhythm.expovariate(1 / interval)
            delay = next_scan - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
        began = time.perf_counter()
        if writer is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length, close = 0, False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        await reader.readexactly(length)
        latencies.append(time.perf_counter() - began)
        statuses.append(int(head[9:12]))
        if close:
            # gunicorn's sync workers answer one request per connection.
            writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()
    return latencies, statuses


async def drive(
    port: int, plans: list[list[bytes]], interval: float, meter: "CpuMeter | None" = None
) -> tuple[list[float], list[int], float]:
    start, stop = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.create_task(clerk(port, plan, interval, seed, start)) for seed, plan in enumerate(plans)]
    await asyncio.sleep(0.05)
    if meter:
        meter.begin()
        watcher = asyncio.create_task(meter.watch(stop))
    began = time.perf_counter()
    start.set()
    results = await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - began
    if meter:
        stop.set()
        await watcher
    return [x for lat, _ in results for x in lat], [s for _, sts in results for s in sts], elapsed


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process, None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class CpuMeter:
    """CPU time used by gunicorn (master and workers) and by the PostgreSQL sessions of one database.

    Sampled from /proc every two seconds, so that a session closed during the run (connections live
    CONN_MAX_AGE seconds) still counts with its last reading. The sampling's own CPU time is kept in
    `own_cpu`, to be told apart from the load generator's (they share this process).
    """

    def __init__(self, gunicorn_pid: int, database: str) -> None:
        self.gunicorn_pid = gunicorn_pid
        self.session_title = f" {database} "
        self.last: dict[str, dict[int, float]] = {"gunicorn": {}, "postgres": {}}
        self.start: dict[str, dict[int, float]] = {}
        self.own_cpu = 0.0

    def _pids(self) -> dict[str, list[int]]:
        workers = []
        for task in Path(f"/proc/{self.gunicorn_pid}/task").glob("*/children"):
            workers += [int(child) for child in task.read_text().split()]
        sessions = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                title = cmdline.read_bytes()
            except OSError:
                continue
            if title.startswith(b"postgres: ") and self.session_title.encode() in title:
                sessions.append(int(cmdline.parent.name))
        return {"gunicorn": [self.gunicorn_pid, *workers], "postgres": sessions}

    def sample(self) -> None:
        began = time.process_time()
        for kind, pids in self._pids().items():
            for pid in pids:
                seconds = cpu_seconds(pid)
                if seconds is not None:
                    self.last[kind][pid] = seconds
        self.own_cpu += time.process_time() - began

    def begin(self) -> None:
        self.sample()
        self.start = {kind: dict(readings) for kind, readings in self.last.items()}

    def used(self, kind: str) -> float:
        return sum(seconds - self.start[kind].get(pid, 0.0) for pid, seconds in self.last[kind].items())

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.sample()
            try:
                await asyncio.wait_for(stop.wait(), 2)
            except TimeoutError:
                pass
        self.sample()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


@dataclass
class Run:
    """What one timed run measured: the answers' latencies and statuses, its duration, the CPU used."""

    latencies: list[float]
    statuses: list[int]
    warm_statuses: list[int]
    elapsed: float
    server_cpu: float
    database_cpu: float
    client_cpu: float
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]

    def errors(self, expected: int) -> int:
        return sum(status != expected for status in self.statuses + self.warm_statuses)

    def report(self, kind: str, warmups: int, expected: int, clients: int, interval: float) -> None:
        count = len(self.latencies)
        print(
            f"{kind}: {count} timed, {warmups} warm-up; answers other than {expected}: {self.errors(expected)}"
        )
        if interval:
            # The run lasts as long as its slowest clerk: the rate over it is below the rate offered.
            offered = f"{clients} × 1/{interval:g} s = {clients / interval:.0f}/s offered"
            print(f"{count} {kind} in {self.elapsed:.1f} s ({offered})")
        else:
            print(f"{count / self.elapsed:.0f} {kind}/s ({count} in {self.elapsed:.1f} s)")
        print(
            "latency ms: "
            f"p50 {1000 * percentile(self.latencies, 0.5):.1f}, "
            f"p95 {1000 * percentile(self.latencies, 0.95):.1f}, "
            f"p99 {1000 * percentile(self.latencies, 0.99):.1f}, "
            f"max {1000 * max(self.latencies):.1f}"
        )
        print(
            f"CPU ms per {kind.removesuffix('s')}: "
            f"gunicorn {1000 * self.server_cpu / count:.2f}, "
            f"PostgreSQL sessions {1000 * self.database_cpu / count:.2f}, "
            f"load generator {1000 * self.client_cpu / count:.2f}"
        )
        print(
            f"load average before {self.load_before[0]:.2f}, after {self.load_after[0]:.2f} "
            f"{self.load_after[1]:.2f} {self.load_after[2]:.2f} on {os.cpu_count()} CPUs"
        )


def timed_run(
    gunicorn_pid: int,
    url: str,
    port: int,
    warm_plans: list[list[bytes]],
    plans: list[list[bytes]],
    interval: float,
) -> Run:
    """Send the warm-up requests (not timed), then the timed ones, metering the CPU they cost."""
    _, warm_statuses, _ = asyncio.run(drive(port, warm_plans, 0))
    load_before = os.getloadavg()
    meter = CpuMeter(gunicorn_pid, urlsplit(url).path.lstrip("/"))
    client_before = time.process_time()
    latencies, statuses, elapsed = asyncio.run(drive(port, plans, interval, meter))
    client_cpu = time.process_time() - client_before - meter.own_cpu
    return Run(
        latencies,
        statuses,
        warm_statuses,
        elapsed,
        meter.used("gunicorn"),
        meter.used("postgres"),
        client_cpu,
        load_before,
        os.getloadavg(),
    )


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("gunicorn did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--checkouts", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (> 1: gthread workers)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--loan-fee", default="0", help="euros charged per loan (0: none, the default; the ledger's cost)"
    )
    parser.add_argument(
        "--interval",
        type=float,
        default=0.0,
        help="mean seconds between two scans of one client (0: as soon as the previous one is answered)",
    )
    parser.add_argument(
        "--returns",
        action="store_true",
        help="then return every copy lent, with its pieces check (one in four with a piece missing)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="then time as many reads of the API's root and of a copy: the least a request costs",
    )
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL=postgres://…/ludo_deskbench (PostgreSQL, a name containing 'bench').")

    recreate_database(url)
    # Settings for this process (seed() sets Django up) and the commands it starts.
    os.environ |= {
        "DEBUG": "false",
        "SECRET_KEY": "desk-benchmark-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        # The clients share one staff token, far beyond the 1,200 calls a minute an account may make:
        # the throttle still runs (its counters are kept), over a window of one second.
        "API_THROTTLE_USER": "1000000/second",
        # No collectstatic for an API benchmark: silence whitenoise about the missing directory.
        "PYTHONWARNINGS": "ignore:No directory at",
    }
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    # The first checkouts of every client warm the server up; they are checked but not timed.
    per_client = -(-args.workers * args.threads * WARMUP_PER_WORKER // args.clients)
    warmups = per_client * args.clients
    token, plans = seed(args.clients, args.checkouts + warmups, args.loan_fee)
    requests = [[checkout_request(token, barcode, member) for barcode, member in plan] for plan in plans]
    warm_plans = [plan[:per_client] for plan in requests]
    timed_plans = [plan[per_client:] for plan in requests]

    machine_line = machine.describe(url)
    command = [str(Path(PYTHON).parent / "gunicorn"), "ludotheque.wsgi", "--bind", f"127.0.0.1:{args.port}"]
    command += ["--workers", str(args.workers), "--log-level", "warning"]
    if args.threads > 1:
        command += ["--threads", str(args.threads)]
    gunicorn = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
    from ledger.models import Entry
    from loans.models import Loan

    try:
        wait_for_port(args.port)
        checkouts = timed_run(gunicorn.pid, url, args.port, warm_plans, timed_plans, args.interval)
        open_loans = Loan.objects.open().count()
        if args.returns:
            back, expected_missing = return_plans(token, plans)
            returns = timed_run(
                gunicorn.pid,
                url,
                args.port,
                [p[:per_client] for p in back],
                [p[per_client:] for p in back],
                args.interval,
            )
        floors = {}
        for kind, path in FLOOR_PATHS.items() if args.floor else []:
            reads = [[get_request(token, path.format(barcode=code)) for code, _ in plan] for plan in plans]
            warm, timed = [p[:per_client] for p in reads], [p[per_client:] for p in reads]
            floors[kind] = timed_run(gunicorn.pid, url, args.port, warm, timed, args.interval)
    finally:
        os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait(timeout=30)

    if args.loan_fee != "0":
        print(f"loan fees in the ledger: {Entry.objects.count()}")
    server_kind = f"{args.workers} workers" + (f" × {args.threads} threads" if args.threads > 1 else "")
    pace = f"each scanning every {args.interval} s on average" if args.interval else "closed loop"
    fee = f"; loan fee {args.loan_fee} €" if args.loan_fee != "0" else ""
    print(f"{args.clients} clients, {pace}; gunicorn {server_kind}{fee}")
    print(machine_line)
    failures = []
    answered = len(checkouts.statuses) + len(checkouts.warm_statuses)
    checkouts.report("checkouts", warmups, 201, args.clients, args.interval)
    print(f"open loans in the database after the checkouts: {open_loans} for {answered}")
    if checkouts.errors(201) or open_loans != answered:
        failures.append(f"{checkouts.errors(201)} errors, {open_loans} loans for {answered} checkouts")
    if args.returns:
        returns.report("returns", warmups, 200, args.clients, args.interval)
        problems = returns_check(expected_missing)
        print(
            f"after the returns ({expected_missing} with a piece missing): "
            + ("; ".join(problems) if problems else "no loan open, every missing piece recorded")
        )
        if returns.errors(200) or problems:
            failures.append(f"{returns.errors(200)} errors in the returns; " + "; ".join(problems))
    for kind, run in floors.items():
        run.report(f"{kind} reads", warmups, 200, args.clients, args.interval)
        if run.errors(200):
            failures.append(f"{run.errors(200)} errors in the {kind} reads")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


if __name__ == "__main__":
    main()
