"""Turn emails go out through a sweep of the outbox (games.notifications), woken after a
turn's commit through a flag in Redis, and run by beat too."""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from django.core import mail
from django.utils import timezone

from aceysite.celery import app as celery_app
from games import notifications, services
from games.engine.game import ScriptedDice
from games.models import Notification
from games.services import TurnAction
from tests.mail import refuse_mail, silent_mail
from tests.matches import opened_by_white, take_turn

pytestmark = pytest.mark.django_db


def _email(user, key: str, **fields) -> Notification:
    """A turn email due now unless ``fields`` say otherwise (no match: sent as written)."""
    return Notification.objects.create(
        user=user, kind="turn", key=key, subject=key, body=f"Body of {key}.", **fields
    )


def test_a_sweep_sends_each_due_turn_email_once_and_leaves_the_rest(alice, bob):
    now = timezone.now()
    due = [_email(alice, "turn:a"), _email(bob, "turn:b", claimed_until=now)]
    left = [
        _email(alice, "turn:held", claimed_until=now + timedelta(minutes=5)),  # waits, or sent
        _email(alice, "turn:sent", sent_at=now),
        _email(alice, "turn:dropped", cancelled_at=now),
        _email(alice, "turn:given-up", attempts=notifications.MAX_ATTEMPTS),
        Notification.objects.create(  # another kind has a task of its own
            user=alice, kind="finished", key="finished:1", subject="f", body="Finished."
        ),
    ]

    assert notifications.send_due_turn_emails() == 2
    assert notifications.send_due_turn_emails() == 0

    assert sorted(message.subject for message in mail.outbox) == ["turn:a", "turn:b"]
    for email in due:
        email.refresh_from_db()
        assert email.sent_at is not None and email.attempts == 1
    for email in left:
        before = (email.sent_at, email.attempts)
        email.refresh_from_db()
        assert (email.sent_at, email.attempts) == before


def test_a_sweep_looks_again_while_it_finds_a_full_batch(alice, monkeypatch):
    monkeypatch.setattr(notifications, "SWEEP_BATCH", 2)
    for n in range(5):
        _email(alice, f"turn:{n}")

    assert notifications.send_due_turn_emails() == 5
    assert len(mail.outbox) == 5


def test_a_sweep_holds_a_failed_email_for_its_retry_and_goes_on(alice, bob, settings):
    settings.EMAIL_RETRY_BASE_SECONDS = 30
    first = _email(alice, "turn:first")
    later = _email(bob, "turn:later", attempts=3)  # failed three times already
    in_memory = settings.MAILERS
    refuse_mail(settings)

    began = timezone.now()
    assert notifications.send_due_turn_emails() == 0  # neither raised out of the sweep
    assert notifications.send_due_turn_emails() == 0  # both held: not tried again

    first.refresh_from_db()
    later.refresh_from_db()
    assert (first.attempts, later.attempts) == (1, 4)
    assert "refused" in first.last_error.lower()
    # Held 30 s after a first failure, 30 x 2**3 after a fourth.
    assert began + timedelta(seconds=29) < first.claimed_until < began + timedelta(seconds=40)
    assert began + timedelta(seconds=239) < later.claimed_until < began + timedelta(seconds=250)

    settings.MAILERS = in_memory
    Notification.objects.filter(pk=first.pk).update(claimed_until=timezone.now())
    assert notifications.send_due_turn_emails() == 1
    first.refresh_from_db()
    assert first.sent_at is not None and first.attempts == 2


def test_a_failed_emails_retry_delay_counts_from_the_failure(alice, settings):
    # A server that takes a while to fail (here, 1 s without a greeting) must not shorten
    # the wait before the next attempt.
    settings.EMAIL_RETRY_BASE_SECONDS = 30
    email = _email(alice, "turn:slow")
    began = timezone.now()
    with silent_mail(settings, timeout=1.0):
        assert notifications.send_due_turn_emails() == 0
    failed = timezone.now()

    email.refresh_from_db()
    assert email.attempts == 1 and email.last_error
    assert failed - began >= timedelta(seconds=1)
    assert began + timedelta(seconds=31) <= email.claimed_until
    assert email.claimed_until <= failed + timedelta(seconds=30)


# -- waking the sweep: tasks published for real, to a Redis queue of the test's own -------------


