"""What the live region says when the waiting page's poll brings the other player's turn:
only what came since the board the page showed before, not again what the update before
this one said (a 1-2, its double and an extra roll come in one by one)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.engine.game import ScriptedDice
from games.models import Match
from tests.matches import opened_by_white

from .helpers import PASSWORD, board_state, log_in, wait_for_redraw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
POLL_MS = 31_000  # the waiting page looks for the opponent's move every 30 s


def _submit(match: Match, action: services.TurnAction, dice: list[int] | None = None) -> Match:
    extra = ScriptedDice(dice) if dice else None
    return services.submit_segment(match.pk, user=match.white, action=action, dice=extra)


def _poll(page: Page) -> None:
    """Let the waiting page's poll run, and wait for the board it brings."""
    before = board_state(page)
    page.clock.run_for(POLL_MS)
    wait_for_redraw(page, before)


def test_an_update_after_a_poll_does_not_say_again_what_the_last_one_said(
    page: Page, live_server, django_user_model
):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    match = opened_by_white(alice, bob, dice=(5, 2, 1, 2))  # alice to play a 1-2
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "bob")
    page.clock.install()  # the test sets off the 30-second poll without waiting for it
    page.goto(live_server.url + match.get_absolute_url())
    announce = page.locator("#announce")

    match = _submit(match, services.TurnAction(segment=match.segment_count, play="in/24 in/23"))
    _poll(page)
    expect(announce).to_have_text(
        "alice rolled 1-2 and entered a checker on your 1-point and a checker on your 2-point."
        " Waiting for alice to move."
    )
    # R7: she names 6-6, plays it in full and plays the extra roll it earned.
    match = _submit(match, services.TurnAction(segment=match.segment_count, double=6))
    match = _submit(
        match, services.TurnAction(segment=match.segment_count, play="in/19(4)"), dice=[5, 3]
    )
    _submit(
        match, services.TurnAction(segment=match.segment_count, play="in/20 in/22"), dice=[4, 1]
    )
    _poll(page)

    expect(page.locator("#live")).to_have_attribute("data-mode", "play")  # bob's turn now
    news = (
        "alice named 6-6 and entered four checkers on your 6-point. alice rolled 5-3 and"
        " entered a checker on your 3-point and a checker on your 5-point. Your turn: you"
        " rolled 4-1."
    )
    expect(announce).to_have_text(re.compile("^" + re.escape(news)))  # then what to click
    expect(announce).not_to_contain_text("1-2")
