"""The ledger's history guarded by PostgreSQL itself (hand-written: carry over when squashing).

Whatever writes to the database (the ORM, a shell, a script, psql), PostgreSQL refuses:
- to UPDATE or DELETE a ledger entry, a membership period or a till closure: they are history, a
  mistake is corrected by a new, reversing entry (`ledger_refuse_change`, a reusable trigger function
  that names the table and the operation refused);
- to INSERT an entry dated into a closed till period of its site (`ledger_entry_refuse_closed_period`).

Both raise SQLSTATE 23001 (restrict_violation), which Django reports as an IntegrityError. TRUNCATE
(the owner's bulk reset, used by the test runner between tests) is not guarded. Nothing happens on
SQLite, where the ORM's guard (ledger.models.AppendOnlyQuerySet/AppendOnlyModel) is the only one.
"""

from django.db import migrations

HISTORY_TABLES = ["ledger_entry", "ledger_membership", "ledger_tillclosure"]

FORWARD = r"""
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on %: this history is append-only, record a new row instead', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;

CREATE OR REPLACE FUNCTION ledger_entry_refuse_closed_period() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM ledger_tillclosure
        WHERE site_id = NEW.site_id AND closed_at >= NEW.recorded_at
    ) THEN
        RAISE EXCEPTION 'INSERT on ledger_entry: the till of site % is closed at %', NEW.site_id, NEW.recorded_at
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER ledger_entry_refuse_closed_period BEFORE INSERT ON ledger_entry
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_refuse_closed_period();
""" + "".join(
    f"""
CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
"""
    for table in HISTORY_TABLES
)

BACKWARD = (
    "".join(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};\n" for table in HISTORY_TABLES)
    + r"""
DROP TRIGGER IF EXISTS ledger_entry_refuse_closed_period ON ledger_entry;
DROP FUNCTION IF EXISTS ledger_entry_refuse_closed_period();
DROP FUNCTION IF EXISTS ledger_refuse_change();
"""
)


def run_on_postgresql(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(run_on_postgresql(FORWARD), run_on_postgresql(BACKWARD), elidable=False),
    ]
