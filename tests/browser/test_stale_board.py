"""A board left open in one window while the turn is played in another: its next click is
told that the board was out of date and gets the board as it stands, as its Submit is,
instead of an error blaming the move clicked."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.engine.game import ScriptedDice
from games.models import Match

from .helpers import act, board_state, log_in, wait_for_redraw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# How many of the page's live regions hold the sentence: each one is read out.
LIVE_REGIONS_SAYING = """sentence => Array.from(document.querySelectorAll(
  "[role=alert], [role=status], [role=log], [aria-live]:not([aria-live=off])"
)).filter(el => el.textContent.includes(sentence)).length"""


def _turn_played_in_another_window(match: Match) -> Match:
    """Alice plays her 6-5 elsewhere and bob answers: she has 4-3 now."""
    for user, play, dice in (
        (match.white, "in/19 in/20", [4, 1]),
        (match.black, "in/24 in/21", [4, 3]),
    ):
        action = services.TurnAction(segment=match.segment_count, play=play)
        match = services.submit_segment(match.pk, user=user, action=action, dice=ScriptedDice(dice))
    return match


def test_a_click_on_a_board_another_window_moved_on_from_says_it_was_out_of_date(
    page: Page, live_server, match
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    chips = page.locator(".move-choices .chip")
    act(page, chips.first)  # one move of the 6-5 clicked
    match = _turn_played_in_another_window(match)

    before = board_state(page)
    chips.first.click()  # the next move, on the old board
    wait_for_redraw(page, before)

    error = page.locator("#live .error")
    expect(error).to_have_count(1)
    expect(error).to_contain_text("This board was out of date: a move was made since it was drawn")
    expect(page.locator("#announce")).to_contain_text("This board was out of date")
    expect(page.locator("#announce")).to_contain_text("bob rolled 4-1")
    # Spoken once, by the live region the board's other news use.
    assert page.evaluate(LIVE_REGIONS_SAYING, "This board was out of date") == 1
    # The board as it stands, nothing clicked on it, and nothing typed to correct.
    assert board_state(page).startswith(f"play|{match.segment_count}||")
    expect(page.locator(".dice")).to_have_attribute("aria-label", "Dice: 4-3")
    expect(page.locator("details.notation-box")).not_to_have_attribute("open", "")
    expect(page.locator("#play-text")).not_to_be_focused()
