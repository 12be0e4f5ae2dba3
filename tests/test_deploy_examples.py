"""The example environment and systemd units in deploy/ stay true to the site: the
environment passes ``check --deploy`` once its blanks are filled, names only documented
variables, and the units run the Procfile's commands."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

DEPLOY = Path(settings.BASE_DIR) / "deploy"
UNITS = {"web": "acey-web.service", "worker": "acey-worker.service", "beat": "acey-beat.service"}


def _example_env() -> dict[str, str]:
    """The example's variables as systemd's EnvironmentFile reads them (a value's enclosing
    double quotes dropped)."""
    pairs = {}
    for line in (DEPLOY / "acey.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            quoted = len(value) > 1 and value[0] == value[-1] == '"'
            pairs[name] = value[1:-1] if quoted else value
    return pairs


def test_a_shell_reads_the_example_environment_as_systemd_does():
    # The operator runs check --deploy, createsuperuser and pg_dump with it by hand: a
    # value a shell cannot read (a name and an address in <>, unquoted) stopped it there,
    # the variables after it unset.
    script = 'set -a; . "$1"; set +a; env -0'
    shown = subprocess.run(
        ["bash", "-c", script, "bash", str(DEPLOY / "acey.env.example")],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": os.environ["PATH"]},
    )
    read = dict(item.split("=", 1) for item in shown.stdout.split("\0") if "=" in item)

    assert shown.stderr == ""
    assert {name: read.get(name) for name in _example_env()} == _example_env()


def _unit(name: str) -> list[tuple[str, str]]:
    """A unit's settings, in order (a key may come more than once)."""
    lines = (DEPLOY / name).read_text().splitlines()
    return [
        tuple(line.split("=", 1))  # type: ignore[misc]
        for line in lines
        if "=" in line and not line.startswith("#")
    ]


def _procfile() -> dict[str, str]:
    text = (Path(settings.BASE_DIR) / "Procfile").read_text()
    return dict(line.split(": ", 1) for line in text.splitlines() if line)


def test_the_example_environment_passes_check_deploy_once_filled_in():
    filled = {
        name: value.replace("CHANGE-ME", secrets.token_urlsafe(50) if name == "SECRET_KEY" else "x")
        for name, value in _example_env().items()
    }
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env={**inherited, **filled},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_the_example_environment_names_only_documented_variables():
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    documented = set(re.findall(r"^\| `([A-Z_]+)`", readme, re.MULTILINE))
    documented |= set(re.findall(r"`(SMTP_[A-Z_]+)`", readme))

    assert set(_example_env()) - documented == set()


@pytest.mark.parametrize("process", sorted(UNITS))
def test_each_unit_runs_the_procfiles_command(process):
    (start,) = [value for key, value in _unit(UNITS[process]) if key == "ExecStart"]
    command = shlex.split(start)
    command[0] = Path(command[0]).name  # /srv/acey/.venv/bin/gunicorn -> gunicorn
    expected = shlex.split(_procfile()[process])
    if process == "web":
        # Bound to the machine's own address, for the proxy only, with a control socket
        # of its own; otherwise the Procfile's command.
        expected[expected.index("0.0.0.0:$PORT")] = "127.0.0.1:${PORT}"
        socket = command.index("--control-socket")
        assert command[socket + 1].startswith("/run/acey-web/")
        del command[socket : socket + 2]

    assert command == expected


def test_the_web_unit_migrates_before_serving_and_the_others_start_after_it():
    web = _unit(UNITS["web"])
    assert ("ExecStartPre", "/srv/acey/.venv/bin/python manage.py migrate --noinput") in web
    assert shlex.split(_procfile()["release"]) == ["python", "manage.py", "migrate", "--noinput"]
    for process in ("worker", "beat"):
        (after,) = [value for key, value in _unit(UNITS[process]) if key == "After"]
        assert "acey-web.service" in after.split()


def test_the_worker_runs_below_the_web_process_as_the_load_benchmark_runs_it():
    from bench.load import WORKER_NICENESS

    (nice,) = [int(value) for key, value in _unit(UNITS["worker"]) if key == "Nice"]
    assert nice == WORKER_NICENESS > 0
    assert not [key for key, _ in _unit(UNITS["web"]) if key == "Nice"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_accepts_the_units(tmp_path):
    # The units with this checkout for /srv/acey, so that their programs exist.
    for name in UNITS.values():
        text = (DEPLOY / name).read_text().replace("/srv/acey", str(settings.BASE_DIR))
        (tmp_path / name).write_text(text)

    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *(str(tmp_path / n) for n in UNITS.values())],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0 and result.stderr == "", result.stderr
