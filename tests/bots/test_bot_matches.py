"""Bots as site users: challenged like anyone, they play their turns through the task."""

from __future__ import annotations

import pytest

from games import services
from games.bots import BOTS
from games.engine import format_play
from games.engine.game import ScriptedDice
from games.models import BotPlayer, Match, Segment
from games.services import TurnAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def bots():
    return {user.bot.level: user for user in services.bot_users()}


def test_there_is_a_site_user_for_every_bot_level(bots):
    assert set(bots) == set(BOTS)
    assert all(user.is_bot and not user.has_usable_password() for user in bots.values())
    assert BotPlayer.objects.count() == len(BOTS)


def test_a_bot_accepts_a_challenge_at_once_and_plays_when_it_is_its_turn(
    alice, bots, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.create_challenge(alice, opponent=bots["beginner"], variant="greek")

    match = Match.objects.get(pk=challenge.match_id)
    assert challenge.status == "accepted"
    assert match.to_move == alice  # if the bot won the opening roll, it has moved already


def test_a_whole_match_against_a_bot_reaches_its_end(
    alice, bots, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.create_challenge(alice, opponent=bots["heuristic"], variant="american")
    match = Match.objects.get(pk=challenge.match_id)

    while match.status == Match.Status.ACTIVE:
        assert match.to_move == alice  # never left waiting for the bot
        if match.phase == "name_double":
            action = TurnAction(segment=match.segment_count, double=6)
        else:
            play = services.load_game(match).legal_plays()[0]
            action = TurnAction(segment=match.segment_count, play=format_play(play))
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_segment(match.pk, user=alice, action=action)
        match.refresh_from_db()

    assert match.winner in (alice, bots["heuristic"])
    bot_color = match.color_of(bots["heuristic"])
    assert Segment.objects.filter(match=match, player=bot_color).exists()


def _bot_opens(bot, human, variant: str, first_roll: list[int]) -> Match:
    """A one-point match in which ``bot`` (white) wins the opening 6-1 and is to play
    ``first_roll``; its task is not run (no on-commit callbacks here)."""
    return services.start_match(
        white=bot,
        black=human,
        variant=variant,
        points=1,
        days_per_move=2,
        dice=ScriptedDice([6, 1, *first_roll]),
    )


def test_a_bot_task_run_twice_plays_the_segment_once(alice, bots):
    match = _bot_opens(bots["beginner"], alice, "greek", [3, 4])
    segment = match.segment_count
    assert match.to_move == bots["beginner"]

    first = services.play_bot_turn(match.pk, segment=segment)
    second = services.play_bot_turn(match.pk, segment=segment)

    assert first >= 1 and second == 0
    assert Match.objects.get(pk=match.pk).to_move == alice


def test_a_redelivered_task_finishes_a_1_2_chain_its_dead_worker_left(alice, bots):
    # The bot (white) wins the opening 6-1 and rolls 1-2. Its worker stored the 1-2 play
    # and died before naming the double; the task comes back with its old segment.
    match = _bot_opens(bots["heuristic"], alice, "american", [1, 2])
    queued_for = match.segment_count
    first_play = services.load_game(match).legal_plays()[0]
    services.submit_segment(
        match.pk,
        user=bots["heuristic"],
        action=TurnAction(segment=queued_for, play=format_play(first_play)),
    )
    match.refresh_from_db()
    assert match.phase == "name_double" and match.to_move == bots["heuristic"]

    decisions = services.play_bot_turn(match.pk, segment=queued_for)

    match.refresh_from_db()
    assert decisions >= 1  # the double named, then its play unless forced, and so on
    assert match.to_move == alice  # the whole turn played
    # Named once, right after the stored 1-2. (An american double played in full earns
    # a new roll, which may be another 1-2 and another double: about one run in twenty.)
    named = Segment.objects.filter(match=match, kind=Segment.Kind.DOUBLE)
    assert named.values_list("number", flat=True).first() == queued_for + 2
    assert not named.filter(number=queued_for + 3).exists()


def test_a_late_task_does_nothing_once_the_human_is_to_move(alice, bots):
    match = _bot_opens(bots["beginner"], alice, "greek", [3, 4])
    services.play_bot_turn(match.pk, segment=match.segment_count)
    match.refresh_from_db()
    count = match.segment_count

    assert services.play_bot_turn(match.pk, segment=1) == 0
    match.refresh_from_db()
    assert match.segment_count == count and match.to_move == alice
