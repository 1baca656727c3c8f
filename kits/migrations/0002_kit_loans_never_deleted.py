"""Hand-written: PostgreSQL refuses to delete a kit's loans and the copies that went out with it
(ludotheque/history.py); they are history, as the copies' own loans are."""

from django.db import migrations

from ludotheque.history import refuse_delete


class Migration(migrations.Migration):
    dependencies = [("kits", "0001_kits"), ("catalogue", "0005_refuse_change_function")]

    operations = [
        refuse_delete("kits_kitloan"),
        refuse_delete("kits_kitloancopy"),
    ]
