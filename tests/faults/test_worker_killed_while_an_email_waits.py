"""A worker killed (SIGKILL) while a turn email waits for its time
(settings.TURN_EMAIL_DELAY_SECONDS): the email still goes out, once, and not before its time.

A waiting turn email is held by its outbox row (claimed_until), not by a worker: the turn
queues no task for it, so a worker that dies meanwhile holds nothing to lose or to hand
over twice (a countdown task would sit unacknowledged in the worker, and kombu restores
such a message to another worker, a live one's too, once it is older than the visibility
timeout). The first sweep of the turn emails after its time sends it, as beat runs them.
"""

from __future__ import annotations

import time

import pytest
import redis

from games.models import Notification
from games.tasks import task_sweep_turn_emails
from tests.matches import opened_by_white

from .conftest import QUEUE

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SWEEP = task_sweep_turn_emails.name
DELAY = 4


def test_a_waiting_turn_email_goes_out_once_after_its_time_though_a_worker_was_killed(
    alice, bob, broker, mailbox, start_worker, settings
):
    settings.TURN_EMAIL_DELAY_SECONDS = DELAY
    first = start_worker(visibility_timeout=2)
    first.wait_for(lambda: " ready." in first.output(), timeout=60, what="the worker to start")
    before = time.monotonic()
    # Alice is white, wins the opening roll and is to move: her turn email waits DELAY s.
    opened_by_white(alice, bob)
    notification = Notification.objects.get(user=alice)
    assert redis.Redis.from_url(broker.url).llen(QUEUE) == 0  # no task for it
    early = task_sweep_turn_emails.delay().id
    first.wait_for(lambda: early in first.results(SWEEP), timeout=30, what="a sweep")

    first.kill()
    assert time.monotonic() - before < DELAY  # the sweep came before its time: none sent
    assert first.results(SWEEP) == {early: "0"} and mailbox.raw_to(alice.email) == []
    second = start_worker(visibility_timeout=2)
    # Its time counts from the turn's commit, a little after ``before``.
    time.sleep(max(0.0, before + DELAY + 1 - time.monotonic()))
    on_time = task_sweep_turn_emails.delay().id
    second.wait_for(lambda: on_time in second.results(SWEEP), timeout=30, what="its sweep")
    late = task_sweep_turn_emails.delay().id
    second.wait_for(lambda: late in second.results(SWEEP), timeout=30, what="the next sweep")

    notification.refresh_from_db()
    assert second.results(SWEEP) == {on_time: "1", late: "0"}
    [sent_at] = mailbox.attempt_times(alice.email)
    assert sent_at - before >= DELAY  # not before its time
    [message] = mailbox.to(alice.email)
    assert message["Subject"] == notification.subject
    assert notification.sent_at is not None and notification.attempts == 1
