from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rules.declared.files import DECLARED_DIR, declared_files_load


class Command(BaseCommand):
    help = (
        "Give titles their declared setup and score sheet from fixtures/declared/*.json (safe to run again)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--directory", type=Path, default=DECLARED_DIR, help="Where the .json files are.")
        parser.add_argument(
            "--replace", action="store_true", help="Replace a declared setup that is already there."
        )

    def handle(self, *args, directory: Path, replace: bool, **options):
        report = declared_files_load(directory=directory, replace=replace)
        for slug in report.loaded:
            self.stdout.write(f"{slug}: loaded")
        for slug in report.kept:
            self.stdout.write(f"{slug}: already declared, kept")
        for error in report.errors:
            self.stdout.write(f"error: {error}")
        if report.errors:
            raise CommandError(f"{len(report.errors)} refusal(s): nothing of those files was written.")
