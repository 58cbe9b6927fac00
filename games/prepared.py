"""ORM queries built and compiled once per process, then run again with new values.

An order submission runs a handful of small queries, and building one through the ORM (the
queryset, its filters, the SQL compiler) cost 0.4 to 1 ms of Python each, against 0.1 ms to
send the same SQL and read the answer back. ``Prepared`` keeps what the ORM compiled: the
query is written with the ORM, from the models (so it stays in step with them), compiled the
first time it runs with stand-in values, and afterwards only its parameters change. Rows come
back through the compiler's own converters (JSON, dates), as the ORM would return them.

Only for queries whose shape never changes (the same filters, only the values differ), and
whose stand-in values come through compilation unchanged (plain equality on integers and
strings): ``Prepared`` refuses any other at its first run.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.db import connections
from django.db.backends.utils import CursorWrapper
from django.db.models import (
    DEFERRED,
    AutoField,
    BooleanField,
    CharField,
    Field,
    Model,
    QuerySet,
    TextField,
)
from django.db.models.sql import DeleteQuery

# Distinct from every real value: a negative id that no sequence gives, text with unit
# separators that no token, power or name holds.
STAND_INS = [-7_301_990_000 - n for n in range(8)]
STAND_IN_TEXTS = [f"\x1fstand-in {n}\x1f" for n in range(8)]


@contextlib.contextmanager
def pipelined(using: str = "default") -> Iterator[None]:
    """Statements sent inside (``Prepared.send``, ``PreparedInsert.send``) go to PostgreSQL
    together, as psycopg's pipeline mode sends them, and all their answers have come back
    when the block ends: a transaction's statements cost one round trip between them, not
    one each. Elsewhere (SQLite, or a libpq without pipelines) each statement is answered as
    it is sent.

    Only for statements whose answers are read after the block (``fetch*``): Django's own
    writes read a statement's row count at once, which a pipeline has not yet received."""
    connection = connections[using]
    connection.ensure_connection()
    if connection.vendor != "postgresql" or not _pipelines_supported():
        yield
        return
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


@functools.cache
def _pipelines_supported() -> bool:
    import psycopg

    return psycopg.Pipeline.is_supported()


def _cursor(using: str, owner: object) -> tuple[Any, bool]:
    """A cursor for one compiled statement, and whether it is kept (else it is Django's, to
    close once read). On PostgreSQL, unless Django records or wraps queries (``DEBUG``, the
    tests' query counts, ``CaptureSql``), it is psycopg's own raw cursor, kept on the
    connection for this statement: run again, it reads rows with the loaders it made the first
    time, and Django's cursor wrapper is skipped (both were a fifth of a statement's Python),
    unless a tool watches statements through it (``_cursors_watched``). A raw cursor takes the
    statement with PostgreSQL's own placeholders (``numbered``), so psycopg does not split
    the SQL at every run. Its errors are made Django's by the caller, as Django's cursor
    makes them."""
    connection = connections[using]
    if (
        connection.queries_logged
        or connection.execute_wrappers
        or connection.vendor != "postgresql"
        or _cursors_watched()
    ):
        return connection.cursor(), False
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    connection.validate_no_broken_transaction()
    raw = connection.connection
    kept = getattr(connection, "_kept_cursors", None)
    if kept is None or kept[0] is not raw:  # none yet, or the connection was made anew
        kept = connection._kept_cursors = (raw, {})
    cursor = kept[1].get(owner)
    if cursor is None or cursor.closed:
        import psycopg

        with connection.wrap_database_errors:
            cursor = kept[1][owner] = psycopg.RawCursor(raw)
    return cursor, True


def _cursors_watched() -> bool:
    """Whether a tool watches every statement through Django's cursor (Sentry's SQL spans and
    breadcrumbs replace ``CursorWrapper.execute``): then its cursor is used, so that none of
    the busiest statements goes unseen."""
    execute = CursorWrapper.execute
    return hasattr(execute, "__wrapped__") or execute.__module__ != CursorWrapper.__module__


# Django's placeholders in compiled SQL: a value (%s) or a literal percent sign (%%).
_PLACEHOLDER = re.compile(r"%(.)", re.DOTALL)


