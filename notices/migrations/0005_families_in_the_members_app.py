"""The families' foreign keys now name the members app's models: a change of the models' state only,
the columns and their constraints already point at the same tables."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('members', '0001_initial'),
        ('notices', '0004_event_bookings'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='notice',
                    name='member',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='notices', to='members.member', verbose_name='famille'),
                ),
                migrations.AlterField(
                    model_name='noticeitem',
                    name='member',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='notice_items', to='members.member', verbose_name='famille'),
                ),
            ],
            database_operations=[],
        ),
    ]
