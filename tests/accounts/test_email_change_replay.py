"""An email-change link works once: every change of the account's address (a confirmed link,
or an undo from the old address) and every new password ends every link sent before it,
so none can be replayed later to switch the address back."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import User

pytestmark = pytest.mark.django_db

UNDO = re.compile(r"http://\S+/accounts/email/undo/\S+/")


def link_for(user: User, new_email: str) -> str:
    user.refresh_from_db()
    return reverse(
        "email_change_confirm", args=[services.email_change_token(user, new_email=new_email)]
    )


def confirm(client: Client, link: str, capture) -> str:
    with capture(execute=True):
        return client.post(link).text


def email_of(user: User) -> str:
    user.refresh_from_db()
    return user.email


def test_a_used_link_does_not_work_again_after_an_undo(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    to_taker = link_for(alice, "taker@evil.example")
    confirm(client, to_taker, django_capture_on_commit_callbacks)
    undo = UNDO.search(mail.outbox[-1].body).group(0)
    Client().post(undo)  # alice takes her address back; her password is replaced
    assert email_of(alice) == "alice@example.com"
    # Back in (she set a new password through the link the undo sent her).
    client.force_login(User.objects.get(pk=alice.pk))

    replayed = confirm(client, to_taker, django_capture_on_commit_callbacks)

    assert "already been used, or is out of date" in replayed
    assert email_of(alice) == "alice@example.com"


def test_a_link_dies_when_the_address_changes_and_comes_back(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    to_b = link_for(alice, "alice@b.example")
    confirm(client, link_for(alice, "alice@c.example"), django_capture_on_commit_callbacks)
    confirm(client, link_for(alice, "alice@example.com"), django_capture_on_commit_callbacks)
    assert email_of(alice) == "alice@example.com"

    answer = confirm(client, to_b, django_capture_on_commit_callbacks)

    assert "already been used, or is out of date" in answer
    assert email_of(alice) == "alice@example.com"


def test_a_link_dies_when_the_password_changes(client, alice, django_capture_on_commit_callbacks):
    link = link_for(alice, "alice@new.example")
    alice.set_password("a brand new passphrase")
    alice.save()
    client.force_login(alice)

    answer = confirm(client, link, django_capture_on_commit_callbacks)

    assert "already been used, or is out of date" in answer
    assert email_of(alice) == "alice@example.com"


def test_an_unused_link_still_works(client, alice, django_capture_on_commit_callbacks):
    link = link_for(alice, "alice@new.example")
    client.force_login(alice)
    client.get(reverse("settings"))  # being logged in, or looking around, ends nothing

    confirm(client, link, django_capture_on_commit_callbacks)

    assert email_of(alice) == "alice@new.example"
