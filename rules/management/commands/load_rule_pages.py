from django.core.management.base import BaseCommand, CommandError

from rules.pages.services import WIKI_DIR, LoadReport, rule_pages_load


def write_load_report(report: LoadReport, *, stdout) -> None:
    """Say, page by page, what the loader did."""
    for line in report.history:
        stdout.write(line)
    for label, slugs in (
        ("created", report.created),
        ("updated from its file", report.updated),
        ("linked to its catalogue notice", report.linked),
        ("unchanged", report.unchanged),
        ("edited by staff, file not applied", report.kept),
        ("created without text: no fixtures/rules/<slug>.wiki file", report.missing_file),
        ("no catalogue notice with the title its file names", report.missing_notice),
    ):
        for slug in slugs:
            stdout.write(f"{slug}: {label}")
    for error in report.errors:
        stdout.write(f"error: {error}")


class Command(BaseCommand):
    help = "Create the rules page of every game from fixtures/rules/<slug>.wiki (safe to run again)."

    def handle(self, *args, **options):
        report = rule_pages_load(directory=WIKI_DIR)
        write_load_report(report, stdout=self.stdout)
        if report.errors:
            raise CommandError(f"{len(report.errors)} page file(s) could not be loaded.")
        self.stdout.write(self.style.SUCCESS(f"{len(report.created)} page(s) created."))
