"""Where a simulated day's time goes: wall and CPU seconds per phase, and the requests each sent.

Each phase of the run (the daily run, families at home, the clerks' openings, the daily checks, the
stocktake, the build, gunicorn's start) is timed by `Profile.phase`; at its end the CPU time each
side spent during it is read from /proc: the run's own process (its clerks' and families' threads,
`run_daily`, the checks), gunicorn (master and workers) and PostgreSQL's sessions on the run's
database (every backend of it in `pg_stat_activity`). On a shared machine the wall-clock grows with
the load while the CPU seconds hardly move: they are what compares from one run to the next.

A process that ended since the phase began (a session cut by the fault, a killed worker) takes with
it its CPU since the last reading; the run keeps its sessions open, so that is little.
"""

import os
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
# The phases of the run (bench/yearsim/run.py); the year's end is apart from the days.
DAILY_RUN = "daily run (and its faults)"
AT_HOME = "families at home"
OPENINGS = "openings (clerks, till)"
CHECKS = "daily checks"
YEAR_END = "year end (daily run, checks, stocktake)"
DAY_PHASES = (DAILY_RUN, AT_HOME, OPENINGS, CHECKS)


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a process (all its threads), or None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


class Side:
    """The CPU a set of processes spent, read as deltas per process (new ones count from zero)."""

    def __init__(self) -> None:
        self.last: dict[int, float] = {}

    def spent(self, pids: list[int]) -> float:
        total = 0.0
        seen = {}
        for pid in pids:
            now = cpu_seconds(pid)
            if now is None:
                continue
            total += now - self.last.get(pid, 0.0)
            seen[pid] = now
        self.last = seen
        return total


class Profile:
    """Phases' wall and CPU seconds (the run, gunicorn, PostgreSQL) and their requests."""

    SIDES = ("run", "site", "db")

    def __init__(self) -> None:
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.requests: dict[str, int] = defaultdict(int)
        self.times: dict[str, int] = defaultdict(int)
        self.site_pid: int | None = None
        self.recorder = None
        self.database: str | None = None
        self.sides = {"site": Side(), "db": Side()}
        self.current: str | None = None

    def _backends(self) -> list[int]:
        if self.database is None:
            return []
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'",
                [self.database],
            )
            return [pid for (pid,) in cursor.fetchall()]

    def _read(self) -> dict[str, float]:
        site = [self.site_pid, *children(self.site_pid)] if self.site_pid else []
        return {
            "run": time.process_time(),
            "site": self.sides["site"].spent(site),
            "db": self.sides["db"].spent(self._backends()),
        }

    def _requests(self) -> int:
        return sum(len(times) for times in self.recorder.times.values()) if self.recorder else 0

    def start(self) -> None:
        """Read every side once, so the first phase counts from here."""
        self._read()

    @contextmanager
    def phase(self, name: str):
        if self.current is not None:  # a phase inside another counts for the outer one
            yield
            return
        self.current = name
        began, read, sent = time.perf_counter(), self._read(), self._requests()
        try:
            yield
        finally:
            after = self._read()
            self.wall[name] += time.perf_counter() - began
            self.cpu[name]["run"] += after["run"] - read["run"]
            self.cpu[name]["site"] += after["site"]
            self.cpu[name]["db"] += after["db"]
            self.requests[name] += self._requests() - sent
            self.times[name] += 1
            self.current = None

    def lines(self, days: int) -> list[str]:
        out = [
            "## Where the time went (wall s; CPU s of the run's process, gunicorn, PostgreSQL; requests; "
            "per simulated day)"
        ]
        total = defaultdict(float)
        for name in self.wall:
            cpu = self.cpu[name]
            out.append(
                f"{name} ×{self.times[name]}: wall {self.wall[name]:.1f} s, CPU run {cpu['run']:.1f} + site "
                f"{cpu['site']:.1f} + db {cpu['db']:.1f} = {sum(cpu.values()):.1f} s, {self.requests[name]} "
                f"requests; per day wall {1000 * self.wall[name] / days:.0f} ms, CPU "
                f"{1000 * sum(cpu.values()) / days:.0f} ms"
            )
            total["wall"] += self.wall[name]
            total["cpu"] += sum(cpu.values())
            total["requests"] += self.requests[name]
        day = {side: sum(self.cpu[name][side] for name in DAY_PHASES) for side in self.SIDES}
        wall = sum(self.wall[name] for name in DAY_PHASES)
        requests = sum(self.requests[name] for name in DAY_PHASES)
        out.append(
            f"a simulated day ({', '.join(DAY_PHASES)}): wall {1000 * wall / days:.0f} ms, CPU "
            f"{1000 * sum(day.values()) / days:.0f} ms (run {1000 * day['run'] / days:.0f} + site "
            f"{1000 * day['site'] / days:.0f} + db {1000 * day['db'] / days:.0f}), {requests / days:.0f} requests"
        )
        out.append(
            f"all phases: wall {total['wall']:.1f} s, CPU {total['cpu']:.1f} s, {total['requests']:.0f} "
            f"requests; retries' waits on the real clock {self.recorder.slept if self.recorder else 0:.1f} s"
        )
        return out

    def days_wall(self) -> float:
        return sum(self.wall[name] for name in DAY_PHASES)
