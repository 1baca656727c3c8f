"""Hand-written: PostgreSQL refuses two active date bookings of one copy whose dates overlap, and any
deletion of a date booking (history).

The exclusion constraint compares the copy with `=` and the days booked (both ends included) with `&&`
in one GiST index, which needs `btree_gist` for the integer column (a trusted extension: the database
owner may create it). Only bookings still to hand out take part: a booking handed out holds its copy
through its open loan, a cancelled one holds nothing. SQLite (a newcomer's first run) goes without: the
services' check under the copy's row lock (loans/bookings.py) is then the only guard.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql
from ludotheque.history import refuse_delete

EXCLUDE = """
CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE loans_datebooking ADD CONSTRAINT loans_datebooking_no_overlap
    EXCLUDE USING gist (copy_id WITH =, daterange(starts_on, ends_on, '[]') WITH &&)
    WHERE (status = 'booked');
"""


class Migration(migrations.Migration):
    dependencies = [("loans", "0011_date_bookings")]

    operations = [
        run_on_postgresql(
            EXCLUDE, "ALTER TABLE loans_datebooking DROP CONSTRAINT IF EXISTS loans_datebooking_no_overlap;"
        ),
        refuse_delete("loans_datebooking"),
    ]
