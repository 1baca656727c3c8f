"""Demo rules pages: every game's page from fixtures/rules/, linked to its catalogue notice.

The BGA games' pages start with their wiki history (seed 003, imported by `rule_pages_load`); two
more notices get a librarian's declared score sheet (`rules/declared/demo.py`).
"""

from django.core.management.base import CommandError, OutputWrapper

from .declared import demo as declared_demo
from .management.commands.load_rule_pages import write_load_report
from .pages.services import WIKI_DIR, rule_pages_load


def load(*, stdout: OutputWrapper) -> None:
    """Load the rules pages; safe to run again (staff edits are never overwritten)."""
    report = rule_pages_load(directory=WIKI_DIR)
    write_load_report(report, stdout=stdout)
    if report.errors:
        raise CommandError(f"{len(report.errors)} page file(s) could not be loaded.")
    declared_demo.load(stdout=stdout)
