from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rules.pages.wiki_import import contributions_read, wiki_history_import


class Command(BaseCommand):
    help = "Import a BGA wiki contributions file (seed 003) as the first revisions of the rules pages (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument(
            "path", type=Path, help="the contributions file, e.g. fixtures/seeds/003_92865e5214de13d9.txt"
        )

    def handle(self, *args, path: Path, **options):
        if not path.is_file():
            raise CommandError(f"{path}: no such file.")
        try:
            if not contributions_read(path):
                raise CommandError(
                    f"{path}: no contribution found (title, time, « contributor : summary » lines)."
                )
        except UnicodeDecodeError as error:
            raise CommandError(f"{path}: not UTF-8 text ({error}).") from None
        report = wiki_history_import(path=path)
        for line in report.lines():
            self.stdout.write(line)
        total = sum(report.imported.values())
        self.stdout.write(self.style.SUCCESS(f"{total} revision(s) imported."))
