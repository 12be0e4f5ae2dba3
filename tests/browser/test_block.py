"""Blocking a player on a 390px phone, with the keyboard: the Block button on their profile
opens what blocking does and a second button, the page then offers Unblock, and the
settings page lists the block with a button to take it back."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.models import Block

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = "frank_with_a_rather_long_username_indeed"


def _fits(page: Page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], widths


def _press(page: Page, control) -> None:
    control.focus()
    page.keyboard.press("Enter")


def test_blocking_and_unblocking_by_keyboard_on_a_phone(page: Page, live_server, django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    frank = django_user_model.objects.create_user(LONG_NAME, "frank@example.com", PASSWORD)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")

    page.goto(f"{live_server.url}/players/{LONG_NAME}/")
    confirm = page.get_by_role("button", name=f"Yes, block {LONG_NAME}")
    expect(confirm).to_be_hidden()
    _press(page, page.locator("summary", has_text="Block"))
    expect(confirm).to_be_visible()
    expect(page.locator("details.confirm")).to_contain_text("Blocking never resigns anything")
    _fits(page)
    _press(page, confirm)

    expect(page.locator(".messages")).to_contain_text(f"You have blocked {LONG_NAME}.")
    assert Block.objects.filter(blocker=alice, blocked=frank).exists()
    expect(page.get_by_role("button", name=f"Unblock {LONG_NAME}")).to_be_visible()
    _fits(page)

    page.goto(f"{live_server.url}/accounts/settings/")
    unblock = page.get_by_role("button", name=f"Unblock {LONG_NAME}")
    expect(unblock).to_be_visible()
    _fits(page)
    _press(page, unblock)

    expect(page.locator(".messages")).to_contain_text(f"You have unblocked {LONG_NAME}.")
    expect(page.get_by_text("You have not blocked anyone.")).to_be_visible()
    assert not Block.objects.exists()
