"""The accounts' data migrations for names, run on rows written before them: each test
migrates back, writes rows as the older schema held them, migrates forward and reads what
the migration made."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def migrate() -> Iterator[Callable[[str], Apps]]:
    """Migrate the accounts app to a migration (by name); answer the models as they were
    then. Afterwards the database is migrated to the latest again, for the other tests."""

    def to(name: str) -> Apps:
        target = [("accounts", name)]
        executor = MigrationExecutor(connection)
        executor.migrate(target)
        return executor.loader.project_state(target).apps

    yield to
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_0010_tidies_and_keys_display_names_saved_with_characters_that_do_not_show(migrate):
    apps = migrate("0009_email_undo")
    old_user = apps.get_model("accounts", "User")
    # As the settings form saved them before: only format characters dropped.
    rows = {
        "heidi2": ("heidi\u034f", "heidi\u034f"),
        "blank": ("\u3164", "\u3164"),
        "braille": ("Club\u2800bot", "club\u2800bot"),
        "plain": ("Alice A.", "alice a."),
    }
    for username, (display_name, name_key) in rows.items():
        old_user.objects.create(
            username=username,
            email=f"{username}@example.com",
            display_name=display_name,
            name_key=name_key,
        )

    apps = migrate("0010_name_keys_without_ignorables")

    names = apps.get_model("accounts", "User").objects.filter(username__in=rows)
    assert {u.username: (u.display_name, u.name_key) for u in names} == {
        "heidi2": ("heidi", "heidi"),
        "blank": ("", ""),
        "braille": ("Club bot", "club bot"),
        "plain": ("Alice A.", "alice a."),
    }
