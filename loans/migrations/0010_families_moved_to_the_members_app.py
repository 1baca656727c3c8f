"""The families leave the loans app for the members app: a change of the models' state only.

The tables, their constraints and the history guards stay as they are (members/migrations/0001_initial.py).
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0002_families_in_the_members_app'),
        ('onsite', '0002_families_in_the_members_app'),
        ('notices', '0005_families_in_the_members_app'),
        ('ledger', '0006_families_in_the_members_app'),
        ('loans', '0009_membershiptype_public'),
        ('members', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(
                    model_name='householdmember',
                    name='loans_householdmember_birth_year_plausible',
                ),
                migrations.RemoveConstraint(
                    model_name='member',
                    name='loans_member_unique_card_barcode',
                ),
                migrations.RemoveConstraint(
                    model_name='member',
                    name='loans_member_membership_start_lte_expiry',
                ),
                migrations.RemoveConstraint(
                    model_name='member',
                    name='loans_member_unique_calendar_token',
                ),
                migrations.AlterField(
                    model_name='hold',
                    name='member',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='holds', to='members.member', verbose_name='famille'),
                ),
                migrations.AlterField(
                    model_name='loan',
                    name='member',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='loans', to='members.member', verbose_name='famille'),
                ),
                migrations.RemoveConstraint(
                    model_name='membershiptype',
                    name='loans_membershiptype_duration_positive',
                ),
                migrations.RemoveConstraint(
                    model_name='membershiptype',
                    name='loans_membershiptype_quota_positive',
                ),
                migrations.RemoveConstraint(
                    model_name='membershiptype',
                    name='loans_membershiptype_period_positive',
                ),
                migrations.RemoveConstraint(
                    model_name='membershiptype',
                    name='loans_membershiptype_price_not_negative',
                ),
                migrations.RemoveConstraint(
                    model_name='membershiptype',
                    name='loans_membershiptype_overdue_levels_in_order',
                ),
                migrations.RemoveConstraint(
                    model_name='membershiptype',
                    name='loans_membershiptype_overdue_level3_after_level2',
                ),
                migrations.RemoveConstraint(
                    model_name='membershiptype',
                    name='loans_membershiptype_fees_not_negative',
                ),
                migrations.RemoveField(
                    model_name='member',
                    name='membership_type',
                ),
                migrations.RemoveField(
                    model_name='member',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='HouseholdMember',
                ),
                migrations.DeleteModel(
                    name='MembershipType',
                ),
                migrations.DeleteModel(
                    name='Member',
                ),
            ],
            database_operations=[],
        ),
    ]
