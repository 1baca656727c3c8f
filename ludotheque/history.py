"""History guarded by the database: migration operations that make PostgreSQL refuse to rewrite it.

Loans, holds, missing pieces and rules revisions are history: Python never deletes them (PROTECT
foreign keys, read-only admins, no delete in the API), and these triggers make sure no other path
does either — a shell, a script, a raw `DELETE`. One trigger function, `refuse_change()`, raises
`restrict_violation` (SQLSTATE 23001, an IntegrityError in Django) naming the operation, the table
and why; each history table attaches it with one of the operations below, in a migration:

    from ludotheque.history import refuse_delete, refuse_update

    operations = [
        refuse_delete("loans_ledgerentry"),                       # rows are never deleted
        refuse_update("loans_ledgerentry", ["amount", "member_id"]),  # nor these columns changed
    ]

Each operation creates (or replaces) the function itself, so it needs no dependency on the migration
that created it first (`catalogue/migrations/0005_refuse_change_function.py`). Row triggers do not
see TRUNCATE; `refuse_truncate()` adds the statement trigger that does, for the money's books. The
test runner's flush and the benchmarks' loaders empty every table between runs: they say so first,
`SET ludotheque.allow_truncate = on` in their session (ALLOW_TRUNCATE), which nothing else does.
SQLite (a newcomer's first run) goes without.
"""

from django.db import migrations

from .db import run_on_postgresql

# The one session setting under which TRUNCATE of a guarded table goes through (tests, benchmarks).
ALLOW_TRUNCATE = "SET ludotheque.allow_truncate = on"

FUNCTION = """
CREATE OR REPLACE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: %', TG_OP, TG_TABLE_NAME, TG_ARGV[0]
        USING ERRCODE = 'restrict_violation',
              HINT = 'History is never deleted nor rewritten (ludotheque/history.py).';
END;
$$;
"""


def refuse_change_function() -> migrations.RunPython:
    """Create the trigger function `refuse_change()` (kept when migrating back: others may use it)."""
    return run_on_postgresql(FUNCTION)


def refuse_delete(table: str) -> migrations.RunPython:
    """Refuse any DELETE of `table`'s rows."""
    trigger = f"{table}_refuse_delete"
    create = (
        f"{FUNCTION} CREATE TRIGGER {trigger} BEFORE DELETE ON {table} FOR EACH ROW "
        f"EXECUTE FUNCTION refuse_change('this table is history, its rows are never deleted');"
    )
    drop = f"DROP TRIGGER IF EXISTS {trigger} ON {table};"
    return run_on_postgresql(create, drop)


def refuse_update(table: str, columns: list[str]) -> migrations.RunPython:
    """Refuse an UPDATE that changes one of `columns` (saving a row unchanged still works)."""
    trigger = f"{table}_refuse_update"
    changed = " OR ".join(f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in columns)
    create = (
        f"{FUNCTION} CREATE TRIGGER {trigger} BEFORE UPDATE OF {', '.join(columns)} ON {table} FOR EACH ROW "
        f"WHEN ({changed}) EXECUTE FUNCTION refuse_change('{', '.join(columns)} of a row of history never change');"
    )
    drop = f"DROP TRIGGER IF EXISTS {trigger} ON {table};"
    return run_on_postgresql(create, drop)


def refuse_update_unless(table: str, column: str, allowed: str) -> migrations.RunPython:
    """Refuse an UPDATE that changes `column` unless the new row satisfies `allowed` (an SQL condition
    on NEW and OLD): the one change a row of history may go through, such as its anonymisation."""
    trigger = f"{table}_refuse_{column}_update"
    create = (
        f"{FUNCTION} CREATE TRIGGER {trigger} BEFORE UPDATE OF {column} ON {table} FOR EACH ROW "
        f"WHEN (OLD.{column} IS DISTINCT FROM NEW.{column} AND NOT ({allowed})) "
        f"EXECUTE FUNCTION refuse_change('{column} of a row of history only ever changes to anonymise it');"
    )
    drop = f"DROP TRIGGER IF EXISTS {trigger} ON {table};"
    return run_on_postgresql(create, drop)


def refuse_truncate(table: str) -> migrations.RunPython:
    """Refuse TRUNCATE of `table` (also reached by a TRUNCATE … CASCADE of a table it refers to),
    unless the session set ALLOW_TRUNCATE."""
    trigger = f"{table}_refuse_truncate"
    create = (
        f"{FUNCTION} CREATE TRIGGER {trigger} BEFORE TRUNCATE ON {table} FOR EACH STATEMENT "
        "WHEN (coalesce(current_setting('ludotheque.allow_truncate', true), '') <> 'on') "
        "EXECUTE FUNCTION refuse_change('this table is history, it is never emptied');"
    )
    drop = f"DROP TRIGGER IF EXISTS {trigger} ON {table};"
    return run_on_postgresql(create, drop)
