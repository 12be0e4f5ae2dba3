"""Tokens in email links never reach the logs, whatever the outcome of the request."""

from __future__ import annotations

import logging
import re

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_password_reset_and_email_change_tokens_are_not_logged(client, alice, caplog, settings):
    settings.SITE_URL = "https://acey.example"
    caplog.set_level(logging.DEBUG)

    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    reset_link = re.search(r"https://acey\.example(/\S+)", mail.outbox[-1].body).group(1)
    client.get(reset_link, follow=True)
    client.get(reset_link.replace("/reset/", "/reset/x"), follow=True)  # a forged link too
    client.force_login(alice)
    client.post(
        reverse("email_change"),
        {"email": "new-alice@example.com", "password": "correct horse battery"},
    )
    assert mail.outbox[-1].to == ["new-alice@example.com"]
    change_link = re.search(r"https://acey\.example(/\S+)", mail.outbox[-1].body).group(1)
    client.get(change_link)
    client.get(change_link + "forged/")

    logged = "\n".join(record.getMessage() for record in caplog.records)
    reset_token = reset_link.rstrip("/").rsplit("/", 1)[-1]
    change_token = change_link.rstrip("/").rsplit("/", 1)[-1]
    assert reset_token not in logged
    assert change_token not in logged
    assert django_settings.SECRET_KEY not in logged


def test_it_keeps_email_confirmation_tokens_out_of_the_logs(
    client, caplog, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://acey.example"
    caplog.set_level(logging.DEBUG)
    password = "a long enough passphrase"
    # The link is sent through the outbox once the sign-up commits: its sending is logged.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("signup"),
            {
                "username": "leo",
                "email": "leo@example.com",
                "password1": password,
                "password2": password,
            },
        )
    link = re.search(r"https://acey\.example(/\S+)", mail.outbox[-1].body).group(1)

    client.get(link)
    client.head(link)  # 405: logged with its path
    client.get(link + "forged/")

    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert link.rstrip("/").rsplit("/", 1)[-1] not in logged


def test_the_filter_redacts_every_kind_of_secret_link():
    from aceysite.log_filters import redact

    assert redact("Not Found: /unsubscribe/abc:def/") == "Not Found: /unsubscribe/[redacted]"
    assert redact("Forbidden: /invite/s3cret/") == "Forbidden: /invite/[redacted]"
    assert "MQ" not in redact("/accounts/password/reset/MQ/abc-123/")
    undo = redact("Method Not Allowed (HEAD): /accounts/email/undo/4/s3cret-Secret_x/")
    assert undo == "Method Not Allowed (HEAD): /accounts/email/undo/[redacted]"
    verify = redact("Not Found: /accounts/email/verify/eyJ1c2VyIjo0fQ:1u:abc/")
    assert verify == "Not Found: /accounts/email/verify/[redacted]"
    assert redact("Not Found: /matches/7/") == "Not Found: /matches/7/"
