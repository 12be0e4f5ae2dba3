"""Changing the email address through a signed link sent to the new address."""

import re
import smtplib
import time
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from accounts import services, throttle
from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def confirm_url(token: str) -> str:
    return reverse("email_change_confirm", args=[token])


def test_it_emails_a_link_to_the_new_address_and_changes_nothing_yet(client, alice, settings):
    settings.SITE_URL = "https://acey.example"
    client.force_login(alice)

    response = client.post(
        reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@new.example"]
    assert re.search(r"https://acey\.example/accounts/email/confirm/\S+/", mail.outbox[0].body)
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_changes_the_address_when_the_link_is_confirmed(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    client.post(reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD})
    path = re.search(r"/accounts/email/confirm/\S+/", mail.outbox[0].body).group(0)

    page = client.get(path)
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # GET only asks
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(path)

    assert "Use <strong>alice@new.example</strong>" in page.text
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    assert mail.outbox[-1].to == ["alice@example.com"]  # the old address is told
    assert "was changed" in mail.outbox[-1].subject


def test_its_emails_name_the_site_in_their_subjects_as_the_others_do(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    client.post(reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD})
    path = re.search(r"/accounts/email/confirm/\S+/", mail.outbox[0].body).group(0)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(path)

    assert [message.subject for message in mail.outbox] == [
        "Confirm your new email address for Acey-Deucey",
        "Your Acey-Deucey email address was changed",
    ]


def test_it_does_not_apply_a_link_twice(client, alice):
    token = services.email_change_token(alice, new_email="alice@new.example")
    client.force_login(alice)
    client.post(confirm_url(token))

    response = client.post(confirm_url(token))

    assert "already been used" in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"


def test_the_link_does_not_carry_the_address_it_replaces(client, alice):
    # Signed, not encrypted: a new address mistyped would give its owner the player's own.
    token = services.email_change_token(alice, new_email="alice@new.example")
    readable = signing.b64_decode(token.split(":")[0].encode()).decode()

    assert "alice@new.example" in readable  # it is readable
    assert "alice@example.com" not in readable
    client.force_login(alice)
    page = client.get(confirm_url(token)).text
    # The page, to the account's owner only, names the address it replaces.
    assert "instead of alice@example.com for your account?" in " ".join(page.split())
    client.post(confirm_url(token))
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    assert alice.email_undo_address == "alice@example.com"  # the undo still knows it


def test_it_rejects_an_expired_link(client, alice, monkeypatch):
    three_days_ago = time.time() - timedelta(days=3).total_seconds()
    with monkeypatch.context() as patch:
        patch.setattr(time, "time", lambda: three_days_ago)
        token = services.email_change_token(alice, new_email="alice@new.example")
    client.force_login(alice)

    response = client.post(confirm_url(token))

    assert response.status_code == 200
    assert "expired" in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_rejects_a_forged_link(client, alice):
    forged = signing.TimestampSigner(salt="something else").sign_object(
        {"user": alice.pk, "new": "mallory@example.com", "old": alice.email}
    )
    client.force_login(alice)

    response = client.post(confirm_url(forged))

    assert "not valid" in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_rejects_another_users_link(client, alice, bob):
    token = services.email_change_token(alice, new_email="alice@new.example")
    client.force_login(bob)

    response = client.post(confirm_url(token))

    assert "different account" in response.text
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.email, bob.email) == ("alice@example.com", "bob@example.com")


def test_it_sends_anonymous_visitors_to_log_in_first(client, alice):
    token = services.email_change_token(alice, new_email="alice@new.example")

    response = client.post(confirm_url(token))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_the_login_page_a_link_opened_logged_out_leads_to_says_what_it_is_for(client, alice):
    token = services.email_change_token(alice, new_email="alice@new.example")

    page = client.get(confirm_url(token), follow=True)
    plain = client.get(reverse("login"))

    reason = "Log in to confirm your new email address"
    assert page.redirect_chain[-1][0].startswith(reverse("login"))
    assert reason in page.text
    assert reason not in plain.text


