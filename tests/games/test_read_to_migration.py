"""Migration 0014 adds the players' read markers and counts the messages already written
as read, so that nobody's dashboard fills with old messages marked new."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0013_match_message_count")]
AFTER = [("games", "0014_match_read_to")]


@pytest.mark.django_db(transaction=True)
def test_messages_written_before_the_markers_count_as_read(django_user_model):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    match_model = apps.get_model("games", "Match")
    message_model = apps.get_model("games", "Message")
    # Accounts are not migrated back: today's model writes them.
    alice = django_user_model.objects.create_user("alice", "a@example.com").pk
    bob = django_user_model.objects.create_user("bob", "b@example.com").pk
    talked = match_model.objects.create(
        variant="american", points=1, position={}, white_id=alice, black_id=bob, message_count=2
    )
    message_model.objects.create(match=talked, author_id=alice, text="Good luck!")
    newest = message_model.objects.create(match=talked, author_id=bob, text="You too.")
    # A match whose only messages were a closed account's (deleted; the count stays).
    emptied = match_model.objects.create(
        variant="greek", points=1, position={}, white_id=alice, black_id=bob, message_count=1
    )
    quiet = match_model.objects.create(
        variant="greek", points=1, position={}, white_id=bob, black_id=alice
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    markers = dict(
        (pk, (white, black))
        for pk, white, black in apps.get_model("games", "Match").objects.values_list(
            "pk", "white_read_to", "black_read_to"
        )
    )

    # Leave the database as the other tests expect it, whatever came after 0014.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert markers == {
        talked.pk: (newest.pk, newest.pk),
        emptied.pk: (0, 0),
        quiet.pk: (0, 0),
    }
