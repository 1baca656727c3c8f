"""A game's « table keys »: its numbers of players, ages, times, category and tags as numbers, in
the text's index beside its search document (migration 0015), so that a text search with a table's
criteria reads only the games that pass them.
"""

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import (
    F,
)


class TagIds(models.Expression):
    """`catalogue_game.tag_ids`: a database-only column (no model field), under the query's own alias
    (or the alias it is relabelled to, like a column: see posting_conditions())."""

    output_field = ArrayField(models.BigIntegerField())
    alias = None

    def resolve_expression(self, query=None, *args, **kwargs):
        resolved = super().resolve_expression(query, *args, **kwargs)
        if query is not None and resolved.alias is None:  # a lookup resolves its side again to compile it
            resolved.alias = query.get_initial_alias()
        return resolved

    def relabeled_clone(self, change_map):
        clone = self.copy()
        clone.alias = change_map.get(self.alias, self.alias)
        return clone

    def as_sql(self, compiler, connection):
        alias = self.alias or compiler.query.get_initial_alias()
        return f"{compiler.quote_name(alias)}.{connection.ops.quote_name('tag_ids')}", []


class TableKeys(models.Func):
    """`catalogue_table_keys()` of the game's row (migration 0015): the game's « table keys », each a
    condition of a table's search it meets, in the text's index beside its search document (see
    table_keys()). The SQL must be the index's expression, argument for argument."""

    function = "catalogue_table_keys"
    output_field = ArrayField(models.BigIntegerField())

    def __init__(self):
        columns = ("players_min", "players_max", "age_min", "age_max", "duration_minutes", "category_id")
        super().__init__(*map(F, columns), TagIds())


# What a game's table keys hold (migration 0015's catalogue_table_keys(), which must agree): its
# numbers of players up to TABLE_KEYS_PLAYERS, its ages up to TABLE_KEYS_AGE, the steps of this ladder of
# times it fits in, its category and its tags.
TABLE_KEYS_PLAYERS = 12
TABLE_KEYS_AGE = 18
TABLE_KEYS_MINUTES = (5, 10, 15, 20, 25, 30, 40, 45, 60, 75, 90, 120, 180, 240)


def table_keys(
    *, players=(), youngest=(), minutes: int | None = None, category: int | None = None, tags=()
) -> list[int]:
    """The table keys every game of a table's search carries: for each number of `players` and each
    `youngest` age its games must admit, the time they must fit in (`minutes`), their `category` id and
    `tags` ids. A game that passes those criteria carries them all; one that carries them all may still
    miss a criterion the keys round up (a time between two steps of the ladder, more than 12 players,
    someone older than 18), which the search checks on the game itself as before."""
    keys = list(tags)
    keys += [-100 - count for count in players if 1 <= count <= TABLE_KEYS_PLAYERS]
    keys += [-200 - age for age in youngest if 0 <= age <= TABLE_KEYS_AGE]
    if minutes is not None:
        keys += [-1000 - step for step in TABLE_KEYS_MINUTES if step >= minutes][:1]
    if category is not None:
        keys += category_keys([category])
    return sorted(set(keys))


def category_keys(categories) -> list[int]:
    """The table keys of these category ids: a game of one of them carries one of these keys."""
    return [-1_000_000_000 - category for category in categories]
