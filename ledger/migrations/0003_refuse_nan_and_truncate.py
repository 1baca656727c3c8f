"""The ledger's amounts are numbers (PostgreSQL's NaN passes `amount > 0`: an upper bound refuses it),
and its tables are never emptied: TRUNCATE is refused like UPDATE and DELETE (ludotheque/history.py).
The TRUNCATE triggers are hand-written: carry them over when squashing."""

from decimal import Decimal

from django.conf import settings
from django.db import migrations, models

from ludotheque.history import refuse_truncate


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0015_game_search_table_keys"),
        ("ledger", "0002_append_only_guard"),
        ("loans", "0008_count_popularity"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="membership",
            name="ledger_membership_price_not_negative",
        ),
        migrations.RemoveConstraint(
            model_name="tillclosure",
            name="ledger_tillclosure_cash_amounts",
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__lt", Decimal("10000000"))),
                name="ledger_entry_amount_a_number",
                violation_error_message="Le montant doit être un nombre.",
            ),
        ),
        migrations.AddConstraint(
            model_name="membership",
            constraint=models.CheckConstraint(
                condition=models.Q(("price__gte", 0), ("price__lt", Decimal("10000000"))),
                name="ledger_membership_price_not_negative",
                violation_error_message="Le prix ne peut pas être négatif.",
            ),
        ),
        migrations.AddConstraint(
            model_name="tillclosure",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("cash_counted__gte", 0),
                    ("float_kept__gte", 0),
                    ("opening_float__gte", 0),
                    ("float_kept__lte", models.F("cash_counted")),
                    ("cash_counted__lt", Decimal("10000000")),
                    ("opening_float__lt", Decimal("10000000")),
                    ("cash_expected__gt", Decimal("-10000000")),
                    ("cash_expected__lt", Decimal("10000000")),
                ),
                name="ledger_tillclosure_cash_amounts",
                violation_error_message="Les espèces comptées et le fond de caisse sont positifs ; on ne laisse pas plus que ce qu'on a compté.",
            ),
        ),
        *(refuse_truncate(table) for table in ("ledger_entry", "ledger_membership", "ledger_tillclosure")),
    ]
