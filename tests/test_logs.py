"""What the processes' log lines look like: each says when, how grave and where from, so
that the web process's lines read like gunicorn's beside them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

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
