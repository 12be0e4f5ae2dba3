"""Real parts for the fault tests, which kill and restart them: a redis-server of the test's
own, Celery worker processes started and killed by PID, and an SMTP server in this process
that can hold a delivery open.

The Redis server is private to each test (a free port, no persistence) so that short
visibility timeouts, killed workers and restarts touch no other run's queues on the shared
Redis; the ``redis_url`` fixture only decides whether Redis tests run here at all.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from aiosmtpd.controller import Controller
from django.db import connection

from games import services
from games.engine import format_play
from games.models import Match
from games.services import TurnAction
from tests.conftest import need_service
from tests.integration.conftest import SITE_URL, CeleryWorker, Mailbox, free_port
from tests.publishing import tasks_published

QUEUE = "faults"


class RedisServer:
    """A ``redis-server`` on a free port without persistence: stopping it loses every
    queued and unacknowledged task, as a crashed broker would."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [
            *(shutil.which("redis-server") or "redis-server", "--bind", "127.0.0.1"),
            *("--port", str(self.port), "--save", "", "--appendonly", "no"),
            *("--dir", str(self.directory)),
        ]
        with (self.directory / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Worker(CeleryWorker):
    """A worker process this test started, so it may kill it (and only it) by PID."""

    def kill(self) -> None:
        """SIGKILL the whole worker: no warm shutdown, nothing acknowledged or restored."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def kill_pool_process(self) -> None:
        """SIGKILL the only pool process of a prefork worker (``--concurrency=1``), the
        one running its task; the worker itself lives on and starts another."""
        pid = self.process.pid
        [child] = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        os.kill(int(child), signal.SIGKILL)

    def received(self, task: str) -> list[str]:
        """The ids of the ``task`` messages this worker has received, in order."""
        pattern = rf"Task {re.escape(task)}\[([0-9a-f-]+)\] received"
        return re.findall(pattern, self.log.read_text(errors="replace"))

    def results(self, task: str) -> dict[str, str]:
        """What each ``task`` this worker finished returned (as logged), by task id: the
        last run's, for a task run more than once."""
        return dict(self.runs(task))

    def runs(self, task: str) -> list[tuple[str, str]]:
        """Each run of ``task`` this worker finished, in order: its id and what it returned
        (as logged)."""
        pattern = rf"Task {re.escape(task)}\[([0-9a-f-]+)\] succeeded in [0-9.e-]+s: (.*)"
        return re.findall(pattern, self.log.read_text(errors="replace"))


#: A sender waits this long for an SMTP reply (a held delivery is held for less).
SMTP_TIMEOUT = 120


class HoldingMailbox(Mailbox):
    """A mailbox that, once ``hold`` is set, holds the first delivery's DATA that many
    seconds before answering, so a sender can be killed while it waits for the reply.

    A delivery counts as received only once the server has answered 250. When the sender
    disconnects first, aiosmtpd cancels the handler and the delivery is ``aborted``, as a
    mail server that has not yet accepted the message drops it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.hold = 0.0
        self.holding = threading.Event()  # set once the first delivery's DATA has arrived
        self.aborted = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.hold and not self.holding.is_set():
            self.holding.set()
            try:
                await asyncio.sleep(self.hold)
            except asyncio.CancelledError:
                with self._lock:
                    self.aborted += 1
                raise
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def mailbox() -> Iterator[HoldingMailbox]:
    handler = HoldingMailbox()
    controller = Controller(handler, hostname="127.0.0.1", port=handler.port)
    controller.start()
    yield handler
    controller.stop()


@pytest.fixture
def broker(redis_url: str, tmp_path: Path) -> Iterator[RedisServer]:
    """A private Redis that this process publishes tasks to for the test's duration."""
    need_service("redis-server (the binary)", available=shutil.which("redis-server") is not None)
    server = RedisServer(tmp_path)
    server.start()
    with tasks_published(server.url, QUEUE):
        yield server
    server.stop()


@pytest.fixture
def worker_database_url(postgres_url: str, transactional_db) -> str:
    """DATABASE_URL naming the test database (pytest-django's ``test_<name>``)."""
    return urlsplit(postgres_url)._replace(path=f"/{connection.settings_dict['NAME']}").geturl()


@pytest.fixture
def start_worker(
    broker: RedisServer,
    worker_database_url: str,
    mailbox: HoldingMailbox,
    tmp_path: Path,
    settings,
) -> Iterator[Callable[..., Worker]]:
    """``start_worker(pool="solo", visibility_timeout=None)`` starts a worker on the test's
    Redis and database; any still running at the end are stopped by PID."""
    settings.SITE_URL = SITE_URL
    started: list[Worker] = []

    def start(*, pool: str = "solo", visibility_timeout: float | None = None) -> Worker:
        name = f"fault-{len(started) + 1}-{uuid.uuid4().hex[:6]}"
        env = {
            **os.environ,
            "DATABASE_URL": worker_database_url,
            "DB_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": broker.url,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_TASK_DEFAULT_QUEUE": QUEUE,
            "ACEY_TEST_VISIBILITY_TIMEOUT": str(visibility_timeout or ""),
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": str(mailbox.port),
            "SMTP_USER": "",
            "SMTP_PASSWORD": "",
            "SMTP_USE_TLS": "false",
            "SMTP_TIMEOUT": str(SMTP_TIMEOUT),
            "SITE_URL": SITE_URL,
            "ACEY_TURN_EMAIL_DELAY": "0",  # turn emails at once, as the test process sends them
            "PYTHONUNBUFFERED": "1",
        }
        command = [
            *(sys.executable, "-m", "tests.faults.worker", f"--pool={pool}", "--concurrency=1"),
            *(f"--queues={QUEUE}", f"--hostname={name}@%h", "--prefetch-multiplier=1"),
            *("--without-heartbeat", "--without-gossip", "--without-mingle", "--loglevel=info"),
        ]
        log = tmp_path / f"{name}.log"
        with log.open("wb") as output:
            process = subprocess.Popen(
                command, cwd=settings.BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT
            )
        worker = Worker(process, log, QUEUE)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.process.poll() is None:
            worker.stop()


def play_first_legal(match: Match) -> Match:
    """The player to move plays the first legal play (6-6 when naming a double)."""
    match.refresh_from_db()
    if match.phase == "name_double":
        action = TurnAction(segment=match.segment_count, double=6)
    else:
        play = services.load_game(match).legal_plays()[0]
        action = TurnAction(segment=match.segment_count, play=format_play(play))
    return services.submit_segment(match.pk, user=match.to_move, action=action)


def wait_until(condition: Callable[[], object], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.05)
