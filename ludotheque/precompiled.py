"""Querysets whose SQL Django compiles once per database connection, then runs with other values.

Compiling a queryset to SQL is pure Python, and for the catalogue's busiest reads it costs more than
PostgreSQL takes to answer them: a game's notice (six JSON lists and the copies' availability, ~2.5 ms
of compiling for ~3 ms of SQL), a copy by its barcode, the rows of a result page (six correlated
subqueries per game), the desk's locking reads. Their SQL is the same for every request; only a value
or two change. What the SQL holds is fixed at the first use: a value that changes (a date, a label in
the reader's language) must be a placeholder, or the queryset is not for this.

`Precompiled(build, *placeholders)` calls `build(*placeholders)` once per connection, compiles the
queryset it returns, and finds each placeholder among the SQL's parameters. `.queryset(*values)` then
gives a copy of that queryset which runs the same SQL with `values` in their place: Django's own
iterables turn its rows into the same objects (select_related, converters, annotations, and custom
iterables such as the notice's). Such a copy runs as it is: a filter, an order or a slice added to it
would not reach the compiled SQL, so it refuses them (TypeError); and, as Django does, a lock
(`select_for_update()`) outside a transaction. `.get(*values)` gives the one object, as QuerySet.get().

This reuses Django's compiler after `as_sql()` (its `select`, `klass_info` and `annotation_col_map`,
which ModelIterable reads), not a documented API: `tests/test_precompiled.py` compares its results
with the ordinary queryset's, so that a Django upgrade that changes this breaks a test, not a page.
"""

from __future__ import annotations

import copy
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

    def __init__(self, queryset: QuerySet, placeholders: tuple):
        self.queryset = queryset
        self.compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql, params = self.compiler.as_sql()
        self.params = list(params)
        self.slots = []
        for placeholder in placeholders:
            slots = [index for index, param in enumerate(self.params) if param == placeholder]
            if len(slots) != 1:
                raise ValueError(f"{placeholder!r} is {len(slots)} times among the parameters, not once.")
            self.slots.append(slots[0])

    def params_with(self, values: tuple) -> list:
        params = list(self.params)
        for slot, value in zip(self.slots, values, strict=True):
            params[slot] = value
        return params


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

    def __init__(self, build: Callable[..., QuerySet], *placeholders: Any, using: str = DEFAULT_DB_ALIAS):
        self.build = build
        self.placeholders = placeholders
        self.using = using
        # Per connection: a compiler holds its connection, and Django gives each thread its own.
        self._compiled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def compiled(self) -> _Compiled:
        connection = connections[self.using]
        if connection not in self._compiled:
            template = self.build(*self.placeholders).using(self.using)
            self._compiled[connection] = _Compiled(template, self.placeholders)
        return self._compiled[connection]

    def queryset(self, *values: Any, prefix: tuple[str, Sequence] = ("", ())) -> QuerySet:
        """The queryset with `values` in place of the placeholders; `prefix`, SQL and its parameters
        written before the compiled SQL (a `WITH` clause that it reads)."""
        compiled = self.compiled()
        queryset = compiled.queryset._chain()  # its query is a copy, ours to change
        query = queryset.query
        query.__class__ = CompiledQuery
        query.compiled = compiled
        query.sql = prefix[0] + compiled.sql
        query.params = [*prefix[1], *compiled.params_with(values)]
        return queryset

    def get(self, *values: Any) -> Any:
        """The one object the queryset finds with `values`, as QuerySet.get() gives it."""
        found = list(self.queryset(*values))
        if len(found) == 1:
            return found[0]
        model = self.compiled().queryset.model
        if not found:
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        raise model.MultipleObjectsReturned(f"get() returned more than one {model._meta.object_name}.")
