"""Prepared reads: querysets whose SQL Django compiles once per database connection and PostgreSQL
prepares once per session, then runs with other values. The one place the site does this.

Compiling a queryset to SQL is pure Python, and for a few of the busiest reads it costs more than
PostgreSQL takes to answer them: a game's notice (six JSON lists and its copies' availability), a
result page's rows (six correlated subqueries per game), a copy by its barcode. Their SQL is the same
for every request; only a value or two change. `bench/prepared.py` measures what each one saves
against its plain queryset; the reads that saved little are plain querysets at their call sites.

`PreparedRead(build, *placeholders)` calls `build(*placeholders)` once per connection, compiles the
queryset it returns, and finds each placeholder among the SQL's parameters. `.queryset(*values)` then
gives a copy of that queryset which runs the same SQL with `values` in their place: Django's own
iterables turn its rows into the same objects (select_related, converters, annotations, custom
iterables). What the SQL holds is fixed at the first use: a value that changes (a date, a label in the
reader's language) must be a placeholder. Such a copy runs as it is: a filter, an order or a slice
added to it would not reach the compiled SQL, so it refuses them (TypeError); and, as Django does, a
lock (`select_for_update()`) outside a transaction. `.get(*values)` gives the one object.

On PostgreSQL the SQL is prepared once per session (`PREPARE`) and each request sends
`EXECUTE name(values)`: PostgreSQL plans it once too (after five runs it keeps a generic plan when it
costs no more than the custom ones; these reads find rows by a key). The placeholders become the
statement's parameters; every other value is written into it as the literal psycopg's client-side
binding sends anyway. `PREPARE` goes through the psycopg connection itself: set-up for the session,
like its options, not a query of the request. A statement lives as long as its session (it outlives a
rolled-back transaction); a new connection prepares it again.

**The setting.** `PREPARED_READS` (environment `PREPARED_READS`, default on) turns this off: then
`.queryset(*values)` is the plain queryset `build(*values)` (or `plain(*values)` where the prepared
SQL needs a prefix), compiled by Django per request and sent with client-side binding, as every other
query of the site. A pooler in transaction mode (PgBouncer's `pool_mode = transaction`) needs it off:
it would hand an `EXECUTE` to a session where the statement was never prepared (docs/operations.md).
On SQLite (a newcomer's first run) the plain queryset is used whatever the setting.

**The adapter.** Django has no public API to run a compiled queryset again with other values: this
module reuses the compiler after `as_sql()` (its `select`, `klass_info` and `annotation_col_map`, which
ModelIterable reads) and swaps its `as_sql`. That is the only use of Django's internals here, in
`_Compiled` and `CompiledQuery`; `tests/test_prepared.py` compares every prepared read's results with
its plain queryset's and checks the internals it relies on, so that a Django upgrade that changes them
breaks a test, not a page.
"""

from __future__ import annotations

import copy
import itertools
import re
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
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
# Names of prepared statements, one per PreparedRead in this process.
_NAMES = (f"prepared_{number}" for number in itertools.count(1))
# Every PreparedRead of the process, by its label (bench/prepared.py times each).
READS: dict[str, PreparedRead] = {}


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
        raise TypeError("A prepared queryset runs as it is: filter, order or slice it in `build`.")


def enabled(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether reads are prepared on this database: PostgreSQL, and the setting PREPARED_READS on."""
    return settings.PREPARED_READS and connections[using].vendor == "postgresql"


class PreparedRead:
    """A queryset built by `build(*values)`, compiled once per database connection (see the module)."""

    def __init__(
        self,
        label: str,
        build: Callable[..., QuerySet],
        *placeholders: Any,
        prefix: tuple[str, Sequence] = ("", ()),
        plain: Callable[..., QuerySet] | None = None,
        using: str = DEFAULT_DB_ALIAS,
    ):
        """`label`: what it reads, for the benchmark. `prefix`: SQL and its parameters written before
        the queryset's (a `WITH` clause that it reads); a placeholder may be one of those parameters.
        `plain(*values)`: the same rows without the prefix, when prepared reads are off (default:
        `build`)."""
        if label in READS:
            raise ValueError(f"A prepared read is already labelled {label!r}.")
        READS[label] = self
        self.label = label
        self.build = build
        self.plain = plain or build
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
        if not enabled(self.using):  # off, or SQLite (a newcomer's first run): the plain queryset
            return self.plain(*values).using(self.using)
        connection = connections[self.using]
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
