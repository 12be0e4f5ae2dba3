"""The link sent to the old address when an account's address changes: it puts the old
address back, ends every session and API key, and sends a password reset link there."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import ApiToken, User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


@pytest.fixture
def taken_over(client, alice, django_capture_on_commit_callbacks) -> str:
    """Someone logged in as alice moves her account to their address; the undo link the
    old address was sent."""
    client.force_login(alice)
    token = services.email_change_token(alice, new_email="taker@evil.example")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("email_change_confirm", args=[token]))
    ApiToken.issue(User.objects.get(pk=alice.pk), "the taker's key")
    [told] = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    return re.search(r"http://\S+/accounts/email/undo/\S+/", told.body).group(0)


def test_the_old_address_is_told_with_a_link_that_puts_it_back(client, alice, taken_over):
    visitor = Client()  # the owner of the old address, not logged in
    mail.outbox.clear()

    asked = visitor.get(taken_over)
    done = visitor.post(taken_over)

    assert "Make <strong>alice@example.com</strong> the address" in asked.text
    assert "uses alice@example.com again" in done.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert not alice.check_password(PASSWORD)  # whoever knew the password knows it no more
    assert not ApiToken.objects.filter(user=alice).exists()
    assert client.get(reverse("settings")).status_code == 302  # the taker's session ended
    [reset] = mail.outbox
    assert reset.to == ["alice@example.com"]
    assert "/accounts/password/reset/" in reset.body


def test_the_link_works_once(alice, taken_over):
    visitor = Client()
    visitor.post(taken_over)
    mail.outbox.clear()

    again = visitor.post(taken_over)

    assert "The account already uses alice@example.com." in again.text
    assert mail.outbox == []


def test_it_still_works_after_the_address_was_moved_again(alice, taken_over):
    User.objects.filter(pk=alice.pk).update(email="second@evil.example")

    Client().post(taken_over)

    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_not_if_another_account_took_the_old_address_meanwhile(alice, bob, taken_over):
    User.objects.filter(pk=bob.pk).update(email="Alice@Example.com")

    response = Client().post(taken_over)

    assert "Another account now uses that address." in response.text
    alice.refresh_from_db()
    assert alice.email == "taker@evil.example"


def test_a_forged_link_changes_nothing(alice, taken_over):
    forged = taken_over.rstrip("/")[:-3] + "xyz/"

    response = Client().post(forged)

    assert "This link is not valid." in response.text
    alice.refresh_from_db()
    assert alice.email == "taker@evil.example"
