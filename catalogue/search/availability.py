"""« Disponible » in a search: whether a game has a copy a family can take home now, as a scalar
subquery compiled once per process.
"""

import functools

from django.db import models
from django.db.models import (
    F,
)
from django.db.models.expressions import RawSQL


class AvailableCopy(models.Expression):
    """The id of a copy of the game a family can take home now, at `location`, for a table of `players`
    (NULL when none): `CopyQuerySet.available()` as a scalar subquery correlated on the game's id.

    Its SQL is compiled once per process, connection and value (_available_copy_sql()): built, resolved
    and compiled as a Django subquery each time, the conditions of an available copy (its exclusions by
    every registration that takes a copy away) cost a search with `disponible=oui`, compiled twice
    (the count and the page's ids), more Python than the SQL of most searches takes.
    """

    output_field = models.BigIntegerField()

    def __init__(self, location: int | None, players: int | None):
        super().__init__()
        self.location, self.players = location, players
        self.game = F("pk")

    def get_source_expressions(self):
        return [self.game]

    def set_source_expressions(self, exprs):
        (self.game,) = exprs

    def as_sql(self, compiler, connection):
        game_sql, game_params = compiler.compile(self.game)
        sql, params = self.sql_for(connection.alias, game_sql)
        return sql, [*params, *game_params]

    def sql_for(self, alias: str, game_sql: str) -> tuple[str, list]:
        """The subquery's SQL and parameters on database `alias`, for the game id `game_sql`."""
        before, params, after = _available_copy_sql(alias, self.location, self.players)
        return f"({before}{game_sql}{after})", params


# Where the game's id goes in _available_copy_sql(): a raw SQL text no compiled query holds otherwise.
GAME_ID_MARK = "/* the game's id */ NULL"


@functools.lru_cache(maxsize=1024)
def _available_copy_sql(alias: str, location: int | None, players: int | None) -> tuple[str, list, str]:
    """AvailableCopy's SQL before the game's id, its parameters, and its SQL after it. A table size that
    `available()` ignores (it reads 1 to MAX_TABLE) only takes one more entry."""
    from ..models import Copy

    copies = Copy.objects.available(players)
    if location is not None:
        copies = copies.filter(location=location)
    copies = copies.filter(game=RawSQL(GAME_ID_MARK, ())).order_by().values("pk")[:1]
    sql, params = copies.query.get_compiler(using=alias).as_sql()
    before, after = sql.split(GAME_ID_MARK)
    # The game's id comes last in the WHERE clause, before LIMIT 1: every parameter is before it.
    assert "%s" not in after, after
    return before, list(params), after
