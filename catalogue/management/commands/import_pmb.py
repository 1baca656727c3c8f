from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from catalogue.pmb import PmbError
from catalogue.services import CREATED, UNCHANGED, UPDATED, games_import_from_pmb_files


class Command(BaseCommand):
    help = "Import the notices and copies of PMB OPAC pages (text files); --dry-run shows what would change."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="PMB OPAC pages saved as text")
        parser.add_argument("--dry-run", action="store_true", help="show what would change without writing")

    def handle(self, *args, files, dry_run, **options):
        missing = [name for name in files if not Path(name).is_file()]
        if missing:
            raise CommandError(_("Fichier introuvable : %(files)s") % {"files": ", ".join(missing)})
        report = games_import_from_pmb_files(paths=files, dry_run=dry_run)
        write_pmb_import_report(report, stdout=self.stdout, style=self.style, dry_run=dry_run)
        if report.errors:
            raise CommandError(_("%(count)d notice(s) en erreur.") % {"count": len(report.errors)})


def write_pmb_import_report(report, *, stdout, style, dry_run: bool = False) -> None:
    """Print one line per notice, the files without notices, the errors and the summary."""
    verbs = {
        CREATED: _("créé") if not dry_run else _("serait créé"),
        UPDATED: _("mis à jour") if not dry_run else _("serait mis à jour"),
        UNCHANGED: _("inchangé"),
    }
    for name in report.files_without_notice:
        stdout.write(style.WARNING(_("%(file)s : aucune notice PMB trouvée.") % {"file": name}))
    for entry in report.entries:
        if isinstance(entry, PmbError):
            message = _("%(position)s : erreur : %(message)s") % {
                "position": entry.position,
                "message": entry.message,
            }
            stdout.write(style.ERROR(message))
            continue
        line = f"{entry.notice.position} « {entry.notice.title} » : {verbs[entry.action]}"
        if entry.changes:
            line += f" ({', '.join(entry.changes)})"
        stdout.write(line)
    summary = _(
        "Créés : %(created)d, mis à jour : %(updated)d, inchangés : %(unchanged)d, erreurs : %(errors)d."
    ) % {
        "created": report.count(CREATED),
        "updated": report.count(UPDATED),
        "unchanged": report.count(UNCHANGED),
        "errors": len(report.errors),
    }
    if dry_run:
        summary = _("Simulation, rien n'a été enregistré. %(summary)s") % {"summary": summary}
    elif report.results and report.count(UNCHANGED) == len(report.results) and not report.errors:
        summary = _("Rien n'a changé. %(summary)s") % {"summary": summary}
    stdout.write(style.SUCCESS(summary) if not report.errors else style.WARNING(summary))
