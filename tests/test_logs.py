"""What the processes' log lines look like: each says when, how grave and where from, so
that the web process's lines read like gunicorn's beside them."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent

LOG_A_WARNING = (
    "import django; django.setup(); import logging;"
    " logging.getLogger('accounts.throttle').warning('the cache is unreachable')"
)


def logged_by_django(**env: str) -> str:
    """What a process set up as the web's (Django's LOGGING) writes to standard error for
    one warning."""
    return subprocess.run(
        [sys.executable, "-c", LOG_A_WARNING],
        cwd=REPOSITORY,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "aceysite.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    ).stderr


def test_a_django_log_line_has_its_time_process_level_and_logger():
    logged = logged_by_django(LOG_LEVEL="INFO")

    pattern = (
        r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\] \[\d+\] \[WARNING\]"
        r" accounts\.throttle: the cache is unreachable\n"
    )
    assert re.fullmatch(pattern, logged)


def test_log_level_still_sets_the_level():
    assert logged_by_django(LOG_LEVEL="ERROR") == ""


@pytest.fixture
def beat_started():
    """celery.beat's logger as beat's start leaves it (aceysite.celery's beat_init)."""
    from celery.signals import beat_init

    beat_logger = logging.getLogger("celery.beat")
    before = list(beat_logger.filters)
    beat_init.send(sender=None)
    yield
    beat_logger.filters = before


@pytest.mark.usefixtures("beat_started")
def test_beat_logs_a_sweep_it_could_not_send_while_the_broker_is_down_in_one_line(caplog):
    from celery.beat import SchedulingError
    from kombu.exceptions import OperationalError

    refused = "Error 111 connecting to 127.0.0.1:6379. Connection refused."
    try:
        try:
            raise OperationalError(refused)
        except OperationalError as outage:
            # As celery.beat.Scheduler.apply_async raises it: inside the except, not "from".
            raise SchedulingError(f"Couldn't apply scheduled task sweep: {outage}")  # noqa: B904
    except SchedulingError as error:
        # As celery.beat.Scheduler.apply_entry logs it: the stack, and the traceback.
        logging.getLogger("celery.beat").error(
            "Message Error: %s\n%s", error, traceback.format_stack(), exc_info=True
        )

    (record,) = [r for r in caplog.records if r.name == "celery.beat"]
    assert (record.levelname, record.exc_info) == ("WARNING", None)
    assert record.getMessage() == (
        f"Couldn't apply scheduled task sweep: {refused} (sent at its next turn once the broker"
        " is back)"
    )


@pytest.mark.usefixtures("beat_started")
def test_beat_still_logs_any_other_error_with_its_traceback(caplog):
    try:
        raise KeyError("a bug")
    except KeyError:
        logging.getLogger("celery.beat").error("Message Error: %s", "a bug", exc_info=True)

    (record,) = [r for r in caplog.records if r.name == "celery.beat"]
    assert record.levelname == "ERROR" and record.exc_info is not None
