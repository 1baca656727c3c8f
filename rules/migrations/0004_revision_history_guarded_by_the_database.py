"""Hand-written: PostgreSQL refuses to delete a revision, or to change its text, page or number
(ludotheque/history.py). Its rendering (`sections`) may be redone; its author link goes when the
account is deleted (the name stays).
"""

from django.db import migrations

from ludotheque.history import refuse_delete, refuse_update


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0003_revision_rendered_sections_and_length"),
        ("catalogue", "0005_refuse_change_function"),
    ]

    operations = [
        refuse_delete("rules_revision"),
        refuse_update("rules_revision", ["content", "page_id", "number"]),
    ]
