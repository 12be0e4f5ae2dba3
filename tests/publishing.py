"""Celery tasks published to a broker for a test's duration, not run in-process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from aceysite.celery import app as celery_app


@contextmanager
def tasks_published(write_url: str | None, queue: str | None = None) -> Iterator[None]:
    """Publish this process's tasks to the broker at ``write_url`` (the configured broker
    if None), to ``queue`` if given, instead of running them here; as before afterwards.

    Publishing uses broker_write_url when set: broker_url would lose to the
    CELERY_BROKER_URL environment variable, which Celery reads first."""
    conf = celery_app.conf
    before = (conf.task_always_eager, conf.get("broker_write_url"), conf.task_default_queue)
    conf.task_always_eager, conf.broker_write_url = False, write_url
    if queue is not None:
        conf.task_default_queue = queue
    _drop_broker_connections()
    try:
        yield
    finally:
        conf.task_always_eager, conf.broker_write_url, conf.task_default_queue = before
        _drop_broker_connections()


def _drop_broker_connections() -> None:
    # Celery keeps pooled connections to the broker it first connected to; these are the
    # two caches it clears itself after a fork (Celery._after_fork).
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
