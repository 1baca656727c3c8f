"""The ledger's history guarded by PostgreSQL itself (hand-written: carry over when squashing).

Whatever writes to the database (the ORM, a shell, a script, psql), PostgreSQL refuses:
- to DELETE a ledger entry, a membership period or a till closure, or to UPDATE any of their columns:
  they are an append-only book, a mistake is corrected by a new, reversing entry. The triggers attach
  the project's `refuse_change()` function (ludotheque/history.py);
- to INSERT an entry dated into a closed till period of its site (`ledger_entry_refuse_closed_period`,
  this app's own trigger function).

Both raise SQLSTATE 23001 (restrict_violation), which Django reports as an IntegrityError. TRUNCATE
is guarded by migration 0003. Nothing happens on
SQLite, where the ORM's guard (ledger.models.AppendOnlyQuerySet/AppendOnlyModel) is the only one.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql
from ludotheque.history import refuse_delete, refuse_update

# Every column of each table (a generated column, the closure's difference, follows its sources).
COLUMNS = {
    "ledger_entry": [
        "id",
        "member_id",
        "kind",
        "amount",
        "method",
        "cheque_number",
        "recorded_at",
        "site_id",
        "clerk_id",
        "loan_id",
        "copy_id",
        "missing_piece_id",
        "deposit_id",
        "reverses_id",
        "waived",
        "receipt_year",
        "receipt_number",
        "note",
    ],
    "ledger_membership": [
        "id",
        "member_id",
        "membership_type_id",
        "start",
        '"end"',  # a reserved word: quoted
        "price",
        "charge_id",
        "created_at",
        "created_by_id",
    ],
    "ledger_tillclosure": [
        "id",
        "site_id",
        "opened_after",
        "closed_at",
        "closed_by_id",
        "opening_float",
        "cash_expected",
        "cash_counted",
        "float_kept",
        "note",
    ],
}

CLOSED_PERIOD = r"""
CREATE OR REPLACE FUNCTION ledger_entry_refuse_closed_period() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM ledger_tillclosure
        WHERE site_id = NEW.site_id AND closed_at >= NEW.recorded_at
    ) THEN
        RAISE EXCEPTION 'INSERT on ledger_entry refused: the till of site % is closed at %', NEW.site_id, NEW.recorded_at
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER ledger_entry_refuse_closed_period BEFORE INSERT ON ledger_entry
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_refuse_closed_period();
"""

CLOSED_PERIOD_BACKWARD = r"""
DROP TRIGGER IF EXISTS ledger_entry_refuse_closed_period ON ledger_entry;
DROP FUNCTION IF EXISTS ledger_entry_refuse_closed_period();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
    ]

    operations = [
        *(operation for table, columns in COLUMNS.items() for operation in (refuse_delete(table), refuse_update(table, columns))),
        run_on_postgresql(CLOSED_PERIOD, CLOSED_PERIOD_BACKWARD),
    ]
