from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from catalogue.importing import games_import_text
from catalogue.spreadsheet import decode


class Command(BaseCommand):
    help = "Import games and copies from a CSV file (the columns of the export); --dry-run shows what would change."

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="CSV file, UTF-8")
        parser.add_argument("--dry-run", action="store_true", help="show what would change without writing")

    def handle(self, *args, file, dry_run, **options):
        path = Path(file)
        try:
            text = decode(path.read_bytes())
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(_("Fichier illisible : %(error)s") % {"error": error}) from None
        (sheet, report), line = games_import_text(text, source=path.name, dry_run=dry_run)
        for error in sheet.errors:
            self.stdout.write(self.style.ERROR(str(error)))
        for error in report.errors:
            self.stdout.write(self.style.ERROR(f"{error.position} : {error.message}"))
        if dry_run:
            line = _("Simulation, rien n'a été enregistré. %(summary)s") % {"summary": line}
        self.stdout.write(
            self.style.SUCCESS(line) if not (sheet.errors or report.errors) else self.style.WARNING(line)
        )
        if sheet.errors or report.errors:
            raise CommandError(_("%(count)d erreur(s).") % {"count": len(sheet.errors) + len(report.errors)})
