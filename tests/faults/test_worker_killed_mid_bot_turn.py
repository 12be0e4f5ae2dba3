"""A worker killed (SIGKILL) in the middle of a bot's turn: the bot still plays it, once.

To kill the worker at a known moment, the test holds the segment number the bot is about
to store in a transaction of its own (an uncommitted row of the unique (match, number)
index). The bot's task then thinks, chooses its play and waits at its INSERT with its own
transaction open, holding the match row's lock; the worker is killed there, after the
decision and before anything is stored. PostgreSQL rolls that transaction back; the task,
acknowledged only when it ends (acks_late), is delivered again:

* ``worker``: the whole worker process is killed; nothing acknowledges or rejects the task,
  so a new worker takes it over once kombu's visibility timeout has passed;
* ``pool process``: only the prefork pool process running the task is killed; the worker
  rejects the task back onto the queue at once (task_reject_on_worker_lost) and its new
  pool process runs it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection

from games import services
from games.engine import Position
from games.models import Match, Segment
from tests.matches import opened_by_white

from .conftest import wait_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BOT_TURN = "games.tasks.task_play_bot_turn"


@contextmanager
def segment_held(database_url: str, match: Match, number: int) -> Iterator[None]:
    """Insert segment ``number`` of ``match`` in a transaction left open until the block
    ends, then roll it back: meanwhile whoever stores that number waits."""
    with psycopg.connect(database_url) as holder:
        holder.execute(
            f"INSERT INTO {Segment._meta.db_table} (match_id, number, game_number, kind,"
            " player, dice, play, position, automatic, created_at)"
            " VALUES (%s, %s, 1, 'roll', '', '[]', '', %s, false, now())",
            [match.pk, number, json.dumps(match.position)],
        )
        try:
            yield
        finally:
            holder.rollback()


def _backends_waiting_for_a_lock() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return [pid for (pid,) in cursor.fetchall()]


def _backend_gone(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone() is None


@pytest.mark.parametrize("killed", ["worker", "pool process"])
def test_a_bot_turn_whose_worker_was_killed_mid_turn_is_played_once(
    killed, alice, start_worker, worker_database_url
):
    bot = next(u for u in services.bot_users() if u.bot.level == "expert")
    # The bot is white and wins the opening roll with 6-3: its turn is one decision.
    match = opened_by_white(bot, alice)
    assert (match.to_move, match.segment_count) == (bot, 1)

    with segment_held(worker_database_url, match, 2):
        if killed == "worker":
            first = start_worker(pool="solo", visibility_timeout=2)
        else:
            first = start_worker(pool="prefork")
        first.wait_for(_backends_waiting_for_a_lock, timeout=30, what="the bot to store its play")
        [blocked] = _backends_waiting_for_a_lock()
        [task_id] = first.received(BOT_TURN)
        if killed == "worker":
            first.kill()
        else:
            first.kill_pool_process()
    wait_until(lambda: _backend_gone(blocked), timeout=10, what="the killed task's rollback")
    after = start_worker(pool="solo", visibility_timeout=2) if killed == "worker" else first
    after.wait_for(
        lambda: task_id in after.results(BOT_TURN), timeout=30, what="the task to run again"
    )

    match.refresh_from_db()
    segments = list(Segment.objects.filter(match=match).order_by("number"))
    played = [s for s in segments if s.number > 1]
    assert [s.number for s in segments] == list(range(1, match.segment_count + 1))
    assert [(s.kind, s.player, s.dice, s.automatic) for s in played] == [
        ("roll", "white", [6, 3], False)
    ]
    assert Position.from_dict(match.position) == Position.from_dict(played[0].position)
    # The same task, delivered again: not a new one queued by the stuck-bot sweep.
    assert after.received(BOT_TURN)[-1] == task_id
    # One decision: the bot played once. Should kombu hand the message over once more (a
    # run held past its visibility timeout), that run finds the turn played and returns 0.
    outcomes = [value for ran, value in after.runs(BOT_TURN) if ran == task_id]
    assert outcomes.count("1") == 1 and set(outcomes) <= {"1", "0"}
    if killed == "pool process":
        assert "WorkerLostError" in after.output()
