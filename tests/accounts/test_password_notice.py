"""A changed or reset password is told to the account's address, once: whoever took the
account must not be able to lock its owner out unnoticed."""

import re
import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from accounts.models import ApiToken, User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
NEW = "a brand new passphrase"


def change_password(client, old: str = PASSWORD):
    data = {"old_password": old, "new_password1": NEW, "new_password2": NEW}
    return client.post(reverse("password_change"), data)


def reset_password(client) -> None:
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    link = re.search(r"https?://\S+?(/accounts/password/reset/\S+)", mail.outbox[-1].body)
    form_page = client.get(link.group(1), follow=True)
    client.post(form_page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})


def test_a_changed_password_is_told_to_the_accounts_address_once(
    client, alice, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://acey.example"
    User.objects.filter(pk=alice.pk).update(timezone="Europe/Athens")
    alice.refresh_from_db()
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        change_password(client)

    [notice] = mail.outbox
    assert notice.to == ["alice@example.com"]
    assert notice.subject == "Your Acey-Deucey password was changed"
    assert "was changed on the settings page" in notice.body
    assert re.search(r"\d\d:\d\d EES?T\.", notice.body)  # when, in her own time
    assert "If this was not you" in notice.body
    assert "https://acey.example/accounts/password/reset/" in notice.body
    alice.refresh_from_db()
    assert alice.check_password(NEW)


def test_a_reset_password_is_told_to_the_accounts_address_once(
    client, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        reset_password(client)

    _link, notice = mail.outbox
    assert notice.to == ["alice@example.com"]
    assert notice.subject == "Your Acey-Deucey password was reset"
    assert "through a link emailed to this address" in notice.body
    alice.refresh_from_db()
    assert alice.check_password(NEW)


def test_a_password_not_changed_is_not_told(client, alice, django_capture_on_commit_callbacks):
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        change_password(client, old="not it")

    assert mail.outbox == []


class BrokenMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("gone")


def test_the_password_is_changed_even_when_the_notice_cannot_be_sent(
    client, alice, settings, django_capture_on_commit_callbacks
):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.BrokenMailServer"}}
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        response = change_password(client)

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW)


def test_the_notice_says_the_api_keys_were_revoked(
    client, alice, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://acey.example"
    ApiToken.issue(alice, "my bot")
    ApiToken.issue(alice, "my other bot")
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        change_password(client)

    [notice] = mail.outbox
    assert "Its 2 API keys were revoked too: the programs that used them are shut out." in (
        " ".join(notice.body.split())
    )
    assert "make new API keys in your settings" in " ".join(notice.body.split())
    assert "https://acey.example/accounts/settings/" in notice.body


def test_a_reset_notice_says_its_link_revokes_every_key(
    client, alice, django_capture_on_commit_callbacks
):
    ApiToken.issue(alice, "my bot")

    with django_capture_on_commit_callbacks(execute=True):
        reset_password(client)

    _link, notice = mail.outbox
    body = " ".join(notice.body.split())
    assert "Its API key was revoked too: the programs that used it are shut out." in body
    assert "logs everyone else out and revokes every API key" in body


def test_the_notice_says_nothing_of_keys_the_player_had_none_of(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        change_password(client)

    [notice] = mail.outbox
    assert "revoked too" not in notice.body
    assert "If this was you, there is nothing more to do." in notice.body
