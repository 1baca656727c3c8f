"""Anonymised history: a closed loan or hold may lose its family, and nothing else may change it.

PostgreSQL refuses any other change of a loan's or a hold's family (ludotheque/history.py): moving a
loan to another family, or cutting the family of a loan still open or a hold still active.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from ludotheque.history import refuse_update_unless


class Migration(migrations.Migration):

    dependencies = [
        ('catalogue', '0007_copy_replacement_value_component_unit_price'),
        ('loans', '0006_missing_pieces_found_at_a_table'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='member',
            name='erased_at',
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name='effacée le'),
        ),
        migrations.AlterField(
            model_name='hold',
            name='member',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='holds', to='loans.member', verbose_name='famille'),
        ),
        migrations.AlterField(
            model_name='loan',
            name='member',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='loans', to='loans.member', verbose_name='famille'),
        ),
        migrations.AddConstraint(
            model_name='hold',
            constraint=models.CheckConstraint(condition=models.Q(('member__isnull', False), models.Q(('status__in', ['waiting', 'ready']), _negated=True), _connector='OR'), name='loans_hold_active_has_member', violation_error_message="Une réservation en cours est toujours celle d'une famille."),
        ),
        migrations.AddConstraint(
            model_name='loan',
            constraint=models.CheckConstraint(condition=models.Q(('member__isnull', False), ('returned_at__isnull', False), _connector='OR'), name='loans_loan_open_has_member', violation_error_message="Un prêt en cours est toujours celui d'une famille."),
        ),
        refuse_update_unless("loans_loan", "member_id", "NEW.member_id IS NULL AND NEW.returned_at IS NOT NULL"),
        refuse_update_unless(
            "loans_hold", "member_id", "NEW.member_id IS NULL AND NEW.status NOT IN ('waiting', 'ready')"
        ),
    ]
