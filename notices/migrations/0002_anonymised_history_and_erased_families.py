"""Anonymised notices: a notice's family may be cut (history_anonymise), never changed to another."""

import django.db.models.deletion
from django.db import migrations, models

from ludotheque.history import refuse_update_unless


class Migration(migrations.Migration):

    dependencies = [
        ('loans', '0007_anonymised_history_and_erased_families'),
        ('notices', '0001_initial'),
    ]

    operations = [
        migrations.AlterField(
            model_name='notice',
            name='member',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='notices', to='loans.member', verbose_name='famille'),
        ),
        migrations.AlterField(
            model_name='noticeitem',
            name='member',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='notice_items', to='loans.member', verbose_name='famille'),
        ),
        refuse_update_unless("notices_notice", "member_id", "NEW.member_id IS NULL"),
        refuse_update_unless("notices_noticeitem", "member_id", "NEW.member_id IS NULL"),
    ]
