"""A sender keeps its SMTP connection between emails, and copes when the server drops it.

Against a real SMTP server (aiosmtpd) in this process: each connection is one SMTP session,
told apart by the client's port.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from aiosmtpd.controller import Controller

from games import notifications
from games.models import Notification
from tests.mail import smtp_on

pytestmark = pytest.mark.django_db


class Sessions:
    """An aiosmtpd handler recording, per accepted email, the client port that sent it;
    ``refuse_next`` makes it answer the next DATA with that reply instead."""

    def __init__(self) -> None:
        self.accepted: list[tuple[int, list[str]]] = []
        self.refuse_next = ""
        self.drop_next_mail = False
        self._lock = threading.Lock()

    async def handle_MAIL(self, server, session, envelope, address, mail_options) -> str:
        with self._lock:
            if self.drop_next_mail:
                # What Postfix says to a client it drops for idling.
                self.drop_next_mail = False
                return "421 4.4.2 example.com Error: timeout exceeded"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        with self._lock:
            if self.refuse_next:
                reply, self.refuse_next = self.refuse_next, ""
                return reply
            self.accepted.append((session.peer[1], list(envelope.rcpt_tos)))
        return "250 2.0.0 OK"

    def connections(self) -> int:
        return len({port for port, _ in self.accepted})


class Server:
    """An SMTP server on a fixed port that can be restarted, as a server that drops its
    idle clients (or is restarted) does."""

    def __init__(self) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.sessions = Sessions()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.sessions, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def server(settings) -> Iterator[Server]:
    smtp = Server()
    smtp.start()
    smtp_on(settings, smtp.port, timeout=5)
    yield smtp
    notifications._kept.drop()
    smtp.stop()


def _queued(user, n: int) -> Notification:
    return Notification.objects.create(
        user=user, kind="challenge", key=f"kept-connection-{n}", subject="Hi", body="Play."
    )


def test_consecutive_emails_share_one_connection(server, alice, bob):
    first, second = _queued(alice, 1), _queued(bob, 2)

    assert notifications.send_notification(first.pk)
    assert notifications.send_notification(second.pk)

    assert [to for _, to in server.sessions.accepted] == [[alice.email], [bob.email]]
    assert server.sessions.connections() == 1


def test_a_connection_the_server_dropped_is_reopened_and_the_email_sent_once(server, alice, bob):
    first, second = _queued(alice, 1), _queued(bob, 2)
    assert notifications.send_notification(first.pk)

    server.stop()  # the kept connection dies with the server
    server.start()

    assert notifications.send_notification(second.pk)
    second.refresh_from_db()
    assert second.sent_at is not None and second.attempts == 1
    assert [to for _, to in server.sessions.accepted] == [[alice.email], [bob.email]]
    assert server.sessions.connections() == 2


def test_a_connection_idle_too_long_is_not_reused(server, alice, bob, monkeypatch):
    monkeypatch.setattr(notifications, "MAIL_CONNECTION_IDLE_SECONDS", 0.0)

    assert notifications.send_notification(_queued(alice, 1).pk)
    assert notifications.send_notification(_queued(bob, 2).pk)

    assert server.sessions.connections() == 2


def test_a_refused_email_is_not_retried_at_once_and_the_next_one_goes_out(server, alice, bob):
    refused, next_one = _queued(alice, 1), _queued(bob, 2)
    server.sessions.refuse_next = "451 4.3.0 try again later"

    with pytest.raises(Exception, match="try again later"):
        notifications.send_notification(refused.pk)
    assert notifications.send_notification(next_one.pk)

    refused.refresh_from_db()
    assert refused.sent_at is None and refused.attempts == 1
    assert [to for _, to in server.sessions.accepted] == [[bob.email]]


def test_a_server_that_is_down_is_an_error_not_a_lost_email(server, alice):
    notification = _queued(alice, 1)
    server.stop()

    with pytest.raises(ConnectionRefusedError):
        notifications.send_notification(notification.pk)

    notification.refresh_from_db()
    assert notification.sent_at is None and notification.last_error


def test_a_kept_connection_answered_421_is_reopened_and_the_email_sent_once(server, alice, bob):
    first, second = _queued(alice, 1), _queued(bob, 2)
    assert notifications.send_notification(first.pk)
    server.sessions.drop_next_mail = True

    assert notifications.send_notification(second.pk)

    assert [to for _, to in server.sessions.accepted] == [[alice.email], [bob.email]]
    assert server.sessions.connections() == 2
