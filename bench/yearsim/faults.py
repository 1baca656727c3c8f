"""Things going wrong on purpose, on fixed days of the run (as fractions of it, so a month has them too).

Each fault says what it did and what came of it in `Faults.log`, which the report prints.
"""

import datetime
import os
import signal
import subprocess
import threading
import time

from .http import Breach
from .server import APPLICATION_NAME, PYTHON, ROOT

# When, as a fraction of the run's days.
TWICE, SKIPPED, TOGETHER, MAIL_DOWN, RACE, WORKER_KILLED, DATABASE_CUT = (
    0.15,
    0.25,
    0.35,
    0.45,
    0.55,
    0.65,
    0.75,
)


class Faults:
    def __init__(self, run) -> None:
        self.run = run
        self.log: list[str] = []
        self.skipped: datetime.date | None = None
        self.mail_down_until: datetime.date | None = None
        self.failed_while_down = 0
        self.done: set[float] = set()
        self.timers: list[threading.Thread] = []  # this opening's faults, struck on a timer

    def day_of(self, fraction: float) -> datetime.date:
        return self.run.world.start + datetime.timedelta(days=int(self.run.params.days * fraction))

    def on(self, day: datetime.date, fraction: float) -> bool:
        return self.run.params.faults and day == self.day_of(fraction)

    def morning(self, day: datetime.date) -> None:
        """The daily run, as cron starts it, with this morning's fault if any."""
        run = self.run
        if self.on(day, MAIL_DOWN):
            run.mail.stop()
            self.mail_down_until = day + datetime.timedelta(days=2)
        if self.mail_down_until == day:
            self.failed_while_down = self.notices_failed()
            run.mail.start()
        if self.on(day, SKIPPED):
            self.skipped = day
            self.log.append(f"{day}: run_daily skipped (cron did not start)")
            return
        if self.skipped is not None:
            before = self.notice_count()
            run.daily_run(day, date=self.skipped)
            self.log.append(
                f"{day}: run_daily --date {self.skipped} caught the missed day up: {self.notice_count() - before} notice(s)"
            )
            self.skipped = None
        if self.on(day, TOGETHER):
            self.together(day)
            return
        run.daily_run(day)
        if self.mail_down_until == day:
            left = self.notices_failed()
            self.log.append(
                f"{day}: mail server back after two days down: {self.failed_while_down} e-mail(s) had failed, "
                f"{left} still failed after the morning's run (each received once: checked every day)"
            )
            if left:
                raise Breach(f"notices: {left} e-mails still failed once the mail server was back")
            self.mail_down_until = None
        elif self.on(day, MAIL_DOWN):
            self.log.append(
                f"{day}: mail server down for two days: {self.notices_failed()} e-mail(s) failed today"
            )
        if self.on(day, TWICE):
            before = (self.notice_count(), len(run.mail.received()))
            run.daily_run(day)
            after = (self.notice_count(), len(run.mail.received()))
            self.log.append(f"{day}: run_daily run twice: notices and e-mails {before} then {after}")
            if before != after:
                raise Breach(
                    f"notices: run_daily run twice on {day} wrote or sent again: {before} then {after}"
                )

    def together(self, day: datetime.date) -> None:
        """Two run_daily at once, as two cron lines or a retry would start them (processes of their own)."""
        environment = {**self.run.server_environment, "DJANGO_SETTINGS_MODULE": "ludotheque.settings"}
        code = (
            "from yearsim import clock; clock.install(); "
            "from django.core.management import execute_from_command_line; "
            "execute_from_command_line(['manage.py', 'run_daily'])"
        )
        began = time.perf_counter()
        runs = [
            subprocess.Popen(
                [PYTHON, "-c", code],
                cwd=ROOT,
                env=environment,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            for _ in range(2)
        ]
        outputs = [process.communicate(timeout=600)[0].decode() for process in runs]
        codes = [process.returncode for process in runs]
        self.run.count("daily runs", 2)
        self.log.append(
            f"{day}: two run_daily at once: exit codes {codes} (two processes started, {time.perf_counter() - began:.1f} s)"
        )
        if any(codes):
            raise Breach(f"daily run: two at once failed: {outputs}")

    def due(self, day: datetime.date, fraction: float) -> bool:
        """Whether an opening's fault is due: at the first opening on or after its day, once."""
        if not self.run.params.faults or day < self.day_of(fraction) or fraction in self.done:
            return False
        self.done.add(fraction)
        return True

    def during_opening(self, day: datetime.date, site: int, visitors: list[int]) -> None:
        """Start this opening's fault, if any, on a timer: it strikes while the clerks are at work."""
        if self.due(day, WORKER_KILLED):
            self.timers.append(threading.Thread(target=self.kill_worker, args=(day,), daemon=True))
        if self.due(day, DATABASE_CUT):
            self.timers.append(threading.Thread(target=self.cut_database, args=(day,), daemon=True))
        for timer in self.timers:
            timer.start()
        if self.due(day, RACE):
            self.race(day, site, visitors)

    def end_of_opening(self) -> None:
        """The opening ends (before its till closes) once its fault has struck and its window passed,
        however quickly the clerks were done."""
        for timer in self.timers:
            timer.join()
        self.timers.clear()

    def window(self, seconds: float, strike) -> str:
        recorder = self.run.recorder
        lost_before = sum(recorder.errors.values())
        fault_5xx_before = len(recorder.fault_5xx)
        recorder.fault_window += 1
        try:
            result = strike()
            time.sleep(seconds)
        finally:
            recorder.fault_window -= 1
        lost = sum(recorder.errors.values()) - lost_before
        return f"{result}; {lost} request(s) lost and sent again, {len(recorder.fault_5xx) - fault_5xx_before} 5xx retried"

    def kill_worker(self, day: datetime.date) -> None:
        time.sleep(0.8)

        def strike():
            worker = self.run.site.workers()[0]
            os.kill(worker, signal.SIGKILL)
            return f"gunicorn worker {worker} killed (SIGKILL) while the clerks were lending"

        self.log.append(f"{day}: {self.window(3, strike)}")

    def cut_database(self, day: datetime.date) -> None:
        time.sleep(0.8)

        def strike():
            from .invariants import rows

            killed = rows(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND application_name = %s",
                [APPLICATION_NAME],
            )[0][0]
            return (
                f"PostgreSQL's {killed} session(s) of the site terminated (pg_terminate_backend, the server "
                "is shared here: not restarted) during the opening"
            )

        self.log.append(f"{day}: {self.window(3, strike)}")

    def race(self, day: datetime.date, site: int, visitors: list[int]) -> None:
        """Two clerks lend the same last copy, then take back the same copy, at the same moment."""
        from . import people

        run = self.run
        families = [member for member in visitors if run.member_row(member)["membership_expiry"] >= day][:2]
        shelf = run.pick_from_shelf(site, 1, run.rng)
        if len(families) < 2 or not shelf:
            self.log.append(f"{day}: race not run (no copy or families)")
            return
        barrier = threading.Barrier(2)
        results = [None, None]

        def lend(index):
            barrier.wait()
            results[index] = people.lend(run, run.clerks[index], families[index], shelf[0], site)

        threads = [threading.Thread(target=lend, args=(index,)) for index in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if sorted(results) != [False, True]:
            raise Breach(f"copies: two clerks lending {shelf[0]} at once: {results}")
        loan = next(loan for loan in run.loans.values() if loan["copy"] == run.copy_id(shelf[0]))
        statuses = [None, None]
        loan_row = run.open_loans(loan["member"], None)
        loan_row = next(row for row in loan_row if row["id"] == loan["id"])

        def give_back(index):
            barrier.wait()
            answer = run.clerks[index].api(
                "retour", "POST", f"/api/loans/{loan['id']}/return/", {"missing": []}
            )
            statuses[index] = answer.status_code
            if answer.status_code == 200:
                run.after_return(loan_row, answer.json(), lost=False)

        threads = [threading.Thread(target=give_back, args=(index,)) for index in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if sorted(statuses) != [200, 400]:
            raise Breach(f"copies: two clerks taking back {shelf[0]} at once answered {statuses}")
        self.log.append(
            f"{day}: two clerks lent {shelf[0]} at the same moment (one loan, the other refused), then took it "
            f"back at the same moment (answers {sorted(statuses)}: one return)"
        )

    def notice_count(self) -> int:
        from notices.models import NoticeItem

        return NoticeItem.objects.count()

    def notices_failed(self) -> int:
        from notices.models import Notice

        return Notice.objects.filter(status=Notice.Status.FAILED).count()
