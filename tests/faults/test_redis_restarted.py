"""Redis restarted while turns are being played: no turn is lost, and every email goes out
once Redis is back.

A turn is one PostgreSQL transaction; its email is a Notification row written in that
transaction and published to Redis only after the commit. While Redis is down that
publication fails: the turn must stand (and the request succeed), the row stay unsent,
and the resend sweep send it later. The restarted Redis keeps nothing (no persistence), so
the tasks queued before it went down are lost too, and are resent the same way.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F

from games import services
from games.models import Match, Notification, Segment
from games.tasks import task_resend_unsent

from .conftest import play_first_legal

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RESEND = "games.tasks.task_resend_unsent"


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
    alice, bob, broker, mailbox, start_worker
):
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
    assert emails.filter(sent_at=None).exists()  # those published while Redis was down

    # A minute later (the sweep leaves newer emails alone), the resend sweep runs.
    emails.update(created_at=F("created_at") - timedelta(minutes=1))
    sweep = task_resend_unsent.delay().id
    worker.wait_for(
        lambda: not emails.filter(sent_at=None).exists(),
        timeout=60,
        what="every email to be sent",
    )

    assert int(worker.results(RESEND)[sweep]) > 0
    for user in (alice, bob):
        subjects = sorted(emails.filter(user=user).values_list("subject", flat=True))
        assert sorted(m["Subject"] for m in mailbox.to(user.email)) == subjects
    assert emails.count() == sum(len(mailbox.to(user.email)) for user in (alice, bob))
