"""What the password-reset pages and emails say about their links is true: when a link
stops working, and what the login page's link to ask for another is called."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
LINK = re.compile(r"https?://\S+?(/accounts/password/reset/\S+)")


def ask_for_reset(client: Client):
    return client.post(reverse("password_reset"), {"email": "alice@example.com"}, follow=True)


def test_the_sent_page_says_when_earlier_links_stop_working(client, alice):
    page = ask_for_reset(client).text

    assert "any of them works until your password is changed" not in page
    assert "until you log in or change your password" in page
    assert "3 days after it was sent" in page


def test_the_sent_page_follows_the_setting(client, alice, settings):
    settings.PASSWORD_RESET_TIMEOUT = 60 * 60

    page = ask_for_reset(client).text

    assert "1 hour after it was sent" in page


def test_the_email_says_when_its_link_expires(client, alice):
    ask_for_reset(client)

    assert "The link works once, for 3 days" in mail.outbox[-1].body


def test_logging_in_ends_a_reset_link_as_the_page_says(client, alice):
    ask_for_reset(client)
    link = LINK.search(mail.outbox[-1].body).group(1)
    assert (
        Client().post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )

    page = client.get(link, follow=True)

    assert "This link is not valid" in page.text


def test_the_undo_email_names_the_login_pages_link_as_it_reads(
    alice, django_capture_on_commit_callbacks
):
    from accounts import services

    owner = Client()
    owner.force_login(alice)
    token = services.email_change_token(alice, new_email="taker@evil.example")
    with django_capture_on_commit_callbacks(execute=True):
        owner.post(reverse("email_change_confirm", args=[token]))
    undo = re.search(r"http://\S+(/accounts/email/undo/\S+/)", mail.outbox[-1].body).group(1)
    login_page = Client().get(reverse("login")).text

    Client().post(undo)

    body = mail.outbox[-1].body
    assert "Forgotten your password?" in login_page
    assert "(“Forgotten your password?”)" in body or '("Forgotten your password?")' in body
    assert "Forgot your password?" not in body
    assert "for 3 days" in body
