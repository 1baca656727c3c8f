import datetime
import traceback

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from loans.services import holds_expire_past_pickup, popularity_count
from notices.services import notices_send
from privacy.services import history_anonymise

# The day's work, in order. Each step takes the day (`today=`), can run twice or after a crash without
# doing anything twice, and returns a one-line report. To add a step, add one line here.
STEPS = [
    ("expire_holds", holds_expire_past_pickup),
    ("send_notices", notices_send),
    ("anonymise_history", history_anonymise),
    ("count_popularity", popularity_count),
]


class Command(BaseCommand):
    help = (
        "Do the ludothèque's daily work: expire holds not collected, send the notices, anonymise old "
        "history, count each game's loans of the year for the sort by popularity (run once a day)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--date",
            type=datetime.date.fromisoformat,
            help="Run as if today were this day (YYYY-MM-DD, today or earlier), e.g. to catch up a missed day.",
        )

    def handle(self, *args, date=None, **options):
        today = timezone.localdate()
        # A day not yet come would expire holds whose families still have time to collect them and
        # tell families of a lateness that has not happened: nothing of it could be taken back.
        if date is not None and date > today:
            raise CommandError(
                f"--date {date} is in the future (today is {today}): the daily run only runs for today "
                "or a missed day."
            )
        today = date or today
        failed = []
        for name, step in STEPS:
            try:
                report = step(today=today)
            except Exception:  # noqa: BLE001 — one step failing must not keep the next ones from running
                failed.append(name)
                self.stderr.write(f"{name}: FAILED\n{traceback.format_exc()}")
            else:
                self.stdout.write(f"{name}: {report}")
        if failed:
            raise CommandError(f"{len(failed)} step(s) failed on {today}: {', '.join(failed)}.")
        self.stdout.write(self.style.SUCCESS(f"Daily run of {today} done."))
