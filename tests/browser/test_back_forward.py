"""Back and Forward after a turn bring the match as it stands, not the board as it was
drawn before the turn: the match page and the dashboard are never taken from a cache."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_back_after_a_turn_shows_the_match_as_it_stands(page: Page, live_server, match):
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + "/dashboard/")
    page.click(f"a[href='{match.get_absolute_url()}'] >> nth=0")
    expect(page.locator("#turn-line")).to_contain_text("Your turn")

    page.locator("details.notation-box summary").click()
    page.fill("#play-text", "in/19 in/20")
    page.click("button.submit-typed")
    expect(page.locator("#turn-line")).to_contain_text("bob to move")
    page.click("nav a[href='/dashboard/']")
    expect(page.locator("#waiting-h")).to_be_visible()

    page.go_back()
    expect(page.locator("#turn-line")).to_contain_text("bob to move")
    expect(page.locator(".your-turn")).to_have_count(0)
    page.go_back()  # the dashboard, from before the turn
    expect(page.locator("#turn-h + ul")).to_have_count(0)  # nothing on Alice's move now
    page.go_forward()
    expect(page.locator("#turn-line")).to_contain_text("bob to move")
