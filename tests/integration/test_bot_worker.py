"""Bots through real parts: the worker process plays the bot's turns of a whole match."""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis

from aceysite.celery import app
from games import services
from games.engine import format_play
from games.models import Match, Segment
from games.services import TurnAction

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _scripted_turn(match: Match, user) -> None:
    """The human side: the first legal play, 6-6 after a 1-2."""
    if match.phase == "name_double":
        action = TurnAction(segment=match.segment_count, double=6)
    else:
        play = services.load_game(match).legal_plays()[0]
        action = TurnAction(segment=match.segment_count, play=format_play(play))
    services.submit_segment(match.pk, user=user, action=action)


def test_the_worker_plays_a_bot_match_to_the_end_against_a_scripted_opponent(alice, worker):
    bot = next(u for u in services.bot_users() if u.bot.level == "heuristic")
    challenge = services.create_challenge(alice, opponent=bot, variant="american", points=1)
    match = Match.objects.get(pk=challenge.match_id)

    while match.status == Match.Status.ACTIVE:
        worker.wait_for(
            lambda: (
                Match.objects.filter(pk=match.pk).exclude(status="active", to_move=bot).exists()
            ),
            timeout=60,
            what=f"the bot's move at segment {match.segment_count}",
        )
        match.refresh_from_db()
        if match.status == Match.Status.ACTIVE:
            _scripted_turn(match, alice)
            match.refresh_from_db()

    bot_color = match.color_of(bot)
    assert match.winner in (alice, bot)
    assert Segment.objects.filter(match=match, player=bot_color, automatic=False).exists()
    numbers = list(Segment.objects.filter(match=match).values_list("number", flat=True))
    assert numbers == list(range(1, match.segment_count + 1))  # none lost, none twice


def test_a_lost_bot_task_is_queued_again_by_the_sweep(alice, worker, broker_url):
    bot = next(u for u in services.bot_users() if u.bot.level == "beginner")
    # Publish to a queue no worker reads: the bot's task is lost, as in a broker failure.
    black_hole = f"{worker.queue}-lost"
    app.conf.task_default_queue = black_hole
    try:
        match = services.start_match(
            white=bot, black=alice, variant="greek", points=1, days_per_move=2
        )
        # If alice won the opening roll, she plays her turn (a 1-2 and its double are two
        # segments): then the bot is to move.
        while match.to_move_id == alice.pk:
            _scripted_turn(match, alice)
            match.refresh_from_db()
    finally:
        app.conf.task_default_queue = worker.queue
        redis.Redis.from_url(broker_url).delete(black_hole)
    stuck_at = match.segment_count
    assert match.to_move_id == bot.pk

    requeued = services.queue_stuck_bot_turns(older_than=timedelta(0))
    worker.wait_for(
        lambda: Match.objects.get(pk=match.pk).segment_count > stuck_at,
        timeout=60,
        what="the re-queued bot turn",
    )

    assert requeued == 1
