"""A play half made survives a reload of the page (or a phone's browser loading a dropped
tab again): the steps are kept in the tab and clicked back in, and the server checks them
as any click."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from tests.matches import take_turn

from .helpers import act, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _half_a_play(page: Page, live_server, match: Match) -> str:
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    act(page, page.locator(".move-choices .chip").first)
    so_far = page.locator(".so-far strong").inner_text()
    assert so_far != "nothing yet"
    return so_far


def test_a_play_half_made_is_there_again_after_a_reload(page: Page, live_server, match):
    so_far = _half_a_play(page, live_server, match)

    page.reload()

    expect(page.locator(".so-far strong")).to_have_text(so_far)
    # Undone, it stays undone through the next reload.
    act(page, page.get_by_role("button", name="Undo last move"))
    expect(page.locator(".so-far strong")).to_have_text("nothing yet")
    page.reload()
    expect(page.locator(".so-far")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect(page.locator(".so-far strong")).to_have_text("nothing yet")


def test_a_play_half_made_for_a_board_since_moved_on_is_not_brought_back(
    page: Page, live_server, match
):
    _half_a_play(page, live_server, match)
    # Played meanwhile in another window: the kept steps belong to the old dice.
    match = take_turn(match, match.white, [4, 2], play="in/19 in/20")

    page.reload()
    page.wait_for_load_state("networkidle")

    expect(page.locator("#live")).to_have_attribute("data-mode", "wait")
    assert page.evaluate("sessionStorage.getItem('acey:steps')") is None
