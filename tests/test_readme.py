"""The README's command that runs beat's periodic work by hand, on a site served by
bin/serve: it must run every periodic task, and make the links in the emails it prints
lead to the site, on whatever PORT it is served."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from django.conf import settings

REPOSITORY = Path(__file__).resolve().parent.parent


def sweep_command() -> str:
    """The README's shell block that runs the periodic tasks."""
    blocks = re.findall(r"```sh\n(.*?)```", (REPOSITORY / "README.md").read_text(), re.DOTALL)
    (command,) = [block for block in blocks if "manage.py shell" in block]
    return command


def test_the_sweep_command_runs_every_periodic_task():
    command = sweep_command()

    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert f"t.{entry['task'].removeprefix('games.tasks.')}()" in command


def test_the_sweep_command_sets_site_url_from_port_as_bin_serve_does():
    # The shell's own expansion of the command's SITE_URL, beside bin/serve's, for a PORT.
    site_url = sweep_command().split(" .venv/bin/python")[0]
    env = {"PATH": "/usr/bin:/bin", "PORT": "8172"}

    expanded = subprocess.run(
        ["bash", "-c", f'{site_url} bash -c "echo \\$SITE_URL"'],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()

    assert expanded == "http://127.0.0.1:8172"
    assert (
        'export SITE_URL="${SITE_URL:-http://127.0.0.1:$port}"'
        in (REPOSITORY / "bin" / "serve").read_text()
    )
