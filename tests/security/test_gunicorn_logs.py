"""gunicorn's access log, as the Procfile's web process writes it, keeps the tokens of
emailed links out: the request line, the query and the Referer of the files a page loads
(gunicorn logs outside Django's LOGGING, so Django's filter alone does not reach it)."""

from __future__ import annotations

import http.client
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.db import connection
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.services import email_change_token, email_confirmation_token
from games import services
from games.notifications import unsubscribe_token

pytestmark = pytest.mark.django_db(transaction=True)

REPOSITORY = Path(__file__).resolve().parent.parent.parent
CLIENT = "203.0.113.9"


def procfile_web_command(control_socket: Path) -> list[str]:
    """The Procfile's ``web`` command, on a port of the system's choosing on 127.0.0.1."""
    (line,) = [
        line for line in (REPOSITORY / "Procfile").read_text().splitlines() if line[:4] == "web:"
    ]
    words = shlex.split(line.removeprefix("web:").replace("0.0.0.0:$PORT", "127.0.0.1:0"))
    assert words[0] == "gunicorn"
    # gunicorn 27 opens a control socket at one path per user: this one is the test's own.
    return [sys.executable, "-m", *words, "--control-socket", str(control_socket)]


def database_url_for_another_process(directory: Path) -> str:
    """The test database, for gunicorn to serve: SQLite's lives in this process's memory,
    so a copy of it; PostgreSQL's as it is (the test commits its rows)."""
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        copy = directory / "site.sqlite3"
        with sqlite3.connect(copy) as target:
            connection.connection.backup(target)
        target.close()
        return f"sqlite:///{copy}"
    config = connection.settings_dict
    user, password = quote(config["USER"], safe=""), quote(config["PASSWORD"], safe="")
    return f"postgres://{user}:{password}@{config['HOST']}:{config['PORT']}/{config['NAME']}"


class Gunicorn:
    """The Procfile's web process, its standard output and error each in a file."""

    def __init__(self, directory: Path) -> None:
        self.stdout, self.stderr = directory / "stdout.log", directory / "stderr.log"
        env = {
            **os.environ,
            "DATABASE_URL": database_url_for_another_process(directory),
            "SECRET_KEY": settings.SECRET_KEY,
            "TRUSTED_PROXY_COUNT": "1",
            "WEB_CONCURRENCY": "1",
            "CELERY_BROKER_URL": "",
            "REDIS_URL": "",
        }
        with self.stdout.open("wb") as out, self.stderr.open("wb") as err:
            self.process = subprocess.Popen(
                procfile_web_command(directory / "gunicorn.ctl"),
                cwd=REPOSITORY,
                env=env,
                stdout=out,
                stderr=err,
            )
        self.port = self._wait_for_port()

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            listening = re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", self.logs())
            if listening and "Booting worker" in self.logs():
                return int(listening.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"gunicorn did not start:\n{self.logs()}")

    def get(self, path: str, **headers: str) -> int:
        """GET ``path`` as sent through a proxy for CLIENT; the status of the answer."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", path, headers={"X-Forwarded-For": CLIENT, **headers})
            return conn.getresponse().status
        finally:
            conn.close()

    def logs(self) -> str:
        return self.stderr.read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture
def gunicorn_factory():
    """Starts the web process once the test has written what it is to serve."""
    started: list[Gunicorn] = []

    def start(directory: Path) -> Gunicorn:
        started.append(Gunicorn(directory))
        return started[-1]

    yield start
    for server in started:
        if server.process.poll() is None:
            server.stop()


class Link:
    """An emailed link's path (by reverse(): should an address change, so does the test),
    its secret and the part of the path before its arguments, which the log keeps."""

    def __init__(self, name: str, *args: object) -> None:
        self.path = reverse(name, args=args)
        self.secret = str(args[-1])
        self.route = self.path[: self.path.index(f"/{args[0]}/") + 1]


def emailed_links(alice, bob) -> dict[str, Link]:
    """Each kind of link the site emails, with a real secret but the undo link's (a random
    one kept in the cache)."""
    invite = services.create_challenge(bob, private=True)
    uid = urlsafe_base64_encode(force_bytes(alice.pk))
    new_email = "alice@new.example"
    return {
        "password reset": Link(
            "password_reset_confirm", uid, default_token_generator.make_token(alice)
        ),
        "address confirmation": Link("email_verify", email_confirmation_token(alice)),
        "email change": Link(
            "email_change_confirm", email_change_token(alice, new_email=new_email)
        ),
        "email change undone": Link("email_change_undo", alice.pk, "Zq9-undo_secret"),
        "unsubscribe": Link("unsubscribe", unsubscribe_token(alice)),
        "private invite": Link("invite", invite.invite_token),
    }


def test_the_access_log_redacts_every_emailed_link(gunicorn_factory, alice, bob, tmp_path):
    links = emailed_links(alice, bob)
    gunicorn = gunicorn_factory(tmp_path)
    statuses = {}
    for kind, link in links.items():
        statuses[kind] = gunicorn.get(link.path)
        # The page's static files name it again, and the login page (for an invite).
        gunicorn.get("/static/css/site.css", Referer=f"https://acey.example{link.path}")
        gunicorn.get(f"{reverse('login')}?next={link.path}")
    gunicorn.stop()

    log = gunicorn.logs()
    printed = log + gunicorn.stdout.read_text()
    for kind, link in links.items():
        assert link.secret not in printed, kind
        assert f'"GET {link.route}[redacted] HTTP/1.1" {statuses[kind]} ' in log, kind
        assert f'"https://acey.example{link.route}[redacted]"' in log, kind
        assert f'"GET /accounts/login/?next={link.route}[redacted] HTTP/1.1" 200 ' in log, kind
    # The reset link, unused, is what the operator saw: it passes its token on in a 302.
    assert statuses["password reset"] == 302
    # Every line names the client, as the site's limits count it behind the proxy.
    requests = [line for line in log.splitlines() if '"GET ' in line]
    assert len(requests) == 3 * len(links)
    assert all(line.startswith(f"{CLIENT} - - [") for line in requests)
    # The access log is on standard error, with the rest of the logs.
    assert gunicorn.stdout.read_text() == ""
