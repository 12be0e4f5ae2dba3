"""Each email the outbox sends, drops or fails to send is logged in one line: its id, its
kind and why, never its address or what it says."""

from __future__ import annotations

import logging
from smtplib import SMTPRecipientsRefused

import pytest
from aiosmtpd.controller import Controller
from celery.exceptions import Retry
from django.utils import timezone

from aceysite.celery import app as celery_app
from games import notifications, services, tasks
from games.engine.game import ScriptedDice
from games.models import Notification
from games.services import TurnAction
from tests.integration.conftest import Mailbox
from tests.mail import refuse_mail, smtp_on
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


@pytest.fixture
def email_log(caplog) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="games.notifications")
    return caplog


def logged(email_log: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    """The lines the test logged (pytest keeps those of its setup apart)."""
    return [(record.levelname, record.getMessage()) for record in email_log.records]


def queued_challenge(alice, bob, django_capture_on_commit_callbacks) -> Notification:
    """A challenge email to bob stored in the outbox whose sending task never ran."""
    with django_capture_on_commit_callbacks(execute=False):
        services.create_challenge(alice, opponent=bob)
    return Notification.objects.get(user=bob)


def test_it_logs_an_email_sent_and_one_not_sent_twice(
    alice, bob, django_capture_on_commit_callbacks, email_log
):
    email = queued_challenge(alice, bob, django_capture_on_commit_callbacks)

    notifications.send_notification(email.pk)
    notifications.send_notification(email.pk)

    assert logged(email_log) == [
        ("INFO", f"email {email.pk} (challenge) sent, attempt 1"),
        ("INFO", f"email {email.pk} (challenge) not sent again: sent already"),
    ]


def test_it_logs_a_failure_and_its_error(
    alice, bob, settings, django_capture_on_commit_callbacks, email_log
):
    email = queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    refuse_mail(settings)

    with pytest.raises(ConnectionRefusedError):
        notifications.send_notification(email.pk)

    [(level, message)] = logged(email_log)
    assert level == "WARNING"
    assert message.startswith(f"email {email.pk} (challenge) failed, attempt 1: ")
    assert "ConnectionRefusedError: " in message


def test_it_logs_why_a_turn_email_is_dropped(
    alice, bob, settings, django_capture_on_commit_callbacks, email_log
):
    settings.TURN_EMAIL_DELAY_SECONDS = 300
    celery_app.conf.task_always_eager = False  # the autouse fixture puts it back
    with django_capture_on_commit_callbacks(execute=False):
        match = opened_by_white(alice, bob)  # alice to move, her turn email waiting
        email = Notification.objects.get(user=alice, kind="turn")
        services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/19"),
            dice=ScriptedDice([4, 1]),
        )

    notifications.send_notification(email.pk)  # before its time
    Notification.objects.filter(pk=email.pk).update(claimed_until=timezone.now())
    notifications.send_notification(email.pk)

    held = email.claimed_until.isoformat(timespec="seconds")
    assert logged(email_log) == [
        (
            "INFO",
            f"email {email.pk} (turn) not sent now: held until {held} (being sent, or"
            " waiting for a retry or for a turn or challenge email's delay)",
        ),
        (
            "INFO",
            f"email {email.pk} (turn) not sent, dropped: no longer needed, the turn it"
            " tells of has been played",
        ),
    ]


def test_it_logs_an_email_whose_addressee_closed_their_account(
    alice, bob, django_capture_on_commit_callbacks, email_log
):
    email = queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    type(bob).objects.filter(pk=bob.pk).update(email="")

    notifications.send_notification(email.pk)

    assert logged(email_log) == [
        (
            "INFO",
            f"email {email.pk} (challenge) not sent, dropped: its addressee has no address"
            " now, their account closed",
        )
    ]


def test_an_error_is_told_without_the_addresses_in_it():
    refused = SMTPRecipientsRefused(
        {"bob@example.com": (550, b"5.1.1 <bob@example.com>: Recipient address rejected")}
    )

    told = notifications.failure_in_words(refused)

    assert told == (
        "SMTPRecipientsRefused: {'[address]': (550, b'5.1.1 <[address]>:"
        " Recipient address rejected')}"
    )


def test_no_line_holds_an_address_or_a_body(
    alice, bob, django_capture_on_commit_callbacks, email_log
):
    email = queued_challenge(alice, bob, django_capture_on_commit_callbacks)

    notifications.send_notification(email.pk)

    [(_, text)] = logged(email_log)
    assert "@" not in text
    assert email.subject not in text and email.body.splitlines()[0] not in text


def test_celery_is_told_a_refusal_without_the_address(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    mailbox = Mailbox()
    mailbox.refuse(bob.email, f"550 5.1.1 <{bob.email}>: Recipient address rejected")
    smtp_on(settings, mailbox.port)
    email = queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    server = Controller(mailbox, hostname="127.0.0.1", port=mailbox.port)
    server.start()
    try:
        # In process the Retry comes out (a worker logs it); the retry it ran at once found
        # the email held for its turn, 30 s on.
        with pytest.raises(Retry) as retried:
            tasks.task_send_notification.apply(kwargs={"notification_id": email.pk})
    finally:
        server.stop()

    assert mailbox.to(bob.email) == []
    assert str(retried.value) == (
        "Retry in 30s: EmailFailed(\"SMTPDataError: (550, b'5.1.1 <[address]>:"
        " Recipient address rejected')\")"
    )
