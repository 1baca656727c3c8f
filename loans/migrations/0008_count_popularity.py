"""Fill Game.loans_last_year once, as the daily run will keep it (loans.services.popularity_count)."""

from django.db import migrations

# On PostgreSQL, one statement; elsewhere (SQLite, a first run) the demo and the daily run fill it.
COUNT_SQL = """
UPDATE catalogue_game g SET loans_last_year = counted.n
  FROM (SELECT c.game_id, count(*) AS n
          FROM loans_loan l JOIN catalogue_copy c ON c.id = l.copy_id
         WHERE l.lent_at >= current_date - 365
         GROUP BY c.game_id) AS counted
 WHERE g.id = counted.game_id
"""


def count(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(COUNT_SQL)


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0010_game_loans_last_year"),
        ("loans", "0007_anonymised_history_and_erased_families"),
    ]

    operations = [migrations.RunPython(count, migrations.RunPython.noop)]
