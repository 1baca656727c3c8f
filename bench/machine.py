"""How fast the machine is, printed by each benchmark beside its figures.

The targets are milliseconds, and the machines the benchmarks run on are not alike: the same code
measured 1.6–2.3 times apart from one machine of the same kind to the next (bench/README.md,
« Machines »). Two runs' figures compare only when their machine lines agree within a few percent.
"""

import os
import time

ADDITIONS = 2_000_000
INTEGERS = 2_000_000


def python_ms() -> float:
    """CPU milliseconds of ADDITIONS additions in a pure-Python loop, best of three."""
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        total = 0
        for number in range(ADDITIONS):
            total += number
        best = min(best, time.process_time() - began)
    return 1000 * best


def postgres_ms(database_url: str) -> float:
    """Milliseconds PostgreSQL takes to sum INTEGERS integers (one session, no table), best of three."""
    import psycopg

    best = float("inf")
    with psycopg.connect(database_url) as connection:
        for _ in range(3):
            began = time.perf_counter()
            connection.execute("SELECT sum(i) FROM generate_series(1, %s) AS i", [INTEGERS]).fetchone()
            best = min(best, time.perf_counter() - began)
    return 1000 * best


def describe(database_url: str = "") -> str:
    line = f"machine: {os.cpu_count()} CPUs, Python {ADDITIONS:,} additions {python_ms():.0f} ms"
    if database_url.startswith("postgres"):
        line += f", PostgreSQL sum of {INTEGERS:,} integers {postgres_ms(database_url):.0f} ms"
    return line + f" (load average {os.getloadavg()[0]:.2f})"


if __name__ == "__main__":
    print(describe(os.environ.get("DATABASE_URL", "")))
