import io
import os
import re
import subprocess
import sys

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection
from django.urls import reverse

from aceysite import settings as site_settings
from aceysite.celery import app as celery_app
from aceysite.mail import ReadableConsoleBackend
from games.checks import broker_apart_from_cache
from tests.conftest import need_service


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert "Acey-Deucey" in response.text
    assert reverse("signup") in response.text


@pytest.mark.django_db
def test_home_page_serves_htmx_locally(client):
    response = client.get(reverse("home"))

    assert "/static/js/htmx.min.js" in response.text
    assert "X-CSRFToken" in response.text


@pytest.mark.django_db
def test_signup_creates_user_and_logs_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {
            "username": "bob",
            "email": "bob@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        },
    )

    assert response.status_code == 302
    bob = django_user_model.objects.get(username="bob")
    assert bob.email == "bob@example.com"
    assert bob.timezone == "UTC"
    assert client.session["_auth_user_id"] == str(bob.pk)


@pytest.mark.django_db
def test_signup_requires_email(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "bob", "password1": "a long passphrase", "password2": "a long passphrase"},
    )

    assert response.status_code == 200
    assert not django_user_model.objects.filter(username="bob").exists()


@pytest.mark.django_db
def test_login_and_logout(client, alice):
    response = client.post(
        reverse("login"), {"username": "alice", "password": "correct horse battery"}
    )

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert "alice" in client.get(reverse("home"), follow=True).text

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_rejects_wrong_password(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_database_url_parses_postgres_with_persistent_connections():
    config = site_settings.database_from_url("postgres://acey:pw@127.0.0.1:5432/acey")

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "acey"
    assert config["USER"] == "acey"
    assert config["HOST"] == "127.0.0.1"
    assert config["PORT"] == 5432
    assert config["CONN_MAX_AGE"] == 600


def test_db_application_name_names_postgresql_connections(monkeypatch):
    monkeypatch.setenv("DB_APPLICATION_NAME", "worker")

    config = site_settings.database_from_url("postgres://acey:acey@127.0.0.1:5432/acey")

    assert config["OPTIONS"]["application_name"] == "worker"
    sqlite = site_settings.database_from_url("sqlite:////tmp/x.sqlite3")
    assert "application_name" not in sqlite.get("OPTIONS", {})


def test_postgresql_connections_prepare_statements_unless_told_not_to(monkeypatch):
    url = "postgres://acey:acey@127.0.0.1:5432/acey"
    assert site_settings.database_from_url(url)["OPTIONS"]["prepare_threshold"] == 5

    monkeypatch.setenv("DB_PREPARED_STATEMENTS", "false")  # behind an older PgBouncer
    assert site_settings.database_from_url(url)["OPTIONS"]["prepare_threshold"] is None
    sqlite = site_settings.database_from_url("sqlite:////tmp/x.sqlite3")
    assert "prepare_threshold" not in sqlite["OPTIONS"]


def test_database_url_parses_sqlite_without_persistent_connections():
    config = site_settings.database_from_url("sqlite:////tmp/x.sqlite3")

    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/tmp/x.sqlite3"
    assert config["CONN_MAX_AGE"] == 0


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("true", True), ("Yes", True), ("0", False), ("no", False), (" ", True)],
)
def test_envbool(monkeypatch, raw, expected):
    monkeypatch.setenv("ACEY_FLAG", raw)

    # A blank value (FOO= in an env file) reads as unset: the default, here true.
    assert site_settings.envbool("ACEY_FLAG", "true") is expected


def test_envint_uses_default_when_unset(monkeypatch):
    monkeypatch.delenv("ACEY_NUMBER", raising=False)

    assert site_settings.envint("ACEY_NUMBER", "7") == 7


@pytest.mark.parametrize("raw", ["", "  "])
def test_envint_takes_a_blank_value_as_unset(monkeypatch, raw):
    monkeypatch.setenv("ACEY_NUMBER", raw)

    assert site_settings.envint("ACEY_NUMBER", "7") == 7


def test_envint_names_a_value_that_is_no_number(monkeypatch):
    monkeypatch.setenv("ACEY_NUMBER", "seven")

    with pytest.raises(RuntimeError, match="ACEY_NUMBER must be a whole number, not 'seven'"):
        site_settings.envint("ACEY_NUMBER", "7")


def test_mailers_default_to_console(monkeypatch):
    monkeypatch.delenv("SMTP_HOST", raising=False)

    mailers = site_settings.mailers_from_env()

    assert mailers == {"default": {"BACKEND": "aceysite.mail.ReadableConsoleBackend"}}


def test_the_console_prints_an_email_readably():
    """Decoded, not quoted-printable: a link in a body with an en dash is printed whole
    and can be followed from the terminal."""
    link = "http://127.0.0.1:8000/accounts/confirm/" + "k" * 120 + "/"
    message = EmailMultiAlternatives(
        "Confirm your address \u2013 acey",
        f"Hello \u00e9mile \u2013\n{link}\n",
        to=["a@example.com"],
    )
    message.attach_alternative("<p>Hello</p>", "text/html")
    stream = io.StringIO()

    sent = ReadableConsoleBackend(stream=stream).send_messages([message])

    printed = stream.getvalue()
    assert sent == 1
    assert "Subject: Confirm your address \u2013 acey" in printed
    assert "To: a@example.com" in printed
    assert f"Hello \u00e9mile \u2013\n{link}\n" in printed
    assert "(Also in the message: text/html)" in printed
    assert "<p>Hello</p>" not in printed


