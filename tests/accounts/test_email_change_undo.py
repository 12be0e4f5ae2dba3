"""The link sent to the old address when an account's address changes: it puts that
address back, ends every session and API key, and sends a password reset link there.
It is the taker's tools that it must outlast: a second change, a sign-up with the old
address, a link of their own."""

from __future__ import annotations

import logging
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
from accounts.models import ApiToken, User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
UNDO = re.compile(r"http://\S+/accounts/email/undo/\S+/")


def _change(client: Client, user: User, new: str, capture) -> list[mail.EmailMessage]:
    """``user``'s address changed to ``new`` from ``client``'s session; the emails sent."""
    mail.outbox.clear()
    user.refresh_from_db()
    token = services.email_change_token(user, new_email=new)
    with capture(execute=True):
        client.post(reverse("email_change_confirm", args=[token]))
    return list(mail.outbox)


@pytest.fixture
def taker(client, alice) -> Client:
    """Someone logged in as alice (her password stolen)."""
    client.force_login(alice)
    return client


@pytest.fixture
def link(taker, alice, django_capture_on_commit_callbacks) -> str:
    """The taker moves alice's account to their address; the link alice@ was sent."""
    [told] = _change(taker, alice, "taker@evil.example", django_capture_on_commit_callbacks)
    assert told.to == ["alice@example.com"]
    ApiToken.issue(User.objects.get(pk=alice.pk), "the taker's key")
    return UNDO.search(told.body).group(0)


def test_the_old_address_takes_the_account_back(taker, alice, link):
    owner = Client()  # not logged in: she may not be able to
    mail.outbox.clear()

    asked = owner.get(link)
    done = owner.post(link)

    assert "Make <strong>alice@example.com</strong> the address" in asked.text
    assert "uses alice@example.com again" in done.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert not alice.check_password(PASSWORD)  # the stolen password no longer works
    assert not ApiToken.objects.filter(user=alice).exists()
    assert taker.get(reverse("settings")).status_code == 302  # the taker's session ended
    [reset] = mail.outbox
    assert reset.to == ["alice@example.com"]
    assert "/accounts/password/reset/" in reset.body
    assert "To log in again, choose a new password" in reset.body
    assert "ignore this email" not in reset.body


def test_the_link_works_once_and_not_after_a_later_change(
    alice, link, django_capture_on_commit_callbacks
):
    Client().post(link)
    assert "not valid, or has been used" in Client().post(link).text

    # alice, back in, changes her address herself: the old link does not come back to life.
    owner = Client()
    owner.force_login(User.objects.get(pk=alice.pk))
    User.objects.filter(pk=alice.pk).update(email_undo_until=None)  # her window, used up
    _change(owner, alice, "alice@new.example", django_capture_on_commit_callbacks)
    assert "not valid, or has been used" in Client().post(link).text
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"


def test_a_second_change_by_the_taker_sends_no_link_and_hers_still_works(
    taker, alice, link, django_capture_on_commit_callbacks
):
    [told] = _change(taker, alice, "second@evil.example", django_capture_on_commit_callbacks)

    assert told.to == ["taker@evil.example"]
    assert not UNDO.search(told.body)  # the taker gets no link of their own
    Client().post(link)
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # the first address, not the taker's


def test_nobody_can_sign_up_with_the_address_being_held(alice, link):
    response = Client().post(
        reverse("signup"),
        {
            "username": "squatter",
            "email": "ALICE@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        },
    )

    assert "An account with this email address already exists" in response.text
    assert not User.objects.filter(username="squatter").exists()
    Client().post(link)
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_an_expired_or_forged_link_changes_nothing(alice, link):
    forged = re.sub(r"/[^/]+/$", "/not-the-secret/", link)
    assert "not valid, or has been used" in Client().post(forged).text

    User.objects.filter(pk=alice.pk).update(email_undo_until=timezone.now() - timedelta(1))
    assert "This link has expired." in Client().post(link).text
    alice.refresh_from_db()
    assert alice.email == "taker@evil.example"


class _RefusingMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("gone")


def test_a_reset_link_that_could_not_be_sent_is_not_said_sent(alice, link, settings, caplog):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}._RefusingMailServer"}}

    done = Client().post(link)

    # Logged as a warning without the traceback, whose frames hold the link (an ERROR
    # would email them to ADMINS).
    failures = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.levelname, r.getMessage()) for r in failures] == [
        (
            "WARNING",
            "The password reset link after an undo was not sent: SMTPServerDisconnected: gone",
        )
    ]
    assert failures[0].exc_info is None

    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # the undo itself stands
    assert "We could not send the link to choose a new password" in done.text
    assert "We have sent" not in done.text


def test_an_address_never_confirmed_gets_no_link_to_take_the_account_back(
    client, alice, django_capture_on_commit_callbacks
):
    # alice signed up with a typo and mends it before confirming: the typo's owner must
    # not be handed a way into her account, nor be written to at all.
    User.objects.filter(pk=alice.pk).update(email="alice@exmaple.com", email_confirmed_at=None)
    client.force_login(alice)

    sent = _change(client, alice, "alice@example.com", django_capture_on_commit_callbacks)

    assert sent == []
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert alice.email_confirmed_at is not None
    assert alice.email_undo_key == ""
    assert alice.email_undo_address == ""
    # The typo address is not held for an undo: another account may sign up with it.
    assert not services.email_in_use("alice@exmaple.com", except_user=None)
