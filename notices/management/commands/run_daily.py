import datetime
import traceback

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.module_loading import import_string

# The day's work, in order (settings.DAILY_STEPS, named by dotted path: the apps that own the steps
# depend on this one, not the other way round).
STEPS = [(name, import_string(path)) for name, path in settings.DAILY_STEPS]


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
