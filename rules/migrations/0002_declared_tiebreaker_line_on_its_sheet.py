"""Hand-written: a declared tie-breaker's line belongs to the tie-breaker's own sheet (PostgreSQL).

Django has no composite foreign keys, so this one is added in SQL: (sheet_id, line_id) of a
tie-breaker must be the (sheet_id, id) of a line, which `rules_declaredline_unique_sheet_id` makes
referenceable. Deferred like Django's own foreign keys; deleting a line still cascades through the
plain `line_id` key. SQLite (a newcomer's first run) does without it: the forms check the same.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql

CONSTRAINT = "rules_declaredtiebreaker_line_on_its_sheet"

FORWARD = (
    f"ALTER TABLE rules_declaredtiebreaker ADD CONSTRAINT {CONSTRAINT} "
    "FOREIGN KEY (sheet_id, line_id) REFERENCES rules_declaredline (sheet_id, id) "
    "ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"
)
BACKWARD = f"ALTER TABLE rules_declaredtiebreaker DROP CONSTRAINT IF EXISTS {CONSTRAINT}"


class Migration(migrations.Migration):
    dependencies = [("rules", "0001_initial")]

    operations = [run_on_postgresql(FORWARD, BACKWARD)]
