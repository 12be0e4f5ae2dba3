"""Emails and deadlines through real parts: this process commits to PostgreSQL and publishes
to Redis; a ``celery -A aceysite worker`` process with an embedded beat does the work; mail
goes over SMTP to an aiosmtpd server in this process.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from games import notifications
from games.engine import Position
from games.models import Match, Notification
from tests.matches import opened_by_white, take_turn

from .conftest import EMAIL_RETRY_BASE, SITE_URL

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _start(alice, bob) -> Match:
    # Alice is white and opens with 6-3.
    return opened_by_white(alice, bob)


def _alice_plays(match: Match, alice) -> Match:
    # Bob's dice are 4-1.
    return take_turn(match, alice, [4, 1], play="in/22 in/19")


def _sent(user, kind: str) -> bool:
    return Notification.objects.filter(user=user, kind=kind, sent_at__isnull=False).exists()


def test_a_worker_emails_the_opponent_over_smtp_when_a_turn_is_played(alice, bob, mailbox, worker):
    match = _start(alice, bob)

    _alice_plays(match, alice)
    worker.wait_for(lambda: _sent(bob, "turn"), timeout=30, what="bob's turn email")

    match.refresh_from_db()
    assert redis.Redis.from_url(settings.CELERY_BROKER_URL).llen(worker.queue) == 0
    [raw] = mailbox.raw_to(bob.email)
    [message] = mailbox.to(bob.email)
    token = message["List-Unsubscribe"].removeprefix(f"<{SITE_URL}/unsubscribe/").removesuffix("/>")
    assert message["Subject"] == f"Your turn against alice (match #{match.pk})"
    assert message["List-Unsubscribe"] == f"<{SITE_URL}/unsubscribe/{token}/>"
    assert notifications.user_from_unsubscribe_token(token) == bob.pk
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # No out-of-office reply sent back for every turn (RFC 3834, and Outlook's own).
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["X-Auto-Response-Suppress"] == "All"
    assert b"=?" not in raw.split(b"\r\n\r\n")[0]
    body = message.get_content().replace("\r\n", "\n")
    assert "alice played 6-3: in/22 in/19" in body
    assert "Your dice: 4-1" in body
    assert Position.from_dict(match.position).diagram("black") in body
    assert f"{SITE_URL}/matches/{match.pk}/" in body


def test_beat_and_the_worker_award_a_timeout_once_the_deadline_has_passed(
    alice, bob, mailbox, worker
):
    match = _start(alice, bob)

    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    worker.wait_for(
        lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED,
        timeout=30,
        what="the deadline sweep to award the timeout",
    )

    match.refresh_from_db()
    assert (match.ending, match.winner) == (Match.Ending.TIMEOUT, bob)
    worker.wait_for(
        lambda: _sent(alice, "finished") and _sent(bob, "finished"),
        timeout=10,
        what="the match-over emails",
    )
    [to_bob] = [m for m in mailbox.to(bob.email) if "is over" in m["Subject"]]
    assert match.score_black > match.score_white
    score = f"{match.score_black}\u2013{match.score_white}"  # the winner's points first
    assert (
        f"you won on time: alice's time to move ran out (final score {score})."
        in to_bob.get_content()
    )
    [to_alice] = [m for m in mailbox.to(alice.email) if "is over" in m["Subject"]]
    assert (
        f"bob won on time: your time to move ran out (final score {score})."
        in to_alice.get_content()
    )


def test_a_refused_email_is_retried_with_backoff_and_delivered_once(alice, bob, mailbox, worker):
    mailbox.refuse(bob.email, "451 4.3.0 Try again later", "550 5.7.1 Not now")
    match = _start(alice, bob)

    _alice_plays(match, alice)
    worker.wait_for(lambda: _sent(bob, "turn"), timeout=30, what="bob's turn email")

    notification = Notification.objects.get(user=bob, kind="turn")
    assert (notification.attempts, notification.last_error) == (3, "")
    assert len(mailbox.to(bob.email)) == 1
    first, second, third = mailbox.attempt_times(bob.email)
    assert second - first >= EMAIL_RETRY_BASE
    assert third - second >= 2 * EMAIL_RETRY_BASE
