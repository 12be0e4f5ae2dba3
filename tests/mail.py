"""Mail settings for tests."""

from __future__ import annotations

import socket


def refuse_mail(settings) -> None:
    """Send mail over SMTP to a port on this machine that nobody listens on: every send
    fails at once (ConnectionRefusedError). ``settings``: pytest-django's fixture."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "timeout": 2},
        }
    }
