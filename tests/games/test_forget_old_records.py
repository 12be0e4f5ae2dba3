"""Beat deletes what nothing else would: expired sessions, and emails sent or dropped long
ago. An email still to send stays, however old: the outbox sends each one once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import tasks
from games.models import Notification
from games.notifications import EMAILS_KEPT

pytestmark = pytest.mark.django_db


def _email(user, key: str, *, age: timedelta, **fields) -> Notification:
    return Notification.objects.create(
        user=user,
        kind="challenge",
        key=key,
        subject="A challenge",
        body="Play.",
        created_at=timezone.now() - age,
        **fields,
    )


def test_emails_sent_or_dropped_long_ago_are_deleted(alice):
    old = EMAILS_KEPT + timedelta(days=1)
    now = timezone.now()
    _email(alice, "sent long ago", age=old, sent_at=now - old, attempts=1)
    _email(alice, "dropped long ago", age=old, cancelled_at=now - old)
    recent = _email(alice, "sent lately", age=EMAILS_KEPT - timedelta(days=1), sent_at=now)
    # Old but never sent: given up on (its error for staff to read), held by a sender.
    failed = _email(alice, "given up on", age=old, attempts=20, last_error="550 no such user")
    held = _email(alice, "held", age=old, claimed_until=now + timedelta(minutes=5))

    deleted = tasks.task_forget_old_emails()

    assert deleted == 2
    assert set(Notification.objects.all()) == {recent, failed, held}


def test_expired_sessions_are_deleted():
    expired, live = SessionStore(), SessionStore()
    expired.set_expiry(timezone.now() - timedelta(seconds=1))
    expired.create()
    live.create()

    tasks.task_clear_expired_sessions()

    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]


def test_beat_runs_both():
    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}

    assert "games.tasks.task_forget_old_emails" in tasks_scheduled
    assert "games.tasks.task_clear_expired_sessions" in tasks_scheduled
