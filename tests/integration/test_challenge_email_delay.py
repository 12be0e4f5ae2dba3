"""A challenge's offer waits, through real parts: this process commits and publishes the
email with a countdown; the worker sends it when its time comes, only if the challenge
still waits."""

from __future__ import annotations

import time

import pytest

from games import notifications, services, tasks
from games.models import Notification

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

DELAY = 2


def _worker_ready(worker, user) -> None:
    """Wait until the worker sends an email: one it would send at once from now on (else a
    worker still starting would hold every email as the wait does)."""
    email = Notification.objects.create(
        user=user, kind="reminder", key="warm-up", subject="Warm-up", body="Warm-up."
    )
    tasks.task_send_notification.delay(notification_id=email.pk)
    sent = Notification.objects.filter(pk=email.pk, sent_at__isnull=False)
    worker.wait_for(sent.exists, timeout=30, what="the warm-up email")


def test_a_challenge_withdrawn_at_once_sends_nothing_one_left_open_is_offered_late(
    alice, bob, charlie, mailbox, worker, settings
):
    settings.CHALLENGE_EMAIL_DELAY_SECONDS = DELAY
    _worker_ready(worker, alice)
    before = time.monotonic()
    withdrawn = services.create_challenge(alice, opponent=bob)
    services.cancel_challenge(withdrawn.pk, user=alice)
    left_open = services.create_challenge(alice, opponent=charlie)
    offers = Notification.objects.filter(
        key__in=[notifications.challenge_key(c.pk) for c in (withdrawn, left_open)]
    )

    worker.wait_for(
        lambda: offers.filter(user=charlie, sent_at__isnull=False).exists(),
        timeout=30,
        what="charlie's challenge email",
    )
    worker.wait_for(
        lambda: offers.filter(user=bob, cancelled_at__isnull=False).exists(),
        timeout=30,
        what="bob's challenge email to be dropped",
    )

    [sent_at] = mailbox.attempt_times(charlie.email)
    assert sent_at - before >= DELAY  # not before its time
    assert len(mailbox.to(charlie.email)) == 1
    assert mailbox.to(bob.email) == []
