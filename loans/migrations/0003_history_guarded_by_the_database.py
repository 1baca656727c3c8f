"""Hand-written: PostgreSQL refuses to delete loans, holds and missing pieces (ludotheque/history.py).

Updates stay possible: a loan is returned and renewed, a hold changes status, a missing piece is
found, and old loans will lose their family link when they are anonymised.
"""

from django.db import migrations

from ludotheque.history import refuse_delete


class Migration(migrations.Migration):
    dependencies = [("loans", "0002_membership_notice_delays_member_language_calendar_token"), ("catalogue", "0005_refuse_change_function")]

    operations = [
        refuse_delete("loans_loan"),
        refuse_delete("loans_hold"),
        refuse_delete("loans_missingpiece"),
    ]
