"""Database helpers shared by the apps' hand-written migrations."""

from django.db import migrations


def run_on_postgresql(forward: str, backward: str | None = None) -> migrations.RunPython:
    """A migration step that runs SQL on PostgreSQL and does nothing elsewhere (a newcomer's SQLite).

    Both directions are plain SQL without parameters (`%` needs no doubling: plpgsql's `%` stay as
    written); no `backward`: nothing to undo. Hand-written: carry it over when squashing.
    """

    def run(sql: str):
        def operation(apps, schema_editor):
            if schema_editor.connection.vendor == "postgresql":
                schema_editor.execute(sql, params=None)

        return operation

    undo = run(backward) if backward is not None else migrations.RunPython.noop
    return migrations.RunPython(run(forward), undo, elidable=False)
