"""Production settings pass Django's deployment checklist."""

from __future__ import annotations

import ast
import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings


def test_manage_py_check_deploy_is_clean_with_production_settings():
    result = _deploy_check()

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": ""}

    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=settings.BASE_DIR,
        env={**env, "DJANGO_SETTINGS_MODULE": "aceysite.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def _production_env(**changes: str) -> dict[str, str]:
    """The environment of a production deploy, with ``changes`` to it."""
    # The browser tests lift Django's async guard for their own process; never in production.
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {
        **inherited,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "acey.example.com",
        "SITE_URL": "https://acey.example.com",
        "TRUSTED_PROXY_COUNT": "1",
        "CSRF_TRUSTED_ORIGINS": "https://acey.example.com",
        "SMTP_HOST": "smtp.example.com",
        "REDIS_URL": "redis://127.0.0.1:6379/14",
        # Not connected to: the checks only read it.
        "DATABASE_URL": "postgres://acey:acey@db.example.com:5432/acey",
        "ADMINS": "ops@example.com",
        **changes,
    }


def _deploy_check(**changes: str) -> subprocess.CompletedProcess:
    """``manage.py check --deploy`` with production settings, and ``changes`` to them."""
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=_production_env(**changes),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("changes", "warning"),
    [
        ({"TRUSTED_PROXY_COUNT": "0"}, "games.W001"),
        ({"SITE_URL": ""}, "games.W002"),  # blank: the default, a local address
        ({"SITE_URL": "http://acey.example.com"}, "games.W002"),
        ({"REDIS_URL": ""}, "games.W003"),
        ({"DATABASE_URL": ""}, "games.W004"),  # blank: the default, SQLite
        ({"SMTP_HOST": ""}, "games.E002"),  # every email printed to the console
        ({"ADMINS": ""}, "games.W005"),
        ({"ALLOWED_HOSTS": "www.acey.example.com"}, "games.W006"),
    ],
)
def test_check_deploy_warns_of_settings_that_would_mislead_or_lock_out(changes, warning):
    result = _deploy_check(**changes)

    assert result.returncode != 0
    assert warning in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("site_url", "allowed_hosts"),
    [
        ("https://acey.example.com:8443", "acey.example.com"),
        ("https://acey.example.com.", "acey.example.com"),  # a trailing dot, as Django reads it
        ("https://[2001:db8::1]", "[2001:db8::1]"),  # as Django writes an IPv6 host
        ("https://play.acey.example.com", ".acey.example.com"),
    ],
)
def test_site_url_at_an_allowed_host_is_not_warned_of(site_url, allowed_hosts):
    result = _deploy_check(
        SITE_URL=site_url, ALLOWED_HOSTS=allowed_hosts, CSRF_TRUSTED_ORIGINS=site_url
    )

    assert "games.W006" not in result.stdout + result.stderr


def test_a_blank_number_reads_as_unset_and_a_wrong_one_is_named():
    blank = _deploy_check(ACEY_TURN_EMAIL_DELAY="", SMTP_PORT="")
    wrong = _deploy_check(ACEY_TURN_EMAIL_DELAY="five")

    assert blank.returncode == 0, blank.stdout + blank.stderr
    assert "ACEY_TURN_EMAIL_DELAY must be a whole number, not 'five'" in wrong.stderr


def _production_settings(*names: str, **changes: str) -> list[object]:
    """The values of the settings ``names`` in production (settings are read at import)."""
    program = (
        "import django; django.setup(); from django.conf import settings;"
        f"print(repr([getattr(settings, name) for name in {list(names)!r}]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=settings.BASE_DIR,
        env={**_production_env(**changes), "DJANGO_SETTINGS_MODULE": "aceysite.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return ast.literal_eval(done.stdout.strip())


def test_hsts_covers_subdomains_and_asks_for_preloading_unless_turned_off():
    names = ("SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD")

    default = _production_settings(*names)
    off = _production_settings(
        *names, SECURE_HSTS_INCLUDE_SUBDOMAINS="false", SECURE_HSTS_PRELOAD="false"
    )

    assert default == [31536000, True, True]
    assert off == [31536000, False, False]
