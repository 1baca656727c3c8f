"""The sort by popularity: each game's loans of the last twelve months, written by the daily run.

The search document's trigger now fires only when a column of the document is written (the title, the
summary, or `search_vector` set to NULL by the credits' and tags' triggers): the daily count of loans
writes thousands of games without recomputing their documents. Django's `save()` writes every column,
so every edit through the admin or the import still recomputes it.
"""

from django.db import migrations, models

from ludotheque.db import run_on_postgresql

TRIGGER_ON = """
DROP TRIGGER catalogue_game_search_document ON catalogue_game;
CREATE TRIGGER catalogue_game_search_document
    BEFORE INSERT OR UPDATE OF {columns} ON catalogue_game
    FOR EACH ROW EXECUTE FUNCTION catalogue_game_search_document();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0009_game_box_picture"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="loans_last_year",
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name="prêts sur douze mois"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                models.OrderBy(models.F("loans_last_year"), descending=True),
                models.F("title"),
                models.F("id"),
                name="catalogue_game_popularity_idx",
            ),
        ),
        run_on_postgresql(
            TRIGGER_ON.format(columns="title, summary, search_vector"),
            TRIGGER_ON.format(columns="title, summary, search_vector").replace(
                "UPDATE OF title, summary, search_vector", "UPDATE"
            ),
        ),
    ]
