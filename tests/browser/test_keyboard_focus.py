"""The keyboard's focus on a 390px phone when HTMX redraws the board (#live), or fails to:
it stays on the control the player was on, or near it, and always in view; never dropped on
<body>, from where the next Tab would start again at "Skip to content"."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from games import chat, services
from games.models import Match
from tests.matches import take_turn

from .helpers import board_state, log_in, wait_for_redraw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
POLL_MS = 31_000  # the waiting page looks for the opponent's move every 30 s

# Where the focus is, and whether all of it is inside the window (to within a pixel: a
# control scrolled just into view may sit a fraction of one beyond the edge, as the text
# above it is laid out in fractions of a pixel).
FOCUS = """() => {
  const el = document.activeElement;
  const box = el.getBoundingClientRect();
  return {
    tag: el.tagName.toLowerCase(),
    text: el.textContent.trim(),
    href: el.getAttribute("href"),
    inLive: Boolean(el.closest("#live")),
    onScreen: box.top > -1 && box.bottom < innerHeight + 1 && box.height > 0,
  };
}"""


def _open_waiting_page(page: Page, live_server, match: Match) -> None:
    """Bob's page while alice is to move: it polls for her move. The page's clock is
    Playwright's, so the test sets off the 30-second poll without waiting for it."""
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "bob")
    page.clock.install()
    page.goto(live_server.url + match.get_absolute_url())
    expect(page.locator("#live")).to_have_attribute("data-mode", "wait")


def _tab_to(page: Page, locator: Locator, presses: int = 80) -> None:
    """Press Tab until ``locator`` has the focus, as a keyboard user gets there."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if locator.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError(f"{presses} Tabs never reached {locator}")


def _alice_plays(match: Match) -> None:
    """Alice's 6-5, entering two waiting checkers, stored as her page would send it."""
    take_turn(match, match.white, [3, 1], play="in/19 in/20")


def _poll(page: Page) -> None:
    """Let the waiting page's poll run, and wait for the board it brings."""
    before = board_state(page)
    page.clock.run_for(POLL_MS)
    wait_for_redraw(page, before)


def _focus(page: Page) -> dict:
    return page.evaluate(FOCUS)


def test_the_focus_stays_on_resign_when_the_opponents_move_arrives(
    page: Page, live_server, match, settings
):
    settings.CHAT_POLL_SECONDS = 1  # the messages poll too, and must not take the focus
    _open_waiting_page(page, live_server, match)
    resign = page.get_by_role("link", name="Resign…")
    _tab_to(page, resign)
    scrolled = page.evaluate("scrollY")

    chat.post_message(match.pk, user=match.white, text="Your move soon!")
    expect(page.locator("#chat-list")).to_contain_text("Your move soon!")
    expect(resign).to_be_focused()
    _alice_plays(match)
    _poll(page)

    expect(page.locator("#live")).to_have_attribute("data-mode", "play")  # bob's turn now
    expect(resign).to_be_focused()
    focus = _focus(page)
    assert focus["onScreen"], focus
    # The new controls above pushed it down: the page follows it, and does not jump up.
    assert page.evaluate("scrollY") >= scrolled
    page.keyboard.press("Tab")  # goes on from Resign…, not from "Skip to content"
    assert _focus(page)["inLive"], _focus(page)


@pytest.mark.parametrize(
    "link",
    [
        "#history a.replay-link",
        # The note's link to "writing a play", which the typed box of the board the poll
        # brings links to as well, inside its closed <details>.
        "#history .history-note a",
    ],
)
def test_the_focus_stays_on_a_history_link_when_the_opponents_move_arrives(
    page: Page, live_server, match, link
):
    _open_waiting_page(page, live_server, match)
    replay = page.locator(link).first
    href = replay.get_attribute("href")
    _tab_to(page, replay)

    _alice_plays(match)
    _poll(page)

    focus = _focus(page)
    assert focus["href"] == href and focus["inLive"], focus
    assert focus["onScreen"], focus


