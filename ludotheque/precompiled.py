"""Querysets whose SQL Django compiles once per database connection, then runs with other values.

Compiling a queryset to SQL is pure Python, and for the catalogue's busiest reads it costs more than
PostgreSQL takes to answer them: a game's notice (six JSON lists and the copies' availability, ~2.5 ms
of compiling for ~3 ms of SQL), a copy by its barcode, the rows of a result page (six correlated
subqueries per game), the desk's reads, the API's token. Their SQL is the same for every request;
only a value or two change. What the SQL holds is fixed at the first use: a value that changes (a
date, a label in the reader's language) must be a placeholder, or the queryset is not for this.

`Precompiled(build, *placeholders)` calls `build(*placeholders)` once per connection, compiles the
queryset it returns, and finds each placeholder among the SQL's parameters. `.queryset(*values)` then
gives a copy of that queryset which runs the same SQL with `values` in their place: Django's own
iterables turn its rows into the same objects (select_related, converters, annotations, and custom
iterables such as the notice's). Such a copy runs as it is: a filter, an order or a slice added to it
would not reach the compiled SQL, so it refuses them (TypeError); and, as Django does, a lock
(`select_for_update()`) outside a transaction. `.get(*values)` gives the one object, as QuerySet.get().

On PostgreSQL the SQL is also prepared once per database session (`PREPARE`), and each request sends
`EXECUTE name(values)`: PostgreSQL then plans it once too. Planning the notice's query, with its
correlated subqueries, took ~3 ms where running it takes ~0.5 ms. The placeholders become the
statement's parameters and every other value is written into it as the literal that psycopg's
client-side binding sends anyway. After five runs PostgreSQL keeps a generic plan when it costs no
more than the plans made for each value (`plan_cache_mode = auto`): these statements find rows by a
key, a plan that does not depend on the value. The other queries of the site are not prepared: a
search's best plan depends on its values. `PREPARE` is sent on the psycopg connection itself, not
through Django's cursor: it is set-up for the session, like its options, and not a query of the
request. A prepared statement lives as long as its session (it outlives a rolled-back transaction):
when Django opens a new connection, the statement is prepared again. A pooler in transaction mode
would break this (see docs/operations.md, Production).

On SQLite (a newcomer's first run) `.queryset(*values)` is simply `build(*values)`, which refuses
nothing: a placeholder reaches SQLite's parameters converted (a date as text), and speed is not the
point there. The tests run on PostgreSQL.

This reuses Django's compiler after `as_sql()` (its `select`, `klass_info` and `annotation_col_map`,
which ModelIterable reads), not a documented API: `tests/test_precompiled.py` compares its results
with the ordinary queryset's, so that a Django upgrade that changes this breaks a test, not a page.
"""

from __future__ import annotations

import copy
import itertools
import re
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.sql import Query
from django.db.transaction import TransactionManagementError

# A placeholder for an id: no row has it.
UNUSED_ID = -8_675_309


class _Compiled:
    """A queryset compiled on one connection: its compiler (after `as_sql()`), SQL and parameters."""

    def __init__(self, queryset: QuerySet, placeholders: tuple, prefix: tuple[str, Sequence], name: str):
        self.queryset = queryset
        self.compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = self.compiler.as_sql()
        self.sql = prefix[0] + sql
        self.params = [*prefix[1], *params]
        self.slots = []
        for placeholder in placeholders:
            slots = [index for index, param in enumerate(self.params) if param == placeholder]
            if len(slots) != 1:
                raise ValueError(f"{placeholder!r} is {len(slots)} times among the parameters, not once.")
            self.slots.append(slots[0])
        self.name = name
        self.prepared_on: weakref.WeakSet = weakref.WeakSet()  # the psycopg connections that have it

    def prepare(self, connection) -> str:
        """PREPARE the statement on `connection`'s session, if not yet done; return how to EXECUTE it."""
        connection.ensure_connection()
        session = connection.connection
        if session not in self.prepared_on:
            numbers = {slot: number for number, slot in enumerate(self.slots, start=1)}
            params = iter(enumerate(self.params))

            def param(match: re.Match) -> str:
                if match.group() == "%%":
                    return "%"
                index, value = next(params)
                return f"${numbers[index]}" if index in numbers else connection.ops.compose_sql("%s", [value])

            # As Django's cursor does: a database error (a timeout, say) is raised as Django's own.
            with connection.wrap_database_errors:
                session.execute(f"PREPARE {self.name} AS {_PARAM.sub(param, self.sql)}")
            self.prepared_on.add(session)
        arguments = ", ".join(["%s"] * len(self.slots))
        return f"EXECUTE {self.name}({arguments})" if arguments else f"EXECUTE {self.name}"


# A parameter of Django's SQL, or a percent sign written twice.
_PARAM = re.compile("%[s%]")
# Names of prepared statements, one per Precompiled in this process.
_NAMES = (f"precompiled_{number}" for number in itertools.count(1))


class CompiledQuery(Query):
    """A query whose SQL is already compiled: each compiler it gives returns that SQL with its values."""

    compiled: _Compiled
    sql: str
    params: list

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        compiler = copy.copy(self.compiled.compiler)  # shares select, klass_info: only read
        if self.select_for_update and compiler.connection.get_autocommit():
            # As Django's compiler says it: outside a transaction the lock would be let go at once.
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        sql, params = self.sql, self.params
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        return compiler

    def chain(self, klass=None):
        raise TypeError("A precompiled queryset runs as it is: filter, order or slice it in `build`.")


class Precompiled:
    """A queryset built by `build(*values)`, compiled once per database connection (see the module)."""

    def __init__(
        self,
        build: Callable[..., QuerySet],
        *placeholders: Any,
        prefix: tuple[str, Sequence] = ("", ()),
        using: str = DEFAULT_DB_ALIAS,
    ):
        """`prefix`: SQL and its parameters written before the queryset's (a `WITH` clause that it
        reads); a placeholder may be one of those parameters."""
        self.build = build
        self.placeholders = placeholders
        self.prefix = prefix
        self.using = using
        self.name = next(_NAMES)
        # Per connection: a compiler holds its connection, and Django gives each thread its own.
        self._compiled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def compiled(self) -> _Compiled:
        connection = connections[self.using]
        if connection not in self._compiled:
            template = self.build(*self.placeholders).using(self.using)
            self._compiled[connection] = _Compiled(template, self.placeholders, self.prefix, self.name)
        return self._compiled[connection]

    def queryset(self, *values: Any) -> QuerySet:
        """The queryset with `values` in place of the placeholders."""
        connection = connections[self.using]
        if connection.vendor != "postgresql":  # SQLite, a newcomer's first run: the queryset itself
            return self.build(*values).using(self.using)
        compiled = self.compiled()
        queryset = compiled.queryset._chain()  # its query is a copy, ours to change
        query = queryset.query
        query.__class__ = CompiledQuery
        query.compiled = compiled
        query.sql, query.params = compiled.prepare(connection), list(values)
        return queryset

    def get(self, *values: Any) -> Any:
        """The one object the queryset finds with `values`, as QuerySet.get() gives it."""
        queryset = self.queryset(*values)
        found = list(queryset)
        if len(found) == 1:
            return found[0]
        model = queryset.model
        if not found:
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        raise model.MultipleObjectsReturned(f"get() returned more than one {model._meta.object_name}.")
