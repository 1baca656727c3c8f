"""The families' foreign keys now name the members app's models: a change of the models' state only,
the columns and their constraints already point at the same tables."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('members', '0001_initial'),
        ('onsite', '0001_onsite_sessions_visits_tables_plays'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='visit',
                    name='member',
                    field=models.ForeignKey(blank=True, help_text='Vide : famille non adhérente.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='onsite_visits', to='members.member', verbose_name='famille adhérente'),
                ),
            ],
            database_operations=[],
        ),
    ]
