"""Hand-written: the trigger function `refuse_change()` that history tables attach (PostgreSQL).

See ludotheque/history.py: loans, holds, missing pieces and rules revisions use it in their own
migrations, and any later history table (notices, the money ledger…) attaches it the same way.
"""

from django.db import migrations

from ludotheque.history import refuse_change_function


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0004_barcode_sequence_and_imports")]

    operations = [refuse_change_function()]
