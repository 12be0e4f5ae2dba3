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
from tests.engine.helpers import make
from tests.matches import opened_by_white, take_turn

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
        take_turn(match, alice, [4, 1], play="in/22 in/19")


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


def _bob_to_play_an_acey_deucey(alice, bob, django_capture_on_commit_callbacks) -> Match:
    """Alice opens with 6-3 and plays it; bob rolls 1-2 (his turn email waits)."""
    with django_capture_on_commit_callbacks(execute=False):
        match = opened_by_white(alice, bob)
        return services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/19"),
            dice=ScriptedDice([1, 2]),
        )


def test_a_player_who_played_part_of_an_acey_deucey_still_gets_the_email(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    match = _bob_to_play_an_acey_deucey(alice, bob, django_capture_on_commit_callbacks)
    bobs = Notification.objects.get(user=bob, kind="turn")
    with django_capture_on_commit_callbacks(execute=False):
        # He plays the 1-2 and stops where he is to name a double: still his turn.
        services.submit_segment(
            match.pk, user=bob, action=TurnAction(segment=2, play="in/24 in/23")
        )
    _its_time_has_come(bobs)

    assert notifications.send_notification(bobs.pk) is True

    [message] = mail.outbox
    assert message.to == [bob.email]
    assert "- alice played 6-3: in/22 in/19\n" in message.body  # the turn as it was announced
    assert "Your dice: 1-2" in message.body


def test_an_email_for_a_turn_that_has_come_round_again_gives_way_to_the_newer_one(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    match = _start(alice, bob, django_capture_on_commit_callbacks)
    # White holds all of black's entry points: bob's roll dances, and it is alice's turn
    # again at once, with a new email; her first one is out of date, though she is to move.
    Match.objects.filter(pk=match.pk).update(
        position=make(white={n: 2 for n in range(1, 7)}, waiting=(3, 15)).to_dict()
    )
    first = Notification.objects.get(user=alice, kind="turn")
    with django_capture_on_commit_callbacks(execute=False):
        services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/19"),
            dice=ScriptedDice([3, 4, 5, 4]),
        )
    second = Notification.objects.exclude(pk=first.pk).get(user=alice, kind="turn")
    _its_time_has_come(first)
    _its_time_has_come(second)

    assert notifications.send_notification(first.pk) is False
    assert notifications.send_notification(second.pk) is True

    [message] = mail.outbox
    assert "- bob played 4-3: no move (forced)\n" in message.body


def test_a_delayed_turn_email_costs_the_worker_no_more_queries_than_before(
    worker_backed, alice, bob, django_capture_on_commit_callbacks, django_assert_num_queries
):
    _bob_to_play_an_acey_deucey(alice, bob, django_capture_on_commit_callbacks)
    bobs = Notification.objects.get(user=bob, kind="turn")
    _its_time_has_come(bobs)

    # The claim; the email with its addressee and match; the match's segments since his
    # last move (what to tell, and whether he has moved); marking it sent.
    with django_assert_num_queries(4):
        assert notifications.send_notification(bobs.pk) is True
