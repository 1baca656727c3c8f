"""Each revision keeps its text rendered (`sections`), so that no view renders it again; a text is at
most REVISION_MAX_LENGTH characters.

The existing revisions are rendered here once, with today's renderer (rules/markup.py). A later
change to the renderer re-renders them the same way, in a migration of its own.
"""

from django.db import migrations, models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual


def render_existing(apps, schema_editor):
    from rules.models import rendered_sections  # the renderer of today, not a historical one

    Revision = apps.get_model("rules", "Revision")
    for revision in Revision.objects.only("pk", "content").iterator():
        Revision.objects.filter(pk=revision.pk).update(sections=rendered_sections(revision.content))


class Migration(migrations.Migration):
    dependencies = [("rules", "0002_declared_tiebreaker_line_on_its_sheet")]

    operations = [
        migrations.AddField(
            model_name="revision",
            name="sections",
            field=models.JSONField(default=list, editable=False, verbose_name="sections rendues"),
            preserve_default=False,
        ),
        migrations.RunPython(render_existing, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="revision",
            constraint=models.CheckConstraint(
                condition=LessThanOrEqual(Length("content"), 100000),
                name="rules_revision_content_max_length",
                violation_error_message="Une version tient en 100 000 caractères au plus.",
            ),
        ),
    ]
