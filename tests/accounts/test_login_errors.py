"""A refused login says why where a screen reader finds it: the reason is announced
(role="alert"), both fields point to it (aria-describedby), and the focus goes where the
player types next."""

import re

import pytest
from django.urls import reverse

from accounts import throttle

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
URL = reverse("login")


def field(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)


def test_the_reason_is_announced_and_both_fields_point_to_it(client, alice):
    page = client.post(URL, {"username": "alice", "password": "wrong"}).text

    alert = re.search(r'<div id="login-errors" role="alert">(.*?)</div>', page, re.S)
    assert "Please enter a correct username and password" in alert.group(1)
    assert 'aria-describedby="login-errors"' in field(page, "username")
    assert 'aria-describedby="login-errors"' in field(page, "password")


def test_the_reason_is_inside_the_form(client, alice):
    page = client.post(URL, {"username": "alice", "password": "wrong"}).text

    form = page[page.index('<form method="post" class="stack"') :]
    assert form.index('id="login-errors"') < form.index("</form>")


def test_after_a_wrong_password_the_focus_is_on_the_password(client, alice):
    page = client.post(URL, {"username": "alice", "password": "wrong"}).text

    assert "autofocus" in field(page, "password")
    assert "autofocus" not in field(page, "username")
    assert 'value="alice"' in field(page, "username")  # kept, not to be typed again


def test_a_throttled_login_is_announced_the_same_way(client, alice):
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        client.post(URL, {"username": "alice", "password": "wrong"})

    page = client.post(URL, {"username": "alice", "password": PASSWORD}).text

    alert = re.search(r'<div id="login-errors" role="alert">(.*?)</div>', page, re.S)
    assert "Too many failed login attempts" in alert.group(1)
    assert 'aria-describedby="login-errors"' in field(page, "password")


def test_a_missing_field_takes_the_focus(client, alice):
    page = client.post(URL, {"username": "alice", "password": ""}).text

    assert "autofocus" in field(page, "password")
    assert "autofocus" not in field(page, "username")
    assert 'aria-describedby="id_password_error"' in field(page, "password")
    assert 'id="login-errors"' not in page


def test_the_blank_form_has_no_alert_and_the_focus_on_the_username(client):
    page = client.get(URL).text

    assert 'role="alert"' not in page
    assert "autofocus" in field(page, "username")
    assert "aria-describedby" not in field(page, "username")
