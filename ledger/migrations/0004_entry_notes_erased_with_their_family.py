"""A ledger entry's note may be emptied, when its family is erased, and nothing else of it may change.

The note was among the columns migration 0002 forbids to update: that trigger is made again without
it, and the note gets its own, which allows one change, to empty. Hand-written: carry it over when
squashing.
"""

from importlib import import_module

from django.db import migrations

from ludotheque.db import run_on_postgresql
from ludotheque.history import refuse_update, refuse_update_unless

ENTRY_COLUMNS = import_module("ledger.migrations.0002_append_only_guard").COLUMNS["ledger_entry"]
DROP = "DROP TRIGGER IF EXISTS ledger_entry_refuse_update ON ledger_entry;"


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0003_refuse_nan_and_truncate"),
    ]

    operations = [
        run_on_postgresql(DROP),
        refuse_update("ledger_entry", [column for column in ENTRY_COLUMNS if column != "note"]),
        refuse_update_unless("ledger_entry", "note", "NEW.note = ''"),
    ]
