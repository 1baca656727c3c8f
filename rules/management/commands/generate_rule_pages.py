from django.core.management.base import BaseCommand

from rules.pages.generate import rule_pages_generate


class Command(BaseCommand):
    help = "Give every catalogued game without a rules page one made from its notice, in batches (safe to run again)."

    def handle(self, *args, **options):
        report = rule_pages_generate()
        self.stdout.write(report.line())
