"""A refused sign-up gives the focus to its first field with an error, and to that field
alone (tests/browser/test_signup_focus.py sees where a browser puts it)."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _autofocused(page: str) -> list[str]:
    """The names of the fields that ask for the focus."""
    return re.findall(r'<input[^>]*\bname="(\w+)"[^>]*\bautofocus\b', page)


def _sign_up(client, **fields: str) -> str:
    data = {"username": "newcomer", "email": "new@example.com"} | fields
    return client.post(reverse("signup"), data).text


def test_the_blank_form_gives_it_to_the_username(client):
    assert _autofocused(client.get(reverse("signup")).text) == ["username"]


def test_mismatched_passwords_give_it_to_the_confirmation(client):
    page = _sign_up(client, password1="a long enough passphrase", password2="another")

    assert _autofocused(page) == ["password2"]


def test_a_weak_password_gives_it_to_the_password_with_the_reason_under_it(client):
    page = _sign_up(client, password1="12345", password2="12345")

    assert _autofocused(page) == ["password1"]
    password_block = page.split('for="id_password1"', 1)[1].split('for="id_password2"', 1)[0]
    assert "This password is too short." in password_block


def test_an_address_in_use_gives_it_to_the_email(client, alice):
    password = "a long enough passphrase"
    page = _sign_up(client, email="alice@example.com", password1=password, password2=password)

    assert _autofocused(page) == ["email"]
