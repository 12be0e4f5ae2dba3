"""Asking for a new email address takes the current password: with only a session left
open, someone could otherwise move the account to their address, reset its password
through it and close it, though closing asks for the password."""

import pytest
from django.core import mail
from django.urls import reverse

from accounts import throttle

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
URL = reverse("email_change")


def ask(client, email: str = "alice@new.example", password: str = PASSWORD, ip="10.0.0.1"):
    return client.post(URL, {"email": email, "password": password}, REMOTE_ADDR=ip)


def test_it_sends_the_link_with_the_right_password(client, alice):
    client.force_login(alice)

    response = ask(client)

    assert response.status_code == 302
    assert [message.to for message in mail.outbox] == [["alice@new.example"]]


def test_it_asks_for_the_password(client, alice):
    client.force_login(alice)

    response = client.post(URL, {"email": "alice@new.example"})

    assert response.status_code == 200
    assert "This field is required." in response.text
    assert mail.outbox == []


def test_it_sends_nothing_for_a_wrong_password(client, alice):
    client.force_login(alice)

    response = ask(client, password="not it")

    assert response.status_code == 200
    assert "That is not your password." in response.text
    assert mail.outbox == []
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_the_settings_page_shows_the_password_field_in_the_email_form(client, alice):
    client.force_login(alice)

    page = client.get(reverse("settings")).text

    form = page[page.index(f'action="{URL}"') :]
    form = form[: form.index("</form>")]
    assert 'name="password"' in form
    assert 'autocomplete="current-password"' in form


def test_wrong_passwords_count_with_the_login_failures(client, alice):
    client.force_login(alice)
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        ask(client, password="not it", ip="10.0.0.66")
    client.logout()

    response = client.post(
        reverse("login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.66"
    )

    assert response.status_code == 429


def test_it_refuses_even_the_right_password_while_the_login_is_throttled(client, alice):
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        throttle.record_failed_login(username="alice", ip="10.0.0.66")
    client.force_login(alice)

    response = ask(client, ip="10.0.0.66")

    assert response.status_code == 200
    assert "Too many wrong passwords" in response.text
    assert mail.outbox == []
