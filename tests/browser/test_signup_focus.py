"""A sign-up refused comes back with the focus on the first field with an error, where the
player types next (and where a screen reader reads the reason), not on the username."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from accounts.models import User

from .helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = "() => document.activeElement.name || document.activeElement.tagName"


def _sign_up(page: Page, base_url: str, *, email: str, password1: str, password2: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=email]", email)
    page.fill("input[name=password1]", password1)
    page.fill("input[name=password2]", password2)
    page.click("main form button[type=submit]")
    page.wait_for_selector("main form .errorlist")


def _error_under(page: Page, field: str) -> str:
    """The errors shown in the block of the form that holds ``field``."""
    return page.locator(f"main form div:has(> input[name={field}]) .errorlist").inner_text()


def test_the_sign_up_page_opens_with_the_focus_on_the_username(page: Page, live_server):
    page.goto(f"{live_server.url}/accounts/signup/")

    assert page.evaluate(FOCUSED) == "username"


def test_mismatched_passwords_take_the_focus_to_the_confirmation(page: Page, live_server):
    _sign_up(page, live_server.url, email="new@example.com", password1=PASSWORD, password2="other")

    assert page.evaluate(FOCUSED) == "password2"
    assert "The two password fields" in _error_under(page, "password2")


def test_a_weak_password_takes_the_focus_to_the_password_with_the_reason(page: Page, live_server):
    _sign_up(page, live_server.url, email="new@example.com", password1="12345", password2="12345")

    assert page.evaluate(FOCUSED) == "password1"
    assert "too short" in _error_under(page, "password1")
    assert not User.objects.filter(username="newcomer").exists()


def test_an_address_in_use_takes_the_focus_to_the_email(page: Page, live_server):
    User.objects.create_user("alice", "alice@example.com", PASSWORD)

    _sign_up(
        page, live_server.url, email="alice@example.com", password1=PASSWORD, password2=PASSWORD
    )

    assert page.evaluate(FOCUSED) == "email"
