"""ADMINS are emailed for errors that need someone to act, not once per request for a
scanner's Host header or for each task that could not be queued while Redis is down."""

from __future__ import annotations

import logging

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from kombu.exceptions import OperationalError

from games import services
from tests.matches import accepter_moves_first

ADMIN = "ops@example.com"


@pytest.fixture
def admins(settings):
    settings.DEBUG = False  # mail_admins emails only then
    settings.ADMINS = [ADMIN]


def emails_to_admins() -> list[mail.EmailMessage]:
    return [email for email in mail.outbox if ADMIN in email.to]


@pytest.mark.django_db
def test_a_request_for_another_host_is_logged_as_a_warning_and_not_emailed(admins, caplog):
    response = Client(raise_request_exception=False).get("/", headers={"host": "evil.test"})

    assert response.status_code == 400
    assert emails_to_admins() == []
    (record,) = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert record.levelname == "WARNING" and "evil.test" in record.getMessage()


@pytest.fixture
def broker_down(monkeypatch):
    """Every task published fails as Celery's does when it cannot reach Redis."""

    def unreachable(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("celery.app.task.Task.apply_async", unreachable)


# transaction=True: the callbacks run on a real commit.
@pytest.mark.django_db(transaction=True)
def test_tasks_not_queued_while_the_broker_is_down_are_logged_as_warnings_and_not_emailed(
    admins, broker_down, alice, bob, caplog, monkeypatch
):
    challenge = services.create_challenge(bob, variant="american", points=1, days_per_move=2)
    accepter_moves_first(monkeypatch)  # two emails: alice's turn, and bob's of the accept
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)

    response = browser.post(reverse("challenge_accept", args=[challenge.pk]))

    assert response.status_code == 302  # the accept stands
    assert emails_to_admins() == []
    # Logged where the task is queued (aceysite.celery.queue_after_commit), or by Django
    # for a robust callback of another kind (django.db.backends.base).
    loggers = {"aceysite.celery", "django.db.backends.base"}
    failures = [r for r in caplog.records if r.name in loggers]
    assert len(failures) >= 2  # the two players' emails
    assert {r.levelname for r in failures} == {"WARNING"}
    assert all("Connection refused" in r.getMessage() and not r.exc_info for r in failures)


@pytest.mark.django_db(transaction=True)
def test_a_callback_failing_otherwise_after_a_commit_is_still_emailed(admins, caplog):
    from django.db import transaction

    def broken() -> None:
        raise KeyError("a bug in a callback")

    with transaction.atomic():
        transaction.on_commit(broken, robust=True)

    (email,) = emails_to_admins()
    assert "a bug in a callback" in email.body
    assert caplog.records[-1].levelno == logging.ERROR


@pytest.mark.django_db
def test_an_error_report_carries_no_emailed_links_token_and_no_cookie(admins, monkeypatch):
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr("accounts.services.pending_email_confirmation", broken)
    token = "MQ-SECRET-TOKEN-abc"
    browser = Client(raise_request_exception=False)
    browser.cookies["known_device"] = "DEVICE-SECRET"

    link = f"/accounts/email/verify/{token}/"
    response = browser.get(link, headers={"referer": f"https://acey.example{link}"})

    assert response.status_code == 500
    (report,) = emails_to_admins()
    assert "RuntimeError" in report.body and "the database went away" in report.body
    # A reset or confirmation link in the operators' mailbox is a way into the account.
    assert "SECRET-TOKEN" not in report.subject + report.body
    assert "DEVICE-SECRET" not in report.body
    assert "/accounts/email/verify/[redacted]" in report.body


def test_the_html_report_keeps_its_tags_around_a_redacted_token():
    from aceysite.log_filters import redact

    html = '<td>/accounts/password/reset/MQ/SECRET-TOKEN/</td><td class="code">x</td>'

    assert redact(html, html=True) == (
        '<td>/accounts/password/reset/[redacted]</td><td class="code">x</td>'
    )


def _failing_page(monkeypatch, error: type[Exception]) -> Client:
    """A page that fails with ``error`` on each request (its service broken), and a browser."""

    def broken(*args: object, **kwargs: object) -> None:
        raise error("the database went away")

    monkeypatch.setattr("accounts.services.pending_email_confirmation", broken)
    return Client(raise_request_exception=False)


@pytest.mark.django_db
def test_an_error_failing_every_request_is_emailed_once_in_its_window(admins, monkeypatch):
    browser = _failing_page(monkeypatch, RuntimeError)

    for _ in range(10):
        assert browser.get("/accounts/email/verify/x/").status_code == 500
    monkeypatch.setattr("accounts.services.pending_email_confirmation", _raise_key_error)
    assert browser.get("/accounts/email/verify/x/").status_code == 500

    # Ten requests, one email (a database outage fails every request); another kind of
    # error has its own.
    first, second = emails_to_admins()
    assert "\nRuntimeError at /accounts/email/verify/" in first.body
    assert "\nKeyError at /accounts/email/verify/" in second.body


def _raise_key_error(*args: object, **kwargs: object) -> None:
    raise KeyError("a bug")


@pytest.mark.django_db
def test_the_same_error_is_emailed_again_once_its_window_has_passed(admins, monkeypatch, settings):
    settings.ADMIN_EMAIL_WINDOW_SECONDS = 0
    browser = _failing_page(monkeypatch, RuntimeError)

    for _ in range(3):
        browser.get("/accounts/email/verify/x/")

    assert len(emails_to_admins()) == 3
