"""With Redis down (the cache and the broker), what the web process logs: one warning for
each call that found it down, with the reason and without a traceback (an outage, which
beat's sweeps make good), while a bug in the same places still logs its traceback."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

from aceysite.celery import queue_after_commit
from games import services
from games.models import Notification
from games.tasks import task_send_notification
from tests.matches import accepter_moves_first
from tests.publishing import tasks_published

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
#: Nothing listens on port 1: every connection is refused at once.
NOWHERE = "redis://127.0.0.1:1"
REFUSED = "Error 111 connecting to 127.0.0.1:1. Connection refused."


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": NOWHERE}
    }
    with tasks_published(f"{NOWHERE}/1"):
        yield


def test_logins_and_an_accept_log_one_line_for_each_call_redis_failed(
    client, alice, bob, redis_down, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    challenge = services.create_challenge(bob, opponent=alice, points=3)
    accepter_moves_first(monkeypatch)  # bob, the challenger, gets an email of the accept
    emails_before = set(Notification.objects.values_list("pk", flat=True))
    caplog.set_level(logging.INFO)

    client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    with django_capture_on_commit_callbacks(execute=True):
        accepted = client.post(reverse("challenge_accept", args=[challenge.pk]))

    assert accepted.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)
    # The accept's emails (bob's that it was accepted, and the first turn's) stay unsent,
    # for the resend sweep and the turn emails' sweep.
    turn_email, accepted_email = Notification.objects.exclude(pk__in=emails_before).order_by("pk")
    assert (turn_email.kind, accepted_email.kind) == ("turn", "accepted")
    assert [accepted_email.sent_at, turn_email.sent_at] == [None, None]
    told = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert [record.getMessage() for record in told] == [
        f"the cache is unreachable, is_login_blocked goes on unlimited: {REFUSED}",
        f"the cache is unreachable, record_failed_login goes on unlimited: {REFUSED}",
        f"the cache is unreachable, is_login_blocked goes on unlimited: {REFUSED}",
        f"the cache is unreachable, clear_failed_logins goes on unlimited: {REFUSED}",
        "the broker is unreachable, the turn emails' sweep is not woken (beat's sweeps will"
        f" send them): {REFUSED}",
        "the broker is unreachable, games.tasks.task_send_notification"
        f"(notification_id={accepted_email.pk}) is not queued (beat's sweeps will queue it):"
        f" {REFUSED}",
    ]
    assert [(record.levelname, record.exc_info) for record in told] == [("WARNING", None)] * 6


def test_a_bug_in_queueing_after_commit_still_logs_its_traceback(
    monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def broken(*args: object, **kwargs: object) -> None:
        raise TypeError("a bug, not an outage")

    monkeypatch.setattr(task_send_notification, "apply_async", broken)

    with django_capture_on_commit_callbacks(execute=True):
        queue_after_commit(task_send_notification, notification_id=1)

    (record,) = caplog.records
    assert record.levelname == "ERROR"
    assert record.exc_info[0] is TypeError


def test_staff_sending_an_email_again_with_redis_down_are_told_not_failed(
    client, alice, redis_down, caplog
):
    failed = Notification.objects.create(
        user=alice, kind="challenge", key="admin-redis-down", subject="A", body="B", attempts=3
    )
    staff = alice.__class__.objects.create_superuser("boss", "boss@example.com", "x")
    client.force_login(staff)

    answer = client.post(
        reverse("admin:games_notification_changelist"),
        {"action": "send_again", "_selected_action": [failed.pk]},
        follow=True,
    )

    assert answer.status_code == 200
    assert "1 email(s) could not be queued: the task queue (Redis) is unreachable" in answer.text
    assert "0 email(s) queued to be sent" in answer.text
    failed.refresh_from_db()
    assert failed.sent_at is None  # left for beat's resend sweep
    assert [r.levelname for r in caplog.records if r.name == "aceysite.celery"] == ["WARNING"]
