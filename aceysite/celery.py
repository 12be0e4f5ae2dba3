import logging
import os

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun
from django.db import transaction
from kombu.exceptions import OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceysite.settings")

app = Celery("aceysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@task_prerun.connect
@task_postrun.connect
def recycle_database_connections(task=None, **kwargs) -> None:
    """Treat each task like Django treats a request: keep the worker's database connection
    for CONN_MAX_AGE, health-checked before reuse, instead of Celery's default of a new
    connection for every task (see CELERY_DB_REUSE_MAX in settings).

    Eager tasks run inside the caller's transaction, where closing would break it.
    """
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


def queue_after_commit(task: Task, *, countdown: int | None = None, **kwargs: object) -> None:
    """Queue ``task`` with the keyword arguments ``kwargs`` once the transaction commits.

    The committed change never becomes an error: with the broker down (an outage, which
    beat's sweeps make good once it is back) one warning says so; any other failure is a
    bug, which Django logs with its traceback (robust on_commit) and the request survives.
    """
    transaction.on_commit(lambda: queue(task, countdown=countdown, **kwargs), robust=True)


def queue(task: Task, *, countdown: int | None = None, **kwargs: object) -> bool:
    """Queue ``task`` now; False, with a warning and no traceback, if the broker cannot be
    reached (kombu has already retried the connection by then)."""
    try:
        task.apply_async(kwargs=kwargs, countdown=countdown)
    except OperationalError as error:
        arguments = ", ".join(f"{name}={value!r}" for name, value in kwargs.items())
        logger.warning(
            "the broker is unreachable, %s(%s) is not queued (beat's sweeps will queue it): %s",
            task.name,
            arguments,
            error,
        )
        return False
    return True
