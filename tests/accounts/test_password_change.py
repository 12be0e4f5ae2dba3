"""Changing the password from the settings: the old password is asked, and wrong ones
count with the login failures, so a session left open is no way round the login's limit
on guessing it."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttle
from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
NEW = "a brand new passphrase"
URL = reverse("password_change")


def change(client, old: str = PASSWORD, new1: str = NEW, new2: str = NEW, ip="10.0.0.1"):
    data = {"old_password": old, "new_password1": new1, "new_password2": new2}
    return client.post(URL, data, REMOTE_ADDR=ip)


def focused(page: str) -> list[str]:
    """The names of the inputs that take the focus as the page opens."""
    return re.findall(r'<input[^>]*name="(\w+)"[^>]*autofocus', page) + re.findall(
        r'<input[^>]*autofocus[^>]*name="(\w+)"', page
    )


def test_it_changes_the_password_and_keeps_the_player_logged_in(client, alice):
    client.force_login(alice)

    response = change(client)

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert client.get(reverse("settings")).status_code == 200


def test_wrong_old_passwords_count_with_the_login_failures(client, alice):
    client.force_login(alice)
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        assert change(client, old="not it", ip="10.0.0.66").status_code == 200
    client.logout()

    response = client.post(
        reverse("login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.66"
    )

    assert response.status_code == 429


def test_it_refuses_even_the_right_old_password_while_the_login_is_throttled(client, alice):
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        throttle.record_failed_login(username="alice", ip="10.0.0.66")
    client.force_login(alice)

    response = change(client, ip="10.0.0.66")

    assert response.status_code == 200
    assert "Too many wrong passwords" in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_wrong_old_password_says_so(client, alice):
    client.force_login(alice)

    response = change(client, old="not it")

    assert "That is not your password." in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_the_form_opens_with_the_focus_on_the_old_password(client, alice):
    client.force_login(alice)

    page = client.get(URL).text

    assert focused(page) == ["old_password"]


def test_after_an_error_the_focus_is_on_the_first_field_with_one(client, alice):
    client.force_login(alice)

    mismatch = change(client, new2="something else entirely").text
    wrong_old = change(client, old="not it").text

    assert focused(mismatch) == ["new_password2"]
    assert focused(wrong_old) == ["old_password"]


def test_a_new_password_revokes_every_api_key(client, alice):
    _, key = ApiToken.issue(alice, "my bot")
    api = Client(headers={"authorization": f"Token {key}"})
    assert api.get(reverse("api_me")).status_code == 200
    client.force_login(alice)

    response = change(client, ip="10.0.0.1")

    assert response.status_code == 302
    assert api.get(reverse("api_me")).status_code == 401
    assert not ApiToken.objects.filter(user=alice).exists()


def test_the_page_after_the_change_says_the_keys_were_revoked(client, alice):
    ApiToken.issue(alice, "my bot")
    ApiToken.issue(alice, "my other bot")
    client.force_login(alice)

    page = client.post(
        URL, {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}, follow=True
    )

    settings_link = f'<a href="{reverse("settings")}#tokens-h">settings</a>'
    assert (
        "Your 2 API keys were revoked with the old password: make new ones in your"
        f" {settings_link} for the programs that use them."
    ) in page.text


def test_the_page_after_the_change_says_nothing_of_keys_the_player_had_none_of(client, alice):
    client.force_login(alice)

    page = client.post(
        URL, {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}, follow=True
    )

    assert "Your new password is set." in page.text
    assert "API key" not in page.text
