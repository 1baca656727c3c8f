"""The families' foreign keys now name the members app's models: a change of the models' state only,
the columns and their constraints already point at the same tables."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0001_initial'),
        ('members', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='booking',
                    name='member',
                    field=models.ForeignKey(blank=True, help_text='Vide : personne non adhérente, avec son nom et son contact.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='event_bookings', to='members.member', verbose_name='famille adhérente'),
                ),
            ],
            database_operations=[],
        ),
    ]
