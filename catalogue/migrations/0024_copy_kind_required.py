# Every copy has a kind (0023 gave them « Jeu »); a new copy gets the default kind.

import catalogue.models.kinds
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalogue', '0023_copies_are_games'),
    ]

    operations = [
        # The database only makes the column NOT NULL: with the callable default in a database
        # operation, Django would call it (today's model, not this migration's) to fill NULL rows.
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterField(
                    model_name='copy',
                    name='kind',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='copies', to='catalogue.itemkind', verbose_name="type d'objet"),
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name='copy',
                    name='kind',
                    field=models.ForeignKey(default=catalogue.models.kinds.default_item_kind, on_delete=django.db.models.deletion.PROTECT, related_name='copies', to='catalogue.itemkind', verbose_name="type d'objet"),
                ),
            ],
        ),
    ]
