import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceysite.settings")

app = Celery("aceysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def apply_environment_overrides(sender: Celery, **kwargs) -> None:
    """Environment knobs on top of settings.CELERY_*: the integration tests run the deadline
    sweep every second, and give each test its own queue on a shared Redis."""
    sweep_seconds = os.getenv("ACEY_SWEEP_SECONDS")
    if sweep_seconds:
        schedule = dict(sender.conf.beat_schedule)
        schedule["sweep-deadlines"] = {
            **schedule["sweep-deadlines"],
            "schedule": float(sweep_seconds),
        }
        sender.conf.beat_schedule = schedule
    queue = os.getenv("CELERY_TASK_DEFAULT_QUEUE")
    if queue:
        sender.conf.task_default_queue = queue
