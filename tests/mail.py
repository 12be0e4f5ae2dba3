"""Mail settings for tests."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager


def refuse_mail(settings) -> None:
    """Send mail over SMTP to a port on this machine that nobody listens on: every send
    fails at once (ConnectionRefusedError). ``settings``: pytest-django's fixture."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    smtp_on(settings, port, timeout=2)


@contextmanager
def silent_mail(settings, *, timeout: float) -> Iterator[None]:
    """Send mail over SMTP to a server on this machine that takes the connection and never
    says a word: every send fails after ``timeout`` seconds (no greeting). ``settings``:
    pytest-django's fixture."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()  # the kernel completes each connection; nobody answers on it
        smtp_on(settings, server.getsockname()[1], timeout=timeout)
        yield


def smtp_on(settings, port: int, *, timeout: float | None = None) -> None:
    """Send mail over plain SMTP to ``port`` on this machine (``timeout``: Django's
    default, none, if not given)."""
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "timeout": timeout},
        }
    }
