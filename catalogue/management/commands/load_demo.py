from importlib import import_module
from importlib.util import find_spec

from django.apps import apps
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Fill the database with the demo data of every app (safe to run again)."

    def handle(self, *args, **options):
        # Each app that has demo data exposes demo.load(stdout); apps load in INSTALLED_APPS order,
        # so the catalogue comes before the rules pages and the loans that point at its games.
        for app_config in apps.get_app_configs():
            module_name = f"{app_config.name}.demo"
            if find_spec(module_name) is None:
                continue
            self.stdout.write(f"{app_config.verbose_name}…")
            import_module(module_name).load(stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
