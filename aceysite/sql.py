"""Statements written by hand for the few the site runs on every turn and every email, and
for the API's read of a match (which a bot polls).

The ORM builds each statement afresh on every call and makes objects of its rows through
several layers: for a turn's statements that is 0.5-2.5 ms of CPU each against about
0.2 ms for the same SQL sent by hand (README, "Where a turn's CPU goes"). The statements
here are the ones a turn cannot do without, written once. Their column lists come from
the models' ``_meta``, so a field added to a model is read with the rest, and their rows
become model instances as the ORM would make them: each value through the same
converters (a JSON column parsed, SQLite's text dates made datetimes), then
``Model.from_db``. Tests (tests/test_hand_written_sql.py) compare every one with its ORM
spelling on the database the suite runs on: PostgreSQL in CI, SQLite by default.

Anything else stays with the ORM.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model
from django.db.models.expressions import Col
from django.db.transaction import TransactionManagementError

type _Converter = Callable[[Any, Col, BaseDatabaseWrapper], Any]


def _database() -> BaseDatabaseWrapper:
    # The connection itself, not django.db.connection, a proxy that looks it up again
    # for every attribute asked of it (a turn asked over a hundred).
    return connections[DEFAULT_DB_ALIAS]


def quoted(name: str) -> str:
    """A table or column name as the database's SQL quotes it."""
    return _database().ops.quote_name(name)


class Table:
    """The columns one model contributes to a hand-written SELECT, under ``alias``.

    ``fields`` names the fields read (all the concrete ones by default, the primary key
    always first); the others are deferred on the instances made, as with ``only()``.
    """

    def __init__(self, model: type[Model], alias: str, fields: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        chosen = [model._meta.get_field(name) for name in fields]
        pk = model._meta.pk
        assert pk is not None
        self.fields: list[Field] = (
            [pk, *(field for field in chosen if field is not pk)]
            if fields
            else list(model._meta.concrete_fields)
        )
        self.attnames = [field.attname for field in self.fields]
        self._converters: dict[str, list[tuple[int, list[_Converter], Col]]] = {}

    def __str__(self) -> str:
        """The table's name and alias, for a FROM or JOIN clause."""
        return f"{quoted(self.model._meta.db_table)} {quoted(self.alias)}"

    def column(self, name: str) -> str:
        """One field's column, qualified by the alias."""
        return f"{quoted(self.alias)}.{quoted(self.model._meta.get_field(name).column)}"

    @property
    def columns(self) -> str:
        """The select list of the fields read."""
        return ", ".join(f"{quoted(self.alias)}.{quoted(field.column)}" for field in self.fields)

    def instance(self, values: Sequence[Any]) -> Model | None:
        """The instance made from this table's part of a row; None if the row had none
        (the primary key NULL: a LEFT JOIN that found nothing)."""
        if values[0] is None:
            return None
        database = _database()
        converted = list(values)
        for index, converters, column in self._converters_for(database):
            value = converted[index]
            for convert in converters:
                value = convert(value, column, database)
            converted[index] = value
        return self.model.from_db(database.alias, self.attnames, converted)

    def _converters_for(
        self, database: BaseDatabaseWrapper
    ) -> list[tuple[int, list[_Converter], Col]]:
        # The ones the ORM's compiler would apply to these columns: the backend's (SQLite
        # hands back dates as text) and the field's own (from_db_value).
        if database.vendor not in self._converters:
            found = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.alias)
                converters = database.ops.get_db_converters(column) + field.get_db_converters(
                    database
                )
                if converters:
                    found.append((index, converters, column))
            self._converters[database.vendor] = found
        return self._converters[database.vendor]


def select_list(tables: Sequence[Table]) -> str:
    """The select list of ``tables``, in order, for :func:`fetch_one`'s rows."""
    return ", ".join(table.columns for table in tables)