def test_when_the_focused_control_is_gone_the_focus_stays_on_the_board(
    page: Page, live_server, match
):
    _open_waiting_page(page, live_server, match)
    resign = page.get_by_role("link", name="Resign…")
    _tab_to(page, resign)

    services.resign(match.pk, user=match.white)  # the match is over: no Resign… for bob
    _poll(page)

    expect(page.locator("#live")).to_have_attribute("data-mode", "finished")
    expect(resign).to_have_count(0)
    focus = _focus(page)
    assert focus["tag"] != "body" and focus["inLive"], focus
    assert focus["onScreen"], focus


def test_a_move_chip_or_undo_keeps_the_focus_in_the_controls_and_in_view(
    page: Page, live_server, match
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    chips = page.locator(".move-choices .chip")
    undo = page.get_by_role("button", name="Undo last move")

    # A chip: the focus stays in the chip list (the board's targets are above, out of
    # sight on a phone), on the chip in the same place.
    _tab_to(page, chips.first)
    before = board_state(page)
    page.keyboard.press("Enter")
    wait_for_redraw(page, before)
    expect(chips.first).to_be_focused()
    assert _focus(page)["onScreen"], _focus(page)

    # Undo with one move left to undo: the button goes, the focus goes to the chips.
    _tab_to(page, undo)
    before = board_state(page)
    page.keyboard.press("Enter")
    wait_for_redraw(page, before)
    expect(undo).to_have_count(0)
    expect(chips.first).to_be_focused()
    assert _focus(page)["onScreen"], _focus(page)

    # Two moves, then Undo: the button is still there, and keeps the focus.
    for _ in range(2):
        before = board_state(page)
        page.keyboard.press("Enter")  # on the first chip
        wait_for_redraw(page, before)
    _tab_to(page, undo)
    before = board_state(page)
    page.keyboard.press("Enter")
    wait_for_redraw(page, before)
    expect(undo).to_be_focused()
    assert _focus(page)["onScreen"], _focus(page)


def test_the_keyboard_way_is_told_beside_the_board_and_two_tabs_reach_it(
    page: Page, live_server, match
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())

    expect(page.locator(".keyboard-hint")).to_contain_text("Or use Tab and Enter")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")

    # A checker to pick: Enter picks it, and the focus goes on to where it can go.
    expect(page.locator("rect.target-source").first).to_be_focused()
    before = board_state(page)
    page.keyboard.press("Enter")
    wait_for_redraw(page, before)
    expect(page.locator("rect.target-dest").first).to_be_focused()


def _press_enter_and_wait_for_redraw(page: Page) -> None:
    before = board_state(page)
    page.keyboard.press("Enter")
    wait_for_redraw(page, before)


class _FailWhenOn:
    """Requests to ``pattern`` failed by ``fail`` while :attr:`on`, passed on otherwise.
    Routed before the page opens: a route added to a page already open has let the next
    request through now and then in Chromium (microsoft/playwright#23162), so that the
    tests below saw their request succeed instead of failing."""

    def __init__(self, page: Page, pattern: str, fail: Callable[[Route], None]) -> None:
        self.on = False
        page.route(pattern, lambda route: fail(route) if self.on else route.continue_())


def _open_alices_turn(page: Page, live_server, match: Match) -> None:
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())


def test_a_submit_the_network_lost_keeps_the_focus_so_that_enter_sends_it_again(
    page: Page, live_server, match
):
    network = _FailWhenOn(page, "**/turn/", lambda route: route.abort())
    _open_alices_turn(page, live_server, match)
    _tab_to(page, page.locator(".move-choices .chip").first)
    _press_enter_and_wait_for_redraw(page)  # the first move of the 6-5
    _press_enter_and_wait_for_redraw(page)  # the second, on the first chip again
    submit = page.locator("button.submit-play")
    expect(submit).to_be_focused()

    network.on = True
    page.keyboard.press("Enter")

    expect(page.locator("#live .send-failed")).to_be_visible()
    expect(submit).to_be_enabled()
    expect(submit).to_be_focused()
    network.on = False
    _press_enter_and_wait_for_redraw(page)
    expect(page.locator("#live")).to_have_attribute("data-mode", "wait")


