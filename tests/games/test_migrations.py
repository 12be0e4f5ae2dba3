"""Data migrations, run on rows written before them: each test migrates back, writes rows
as the older schema held them, migrates forward and reads what the migration made."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.engine import Position

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def migrate() -> Iterator[Callable[..., Apps]]:
    """Migrate an app (games unless told) to a migration (by name); answer the models
    as they were then. Afterwards the database is migrated to the latest again, for the
    other tests."""

    def to(name: str, app: str = "games") -> Apps:
        target = [(app, name)]
        executor = MigrationExecutor(connection)
        executor.migrate(target)
        return executor.loader.project_state(target).apps

    yield to
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture
def players(django_user_model) -> tuple[int, int]:
    # Accounts are not migrated back: today's model writes them.
    alice = django_user_model.objects.create_user("alice", "a@example.com")
    bob = django_user_model.objects.create_user("bob", "b@example.com")
    return alice.pk, bob.pk


def test_0014_counts_the_messages_written_before_the_markers_as_read(migrate, players):
    alice, bob = players
    apps = migrate("0013_match_message_count")
    match_model = apps.get_model("games", "Match")
    message_model = apps.get_model("games", "Message")
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

    apps = migrate("0014_match_read_to")

    markers = {
        pk: (white, black)
        for pk, white, black in apps.get_model("games", "Match").objects.values_list(
            "pk", "white_read_to", "black_read_to"
        )
    }
    assert markers == {
        talked.pk: (newest.pk, newest.pk),
        emptied.pk: (0, 0),
        quiet.pk: (0, 0),
    }


def test_0015_gives_later_openings_and_automatic_doubles_the_position_after_them(migrate, players):
    alice, bob = players
    apps = migrate("0014_match_read_to")
    match = apps.get_model("games", "Match").objects.create(
        variant="american", points=3, position={}, white_id=alice, black_id=bob
    )
    first = Position.initial("american", "white").to_dict()
    played = {**first, "turn": "black", "waiting": {"white": 13, "black": 15}}
    after_the_1_2 = {**played, "turn": "white", "waiting": {"white": 11, "black": 15}}
    wrong = {**played, "turn": "white", "named_blot": 3}  # from before the last play
    rows = [
        # number, game, kind, dice, automatic, position
        (1, 1, "opening", [5, 2], True, first),
        (2, 1, "roll", [6, 3], False, played),
        (3, 1, "acey_deucey", [1, 2], False, after_the_1_2),
        (4, 1, "double", [6, 6], True, wrong),
        (5, 2, "opening", [3, 3], True, wrong),  # a tie, rolled again
        (6, 2, "opening", [2, 4], True, wrong),
    ]
    segment_model = apps.get_model("games", "Segment")
    for number, game, kind, dice, automatic, position in rows:
        segment_model.objects.create(
            match=match,
            number=number,
            game_number=game,
            kind=kind,
            dice=dice,
            automatic=automatic,
            position=position,
        )

    apps = migrate("0015_repair_segment_positions")

    stored = dict(
        apps.get_model("games", "Segment")
        .objects.order_by("number")
        .values_list("number", "position")
    )
    black_opens = Position.initial("american", "black").to_dict()
    assert stored == {
        1: first,
        2: played,
        3: after_the_1_2,
        4: after_the_1_2,
        5: black_opens,
        6: black_opens,
    }


def test_0021_tallies_the_rolls_stored_before_it(migrate, players):
    alice, bob = players
    apps = migrate("0022_admin_list_indexes")
    match_model = apps.get_model("games", "Match")
    segment_model = apps.get_model("games", "Segment")
    alice_white = match_model.objects.create(
        variant="american", points=1, position={}, white_id=alice, black_id=bob
    )
    alice_black = match_model.objects.create(
        variant="greek", points=1, position={}, white_id=bob, black_id=alice
    )
    rows = [
        # match, player, kind, dice: only a player's own rolls count
        (alice_white, "", "opening", [5, 2]),
        (alice_white, "white", "roll", [6, 3]),
        (alice_white, "white", "acey_deucey", [2, 1]),
        (alice_white, "white", "double", [6, 6]),  # named, not rolled
        (alice_white, "white", "named_double", [6, 6]),
        (alice_white, "black", "roll", [4, 4]),
        (alice_black, "black", "roll", [6, 3]),
        (alice_black, "black", "roll", [3, 6]),
        (alice_black, "white", "roll", [1, 2]),
    ]
    for number, (match, player, kind, dice) in enumerate(rows, start=1):
        segment_model.objects.create(
            match=match,
            number=number,
            game_number=1,
            player=player,
            kind=kind,
            dice=dice,
            position={},
        )

    apps = migrate("0023_dice_tally")

    tallies = {
        tally["user_id"]: tally for tally in apps.get_model("games", "DiceTally").objects.values()
    }
    assert set(tallies) == {alice, bob}
    assert tallies[alice] == {
        "user_id": alice,
        "rolls": 4,
        "ones": 1,
        "twos": 1,
        "threes": 3,
        "fours": 0,
        "fives": 0,
        "sixes": 3,
        "doubles": 0,
        "acey_deuceys": 1,
    }
    assert (tallies[bob]["rolls"], tallies[bob]["fours"], tallies[bob]["doubles"]) == (2, 2, 1)
    assert tallies[bob]["acey_deuceys"] == 1


def test_tournaments_0002_brings_a_far_sign_up_deadline_within_a_year(migrate, players):
    alice, _ = players
    apps = migrate("0001_initial", app="tournaments")
    tournament = apps.get_model("tournaments", "Tournament")
    common = {"organiser_id": alice, "variant": "american", "points": 1, "days_per_move": 2}
    far = tournament.objects.create(
        name="Forever cup", signup_deadline=datetime(9999, 12, 31, 23, 59, tzinfo=UTC), **common
    )
    soon = timezone.now() + timedelta(days=7)
    near = tournament.objects.create(name="Winter cup", signup_deadline=soon, **common)

    apps = migrate("0002_bring_far_deadlines_near", app="tournaments")

    deadlines = dict(
        apps.get_model("tournaments", "Tournament").objects.values_list("pk", "signup_deadline")
    )
    assert deadlines[near.pk] == soon
    assert timezone.now() + timedelta(days=364) < deadlines[far.pk]
    assert deadlines[far.pk] <= timezone.now() + timedelta(days=365)
