"""The run's report: the year's figures, requests per kind, errors, faults, invariants."""

import os

from .profile import YEAR_END


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def figures() -> list[str]:
    from .invariants import rows

    loans, late, open_loans = rows(
        "SELECT count(*), count(*) FILTER (WHERE returned_at::date > due_on OR (returned_at IS NULL AND due_on < now()::date)),"
        " count(*) FILTER (WHERE returned_at IS NULL) FROM loans_loan"
    )[0]
    checks = dict(rows("SELECT return_check, count(*) FROM loans_loan GROUP BY 1"))
    holds = dict(rows("SELECT status, count(*) FROM loans_hold GROUP BY 1"))
    money = rows("SELECT kind, count(*), sum(amount) FROM ledger_entry GROUP BY 1 ORDER BY 1")
    notices = rows("SELECT channel, status, count(*) FROM notices_notice GROUP BY 1, 2 ORDER BY 1, 2")
    items = rows("SELECT kind, level, count(*) FROM notices_noticeitem GROUP BY 1, 2 ORDER BY 1, 2")
    tills = rows("SELECT count(*), coalesce(sum(cash_counted), 0) FROM ledger_tillclosure")[0]
    return [
        f"loans {loans} (open at the end {open_loans}), returned late {late}, "
        f"return checks {dict(sorted((k or 'open', v) for k, v in checks.items()))}",
        f"holds {dict(sorted(holds.items()))}",
        "money: " + ", ".join(f"{kind} {count} = {total} €" for kind, count, total in money),
        f"tills closed {tills[0]}, cash counted {tills[1]} €",
        "notices: " + ", ".join(f"{channel}/{status} {count}" for channel, status, count in notices),
        "notice items: "
        + ", ".join(f"{kind}{f' {level}' if level else ''} {count}" for kind, level, count in items),
    ]


def lines(run, timings: dict[str, float]) -> list[str]:
    recorder = run.recorder
    out = [f"# A year at the ludothèque: {run.params.days} days from {run.world.start}"]
    out.append(
        f"size: {len(run.world.games)} titles (and {len(run.world.bookable)} giant ones booked for dates), "
        f"{len(run.world.copies)} copies, {len(run.world.families) - len(run.world.groups)} families, "
        f"{len(run.world.groups)} schools, {len(run.world.kits)} kits, "
        f"{len(run.world.sites)} sites, {len(run.clerks)} clerks; load average before/after "
        f"{timings['load_before']:.2f}/{os.getloadavg()[0]:.2f}"
    )
    days = run.profile.days_wall()
    out.append(
        f"time: build {timings['build']:.1f} s, server {timings['server']:.1f} s, the days {days:.1f} s "
        f"({1000 * days / run.params.days:.0f} ms per simulated day), the year's end (stocktake) "
        f"{run.profile.wall.get(YEAR_END, 0.0):.1f} s, total {timings['total']:.1f} s"
    )
    out.append("## The year's figures")
    out += figures()
    out.append("desk: " + ", ".join(f"{what} {count}" for what, count in sorted(run.counts.items())))
    out.append("## Requests per kind (count, p50, p95, answers)")
    for kind, times in sorted(recorder.times.items()):
        statuses = ", ".join(f"{status}×{count}" for status, count in sorted(recorder.statuses[kind].items()))
        out.append(
            f"{kind}: {len(times)}, {1000 * percentile(times, 0.5):.1f} ms, {1000 * percentile(times, 0.95):.1f} ms ({statuses})"
        )
    out.append("## Errors and refusals")
    out.append("5xx outside the faults: " + (", ".join(recorder.server_errors) or "none"))
    out.append("5xx during a fault, retried: " + (", ".join(recorder.fault_5xx) or "none"))
    out.append(
        "connections lost: " + (", ".join(f"{k} {v}" for k, v in sorted(recorder.errors.items())) or "none")
    )
    out.append(
        "refusals (4xx, each with its reason): "
        + (", ".join(f"{k} ×{v}" for k, v in sorted(run.refusals.items())) or "none")
    )
    out += [f"  {kind}: {reason}" for kind, reason in sorted(run.reasons.items())]
    out.append("## Faults")
    out += run.faults.log or ["none"]
    out += run.profile.lines(run.params.days)
    out.append("## Invariants (times checked)")
    out += [f"{name}: {count}" for name, count in sorted(run.checks.counts.items())]
    if run.stocktakes:
        out.append(f"stocktake per site: {run.stocktakes}")
    elif not run.params.stocktake:
        out.append("stocktake: not run (--no-stocktake)")
    return out