def test_an_undo_the_server_failed_keeps_the_focus_so_that_enter_tries_again(
    page: Page, live_server, match
):
    server = _FailWhenOn(
        page, "**/click/", lambda route: route.fulfill(status=500, body="Server Error")
    )
    _open_alices_turn(page, live_server, match)
    _tab_to(page, page.locator(".move-choices .chip").first)
    _press_enter_and_wait_for_redraw(page)  # one move, to undo
    undo = page.get_by_role("button", name="Undo last move")
    _tab_to(page, undo)

    server.on = True
    page.keyboard.press("Enter")

    expect(page.locator("#live .send-failed")).to_be_visible()
    expect(undo).to_be_enabled()
    expect(undo).to_be_focused()
    server.on = False
    _press_enter_and_wait_for_redraw(page)
    expect(undo).to_have_count(0)  # undone: nothing left to undo


def test_a_play_sent_from_the_keyboard_leaves_the_focus_on_the_turn_line_ringed_as_elsewhere(
    page: Page, live_server, match
):
    _open_alices_turn(page, live_server, match)
    _tab_to(page, page.locator(".move-choices .chip").first)
    _press_enter_and_wait_for_redraw(page)
    _press_enter_and_wait_for_redraw(page)
    expect(page.locator("button.submit-play")).to_be_focused()
    ring = page.evaluate("getComputedStyle(document.activeElement).outline")

    _press_enter_and_wait_for_redraw(page)  # the play sent: bob to move

    turn_line = page.locator("#turn-line")
    expect(turn_line).to_be_focused()
    assert turn_line.evaluate("el => getComputedStyle(el).outline") == ring
    assert ring.startswith("rgb(26, 95, 180) solid 3px"), ring  # the site's ring (--focus)


@pytest.mark.parametrize("key", ["Enter", " "], ids=["enter", "space"])
def test_a_key_held_down_on_the_board_acts_once(page: Page, live_server, match, key):
    # Held, a key repeats its keydown; each click moves the focus on to the next target,
    # so a held Space once went on to pick a checker and play it.
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    source = page.locator("rect.target-source").first
    source.focus()
    before = board_state(page)

    source.dispatch_event("keydown", {"key": key, "bubbles": True})
    if key == " ":
        source.dispatch_event("keyup", {"key": key, "bubbles": True})  # the press's click
    wait_for_redraw(page, before)
    # Still held: the repeats go to wherever the focus is now (a destination), and so
    # does the key's coming up at last, which a held Enter ends with.
    for _ in range(5):
        page.evaluate(
            """key => document.activeElement.dispatchEvent(
                new KeyboardEvent("keydown", {key, repeat: true, bubbles: true}))""",
            key,
        )
    if key == "Enter":
        page.evaluate(
            """key => document.activeElement.dispatchEvent(
                new KeyboardEvent("keyup", {key, bubbles: true}))""",
            key,
        )
    page.wait_for_timeout(1000)  # any further click would have redrawn the board by now

    # One click: a checker picked (selected), nothing moved yet (no steps).
    mode, _, steps, selected = board_state(page).split("|")
    assert (mode, steps) == ("play", "") and selected != ""


def test_escape_lets_go_of_the_checker_selected_and_the_focus_stays_on_it(
    page: Page, live_server, match
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    source = page.locator("rect.target-source").first
    key = source.get_attribute("data-key")
    source.focus()
    before = board_state(page)
    page.keyboard.press("Enter")
    wait_for_redraw(page, before)
    assert board_state(page).split("|")[3] != ""  # selected; the focus on a destination
    expect(page.locator(f"rect.target-selected[data-key='{key}']")).to_have_count(1)

    before = board_state(page)
    page.keyboard.press("Escape")
    wait_for_redraw(page, before)

    assert board_state(page).split("|")[3] == ""  # nothing selected, nothing moved
    assert board_state(page).split("|")[2] == ""
    expect(page.locator(f"rect[data-key='{key}']")).to_be_focused()
    expect(page.locator(f"rect[data-key='{key}']")).to_have_attribute(
        "aria-label", re.compile(r"^Select ")
    )
