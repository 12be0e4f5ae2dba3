"""Time away on a 390px phone, with the keyboard: a player goes away from the settings page,
their opponent sees it on the match, and they come back from the match to play."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tests.matches import opened_by_white

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_going_away_and_coming_back_to_play(
    page: Page, browser: Browser, live_server, django_user_model
):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    match = opened_by_white(alice, bob)  # alice to move
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + "/accounts/settings/")
    back_on = page.locator("#id_back_on")
    expect(back_on).to_have_value((timezone.localdate() + timedelta(days=7)).isoformat())
    back_on.focus()
    page.keyboard.press("Enter")  # in the date field, as a keyboard user sends a form

    expect(page.locator(".messages")).to_contain_text("You are away until")
    expect(page.get_by_role("button", name="I am back")).to_be_visible()
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], widths

    watcher = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(watcher, live_server.url, "bob")
    watcher.goto(live_server.url + match.get_absolute_url())
    expect(watcher.locator(".away-note")).to_contain_text("alice is taking time away until")
    watcher.context.close()

    page.goto(live_server.url + match.get_absolute_url())
    expect(page.locator(".chip")).to_have_count(0)
    come_back = page.get_by_role("button", name="I am back: let me play")
    come_back.focus()
    page.keyboard.press("Enter")

    page.wait_for_url(live_server.url + match.get_absolute_url())
    expect(page.locator(".messages")).to_contain_text("Welcome back: your clocks run again.")
    expect(page.locator(".chip").first).to_be_visible()
    alice.refresh_from_db()
    assert alice.away_until is None
