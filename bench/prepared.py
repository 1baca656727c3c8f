"""What each prepared read saves (ludotheque/prepared.py), in process, on the database of bench/generate.py.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench .venv/bin/python bench/prepared.py

First a few requests through Django's test client, as a family and a desk make them: notices, game
pages, copies by barcode, searches of the page /jeux/ and of the API, checkouts and returns (each in a
transaction rolled back: the database is left as it was). Every prepared read they run is recorded
with its values. Then each read runs again with those values, `--runs` times with PREPARED_READS on
and as many off, alternating (inside a transaction, for the locking reads), and the script prints per
read the median time of each (the query's rows included) and what preparing saves.
"""

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ["SECURE_SSL_REDIRECT"] = "false"


def workload(client, token: str) -> None:
    """Requests that run every prepared read of the site, each with its own values."""
    from django.db import transaction

    from catalogue.models import Copy, Game
    from members.models import Member

    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    slugs = list(Game.objects.filter(copies__isnull=False).order_by("pk").values_list("slug", flat=True)[:5])
    for slug in slugs:
        for path in (f"/api/games/{slug}/", f"/jeux/{slug}/"):
            assert client.get(path).status_code == 200, path
    on_shelf = list(Copy.objects.filter(status="on_shelf").order_by("pk")[:200])
    for copy in on_shelf[:5]:
        assert client.get(f"/api/copies/{copy.barcode}/", **auth).status_code == 200
    for query in ("q=pirates", "q=ch%C3%A2teau&disponible=oui", "ages=8,10,40&duree_max=45"):
        assert client.get(f"/jeux/?{query}").status_code == 200
        assert client.get(f"/api/games/?{query}").status_code == 200
    lent = 0
    members = Member.objects.order_by("pk").values_list("pk", flat=True)[:200]
    for copy, member in zip(on_shelf[5:], members, strict=False):
        with transaction.atomic():
            answer = client.post("/api/loans/", {"barcode": copy.barcode, "member": member}, **auth)
            if answer.status_code == 201:
                loan = answer.json()["id"]
                component = copy.game.components.values_list("pk", flat=True).first()
                check = {"missing": [{"component": component, "quantity": 1}]} if component else {}
                returned = client.post(
                    f"/api/loans/{loan}/return/", check, content_type="application/json", **auth
                )
                assert returned.status_code in (200, 201), returned.content
                lent += 1
            transaction.set_rollback(True)
        if lent == 3:
            break
    assert lent, "no checkout succeeded"


def timed(read, values, runs: int) -> tuple[float, float, float, float]:
    """Median milliseconds of the read with these values, prepared and plain, alternating: wall-clock
    (the query's round trip included), then this process's CPU (Django's compiling and the rows)."""
    from django.conf import settings
    from django.db import transaction

    times = {True: [], False: []}
    cpu = {True: [], False: []}
    with transaction.atomic():
        for _ in range(runs):
            for prepared in (True, False):
                settings.PREPARED_READS = prepared
                start, started = time.perf_counter(), time.process_time()
                list(read.queryset(*values))
                times[prepared].append((time.perf_counter() - start) * 1000)
                cpu[prepared].append((time.process_time() - started) * 1000)
        transaction.set_rollback(True)
    settings.PREPARED_READS = True
    medians = [statistics.median(values) for values in (times[True], times[False], cpu[True], cpu[False])]
    return tuple(medians)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    options = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client
    from rest_framework.authtoken.models import Token

    sys.path.insert(0, str(ROOT / "bench"))
    from machine import describe

    print(describe(os.environ.get("DATABASE_URL", "")))
    from ludotheque import prepared

    recorded = defaultdict(list)
    original = prepared.PreparedRead.queryset

    def recording(self, *values):
        recorded[self.label].append(values)
        return original(self, *values)

    prepared.PreparedRead.queryset = recording
    with transaction.atomic():
        staff = get_user_model().objects.create_superuser("bench-prepared", "bench@example.org", "x")
        token = Token.objects.create(user=staff).key
        workload(Client(), token)
        prepared.PreparedRead.queryset = original
        print(
            f"{'prepared read':<24} {'prepared':>9} {'plain':>9} {'saves':>9}   CPU: prepared, plain, saves"
        )
        for label, read in sorted(prepared.READS.items()):
            if not recorded[label]:
                print(f"{label:<24} not run by the workload")
                continue
            runs = [timed(read, values, options.runs) for values in recorded[label][-3:]]
            on, off, cpu_on, cpu_off = (statistics.mean(column) for column in zip(*runs, strict=True))
            print(
                f"{label:<24} {on:6.2f} ms {off:6.2f} ms {off - on:6.2f} ms   "
                f"{cpu_on:5.2f} ms {cpu_off:5.2f} ms {cpu_off - cpu_on:5.2f} ms"
            )
        transaction.set_rollback(True)


if __name__ == "__main__":
    main()
