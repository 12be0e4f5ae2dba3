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
