"""A worker killed (SIGKILL) while it sends an email: the email still goes out exactly once.

Exactly once means: the SMTP server accepts (answers 250 to) one message for the
notification. The killed worker's delivery never got its 250; the server drops it. The
task that was sending it, the sweep of the turn emails the turn woke, is delivered again
(acks_late): a new worker takes it over once kombu's visibility timeout has passed. That
redelivered sweep must not send while the dead worker's claim on the row
(settings.EMAIL_CLAIM_SECONDS) still holds; once the claim has lapsed, the next sweep (as
beat runs them) sends the email, once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from games.models import Notification
from games.tasks import task_sweep_turn_emails
from tests.matches import opened_by_white

from .conftest import SMTP_TIMEOUT, wait_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SWEEP = task_sweep_turn_emails.name


def test_an_email_whose_worker_was_killed_mid_send_is_delivered_once(
    alice, bob, mailbox, start_worker
):
    mailbox.hold = SMTP_TIMEOUT / 2
    first = start_worker(visibility_timeout=2)
    # Alice is white, wins the opening roll and is to move: one email, "your turn", to her.
    opened_by_white(alice, bob)
    notification = Notification.objects.get(user=alice)
    first.wait_for(mailbox.holding.is_set, timeout=30, what="the email's DATA at the server")

    first.kill()
    [task_id] = first.received(SWEEP)
    wait_until(lambda: mailbox.aborted == 1, timeout=10, what="the server to drop the delivery")
    second = start_worker(visibility_timeout=2)
    second.wait_for(
        lambda: task_id in second.results(SWEEP),
        timeout=30,
        what="the new worker to run the killed worker's sweep again",
    )

    notification.refresh_from_db()
    # The same sweep, finding the email held (each run, should kombu hand it over again).
    assert {sent for ran, sent in second.runs(SWEEP) if ran == task_id} == {"0"}
    assert mailbox.raw_to(alice.email) == []
    assert notification.sent_at is None
    assert notification.claimed_until > timezone.now()  # because the dead sender's claim holds

    # Let EMAIL_CLAIM_SECONDS pass, then sweep twice, as beat would.
    claim = timedelta(seconds=settings.EMAIL_CLAIM_SECONDS)
    Notification.objects.filter(pk=notification.pk).update(claimed_until=F("claimed_until") - claim)
    first_sweep = task_sweep_turn_emails.delay().id
    second.wait_for(
        lambda: first_sweep in second.results(SWEEP), timeout=30, what="the first sweep"
    )
    second_sweep = task_sweep_turn_emails.delay().id
    second.wait_for(
        lambda: second_sweep in second.results(SWEEP), timeout=30, what="the second sweep"
    )

    notification.refresh_from_db()
    [message] = mailbox.to(alice.email)
    assert message["Subject"] == notification.subject
    assert mailbox.aborted == 1
    assert notification.sent_at is not None
    assert (notification.attempts, notification.last_error) == (1, "")
    assert second.results(SWEEP) == {task_id: "0", first_sweep: "1", second_sweep: "0"}
