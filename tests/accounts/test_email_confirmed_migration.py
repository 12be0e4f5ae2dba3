"""Migration 0012, run on accounts written before it: every address then held counts as
confirmed since its account joined, so that no player already playing loses their game
emails when confirmation comes in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

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


def test_it_counts_every_address_held_before_it_as_confirmed_since_its_account_joined(migrate):
    apps = migrate("0011_user_username_key")
    old_user = apps.get_model("accounts", "User")
    joined = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
    old_user.objects.create(username="olga", email="olga@example.com", date_joined=joined)
    # A closed account's address is erased; a bot never had one.
    old_user.objects.create(username="gone", email="", date_joined=joined)
    old_user.objects.create(username="robot", email="", date_joined=joined, is_bot=True)

    apps = migrate("0012_user_email_confirmed_at")

    confirmed = dict(
        apps.get_model("accounts", "User")
        .objects.filter(username__in=["olga", "gone", "robot"])
        .values_list("username", "email_confirmed_at")
    )
    assert confirmed == {"olga": joined, "gone": None, "robot": None}
