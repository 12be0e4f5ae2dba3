"""Forced colours (Windows' high contrast mode), which drop backgrounds and box shadows,
and the board's selected tray, which must read as selected in any mode."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games.models import Match

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EDGE = """selector => {
  const style = getComputedStyle(document.querySelector(selector));
  return [style.borderTopStyle, parseFloat(style.borderTopWidth)];
}"""


@pytest.mark.parametrize("forced", ["active", "none"])
def test_buttons_and_colour_dots_keep_an_edge_in_forced_colours(
    browser: Browser, live_server, match: Match, forced
):
    # A button drawn by its background alone read as plain bold text ("Yes, resign the
    # match"), and the players' colour dots, drawn the same way, went.
    context = browser.new_context(forced_colors=forced)
    page = context.new_page()
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + f"/matches/{match.pk}/resign/")
    edge = page.evaluate(EDGE, "main .button")
    page.goto(live_server.url + match.get_absolute_url())
    adjust = page.evaluate("getComputedStyle(document.querySelector('.swatch')).forcedColorAdjust")

    if forced == "active":
        assert edge[0] == "solid" and edge[1] >= 2
        assert adjust == "none"
    else:  # the usual look is as it was: no border
        assert edge[0] == "none"
    context.close()


def test_a_selected_tray_looks_other_than_one_that_may_be_selected(
    browser: Browser, live_server, match: Match
):
    # Alice may enter a waiting checker or move one on the board: the tray is outlined as
    # a place to move from; chosen, it is filled, as a chosen point is.
    page = browser.new_page()
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    fill = "el => getComputedStyle(el).fill"
    before = page.locator("rect.tray-source").evaluate(fill)

    page.locator("#target-from-26").click()
    expect(page.locator("rect.tray-selected")).to_have_count(1)

    assert page.locator("rect.tray-selected").evaluate(fill) != before
    expect(page.locator("rect.tray-source")).to_have_count(0)
    page.close()