def test_an_address_another_account_uses_is_answered_as_any_other(client, alice, bob, settings):
    # Else the form would tell any player which addresses have accounts here.
    settings.SITE_URL = "https://acey.example"
    client.force_login(alice)

    taken = client.post(
        reverse("email_change"), {"email": "BOB@example.com", "password": PASSWORD}, follow=True
    )
    free = client.post(
        reverse("email_change"), {"email": "nobody@example.com", "password": PASSWORD}, follow=True
    )

    assert taken.redirect_chain == free.redirect_chain == [(reverse("settings"), 302)]
    assert "We have sent a link to BOB@example.com. Follow it within 2 days" in taken.text
    assert "We have sent a link to nobody@example.com. Follow it within 2 days" in free.text
    notice, link = mail.outbox
    assert notice.to == ["BOB@example.com"]
    assert link.to == ["nobody@example.com"]
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_the_owner_of_an_address_asked_for_is_told_what_to_do_and_given_no_link(
    client, alice, bob, settings
):
    settings.SITE_URL = "https://acey.example"
    client.force_login(alice)

    client.post(reverse("email_change"), {"email": "bob@example.com", "password": PASSWORD})

    [notice] = mail.outbox
    body = " ".join(notice.body.split())
    assert notice.subject == "An Acey-Deucey account asked to use your email address"
    assert "The player logged in to the Acey-Deucey account alice asked to use" in body
    assert "already the address of an account here, so nothing has changed" in body
    assert "https://acey.example/accounts/login/" in body
    assert "https://acey.example/accounts/password/reset/" in body
    assert "/accounts/email/confirm/" not in body
    bob.refresh_from_db()
    assert bob.email == "bob@example.com"


def test_an_address_another_account_uses_counts_against_the_limits(client, alice, bob):
    client.force_login(alice)
    for _ in range(throttle.MAX_EMAIL_CHANGES_PER_ADDRESS):
        client.post(reverse("email_change"), {"email": "bob@example.com", "password": PASSWORD})

    refused = client.post(
        reverse("email_change"), {"email": "bob@example.com", "password": PASSWORD}
    )

    assert refused.status_code == 429
    assert len(mail.outbox) == throttle.MAX_EMAIL_CHANGES_PER_ADDRESS


def test_it_refuses_to_confirm_an_address_taken_since_the_link_was_sent(client, alice, bob):
    token = services.email_change_token(alice, new_email="alice@new.example")
    bob.email = "Alice@New.example"
    bob.save()
    client.force_login(alice)

    response = client.post(confirm_url(token))

    assert "Another account now uses that address" in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


class BrokenMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("gone")


def test_it_says_so_when_the_link_cannot_be_sent(client, alice, settings):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.BrokenMailServer"}}
    client.force_login(alice)

    response = client.post(
        reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD}, follow=True
    )

    assert "We could not send the email" in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_refuses_an_address_taken_while_the_change_is_being_confirmed(
    client, alice, bob, meanwhile
):
    token = services.email_change_token(alice, new_email="alice@new.example")
    # Bob takes the address between the confirmation's check and the save. (Bob's write
    # here is undone with the failed save; a real concurrent request's would stand.)
    meanwhile(
        lambda: User.objects.filter(pk=bob.pk).update(email="Alice@New.example"),
        when=lambda user: user.email == "alice@new.example",
    )
    client.force_login(alice)

    response = client.post(confirm_url(token))

    assert response.status_code == 200
    assert "Another account now uses that address" in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_refuses_an_address_longer_than_an_account_can_keep(client, alice):
    # A valid address (each part of the domain within its 63 characters), 260 long.
    long_address = "a" * 64 + "@" + ("b" * 63 + ".") * 3 + "com"
    client.force_login(alice)

    response = client.post(reverse("email_change"), {"email": long_address, "password": PASSWORD})

    assert response.status_code == 200
    assert "Ensure this value has at most 254 characters (it has 260)." in response.text
    assert mail.outbox == []
