"""aceysite.wsgi, as gunicorn loads it: the site started up, its views imported and what
that made frozen out of the garbage collector's way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def test_loading_the_application_imports_the_views_and_freezes_what_startup_made():
    probe = (
        "import gc, sys\n"
        "before = gc.get_freeze_count()\n"
        "import aceysite.wsgi\n"
        "print(before, gc.get_freeze_count(), 'games.api' in sys.modules)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "aceysite.settings"}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPOSITORY, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    before, frozen, views = done.stdout.split()
    assert before == "0" and int(frozen) > 10_000 and views == "True"