def numbered(sql: str) -> bytes:
    """``sql`` with PostgreSQL's placeholders (``$1``, ``$2``...) for Django's (``%s``), as
    a raw cursor takes it: psycopg's own conversion split the text at every run once a
    statement had more than 50 values (a submission of four orders or more)."""
    count = 0

    def place(match: re.Match) -> str:
        nonlocal count
        if match.group(1) == "%":
            return "%"
        if match.group(1) != "s":
            raise ValueError(f"placeholder %{match.group(1)} in compiled SQL: {sql}")
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(place, sql).encode()


def _executed(
    using: str, owner: object, sql: str, params: list, raw_sql: bytes
) -> tuple[Any, bool]:
    """The statement executed (``raw_sql`` on a kept raw cursor, else ``sql``) on its cursor
    (``_cursor``): the cursor, and whether it is kept (else the caller closes it once read)."""
    connection = connections[using]
    cursor, kept = _cursor(using, owner)
    try:
        with connection.wrap_database_errors:
            cursor.execute(raw_sql if kept else sql, params)
    except BaseException:
        if not kept:
            cursor.close()
        raise
    return cursor, kept


def _sent(using: str, owner: object, sql: str, params: list, raw_sql: bytes) -> Callable[[], list]:
    """Execute now (``_executed``); the function returned reads the rows (in a pipeline, once
    they came)."""
    connection = connections[using]
    cursor, kept = _executed(using, owner, sql, params, raw_sql)

    def rows() -> list:
        try:
            with connection.wrap_database_errors:
                return cursor.fetchall()
        finally:
            if not kept:
                cursor.close()

    return rows


class Prepared:
    """A query built by ``build(*values)`` with the ORM, compiled once per process.

    ``kinds`` names each value's type ("int" or "str"); ``build`` receives stand-ins of those
    types and must return a ``values_list`` queryset (``run`` answers its rows, as lists) or,
    with ``delete=True``, the queryset whose rows ``run`` deletes (``delete`` answers the count;
    only for models no other row points at and no signal watches, as the ORM's fast delete).
    """

    def __init__(
        self,
        build: Callable[..., QuerySet],
        kinds: Sequence[str],
        *,
        delete: bool = False,
        using: str = "default",
    ) -> None:
        self.build, self.kinds, self.is_delete, self.using = build, tuple(kinds), delete, using
        self._compiled: tuple | None = None
        self._lock = threading.Lock()

    def _stand_ins(self) -> list:
        return [
            STAND_INS[n] if kind == "int" else STAND_IN_TEXTS[n]
            for n, kind in enumerate(self.kinds)
        ]

    def compile(self) -> tuple:
        """The SQL, where each value goes among its parameters, and the row converters."""
        if self._compiled is not None:
            return self._compiled
        with self._lock:
            if self._compiled is not None:
                return self._compiled
            stand_ins = self._stand_ins()
            queryset = self.build(*stand_ins)
            query = queryset.query.clone()
            if self.is_delete:
                query.__class__ = DeleteQuery
            compiler = query.get_compiler(using=self.using)
            sql, params = compiler.as_sql()
            params = list(params)
            slots = []
            for stand_in in stand_ins:
                found = [
                    n for n, p in enumerate(params) if p == stand_in and type(p) is type(stand_in)
                ]
                if len(found) != 1:
                    raise ValueError(
                        f"stand-in {stand_in!r} is in the SQL {len(found)} times: {sql}"
                    )
                slots.append(found[0])
            converters = None
            if not self.is_delete:
                if queryset._fields is None or len(queryset._fields) != compiler.col_count:
                    raise ValueError("Prepared reads only values_list querysets of plain fields")
                columns = [s[0] for s in compiler.select[: compiler.col_count]]
                converters = list(compiler.get_converters(columns).items())
            self._compiled = (sql, params, slots, converters, numbered(sql))
        return self._compiled

    def _execute(self, values: Sequence) -> Any:
        if len(values) != len(self.kinds):
            raise TypeError(f"{len(self.kinds)} values expected, {len(values)} given")
        sql, params, slots, converters, raw_sql = self.compile()
        params = list(params)
        for slot, value in zip(slots, values, strict=True):
            params[slot] = value
        return sql, params, converters, raw_sql

    def run(self, *values: Any) -> list[list]:
        """The rows for these values, converted as the ORM converts them."""
        return self.send(*values)()

    def send(self, *values: Any) -> Callable[[], list[list]]:
        """Send the query now and read its rows later: in a pipeline (``pipelined``) the
        query waits for the next statement that must be answered, and goes with it. One at a
        time: the statement's cursor is kept, so a second send before the first's rows are
        read replaces them."""
        sql, params, converters, raw_sql = self._execute(values)
        fetch = _sent(self.using, self, sql, params, raw_sql)
        return lambda: self._converted(fetch(), converters)

    def _converted(self, fetched: list, converters: list | None) -> list[list]:
        rows = [list(row) for row in fetched]
        if converters:
            connection = connections[self.using]
            for row in rows:
                for pos, (convs, expression) in converters:
                    value = row[pos]
                    for converter in convs:
                        value = converter(value, expression, connection)
                    row[pos] = value
        return rows

    def delete(self, *values: Any) -> int:
        """Delete the rows these values select; the number deleted (in a pipeline, where the
        answer comes at the end of the block, -1)."""
        sql, params, _converters, raw_sql = self._execute(values)
        cursor, kept = _executed(self.using, self, sql, params, raw_sql)
        try:
            return cursor.rowcount
        finally:
            if not kept:
                cursor.close()


