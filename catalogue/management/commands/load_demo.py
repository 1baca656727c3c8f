from importlib import import_module
from importlib.util import find_spec

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Fill the database with the demo data of every app (safe to run again); DEBUG only, unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="load the demo even with DEBUG off (it creates accounts with known passwords: never on a real site)",
        )

    def handle(self, *args, force=False, **options):
        if not settings.DEBUG and not force:
            # The demo creates staff and family accounts whose passwords are in the README.
            raise CommandError(
                "DEBUG is off: this looks like a real site, and the demo creates accounts with known "
                "passwords (benevole / ludotheque). Nothing was loaded; add --force if this is a test database."
            )
        # Each app that has demo data exposes demo.load(stdout); apps load in INSTALLED_APPS order,
        # so the catalogue comes before the rules pages and the loans that point at its games.
        for app_config in apps.get_app_configs():
            module_name = f"{app_config.name}.demo"
            if find_spec(module_name) is None:
                continue
            self.stdout.write(f"{app_config.verbose_name}…")
            import_module(module_name).load(stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
