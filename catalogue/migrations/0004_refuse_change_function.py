"""Hand-written: the trigger function `refuse_change()` that history tables attach (PostgreSQL).

See ludotheque/history.py: loans, holds, missing pieces and rules revisions use it in their own
migrations, and any later history table (notices, the money ledger…) attaches it the same way.
"""

from django.db import migrations

from ludotheque.history import refuse_change_function


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0003_search_triggers_and_lexicon")]

    operations = [refuse_change_function()]
