"""Daily-run benchmark: `manage.py run_daily` on the network-scale database of bench/generate.py.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench .venv/bin/python bench/generate.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench .venv/bin/python bench/daily.py

The notices and the task queue are emptied (the generated loans, holds and families stay), then:

1. history, not timed: `run_daily --date <today - gap>`; the families are told what was due by then
   (every late loan its highest level reached, every ready hold, every membership ending), and the
   e-mails of that run are dropped from the queue: they belong to the past;
2. **the measured day**, timed: `run_daily --date <today>` as in production (`TASKS_BACKEND=database`:
   the notices are written and their e-mails queued for the worker): the notices of the `gap` days
   since (reminder levels reached, due dates coming, holds set aside, memberships ending);
3. the worker, timed: `manage.py db_worker --batch` sends the queued e-mails to an SMTP server on
   127.0.0.1 (aiosmtpd, started here, which accepts and counts them);
4. the same day again, timed: nothing new is written or queued.

Each command runs in its own process with DEBUG off; the times are wall-clock, Django's start-up
included. The name of the database must contain "bench".
"""

import argparse
import datetime
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def manage(*args: str, env: dict) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return elapsed, result.stdout


def sql(url: str, statement: str) -> list[tuple]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        cursor = connection.execute(statement)
        return cursor.fetchall() if cursor.description else []


def main() -> None:
    parser = argparse.ArgumentParser(description="Time run_daily on the bench database.")
    parser.add_argument(
        "--gap", type=int, default=2, help="days between the history run and the measured day"
    )
    parser.add_argument("--date", type=datetime.date.fromisoformat, help="the measured day (default: today)")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if "bench" not in urlsplit(url).path:
        parser.error(
            "set DATABASE_URL to the PostgreSQL database filled by bench/generate.py (name with 'bench')."
        )
    today = args.date or datetime.date.today()

    from aiosmtpd.controller import Controller

    class Sink:
        received = 0

        async def handle_DATA(self, server, session, envelope):
            Sink.received += 1
            return "250 OK"

    port = free_port()
    smtp = Controller(Sink(), hostname="127.0.0.1", port=port)
    smtp.start()
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-secret-key-bench-only-secret-key-bench-only",
        "ALLOWED_HOSTS": "localhost",
        "TASKS_BACKEND": "database",
        "EMAIL_URL": f"smtp://127.0.0.1:{port}",
    }
    try:
        manage("migrate", "--no-input", env=env)
        sql(url, "TRUNCATE notices_noticeitem, notices_notice, django_tasks_database_dbtaskresult")
        sql(
            url,
            "UPDATE loans_hold SET status = 'ready', closed_at = NULL WHERE status = 'expired' AND ready_at IS NOT NULL",
        )

        history = today - datetime.timedelta(days=args.gap)
        seconds, _ = manage("run_daily", f"--date={history}", env=env)
        told = sql(url, "SELECT count(*) FROM notices_notice")[0][0]
        sql(url, "TRUNCATE django_tasks_database_dbtaskresult")
        print(f"history ({history}, not timed): {told} notices in {seconds:.1f} s")
        sql(url, "VACUUM ANALYZE notices_notice, notices_noticeitem")

        load = os.getloadavg()[0]
        seconds, report = manage("run_daily", f"--date={today}", env=env)
        rows = sql(
            url,
            f"SELECT count(*), count(DISTINCT member_id), count(*) FILTER (WHERE channel = 'email'), "
            f"count(*) FILTER (WHERE channel = 'letter') FROM notices_notice WHERE run_on = '{today}'",
        )[0]
        items = sql(
            url,
            f"SELECT kind, level, count(*) FROM notices_noticeitem i JOIN notices_notice n ON n.id = i.notice_id "
            f"WHERE n.run_on = '{today}' GROUP BY kind, level ORDER BY kind, level",
        )
        queued = sql(url, "SELECT count(*) FROM django_tasks_database_dbtaskresult")[0][0]
        print(f"run_daily --date={today} (load average {load:.2f} before): {seconds:.1f} s")
        print(
            f"  {rows[0]} notices to {rows[1]} families: {rows[2]} e-mails, {rows[3]} letters; {queued} tasks queued"
        )
        print(
            "  items: "
            + ", ".join(f"{kind}{f' {level}' if level else ''} {count}" for kind, level, count in items)
        )
        print("  " + report.strip().replace("\n", "\n  "))

        seconds, _ = manage("db_worker", "--batch", "--no-startup-delay", "--no-reload", env=env)
        sent = sql(url, f"SELECT count(*) FROM notices_notice WHERE run_on = '{today}' AND status = 'sent'")[
            0
        ][0]
        print(
            f"db_worker --batch: {Sink.received} e-mails received by the SMTP server in {seconds:.1f} s "
            f"({Sink.received / seconds:.0f}/s); {sent} notices marked sent"
        )

        seconds, report = manage("run_daily", f"--date={today}", env=env)
        again = sql(url, f"SELECT count(*) FROM notices_notice WHERE run_on = '{today}'")[0][0]
        print(f"run_daily --date={today} again: {seconds:.1f} s, {again - rows[0]} new notices")
        print("  " + report.strip().replace("\n", "\n  "))
    finally:
        smtp.stop()


if __name__ == "__main__":
    main()
