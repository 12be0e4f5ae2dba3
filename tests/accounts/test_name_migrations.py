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
def migrate() -> Iterator[Callable[..., Apps]]:
    """Migrate the accounts app to a migration (by name; None: the latest, which today's
    models need); answer the models as they were then. Afterwards the database is migrated
    to the latest again, for the other tests."""

    def to(name: str | None = None) -> Apps:
        executor = MigrationExecutor(connection)
        target = [("accounts", name)] if name else executor.loader.graph.leaf_nodes()
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


def test_0011_keys_usernames_and_keeps_accounts_that_already_look_the_same(migrate):
    from accounts.models import User
    from accounts.services import player_named

    apps = migrate("0010_name_keys_without_ignorables")
    old_user = apps.get_model("accounts", "User")
    # Allowed before: one in Latin letters, one in Cyrillic, one with a zero for the o.
    for username in ("ace", "\u0430\u0441\u0435", "b0b", "bob"):
        old_user.objects.create(username=username, email=f"{username.encode().hex()}@x.com")
    old_user.objects.create(
        username="greek", email="greek@x.com", display_name="\u0391\u039a\u0395", name_key="x"
    )

    migrate("0011_user_username_key")
    migrate()  # for today's User model

    keys = dict(User.objects.filter(is_bot=False).values_list("username", "username_key"))
    assert keys == {
        "ace": "ace",  # the older account holds the name
        "\u0430\u0441\u0435": None,  # kept, without a key
        "b0b": "bob",
        "bob": None,
        "greek": "greek",
    }
    assert User.objects.get(username="greek").name_key == "ake"  # display names rekeyed
    # Each is still found by its own username, and still saves its settings.
    cyrillic = player_named("\u0430\u0441\u0435")
    assert cyrillic.username == "\u0430\u0441\u0435"
    assert player_named("ace").username == "ace"
    cyrillic.country = "Bulgaria"
    cyrillic.save()
    cyrillic.refresh_from_db()
    assert (cyrillic.country, cyrillic.username_key) == ("Bulgaria", None)


def test_an_account_kept_without_a_key_gets_one_when_renamed(migrate):
    from accounts.models import User

    apps = migrate("0010_name_keys_without_ignorables")
    old_user = apps.get_model("accounts", "User")
    for username in ("ace", "\u0430\u0441\u0435"):
        old_user.objects.create(username=username, email=f"{username.encode().hex()}@x.com")
    migrate("0011_user_username_key")
    migrate()  # for today's User model
    kept = User.objects.get(username="\u0430\u0441\u0435")

    kept.username = "ace2"
    kept.save()

    kept.refresh_from_db()
    assert kept.username_key == "ace2"
