"""Real parts for the integration tests: an SMTP server in this process, and one
``celery -A aceysite worker -B`` process (with beat embedded) per module, using the test
database, a Redis queue of its own and that SMTP server.

The worker is started once per module because starting Django and Celery is the slow part.
"""

from __future__ import annotations

import email
import email.policy
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import connection

from tests.conftest import need_service
from tests.publishing import tasks_published

SITE_URL = "https://acey-deucey-by-post.example.com"
#: The deadline sweep, and the turn emails', run this often in the worker's embedded beat.
SWEEP_SECONDS = 1
#: The first retry of a refused email waits this long, the next twice as long.
EMAIL_RETRY_BASE = 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Mailbox:
    """An aiosmtpd handler that keeps what it accepts and can refuse a recipient's first
    deliveries with the SMTP replies given to :meth:`refuse`."""

    def __init__(self) -> None:
        self.port = free_port()
        self._lock = threading.Lock()
        self.clear()

    def clear(self) -> None:
        with self._lock:
            self.received: list[tuple[list[str], bytes]] = []
            self.attempts: list[tuple[float, str]] = []
            self._refusals: dict[str, list[str]] = {}

    def refuse(self, address: str, *replies: str) -> None:
        with self._lock:
            self._refusals[address] = list(replies)

    async def handle_DATA(self, server, session, envelope) -> str:
        with self._lock:
            self.attempts.extend((time.monotonic(), address) for address in envelope.rcpt_tos)
            for address in envelope.rcpt_tos:
                if self._refusals.get(address):
                    return self._refusals[address].pop(0)
            self.received.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 2.0.0 OK"

    def attempt_times(self, address: str) -> list[float]:
        with self._lock:
            return [at for at, to in self.attempts if to == address]

    def raw_to(self, address: str) -> list[bytes]:
        with self._lock:
            return [raw for recipients, raw in self.received if address in recipients]

    def to(self, address: str) -> list[EmailMessage]:
        return [
            email.message_from_bytes(raw, policy=email.policy.default)
            for raw in self.raw_to(address)
        ]


class CeleryWorker:
    """A ``celery -A aceysite worker`` process logging to a file, stopped by its PID."""

    def __init__(self, process: subprocess.Popen, log: Path, queue: str) -> None:
        self.process = process
        self.log = log
        self.queue = queue

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-6000:]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def wait_for(self, condition: Callable[[], object], *, timeout: float, what: str) -> None:
        """Poll ``condition`` until it is true; fail with the worker's log after
        ``timeout`` seconds, or at once if the worker has exited."""
        deadline = time.monotonic() + timeout
        while not condition():
            if self.process.poll() is not None or time.monotonic() > deadline:
                reason = "the worker exited" if self.process.poll() is not None else "timeout"
                pytest.fail(f"waiting {timeout:.0f} s for {what}: {reason}\n{self.output()}")
            time.sleep(0.1)


@pytest.fixture(scope="module")
def broker_url() -> str:
    url = settings.CELERY_BROKER_URL
    need_service("Redis (CELERY_BROKER_URL=redis://...)", available=url.startswith("redis"))
    return url


@pytest.fixture(scope="module")
def worker_database_url(django_db_setup) -> str:
    """DATABASE_URL naming the test database (pytest-django's ``test_<name>``)."""
    url = os.getenv("DATABASE_URL", "")
    need_service("PostgreSQL (DATABASE_URL=postgres://...)", available=url.startswith("postgres"))
    return urlsplit(url)._replace(path=f"/{connection.settings_dict['NAME']}").geturl()


@pytest.fixture(scope="module")
def module_mailbox() -> Iterator[Mailbox]:
    handler = Mailbox()
    controller = Controller(handler, hostname="127.0.0.1", port=handler.port)
    controller.start()
    yield handler
    controller.stop()


@pytest.fixture
def mailbox(module_mailbox: Mailbox) -> Mailbox:
    module_mailbox.clear()
    return module_mailbox


def start_worker(
    broker_url: str,
    worker_database_url: str,
    mailbox: Mailbox,
    logs: Path,
    **overrides: str,
) -> CeleryWorker:
    """A ``celery worker`` process with an embedded beat on a queue of its own; the
    environment ``overrides`` come last."""
    queue = f"acey-test-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DATABASE_URL": worker_database_url,
        # No idle connections left open to the test database between tasks.
        "DB_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "ACEY_SWEEP_SECONDS": str(SWEEP_SECONDS),
        "ACEY_TURN_EMAIL_SWEEP_SECONDS": str(SWEEP_SECONDS),
        "ACEY_EMAIL_RETRY_BASE": str(EMAIL_RETRY_BASE),
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(mailbox.port),
        "SMTP_USER": "",
        "SMTP_PASSWORD": "",
        "SMTP_USE_TLS": "false",
        "SMTP_TIMEOUT": "5",
        "SITE_URL": SITE_URL,
        "ACEY_TURN_EMAIL_DELAY": "0",  # tests of the wait override it
        "PYTHONUNBUFFERED": "1",
        **overrides,
    }
    command = [
        *(sys.executable, "-m", "celery", "-A", "aceysite", "worker"),
        *("--pool=solo", "--concurrency=1", f"--queues={queue}", f"--hostname={queue}@%h"),
        *("--without-heartbeat", "--without-gossip", "--without-mingle", "--loglevel=info"),
        # The base Scheduler keeps its schedule in memory: the default keeps it in a
        # shelve file (SQLite under Python 3.13), whose "locking protocol" error once
        # stopped the embedded beat of a test on a loaded machine. Each worker here
        # starts afresh anyway.
        *("--beat", "--scheduler=celery.beat:Scheduler"),
    ]
    log = logs / "worker.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    return CeleryWorker(process, log, queue)


def forget_queue(broker_url: str, queue: str) -> None:
    bindings = (f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    redis.Redis.from_url(broker_url).delete(queue, *bindings)


@pytest.fixture(scope="module")
def module_worker(
    request: pytest.FixtureRequest,
    broker_url: str,
    worker_database_url: str,
    module_mailbox: Mailbox,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[CeleryWorker]:
    """The module's worker; a module's ``WORKER_ENV`` dict adds to its environment."""
    logs = tmp_path_factory.mktemp("celery")
    overrides = getattr(request.module, "WORKER_ENV", {})
    worker = start_worker(broker_url, worker_database_url, module_mailbox, logs, **overrides)
    yield worker
    worker.stop()
    forget_queue(broker_url, worker.queue)


@pytest.fixture
def worker(module_worker: CeleryWorker, transactional_db, settings) -> Iterator[CeleryWorker]:
    """The module's worker, for a ``transaction=True`` test whose tasks this process
    publishes to the worker's queue instead of running them in-process."""
    settings.SITE_URL = SITE_URL
    with tasks_published(None, module_worker.queue):
        yield module_worker