def _bob_moves(match, bob, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        take_turn(match, bob, [6, 5], play="in/24 in/21")


def test_turns_wake_one_sweep_until_it_looks_at_the_outbox(
    alice, bob, tasks_published, django_capture_on_commit_callbacks
):
    client, queue = tasks_published
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob)  # alice's turn email
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/19"),
            dice=ScriptedDice([4, 1]),
        )  # bob's turn email

    assert Notification.objects.filter(kind="turn", sent_at=None).count() == 2
    assert client.llen(queue) == 1  # one sweep queued for both
    assert client.get(notifications._wake_key()) == b"1"

    assert notifications.send_due_turn_emails() == 2  # the sweep, run here
    assert client.get(notifications._wake_key()) is None
    match.refresh_from_db()
    _bob_moves(match, bob, django_capture_on_commit_callbacks)  # alice's next

    assert client.llen(queue) == 2  # the flag was cleared: this turn woke a new sweep
    assert notifications.send_due_turn_emails() == 1
    assert [m.to for m in mail.outbox] == [[alice.email], [bob.email], [alice.email]]


def test_a_turn_email_that_waits_wakes_no_sweep_and_is_sent_when_due(
    alice, bob, tasks_published, settings, django_capture_on_commit_callbacks
):
    client, queue = tasks_published
    settings.TURN_EMAIL_DELAY_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=True):
        opened_by_white(alice, bob)
    email = Notification.objects.get(kind="turn")

    assert client.llen(queue) == 0  # no task: its row holds it, for beat's sweeps
    assert email.claimed_until > timezone.now() + timedelta(seconds=55)
    assert notifications.send_due_turn_emails() == 0

    Notification.objects.filter(pk=email.pk).update(claimed_until=timezone.now())
    assert notifications.send_due_turn_emails() == 1
    assert [m.to for m in mail.outbox] == [[alice.email]]


def test_with_redis_unreachable_the_turn_stands_and_its_email_waits_for_a_sweep(
    alice, bob, tasks_published, caplog, django_capture_on_commit_callbacks
):
    celery_app.conf.broker_write_url = "redis://127.0.0.1:1/0"  # nothing listens there

    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob)

    assert match.segment_count == 1
    assert "the turn emails' sweep is not woken" in caplog.text
    celery_app.conf.broker_write_url = None
    assert notifications.send_due_turn_emails() == 1


def test_an_email_failing_with_no_retry_delay_is_tried_once_a_sweep(alice, settings, monkeypatch):
    monkeypatch.setattr(notifications, "SWEEP_BATCH", 3)  # a full batch: it would look again
    settings.EMAIL_RETRY_BASE_SECONDS = 0  # due again at once after each failure
    for n in range(3):
        _email(alice, f"turn:{n}")
    refuse_mail(settings)

    assert notifications.send_due_turn_emails() == 0  # returns: no round after round

    attempts = Notification.objects.values_list("attempts", flat=True)
    assert sorted(attempts) == [1, 1, 1]


def test_a_sweep_clears_its_flag_once_before_its_last_look(alice, monkeypatch):
    monkeypatch.setattr(notifications, "SWEEP_BATCH", 4)
    for n in range(5):
        _email(alice, f"turn:{n}")
    cleared = []

    def clear_as_a_turn_commits() -> None:
        # A turn's email committed just before the flag is cleared: its own SET finds the
        # flag still set and wakes nobody, so this sweep must be the one to send it.
        cleared.append(Notification.objects.filter(sent_at=None).count())
        if len(cleared) == 1:
            _email(alice, "turn:just-before")

    monkeypatch.setattr(notifications, "_clear_wake", clear_as_a_turn_commits)

    assert notifications.send_due_turn_emails() == 6
    # Not before the looks that found a full batch (each would have a turn queue a sweep
    # more while this one is busy): once, when one found fewer.
    assert cleared == [1]


def test_the_wake_reaches_a_tls_broker_with_its_tls_settings():
    conf = celery_app.conf
    before = {key: conf.get(key) for key in ("broker_write_url", "broker_use_ssl")}
    conf.update(
        broker_write_url="rediss://redis.example:6380/1",
        broker_use_ssl={"ssl_ca_certs": "/etc/acey/redis-ca.pem"},
    )
    notifications._redis_at.cache_clear()
    try:
        client = notifications._wake_redis()
        options = client.connection_pool.connection_kwargs  # nothing connected yet
    finally:
        conf.update(before)
        notifications._redis_at.cache_clear()

    assert options["host"] == "redis.example"
    assert options["ssl_ca_certs"] == "/etc/acey/redis-ca.pem"
    assert client.connection_pool.connection_class is redis.SSLConnection
