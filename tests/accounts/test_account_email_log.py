"""The account emails the web process sends itself (not through the outbox) log a line each,
as the outbox's emails do, naming what was sent and leaving the address out."""

import logging
import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from games import closing

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def sent_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "aceysite.mail"]


def assert_no_address(caplog) -> None:
    assert not any("@" in r.getMessage() for r in caplog.records)


def test_a_password_reset_link_logs_a_line(client, alice, caplog):
    caplog.set_level(logging.INFO)

    client.post(reverse("password_reset"), {"email": "alice@example.com"})

    assert len(mail.outbox) == 1
    assert sent_lines(caplog) == ["account email (password reset link) sent"]
    assert_no_address(caplog)


def test_an_email_change_link_and_the_old_address_notice_log_a_line_each(
    client, alice, caplog, django_capture_on_commit_callbacks
):
    caplog.set_level(logging.INFO)
    client.force_login(alice)

    client.post(reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD})
    link = mail.outbox[0].body.split("/accounts/email/confirm/")[1].split()[0]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/accounts/email/confirm/{link}")

    assert [m.to for m in mail.outbox] == [["alice@new.example"], ["alice@example.com"]]
    assert sent_lines(caplog) == [
        "account email (email change link) sent",
        "account email (email changed notice) sent",
    ]
    assert_no_address(caplog)


def test_a_password_change_notice_logs_a_line(
    client, alice, caplog, django_capture_on_commit_callbacks
):
    caplog.set_level(logging.INFO)
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("password_change"),
            {
                "old_password": PASSWORD,
                "new_password1": "a brand new secret",
                "new_password2": "a brand new secret",
            },
        )

    assert len(mail.outbox) == 1
    assert sent_lines(caplog) == ["account email (password changed notice) sent"]


def test_the_account_closed_notice_logs_a_line(alice, caplog, django_capture_on_commit_callbacks):
    caplog.set_level(logging.INFO)

    with django_capture_on_commit_callbacks(execute=True):
        closing.close_account(alice)

    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    assert sent_lines(caplog) == ["account email (account closed notice) sent"]
    assert_no_address(caplog)


class BrokenMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("gone")


def test_a_reset_link_not_sent_is_a_warning_without_the_link_and_the_page_is_the_same(
    client, alice, settings, caplog
):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.BrokenMailServer"}}

    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert sent_lines(caplog) == []
    failures = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.levelname, r.getMessage()) for r in failures] == [
        ("WARNING", "A password reset link was not sent: SMTPServerDisconnected: gone")
    ]
    # No traceback: its frames hold the link, and an ERROR would email it to ADMINS.
    assert failures[0].exc_info is None


class RefusingMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        to = email_messages[0].to[0]
        raise smtplib.SMTPRecipientsRefused({to: (550, b"5.1.1 no such user " + to.encode())})


@pytest.mark.parametrize("notice", ["password changed", "account closed"])
def test_a_notice_refused_after_the_commit_is_a_warning_without_the_address(
    client, alice, settings, caplog, django_capture_on_commit_callbacks, notice
):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.RefusingMailServer"}}
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        if notice == "password changed":
            client.post(
                reverse("password_change"),
                {
                    "old_password": PASSWORD,
                    "new_password1": "a brand new secret",
                    "new_password2": "a brand new secret",
                },
            )
        else:
            closing.close_account(alice)

    # Django's line for a failed on_commit callback quoted the error, address and all.
    assert_no_address(caplog)
    failures = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.name, r.levelname) for r in failures] == [("aceysite.mail", "WARNING")]
    assert (
        failures[0]
        .getMessage()
        .startswith(
            f"account email ({notice} notice) not sent: SMTPRecipientsRefused: {{'[address]': "
        )
    )


def test_an_account_email_s_message_id_names_the_site_not_the_machine(client, alice, settings):
    # As the outbox's emails' do (games.notifications.message_id): Django's default is the
    # machine's own name, "localhost" here.
    settings.SITE_URL = "https://acey.example.org"

    client.post(reverse("password_reset"), {"email": "alice@example.com"})

    [message] = mail.outbox
    assert message.extra_headers["Message-ID"].endswith("@acey.example.org>")


def test_an_account_email_says_a_machine_wrote_it(client, alice):
    # So that an out-of-office reply is not sent back to the site (RFC 3834), as the
    # outbox's emails say too.
    client.post(reverse("password_reset"), {"email": "alice@example.com"})

    [message] = mail.outbox
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"
    assert message.extra_headers["X-Auto-Response-Suppress"] == "All"