def instance(model: type[Model], names: Sequence[str], values: Sequence, using: str = "default"):
    """A model instance from the named columns' values, as the ORM makes one from a row (the
    other fields deferred, loaded if read)."""
    if len(values) != len(names):
        raise ValueError(f"{len(names)} columns named, {len(values)} values given")
    fields, places = _layout(model, tuple(names))
    row = [DEFERRED if at is None else values[at] for at in places]
    return model.from_db(using, fields, row)  # every column given: no lookup of names


@functools.cache
def _layout(model: type[Model], names: tuple[str, ...]) -> tuple[list[str], list[int | None]]:
    """Every concrete field's name, and where its value is among ``names`` (None: deferred):
    worked out once for each model and columns."""
    fields = [f.attname for f in model._meta.concrete_fields]
    unknown = set(names) - set(fields)
    if unknown:
        raise ValueError(f"not columns of {model.__name__}: {unknown}")
    return fields, [names.index(name) if name in names else None for name in fields]


class PreparedInsert:
    """``bulk_create`` of one model's new rows, with each row count's INSERT compiled once.

    Through ``bulk_create`` the compiler runs for every value of every row (an expression
    check, a placeholder, a parameter list each), which made the INSERT of a power's orders
    the costliest part of saving them. Here the first call of each row count goes through
    ``bulk_create`` itself and its SQL is kept; later calls compute only the values, as the
    compiler does (each field's ``pre_save`` and ``get_db_prep_save``), and set the returned
    primary keys as ``bulk_create`` does. No signals are sent, as ``bulk_create`` sends none.

    Only for rows whose primary key is not set and whose values are plain (no expressions):
    any other row goes through ``bulk_create``.
    """

    def __init__(self, model: type[Model], using: str = "default") -> None:
        self.model, self.using = model, using
        opts = model._meta
        self.fields = [
            f for f in opts.concrete_fields if not f.generated and not isinstance(f, AutoField)
        ]
        self.returning = opts.db_returning_fields
        self._sql: dict[int, tuple[str, bytes]] = {}  # row count -> SQL, and numbered
        self._as_is = [_value_as_is(f) for f in self.fields]

    def create(self, objs: list[Model]) -> list[Model]:
        """Insert the rows; returns them with their primary keys, as ``bulk_create``."""
        return self.send(objs)()

    def send(self, objs: list[Model]) -> Callable[[], list[Model]]:
        """``create``, the INSERT sent now and its keys read when the function returned is
        called: in a pipeline (``pipelined``) it waits for the next statement answered."""
        known = self._sql.get(len(objs))
        if known is None:
            created = self._through_orm(objs)
            return lambda: created
        sql, raw_sql = known
        connection = connections[self.using]
        values = []
        for obj in objs:
            if obj.pk is not None:
                created = self._through_orm(objs)
                return lambda: created
            obj._prepare_related_fields_for_save(operation_name="bulk_create")
            for field, as_is in zip(self.fields, self._as_is, strict=True):
                if as_is is not None:
                    value = getattr(obj, field.attname)
                    if value is None or type(value) is as_is:
                        values.append(value)  # what pre_save and get_db_prep_save give
                        continue
                value = field.pre_save(obj, True)
                if hasattr(value, "resolve_expression"):  # the compiler's work
                    created = self._through_orm(objs)
                    return lambda: created
                values.append(field.get_db_prep_save(value, connection=connection))
        if sql.count("%s") == len(values):  # one placeholder a value
            params: list = values
        else:  # PostgreSQL's UNNEST form: one array a column
            width = len(self.fields)
            params = [values[n::width] for n in range(width)]
        fetch = _sent(self.using, self, sql, params, raw_sql)

        def created() -> list[Model]:
            rows = fetch()
            if len(rows) != len(objs):
                raise RuntimeError(f"{len(objs)} rows inserted, {len(rows)} returned")
            for obj, row in zip(objs, rows, strict=True):
                for value, field in zip(row, self.returning, strict=True):
                    setattr(obj, field.attname, value)
                obj._state.adding = False
                obj._state.db = self.using
            return objs

        return created

    @staticmethod
    def _plain(objs: list[Model], fields: list) -> bool:
        return all(
            obj.pk is None
            and not any(hasattr(getattr(obj, f.attname), "resolve_expression") for f in fields)
            for obj in objs
        )

    def _through_orm(self, objs: list[Model]) -> list[Model]:
        """``bulk_create``, keeping the SQL of a single INSERT of plain rows for their count."""
        if not objs or not self._plain(objs, self.fields):
            return self.model._default_manager.using(self.using).bulk_create(objs)
        with CaptureSql(connections[self.using]) as captured:
            created = self.model._default_manager.using(self.using).bulk_create(objs)
        inserts = [s for s in captured.statements if s.lstrip().upper().startswith("INSERT")]
        if len(inserts) == 1 and "RETURNING" in inserts[0]:
            placeholders = inserts[0].count("%s")
            # A placeholder a value, or (PostgreSQL's UNNEST, two rows or more) one a column.
            unnest = "UNNEST(" in inserts[0] and len(objs) > 1
            if placeholders == (len(self.fields) if unnest else len(objs) * len(self.fields)):
                self._sql[len(objs)] = (inserts[0], numbered(inserts[0]))
        return created


