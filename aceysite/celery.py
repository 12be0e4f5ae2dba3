import logging
import os
import threading

from celery import Celery, Task
from celery.signals import beat_init, task_postrun, task_prerun
from django.db import transaction
from kombu.exceptions import OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceysite.settings")

app = Celery("aceysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@beat_init.connect
def log_beat_outages_in_a_line(**kwargs: object) -> None:
    """Give beat's logger the filter that logs a sweep it could not send to an unreachable
    broker in one line (aceysite.log_filters.BeatOutage). Here, as beat starts: Celery sets
    up its processes' logging itself, and settings.LOGGING's filters do not reach it."""
    from .log_filters import BeatOutage

    beat_logger = logging.getLogger("celery.beat")
    if not any(isinstance(each, BeatOutage) for each in beat_logger.filters):
        beat_logger.addFilter(BeatOutage())


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
    reached (kombu has already retried the connection by then). In eager mode, run it now
    (:func:`_run_eagerly`)."""
    if task.app.conf.task_always_eager:
        _run_eagerly(task, kwargs)
        return True
    try:
        # The arguments as the worker's log and monitors show them, written here: the
        # tasks queued this way take a few ids, and Celery's own (saferepr, which cuts long
        # values short) cost a turn a sixth of its task's publication.
        task.apply_async(kwargs=kwargs, countdown=countdown, argsrepr="()", kwargsrepr=repr(kwargs))
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


class _EagerTasks(threading.local):
    """The tasks queued in eager mode by the task running in this thread, to run after it:
    ``None`` while none runs."""

    def __init__(self) -> None:
        self.waiting: list[tuple[Task, dict[str, object]]] | None = None


_eager = _EagerTasks()


def _run_eagerly(task: Task, kwargs: dict[str, object]) -> None:
    """Run ``task`` in this process (eager mode: bin/serve, the tests), then each task it
    queued, in the order queued, as a worker would take them: one after the other, not
    each inside the one that queued it. Inside, a chain of tasks each queueing the next
    (a bot turn after a bot turn: two bots playing each other) grew the stack with every
    link, until a long match overflowed it.

    An exception of ``task`` propagates (CELERY_TASK_EAGER_PROPAGATES), after the tasks it
    queued have run."""
    if _eager.waiting is not None:
        _eager.waiting.append((task, kwargs))
        return
    _eager.waiting = []
    try:
        task.apply_async(kwargs=kwargs)
    finally:
        _run_waiting()


def _run_waiting() -> None:
    """Run the tasks waiting in ``_eager``, and those they queue in turn, until none is
    left. One that fails is logged with its traceback, as on_commit(robust=True) logged it
    when it ran inside the task that queued it, and the others still run."""
    try:
        while _eager.waiting:
            task, kwargs = _eager.waiting.pop(0)
            try:
                task.apply_async(kwargs=kwargs)
            except Exception:
                logger.exception("%s, queued by another task run eagerly, failed", task.name)
    finally:
        _eager.waiting = None
