"""A click on the board keeps the history the page shows (the server sends none); a
played segment brings the new history."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .helpers import act, board_state, log_in, wait_for_redraw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_clicks_keep_the_history_and_a_played_segment_extends_it(page: Page, live_server, match):
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    history = page.locator("#history")
    expect(history).to_contain_text("History")
    entries = history.locator(".turn-entry").count()
    # Mark the element the page holds: a kept history is this very element.
    history.evaluate("element => element.dataset.marked = 'yes'")

    # A checker selected and moved one die: no segment is stored.
    act(page, page.locator(".target").first)
    act(page, page.locator(".target").first)

    expect(page.locator("#history[data-marked='yes']")).to_have_count(1)
    expect(history.locator(".turn-entry")).to_have_count(entries)

    # The rest of the play submitted: the new segment arrives with a new history.
    while page.locator(".submit-play").count() == 0:
        act(page, page.locator(".target").first)
    before = board_state(page)
    page.locator(".submit-play").click()
    wait_for_redraw(page, before)

    expect(page.locator("#history[data-marked='yes']")).to_have_count(0)
    expect(history.locator(".turn-entry")).to_have_count(entries + 1)
    expect(history).to_contain_text("alice")
