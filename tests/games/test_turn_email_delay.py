"""A turn email waits (settings.TURN_EMAIL_DELAY_SECONDS) and goes out only if the player
has still not moved: a player answering at once on the site gets no email for each turn.

The outbox rows are written as a worker-backed site writes them (tasks not run in-process);
sending is called directly here. tests/integration/test_turn_email_delay.py runs it through
a real worker.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from aceysite.celery import app as celery_app
from games import notifications, services
from games.engine.game import ScriptedDice
from games.models import Match, Notification
from games.services import TurnAction
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

DELAY = 300


@pytest.fixture
def worker_backed(settings):
    """Tasks published to a worker, not run in-process, with the wait set."""
    settings.TURN_EMAIL_DELAY_SECONDS = DELAY
    celery_app.conf.task_always_eager = False  # the autouse fixture puts it back


def _start(alice, bob, django_capture_on_commit_callbacks) -> Match:
    # Alice is white and opens with 6-3; nothing is published (callbacks not run).
    with django_capture_on_commit_callbacks(execute=False):
        return opened_by_white(alice, bob)


def _alice_plays(match: Match, alice, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/19"),
            dice=ScriptedDice([4, 1]),
        )


def _its_time_has_come(notification: Notification) -> None:
    Notification.objects.filter(pk=notification.pk).update(
        claimed_until=timezone.now() - timedelta(seconds=1),
        created_at=timezone.now() - timedelta(seconds=DELAY + 60),
    )


def test_a_turn_email_is_held_from_every_sender_for_the_delay(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    before = timezone.now()
    _start(alice, bob, django_capture_on_commit_callbacks)
    email = Notification.objects.get(user=alice, kind="turn")

    assert email.claimed_until >= before + timedelta(seconds=DELAY)
    assert notifications.send_notification(email.pk) is False
    Notification.objects.filter(pk=email.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert notifications.unsent() == []  # the resend sweep leaves it alone too
    assert mail.outbox == []


def test_when_its_time_comes_a_player_who_has_not_moved_gets_the_email(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    _start(alice, bob, django_capture_on_commit_callbacks)
    email = Notification.objects.get(user=alice, kind="turn")
    _its_time_has_come(email)

    assert notifications.send_notification(email.pk) is True

    [message] = mail.outbox
    assert message.to == [alice.email] and message.subject.startswith("Your turn against bob")


def test_when_its_time_comes_a_player_who_has_moved_gets_no_email(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    match = _start(alice, bob, django_capture_on_commit_callbacks)
    alices = Notification.objects.get(user=alice, kind="turn")
    _alice_plays(match, alice, django_capture_on_commit_callbacks)
    _its_time_has_come(alices)

    assert notifications.send_notification(alices.pk) is False

    alices.refresh_from_db()
    assert alices.cancelled_at is not None and alices.sent_at is None
    assert alices.claimed_until is None
    assert notifications.unsent() == []  # not picked up again by the resend sweep
    assert mail.outbox == []
    # Bob, now to move, still gets his when its time comes.
    bobs = Notification.objects.get(user=bob, kind="turn")
    _its_time_has_come(bobs)
    assert notifications.send_notification(bobs.pk) is True
    assert [m.to for m in mail.outbox] == [[bob.email]]


def test_a_match_that_ended_meanwhile_sends_no_turn_email(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    match = _start(alice, bob, django_capture_on_commit_callbacks)
    email = Notification.objects.get(user=alice, kind="turn")
    with django_capture_on_commit_callbacks(execute=False):
        services.resign(match.pk, user=bob)
    _its_time_has_come(email)

    assert notifications.send_notification(email.pk) is False
    email.refresh_from_db()
    assert email.cancelled_at is not None


def test_other_emails_are_not_held(worker_backed, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        services.create_challenge(alice, opponent=bob)
    challenge = Notification.objects.get(user=bob, kind="challenge")

    assert challenge.claimed_until is None
    assert notifications.send_notification(challenge.pk) is True


def test_without_a_delay_a_turn_email_goes_out_even_after_the_move(
    settings, alice, bob, django_capture_on_commit_callbacks
):
    settings.TURN_EMAIL_DELAY_SECONDS = 0
    celery_app.conf.task_always_eager = False
    match = _start(alice, bob, django_capture_on_commit_callbacks)
    email = Notification.objects.get(user=alice, kind="turn")
    _alice_plays(match, alice, django_capture_on_commit_callbacks)

    assert email.claimed_until is None
    assert notifications.send_notification(email.pk) is True


def test_tasks_run_in_process_send_at_once(settings):
    settings.TURN_EMAIL_DELAY_SECONDS = DELAY

    celery_app.conf.task_always_eager = True
    assert notifications.turn_email_delay() == 0
    celery_app.conf.task_always_eager = False
    assert notifications.turn_email_delay() == DELAY


@pytest.mark.parametrize(
    ("preference", "note"),
    [
        (
            "every_turn",
            "; when it is your turn, we email you if you have not played within 5 minutes.",
        ),
        ("digest", "; your daily email lists the matches waiting for you."),
        ("none", " every 30 seconds."),
    ],
)
def test_a_player_waiting_is_told_what_email_their_turn_brings(
    worker_backed, client, alice, bob, preference, note, django_capture_on_commit_callbacks
):
    _start(alice, bob, django_capture_on_commit_callbacks)  # alice to move: bob waits
    bob.email_preference = preference
    bob.save()
    client.force_login(bob)

    page = client.get(reverse("match", args=[Match.objects.get().pk]))

    [waiting] = re.findall(r'<p class="notice waiting-note">(.*?)</p>', page.text)
    assert waiting.startswith("Waiting for alice to move.")
    assert waiting.endswith(note)