def fetch_one(
    tables: Sequence[Table], sql: str, params: Sequence[Any], *, locking: bool = False
) -> list[Model | None]:
    """Run ``sql`` (selecting :func:`select_list` of ``tables``) and make its first row
    into one instance per table (None for a table the row has no part of); an empty
    list if there is no row.

    ``locking`` says that ``sql`` locks the rows it reads (:func:`for_update_of`): as
    the ORM's ``select_for_update()`` does, it is refused outside a transaction, where
    the lock would end with the statement.
    """
    if locking and _database().get_autocommit():
        raise TransactionManagementError("a locking read needs a transaction")
    with _cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return []
    instances = []
    start = 0
    for table in tables:
        end = start + len(table.fields)
        instances.append(table.instance(row[start:end]))
        start = end
    return instances


@contextmanager
def _cursor() -> Iterator[CursorWrapper]:
    """A cursor for one statement here, as ``with _cursor() as cursor``.

    On PostgreSQL, one that sends its parameters apart from the SQL (psycopg's
    server-side binding), so that psycopg prepares a statement the connection runs again
    and again (settings: the connection's ``prepare_threshold``): PostgreSQL then plans
    it once per connection, not on every run (the turn's match lock, five tables joined,
    took longer to plan than to run: 1.3 ms of PostgreSQL's CPU a turn against 0.3 ms
    prepared). The ORM's cursors bind on the client, Django's default, and prepare
    nothing. And one cursor a connection, kept (:class:`_Kept`), not one made and
    closed a statement."""
    database = _database()
    if database.vendor != "postgresql":
        with database.cursor() as cursor:
            yield cursor
        return
    # What database.cursor() checks first: a connection left broken (PostgreSQL
    # restarted) is replaced at a request's first statement, and one thread's connection
    # is not used by another.
    database.close_if_health_check_failed()
    database.ensure_connection()
    database.validate_thread_sharing()
    with database.wrap_database_errors:
        kept = _kept_cursor(database)
    # Wrapped afresh (two attributes): in Django's debug wrapper, which logs each
    # statement, while queries are logged (DEBUG, assertNumQueries), its plain one otherwise.
    yield (
        database.make_debug_cursor(kept) if database.queries_logged else database.make_cursor(kept)
    )


class _Kept(threading.local):
    """This thread's PostgreSQL connection (psycopg's) and its cursor for the statements
    here. Making a cursor through Django and closing it again cost 25-30 us of CPU a
    statement, a fifth of the simplest statement's (135 us, 110 kept); a psycopg cursor runs
    statement after statement, each execute() dropping the last one's rows. Django's
    connections are each a thread's own, and so is this: a cursor is never shared."""

    connection: Any = None
    cursor: Any = None


_kept = _Kept()


