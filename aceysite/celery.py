import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceysite.settings")

app = Celery("aceysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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