# Django's fields whose value of this type (or None) reaches the database as it is: their
# ``pre_save`` reads the attribute, and ``get_db_prep_save`` gives the same value back (the
# text as text, the boolean as boolean). Those calls cost about 1.4 us a value, for eight of
# an order's fourteen; ``_value_as_is`` checks a field keeps Django's own. (An integer field
# is not here: its ``get_db_prep_value`` asks the database backend to adapt the value.)
_AS_IS = {CharField: str, TextField: str, BooleanField: bool}


def _value_as_is(field: Field) -> type | None:
    """The type whose values (and None) ``field`` saves unchanged, or None if it may change
    any: only Django's own text and boolean fields, none of their saving methods replaced by
    a subclass."""
    base = next((b for b in type(field).__mro__ if b in _AS_IS), None)
    if base is None:
        return None
    own = (
        ("pre_save", Field),
        ("get_db_prep_save", Field),
        ("get_db_prep_value", Field),
        ("get_prep_value", base),
        ("to_python", base),
    )
    if any(getattr(type(field), name) is not getattr(owner, name) for name, owner in own):
        return None
    return _AS_IS[base]


class CaptureSql:
    """The SQL text (with its placeholders, before any value goes in) of the statements run
    on a connection meanwhile, through Django's execute wrappers."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.statements: list[str] = []

    def _wrapper(self, execute: Callable, sql: str, params: Any, many: bool, context: dict) -> Any:
        self.statements.append(sql)
        return execute(sql, params, many, context)

    def __enter__(self) -> CaptureSql:
        self._context = self.connection.execute_wrapper(self._wrapper)
        self._context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._context.__exit__(*exc)
