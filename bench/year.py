"""A year at the ludothèque, simulated through the running site; every invariant checked every day.

Builds a ludothèque (titles, copies with their pieces, families and households, two sites and a
ludobus, their calendar, membership types with fees) in a database of its own, starts gunicorn on it
(DEBUG off) with a simulated clock and a real SMTP server, then plays the days: each morning the daily
run, families at home (account, searches, holds, renewals, calendar feed), each opening several clerks
at once (cards, returns with the pieces check, lost games, pieces brought back, memberships, payments,
loans), the till closed; faults on fixed days; a stocktake at the end. Stops at the first breach
(exit 1) and prints its report. See bench/README.md, « A year ».

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench_year .venv/bin/python bench/year.py
    # the suite's month: --days 30 --titles 60 --copies 90 --families 30 --home-visits 2 --clerks 2 --workers 2

The database name must contain "bench": it is dropped and created again (or copied from --template).
"""

import argparse
import datetime
import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def recreate_database(url: str, template: str | None) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"Refusing to drop {name!r}: the simulation's database name must contain 'bench'.")
    admin = psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username,
        password=parts.password,
        dbname="postgres",
    )
    admin.autocommit = True
    if template:
        # A template must have no session: the suite's month copies its own test database, whose
        # process has closed its connections (a thread's may linger).
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [template],
        )
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    admin.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--start", type=datetime.date.fromisoformat, default=datetime.date(2027, 1, 4))
    parser.add_argument("--titles", type=int, default=3000)
    parser.add_argument("--copies", type=int, default=4500)
    parser.add_argument("--families", type=int, default=400)
    parser.add_argument("--clerks", type=int, default=3, help="clerks at the desk at once (threads)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument(
        "--activity",
        type=int,
        help="visits as at a ludothèque of this many families: loans per opening 60 × N / 400, families at "
        "home N / 50 a day (default --families; ×10 with --activity 400 keeps the desk's traffic)",
    )
    parser.add_argument("--home-visits", type=int, help="families at home each day (default activity / 50)")
    parser.add_argument(
        "--no-stocktake",
        action="store_true",
        help="no year-end stocktake (only to compare the days at ×10: it scans every copy)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument("--template", help="copy this (migrated, empty) database instead of migrating")
    args = parser.parse_args()

    import machine

    url = os.environ["DATABASE_URL"]
    machine_line = machine.describe(url.rsplit("/", 1)[0] + "/postgres")
    began = time.perf_counter()
    load_before = os.getloadavg()[0]
    recreate_database(url, args.template)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")
    os.environ["PYTHONWARNINGS"] = "ignore:No directory at"
    clock_file = Path(tempfile.mkdtemp(prefix="ludo-year-")) / "clock"
    os.environ["LUDO_SIM_CLOCK"] = str(clock_file)

    from yearsim import clock

    clock.install(str(clock_file))
    import django

    django.setup()
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # as yearsim/wsgi.py
    from django.core.management import call_command
    from django.utils import timezone
    from yearsim.profile import Profile

    profile = Profile()
    profile.database = settings.DATABASES["default"]["NAME"]
    profile.start()
    if not args.template:
        with profile.phase("migrate"):
            call_command("migrate", verbosity=0)
    from yearsim import report
    from yearsim.build import build
    from yearsim.http import Breach
    from yearsim.run import Params, Run
    from yearsim.server import MailServer, Site, server_environment

    clock.set_to(
        timezone.make_aware(
            datetime.datetime.combine(args.start - datetime.timedelta(days=1), datetime.time(20))
        )
    )
    with profile.phase("build"):
        world = build(
            seed=args.seed,
            start=args.start,
            titles=args.titles,
            copies=args.copies,
            families=args.families,
            clerks=args.clerks,
        )
    built = time.perf_counter()
    mail = MailServer(clock_file.parent / "maildir")
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": mail.port, "timeout": 30},
        }
    }
    environment = server_environment(str(clock_file), mail.port)
    with profile.phase("server start"):
        site = Site(environment, args.workers)
        profile.site_pid = site.process.pid
    served = time.perf_counter()
    activity = args.activity or args.families
    params = Params(
        days=args.days,
        clerks=args.clerks,
        home_visits=args.home_visits if args.home_visits is not None else max(2, activity // 50),
        faults=not args.no_faults,
        activity=activity,
        stocktake=not args.no_stocktake,
    )
    run = Run(world, params, site.url, args.seed, mail, site, profile)
    run.server_environment = environment
    failure = None
    try:
        run.play()
    except Breach as breach:
        failure = breach
    finally:
        site.stop()
        mail.stop()
    ended = time.perf_counter()
    timings = {
        "load_before": load_before,
        "build": built - began,
        "server": served - built,
        "days": ended - served,
        "total": ended - began,
    }
    print("\n".join(report.lines(run, timings)))
    print(machine_line)
    if failure is not None:
        print(f"\nBREACH on {run.today}: {failure}")
        return 1
    print(f"\nEvery invariant held, every day of the {args.days}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
