"""The families' foreign keys now name the members app's models: a change of the models' state only,
the columns and their constraints already point at the same tables."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0005_till_closure_reversal'),
        ('members', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='entry',
                    name='member',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ledger_entries', to='members.member', verbose_name='famille'),
                ),
                migrations.AlterField(
                    model_name='membership',
                    name='member',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='memberships', to='members.member', verbose_name='famille'),
                ),
                migrations.AlterField(
                    model_name='membership',
                    name='membership_type',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='memberships', to='members.membershiptype', verbose_name="type d'adhésion"),
                ),
            ],
            database_operations=[],
        ),
    ]
