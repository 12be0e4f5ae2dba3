"""Migration operations the site's migrations share (imported by them: change with care,
an applied migration runs this code again when it is unapplied or a database is built)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.migrations.operations.base import Operation


class DropLikeIndexes(Operation):
    """Drop, by name, ``varchar_pattern_ops`` indexes that Django made beside an indexed or
    unique text column for ``LIKE 'prefix%'`` searches, where the column is only ever
    compared whole (another index on it serves every lookup); unapplied, make them again.

    Django makes them on PostgreSQL only: elsewhere there is nothing to do. It keeps no
    record of them in the migrations' state either, so this changes none.
    """

    reversible = True

    def __init__(self, indexes: Sequence[tuple[str, str, str]]) -> None:
        #: (Django's name for the index, its table, its column) each
        self.indexes = [tuple(index) for index in indexes]

    def deconstruct(self) -> tuple[str, list, dict]:
        return type(self).__qualname__, [self.indexes], {}

    def state_forwards(self, app_label, state) -> None:
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for index, _, _ in self.indexes:
                schema_editor.execute(f'DROP INDEX IF EXISTS "{index}"')

    def database_backwards(self, app_label, schema_editor, from_state, to_state) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for index, table, column in self.indexes:
                schema_editor.execute(
                    f'CREATE INDEX IF NOT EXISTS "{index}"'
                    f' ON "{table}" ("{column}" varchar_pattern_ops)'
                )

    def describe(self) -> str:
        return f"Drop the LIKE indexes {', '.join(index for index, _, _ in self.indexes)}"


class DropForeignKeyIndex(Operation):
    """Drop, by name, the index Django made for the foreign key ``model_name.name``, where
    another index or unique constraint begins with its column and serves every lookup by it
    and every cascade on delete; the field becomes ``db_index=False`` in the migrations'
    state. Unapplied, make the index again.

    With SQL of its own: Django's AlterField would drop the column's foreign key constraint
    and add it again around its DROP INDEX, and adding it checks every row of the table
    while writers wait. ``index`` is Django's name for it, the same on every database (a
    hash of table and column).
    """

    reversible = True

    def __init__(self, model_name: str, name: str, index: str) -> None:
        self.model_name = model_name
        self.name = name
        self.index = index

    def deconstruct(self) -> tuple[str, list, dict]:
        return type(self).__qualname__, [self.model_name, self.name, self.index], {}

    def state_forwards(self, app_label, state) -> None:
        field = state.models[app_label, self.model_name].fields[self.name].clone()
        field.db_index = False
        state.alter_field(app_label, self.model_name, self.name, field, True)

    def database_forwards(self, app_label, schema_editor, from_state, to_state) -> None:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{self.index}"')

    def database_backwards(self, app_label, schema_editor, from_state, to_state) -> None:
        model = to_state.apps.get_model(app_label, self.model_name)
        column = model._meta.get_field(self.name).column
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{self.index}" ON "{model._meta.db_table}" ("{column}")'
        )

    def describe(self) -> str:
        return f"Drop {self.model_name}.{self.name}'s own index {self.index}"