def test_mailers_use_smtp_when_host_is_set(monkeypatch):
    monkeypatch.setenv("SMTP_HOST", "mail.example.com")
    monkeypatch.setenv("SMTP_PORT", "2525")
    monkeypatch.setenv("SMTP_USER", "postman")
    monkeypatch.setenv("SMTP_PASSWORD", "secret")
    monkeypatch.setenv("SMTP_USE_TLS", "false")

    default = site_settings.mailers_from_env()["default"]

    assert default["BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert default["OPTIONS"]["host"] == "mail.example.com"
    assert default["OPTIONS"]["port"] == 2525
    assert default["OPTIONS"]["username"] == "postman"
    assert default["OPTIONS"]["password"] == "secret"
    assert default["OPTIONS"]["use_tls"] is False


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("", ""),
        ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379/1"),
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/1"),
        ("rediss://:secret@cache.example.com:6380/7", "rediss://:secret@cache.example.com:6380/8"),
    ],
)
def test_next_redis_database(url, expected):
    assert site_settings.next_redis_database(url) == expected


def test_with_only_redis_url_the_broker_gets_the_next_database_and_the_check_passes():
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/4"}
    env.pop("CELERY_BROKER_URL", None)
    program = (
        "import django; django.setup(); from django.conf import settings;"
        "from django.core.management import call_command;"
        "print(settings.CELERY_BROKER_URL); call_command('check')"
    )

    done = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "redis://127.0.0.1:6379/5"


@pytest.mark.django_db
def test_check_refuses_a_broker_sharing_a_redis_database_with_the_cache(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379",
        }
    }
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"

    [error] = broker_apart_from_cache()
    assert error.id == "games.E001"
    assert "share Redis database 0" in error.msg
    with pytest.raises(SystemCheckError, match=r"games\.E001"):
        call_command("check")

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/1"
    assert broker_apart_from_cache() == []


@pytest.mark.parametrize("broker", ["localhost", "[::1]", "LOCALHOST", "localhost."])
def test_check_sees_this_machine_under_each_of_its_names(settings, broker):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/2",
        }
    }
    settings.CELERY_BROKER_URL = f"redis://{broker}:6379/2"

    [error] = broker_apart_from_cache()
    assert "share Redis database 2 on localhost:6379" in error.msg

    settings.CELERY_BROKER_URL = f"redis://{broker}:6380/2"  # another server
    assert broker_apart_from_cache() == []


def test_celery_tasks_are_acknowledged_late():
    assert celery_app.conf.task_acks_late is True
    assert celery_app.conf.task_reject_on_worker_lost is True


def test_email_is_delivered_to_memory_mailer(settings):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    mail.outbox = []

    mail.send_mail("Your move", "Bob has moved.", None, ["alice@example.com"])

    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Your move"
    assert mail.outbox[0].to == ["alice@example.com"]
    assert mail.outbox[0].from_email == settings.DEFAULT_FROM_EMAIL


@pytest.mark.services
@pytest.mark.django_db
def test_database_is_postgresql_when_configured(postgres_url):
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.services
def test_redis_broker_answers_ping(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=5)

    assert client.ping() is True


def test_missing_service_skips_by_default(monkeypatch):
    monkeypatch.delenv("ACEY_REQUIRE_SERVICES", raising=False)

    with pytest.raises(pytest.skip.Exception):
        need_service("Redis", available=False)


def test_missing_service_fails_when_services_are_required(monkeypatch):
    monkeypatch.setenv("ACEY_REQUIRE_SERVICES", "1")

    with pytest.raises(pytest.fail.Exception):
        need_service("Redis", available=False)


@pytest.mark.django_db
def test_the_home_page_is_titled_with_the_sites_name(client, settings):
    settings.SITE_NAME = "Acey-Deucey at the Harbour Club"

    response = client.get(reverse("home"))

    assert "<title>Acey-Deucey at the Harbour Club</title>" in response.text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "title"),
    [
        ("login", "Log in"),  # Django's auth views set their own site_name: not this
        ("password_reset", "Reset your password"),
        ("lobby", "Lobby"),
        ("leaderboard_default", "Leaderboard: American (US Navy)"),
    ],
)
def test_every_page_is_titled_with_the_sites_name_after_its_own(client, settings, url, title):
    settings.SITE_NAME = "Acey-Deucey at the Harbour Club"

    response = client.get(reverse(url))

    assert f"<title>{title} · Acey-Deucey at the Harbour Club</title>" in response.text


@pytest.mark.django_db
def test_a_page_whose_form_came_back_with_errors_says_so_in_its_title(client, alice):
    # Where a screen reader starts the page, and what its tab shows (WCAG 2.4.2).
    refused = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    shown = client.get(reverse("login"))
    client.force_login(alice)
    settings_refused = client.post(reverse("settings"), {"timezone": "Mars"})

    assert re.search(r"<title>Error: Log in · ", refused.text)
    assert re.search(r"<title>Log in · ", shown.text)
    assert re.search(r"<title>Error: Settings · ", settings_refused.text)
