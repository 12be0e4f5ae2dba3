"""A password staff set, or disable, in the admin or with ``manage.py changepassword`` is a
new password like any other: it revokes the account's API keys and is told to the account's
address, and the admin says what it did."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.management.commands import changepassword
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, User

pytestmark = pytest.mark.django_db

NEW = "a brand new passphrase"


@pytest.fixture
def staff(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.com", "x"))
    return client


def api_client(user: User) -> Client:
    _, key = ApiToken.issue(user, "my bot")
    return Client(headers={"authorization": f"Token {key}"})


def password_url(user: User) -> str:
    return reverse("admin:auth_user_password_change", args=[user.pk])


def test_a_password_staff_set_revokes_every_api_key(
    staff, alice, django_capture_on_commit_callbacks
):
    api = api_client(alice)
    assert api.get(reverse("api_me")).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        page = staff.post(
            password_url(alice),
            {"usable_password": "true", "password1": NEW, "password2": NEW, "set-password": ""},
            follow=True,
        )

    assert page.status_code == 200
    assert "Its API key was revoked and its address was told." in page.text
    assert api.get(reverse("api_me")).status_code == 401
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    [notice] = mail.outbox
    assert notice.to == ["alice@example.com"]
    assert notice.subject == "Your Acey-Deucey password was changed by the site's staff"
    body = " ".join(notice.body.split())
    assert "The site's staff set a new password for your Acey-Deucey account" in body
    assert "Its API key was revoked too" in body
    assert "If this was you" not in body


def test_a_password_staff_disabled_revokes_every_api_key(
    staff, alice, django_capture_on_commit_callbacks
):
    api = api_client(alice)

    with django_capture_on_commit_callbacks(execute=True):
        page = staff.post(password_url(alice), {"usable_password": "false", "unset-password": ""})

    assert page.status_code == 302
    assert api.get(reverse("api_me")).status_code == 401
    alice.refresh_from_db()
    assert not alice.has_usable_password()
    [notice] = mail.outbox
    assert notice.subject == "Your Acey-Deucey password was disabled by the site's staff"
    assert "until they set one again, the account cannot log in" in " ".join(notice.body.split())
    assert "ask for a link" not in notice.body


def test_a_password_staff_did_not_set_keeps_the_keys(
    staff, alice, django_capture_on_commit_callbacks
):
    api = api_client(alice)

    with django_capture_on_commit_callbacks(execute=True):
        page = staff.post(
            password_url(alice),
            {"usable_password": "true", "password1": NEW, "password2": "not the same"},
        )

    assert page.status_code == 200
    assert api.get(reverse("api_me")).status_code == 200
    assert mail.outbox == []


def test_changepassword_revokes_every_api_key(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    api = api_client(alice)
    monkeypatch.setattr(changepassword.Command, "_get_pass", lambda self, prompt="": NEW)

    with django_capture_on_commit_callbacks(execute=True):
        call_command("changepassword", "alice", stdout=io.StringIO())

    assert api.get(reverse("api_me")).status_code == 401
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    [notice] = mail.outbox
    assert notice.subject == "Your Acey-Deucey password was changed by the site's staff"


def test_changepassword_that_fails_keeps_the_keys(alice, monkeypatch):
    api = api_client(alice)
    answers = iter(["one passphrase", "another one"] * 3)
    monkeypatch.setattr(changepassword.Command, "_get_pass", lambda self, prompt="": next(answers))

    with pytest.raises(CommandError):
        call_command("changepassword", "alice", stdout=io.StringIO())

    assert api.get(reverse("api_me")).status_code == 200
