"""The error reports emailed to ADMINS carry no password of the services the site uses."""

from __future__ import annotations

import sys

import pytest
from django.core import mail
from django.test import Client
from django.views.debug import ExceptionReporter

from aceysite.error_reports import mask_url_passwords
from games import services
from games import views as game_views

pytestmark = pytest.mark.django_db

DATABASE_PASSWORD = "pg-pass-7f3a"
REDIS_PASSWORD = "redis-pass-91c2"
DATABASE_URL = f"postgres://acey:{DATABASE_PASSWORD}@127.0.0.1:5432/acey_ops"
REDIS_URL = f"redis://:{REDIS_PASSWORD}@127.0.0.1:6379/0"


@pytest.fixture
def service_urls_with_passwords(settings):
    """The settings an operator's environment gives, passwords in their URLs."""
    settings.DEBUG = False
    settings.ADMINS = ["ops@example.com"]
    settings.DATABASE_URL = DATABASE_URL
    settings.REDIS_URL = REDIS_URL
    settings.CELERY_BROKER_URL = REDIS_URL.replace("/0", "/1")
    settings.CELERY_RESULT_BACKEND = {"url": REDIS_URL.replace("/0", "/2")}  # nested values too


def test_the_error_email_to_the_admins_holds_no_password(service_urls_with_passwords, alice, bob):
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)

    def broken(*args, **kwargs):
        broker = f"redis://:{REDIS_PASSWORD}@127.0.0.1:6379/1"  # noqa: F841 (a frame variable)
        raise RuntimeError("a fault injected into the match page")

    game_views._match_context, saved = broken, game_views._match_context
    try:
        # runserver copies the environment into every request's META.
        response = browser.get(match.get_absolute_url(), DATABASE_URL=DATABASE_URL)
    finally:
        game_views._match_context = saved

    assert response.status_code == 500
    (email,) = mail.outbox
    report = email.body + "".join(str(content) for content, _ in email.alternatives)
    assert "a fault injected into the match page" in report  # the report is there
    assert "DATABASE_URL" in report and "@127.0.0.1:5432/acey_ops" in report
    assert DATABASE_PASSWORD not in report
    assert REDIS_PASSWORD not in report


def test_the_html_and_text_reports_hold_no_password(service_urls_with_passwords, rf):
    request = rf.get("/matches/1/", DATABASE_URL=DATABASE_URL, HTTP_X_SERVICE=REDIS_URL)
    try:
        connecting_to = [DATABASE_URL]  # noqa: F841 (a frame variable)
        raise ConnectionError("the database is unreachable")
    except ConnectionError:
        reporter = ExceptionReporter(request, *sys.exc_info(), is_email=True)

    text, html = reporter.get_traceback_text(), reporter.get_traceback_html()

    assert "connecting_to" in html  # the frames' variables are in the HTML one only
    for report in (text, html):
        assert "REDIS_URL" in report and "X_SERVICE" in report
        assert DATABASE_PASSWORD not in report
        assert REDIS_PASSWORD not in report


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("postgres://acey:pw@db/acey", "postgres://acey:********************@db/acey"),
        ("'redis://:pw@cache:6379'", "'redis://:********************@cache:6379'"),
        ("amqp://guest:p@ss@rabbit//", "amqp://guest:********************@rabbit//"),
        ("redis://cache:6379/0 and postgres://acey@db/acey", None),  # no password: unchanged
        ("https://example.com/?next=a:b@c", None),
    ],
)
def test_mask_url_passwords(text, masked):
    assert mask_url_passwords(text) == (text if masked is None else masked)
