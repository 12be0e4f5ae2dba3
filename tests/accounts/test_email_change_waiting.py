"""An email change waiting for its link: the settings page says so, on every device (which
address, that a link went to it, until when it works), while that link would still be
taken; and a link asked for to another address ends the one before it."""

from __future__ import annotations

import re
import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services
from games import closing

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
WAITING = 'id="email-change-waiting"'


def ask_for_link(client: Client, new_email: str) -> str:
    """Send the settings' email form; return the path of the link emailed."""
    client.post(reverse("email_change"), {"email": new_email, "password": PASSWORD})
    return re.search(r"/accounts/email/confirm/\S+/", mail.outbox[-1].body).group(0)


def settings_page(user) -> str:
    """The settings page as another device of ``user``'s sees it."""
    device = Client()
    device.force_login(user)
    return device.get(reverse("settings")).text


def test_the_settings_page_says_which_address_waits_and_until_when(client, alice):
    client.force_login(alice)
    before = timezone.now()

    ask_for_link(client, "alice@new.example")

    page = settings_page(alice)
    waiting = page.split(WAITING, 1)[1].split("</p>", 1)[0]
    assert "<strong>alice@new.example</strong>" in waiting
    assert "We sent a link to <strong>alice@new.example</strong>" in waiting
    until = re.search(r'<time datetime="([^"]+)">', waiting)[1]
    assert until.startswith((before + services.EMAIL_CHANGE_MAX_AGE).date().isoformat())
    assert re.search(r"\d\d:\d\d UTC</time>", waiting)  # the zone named, as emails do
    assert "Your email address is <strong>alice@example.com</strong>" in page


def test_nothing_waits_before_a_link_is_asked_for(alice):
    assert WAITING not in settings_page(alice)


def test_nothing_waits_once_the_link_is_followed(client, alice):
    client.force_login(alice)
    link = ask_for_link(client, "alice@new.example")

    client.post(link)

    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    assert WAITING not in settings_page(alice)


def test_nothing_waits_once_the_link_has_expired(client, alice, monkeypatch):
    client.force_login(alice)
    ask_for_link(client, "alice@new.example")
    later = timezone.now() + services.EMAIL_CHANGE_MAX_AGE + timedelta(seconds=1)

    monkeypatch.setattr(timezone, "now", lambda: later)

    assert WAITING not in settings_page(alice)


def test_nothing_waits_once_a_new_password_has_ended_the_link(client, alice):
    client.force_login(alice)
    link = ask_for_link(client, "alice@new.example")

    alice.set_password("a brand new passphrase")
    alice.save()

    assert WAITING not in settings_page(alice)
    client.force_login(alice)
    assert "already been used, or is out of date" in client.post(link).text


def test_a_link_to_another_address_ends_the_one_before_it(client, alice):
    client.force_login(alice)
    to_typo = ask_for_link(client, "alice@nwe.example")
    to_new = ask_for_link(client, "alice@new.example")

    refused = client.post(to_typo).text

    assert "already been used, or is out of date" in refused
    page = settings_page(alice)
    assert "<strong>alice@new.example</strong>" in page.split(WAITING, 1)[1]
    assert "alice@nwe.example" not in page
    client.post(to_new)
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"


def test_a_link_asked_for_again_to_the_same_address_leaves_the_first_working(client, alice):
    client.force_login(alice)
    first = ask_for_link(client, "alice@new.example")
    ask_for_link(client, "alice@new.example")

    client.post(first)

    alice.refresh_from_db()
    assert alice.email == "alice@new.example"


class BrokenMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("gone")


def test_a_link_that_could_not_be_sent_is_not_said_to_wait(client, alice, settings):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.BrokenMailServer"}}
    client.force_login(alice)

    client.post(reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD})

    alice.refresh_from_db()
    assert alice.email_change_to == ""
    assert WAITING not in settings_page(alice)


def test_closing_the_account_erases_the_address_waiting(client, alice):
    client.force_login(alice)
    ask_for_link(client, "alice@new.example")

    closing.close_account(alice)

    alice.refresh_from_db()
    assert (alice.email_change_to, alice.email_change_until) == ("", None)