def _kept_cursor(database: BaseDatabaseWrapper) -> Any:
    """The kept server-binding cursor of ``database``'s psycopg connection, made if it has
    none (a new connection, or its cursor closed)."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    raw = database.connection
    if _kept.connection is not raw or _kept.cursor.closed:
        # Made as Django makes its own (create_cursor: its timezone for dates, should the
        # connection's differ), of the class that binds on the server. The last
        # connection's cursor goes with it (it holds its connection).
        client_side = raw.cursor_factory
        raw.cursor_factory = ServerBindingCursor
        try:
            _kept.connection, _kept.cursor = raw, database.create_cursor()
        finally:
            raw.cursor_factory = client_side
    return _kept.cursor


def fits_key(model: type[Model], value: int) -> bool:
    """Whether ``value`` fits ``model``'s primary key column. A larger number (an id typed
    into an address) is no row's; the ORM finds none for it, but SQLite refuses it as a
    parameter (OverflowError), so a statement written by hand must not be sent it."""
    pk = model._meta.pk
    assert pk is not None
    low, high = _database().ops.integer_field_range(pk.get_internal_type())
    return (low is None or low <= value) and (high is None or value <= high)


def db_value(model: type[Model], field: str, value: Any) -> Any:
    """``value`` as the database takes it for ``model``'s ``field`` (a date as SQLite's
    text, say): for the parameters of a statement written by hand."""
    return model._meta.get_field(field).get_db_prep_save(value, _database())


def execute(sql: str, params: Sequence[Any]) -> int:
    """Run one statement that returns no rows; the number of rows it changed."""
    with _cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def insert(instances: Sequence[Model]) -> None:
    """Store new ``instances`` of one model in one INSERT, each given the primary key
    the database makes: ``Model.objects.bulk_create(instances)`` for a model whose
    primary key the database makes, and which no signal receiver listens to (neither
    sends any here)."""
    if not instances:
        return
    model = type(instances[0])
    assert all(type(instance) is model for instance in instances)
    database = _database()
    pk, fields, sql = _insert_statement(model, len(instances))
    values = [
        field.get_db_prep_save(field.pre_save(instance, True), database)
        for instance in instances
        for field in fields
    ]
    with _cursor() as cursor:
        cursor.execute(sql, values)
        made = cursor.fetchall()
    for instance, (key,) in zip(instances, made, strict=True):
        setattr(instance, pk.attname, key)
        instance._state.adding = False
        instance._state.db = database.alias


@cache
def _insert_statement(model: type[Model], rows: int) -> tuple[Field, list[Field], str]:
    """:func:`insert`'s primary key, the fields it writes, and its SQL for ``rows`` rows."""
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    fields = [field for field in meta.concrete_fields if field is not pk]
    one_row = f"({', '.join(['%s'] * len(fields))})"
    sql = (
        f"INSERT INTO {quoted(meta.db_table)}"
        f" ({', '.join(quoted(field.column) for field in fields)})"
        f" VALUES {', '.join([one_row] * rows)} RETURNING {quoted(pk.column)}"
    )
    return pk, fields, sql


def table_and_columns(model: type[Model], *fields: str) -> list[str]:
    """``model``'s table and the columns of ``fields``, quoted for SQL, in that order."""
    meta = model._meta
    return [quoted(meta.db_table), *(quoted(meta.get_field(name).column) for name in fields)]


def update(instance: Model) -> None:
    """Write every field of ``instance``, already stored, to its row: ``instance.save()``
    for a model no signal receiver listens to (it sends none); :class:`DatabaseError` if
    the row is gone."""
    database = _database()
    fields = _stored_fields(type(instance))
    values = [field.get_db_prep_save(field.pre_save(instance, False), database) for field in fields]
    sql = _update_sql(type(instance), tuple(field.name for field in fields))
    if execute(sql, [*values, instance.pk]) != 1:
        label = instance._meta.label
        raise DatabaseError(f"{label} {instance.pk} is not stored: nothing was updated")


def update_row(model: type[Model], pk: Any, **values: Any) -> int:
    """``model.objects.filter(pk=pk).update(**values)`` for plain values (no
    expressions): how many rows changed."""
    database = _database()
    prepared = [
        model._meta.get_field(name).get_db_prep_save(value, database)
        for name, value in values.items()
    ]
    return execute(_update_sql(model, tuple(values)), [*prepared, pk])


@cache
def _stored_fields(model: type[Model]) -> list[Field]:
    """The fields :func:`update` writes: all but the primary key."""
    return [field for field in model._meta.concrete_fields if not field.primary_key]


@cache
def _update_sql(model: type[Model], fields: tuple[str, ...]) -> str:
    """An UPDATE of ``fields`` of the row whose primary key is the last parameter."""
    pk = model._meta.pk
    assert pk is not None
    table, *columns = table_and_columns(model, *fields)
    assignments = ", ".join(f"{column} = %s" for column in columns)
    return f"UPDATE {table} SET {assignments} WHERE {quoted(pk.column)} = %s"


def for_update_of(alias: str) -> str:
    """`` FOR UPDATE OF alias`` where the database locks rows (not SQLite, which locks
    the whole database for a write transaction anyway)."""
    features = _database().features
    if not features.has_select_for_update:
        return ""
    if features.has_select_for_update_of:
        return f" FOR UPDATE OF {quoted(alias)}"
    return " FOR UPDATE"
