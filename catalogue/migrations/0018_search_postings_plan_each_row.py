"""The postings trigger finds a game's postings by their index however small the table was in its first calls.

A plpgsql function plans each of its statements for the values of its first calls, then keeps a
plan made for any value when it costs no more (`plan_cache_mode = auto`), for the rest of the
session. Migration 0017 vacuums the postings: on a new site, empty, and the planner then believes
the table empty. The postings trigger's `DELETE … WHERE game_id = …`, planned while the table is
still small, kept a plan that reads the whole table rather than its index, and used it for every
later game of the session while the table grew: a bulk write in one session (a first import,
`UPDATE catalogue_game SET search_vector = NULL` after a load with the triggers off) took time in
the square of its games — 10,000 games read some 600 million postings (117,000 at the end), and 100,000 games did not
end in 18 minutes. The function now plans its statements for each row (`plan_cache_mode =
force_custom_plan`), on the table's current size: a game's postings are found by their index as
soon as there are more than a few pages of them. Its two statements are simple to plan; the
document's trigger, whose joins cost more to plan than to run, keeps its plans.

Hand-written: carry it over when squashing. Nothing happens on SQLite.
"""

from django.db import migrations

from ludotheque.db import run_on_postgresql


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0017_search_keeps_accented_words"),
    ]

    operations = [
        run_on_postgresql(
            "ALTER FUNCTION catalogue_game_search_postings() SET plan_cache_mode = force_custom_plan;",
            "ALTER FUNCTION catalogue_game_search_postings() RESET plan_cache_mode;",
        ),
    ]
