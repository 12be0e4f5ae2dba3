"""A worker keeps its PostgreSQL connection from one task to the next (CONN_MAX_AGE), as a
web process does between requests, instead of Celery's default of a new connection (a new
server process) for every task."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
from django.db import connection

from games import services
from games.engine.game import ScriptedDice
from games.models import Notification
from games.services import TurnAction
from tests.matches import opened_by_white
from tests.publishing import tasks_published

from .conftest import SITE_URL, CeleryWorker, Mailbox, forget_queue, start_worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def keeping_worker(
    broker_url: str, worker_database_url: str, mailbox: Mailbox, tmp_path, settings
) -> Iterator[CeleryWorker]:
    worker = start_worker(
        broker_url,
        worker_database_url,
        mailbox,
        tmp_path,
        DB_CONN_MAX_AGE="60",
        DB_APPLICATION_NAME=f"worker-{tmp_path.name}",
    )
    settings.SITE_URL = SITE_URL
    with tasks_published(None, worker.queue):
        yield worker
    worker.stop()  # its connection closes with it, before the test database is dropped
    forget_queue(broker_url, worker.queue)


def _worker_connections(name: str) -> list[datetime]:
    """When each open connection of the worker (its application_name) was opened."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT backend_start FROM pg_stat_activity WHERE application_name = %s", [name]
        )
        return [started for (started,) in cursor.fetchall()]


def _sent() -> int:
    return Notification.objects.filter(sent_at__isnull=False).count()


def test_a_worker_sends_many_emails_over_one_database_connection(
    alice, bob, keeping_worker: CeleryWorker, tmp_path
):
    for n in range(4):
        # Each match emails its first mover (alice, white after 6-1); then her move
        # emails bob.
        match = opened_by_white(alice, bob, dice=(6, 1, 6, 3))
        services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/19"),
            dice=ScriptedDice([4, 1]),
        )
        keeping_worker.wait_for(
            lambda n=n: _sent() == 2 * (n + 1), timeout=30, what=f"emails of match {n + 1}"
        )

    # One connection, still open, opened before the first email went out. (Celery's default
    # closed it after every task: none would be open now, or a younger one.)
    first_sent = Notification.objects.order_by("sent_at").values_list("sent_at", flat=True)[0]
    opened = _worker_connections(f"worker-{tmp_path.name}")
    assert len(opened) == 1, f"the worker has {len(opened)} database connections open"
    assert opened[0] < first_sent
