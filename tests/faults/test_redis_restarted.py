"""Redis restarted while turns are being played: no turn is lost, and every email goes out
once Redis is back.

A turn is one PostgreSQL transaction; its email is a Notification row written in that
transaction, and after the commit the turn wakes the worker's sweep of the outbox through
Redis. While Redis is down that wake fails: the turn must stand (and the request succeed)
and the row stay unsent, for the next sweep: one a later turn wakes, or beat's. The
restarted Redis keeps nothing (no persistence), so a sweep queued before it went down is
lost too, and its emails go out the same way.
"""

from __future__ import annotations

import logging
import threading
import time

import pytest
from django.db import connection

from games import services
from games.models import Match, Notification, Segment
from games.tasks import task_sweep_turn_emails

from .conftest import play_first_legal

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SWEEP = task_sweep_turn_emails.name
NOT_WOKEN = "the broker is unreachable, the turn emails' sweep is not woken"


class TurnPlayer(threading.Thread):
    """Plays the first legal play for whoever is to move, turn after turn, until stopped;
    keeps the segment count each submission returned, or the exception it raised."""

    def __init__(self, match: Match) -> None:
        super().__init__(daemon=True)
        self.match = match
        self.outcomes: list[int | Exception] = []
        self.halt = threading.Event()

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                try:
                    self.outcomes.append(play_first_legal(self.match).segment_count)
                except Exception as error:  # the outcome under test
                    self.outcomes.append(error)
        finally:
            connection.close()

    def wait_for_turns(self, count: int, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        target = len(self.outcomes) + count
        while len(self.outcomes) < target:
            if time.monotonic() > deadline or not self.is_alive():
                pytest.fail(f"{len(self.outcomes)} turns played, {target} expected")
            time.sleep(0.02)

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=30)


def test_turns_played_while_redis_restarts_are_kept_and_their_emails_sent_once(
    alice, bob, broker, mailbox, start_worker, caplog
):
    caplog.set_level(logging.WARNING, logger="games.notifications")
    worker = start_worker()
    match = services.start_match(
        white=alice, black=bob, variant="american", points=5, days_per_move=2
    )
    emails = Notification.objects.filter(match=match)
    worker.wait_for(
        lambda: emails.filter(sent_at__isnull=False).exists(),
        timeout=30,
        what="the worker to send the first email",
    )
    player = TurnPlayer(match)

    player.start()
    player.wait_for_turns(3)
    broker.stop()
    player.wait_for_turns(3)
    broker.start()
    player.wait_for_turns(3)
    player.stop()

    match.refresh_from_db()
    assert [o for o in player.outcomes if isinstance(o, Exception)] == []
    assert player.outcomes[-1] == match.segment_count  # the last turn played is stored
    numbers = list(Segment.objects.filter(match=match).values_list("number", flat=True))
    assert numbers == list(range(1, match.segment_count + 1))
    # Turns played while Redis was down could not wake a sweep: their emails waited.
    assert any(NOT_WOKEN in record.getMessage() for record in caplog.records)

    # The turns played since woke sweeps, which send every turn email due, those written
    # while Redis was down too; then beat's sweep finds none left.
    worker.wait_for(
        lambda: not emails.filter(sent_at=None).exists(),
        timeout=60,
        what="every email to be sent",
    )
    sweep = task_sweep_turn_emails.delay().id
    worker.wait_for(lambda: sweep in worker.results(SWEEP), timeout=30, what="beat's sweep")

    assert worker.results(SWEEP)[sweep] == "0"
    for user in (alice, bob):
        subjects = sorted(emails.filter(user=user).values_list("subject", flat=True))
        assert sorted(m["Subject"] for m in mailbox.to(user.email)) == subjects
    assert emails.count() == sum(len(mailbox.to(user.email)) for user in (alice, bob))
