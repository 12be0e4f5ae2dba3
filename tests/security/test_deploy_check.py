"""Production settings pass Django's deployment checklist."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

from django.conf import settings


def test_manage_py_check_deploy_is_clean_with_production_settings():
    # The browser tests lift Django's async guard for their own process; never in production.
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {
        **inherited,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "acey.example.com",
        "CSRF_TRUSTED_ORIGINS": "https://acey.example.com",
        "SITE_URL": "https://acey.example.com",
        "SMTP_HOST": "smtp.example.com",
    }

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

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
