"""The match page in a real browser: it fits a phone, and the board works from the keyboard."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.matches import opened_by_white

from .helpers import act, board_state, held_request, log_in, wait_for_redraw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_match_page_fits_a_phone_without_sideways_scrolling(page: Page, live_server, match):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + match.get_absolute_url())

    board = page.locator("svg.board")
    expect(board).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    box = board.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["height"] > 200  # scaled down, still a board and not a sliver


def test_the_dice_keep_their_size_beside_a_long_note_on_a_phone(page: Page, live_server, match):
    # An acey-deucey's note beside the dice: the note wraps, the dice are not squeezed.
    acey_deucey = opened_by_white(match.white, match.black, dice=[5, 2, 1, 2])
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + acey_deucey.get_absolute_url())

    expect(page.locator(".dice .small")).to_contain_text("an acey-deucey")
    for die in page.locator(".dice .die").all():
        box = die.bounding_box()
        assert box is not None and box["width"] >= 33, box


def test_a_board_target_is_selected_from_the_keyboard(page: Page, live_server, match):
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    before = board_state(page)

    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('target')"):
            break
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    wait_for_redraw(page, before)

    assert label.startswith("Select ")
    expect(page.locator("path.point.selected, rect.tray-selected")).to_have_count(1)
    expect(page.locator("rect.target-dest").first).to_be_focused()
    expect(page.locator("#announce")).to_contain_text("Selected")


def test_a_turn_shows_that_it_is_sending_and_an_illegal_play_explains_itself(
    page: Page, live_server, match
):
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    held = []
    # Hold the request until the page has been checked.
    page.route("**/turn/", lambda route: held.append(route))

    page.locator("details.notation-box summary").click()
    page.fill("#play-text", "13/7")
    page.click("button.submit-typed")

    expect(page.locator("#live .sending")).to_be_visible()
    expect(page.locator("button.submit-typed")).to_be_disabled()
    held_request(page, held).continue_()
    expect(page.locator("#live .error")).to_contain_text("13-point")
    expect(page.locator("#live .sending")).to_be_hidden()
    expect(page.locator("#announce")).to_contain_text("13-point")
    expect(page.locator("#play-text")).to_be_focused()


def _in_view(box: dict[str, float] | None, size: dict[str, int]) -> bool:
    return (
        box is not None
        and box["width"] > 0
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
    )


def _overlap(one: dict, other: dict) -> bool:
    return (
        one["x"] < other["x"] + other["width"]
        and other["x"] < one["x"] + one["width"]
        and one["y"] < other["y"] + other["height"]
        and other["y"] < one["y"] + one["height"]
    )


@pytest.mark.parametrize(
    ("size", "button"),
    [
        # A phone's player pressing Submit at the foot of the screen, below the board: the
        # word was further down the form, off the screen, and the board's badge (where
        # there was one) out of their sight. A desktop's, the typed play's button at the
        # foot of the window.
        ({"width": 390, "height": 844}, "button.submit-play"),
        ({"width": 1280, "height": 800}, "button.submit-typed"),
    ],
)
def test_sending_a_turn_says_so_in_the_window_without_moving_the_page(
    page: Page, live_server, match, size, button
):
    page.set_viewport_size(size)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    if button == "button.submit-typed":
        page.locator("details.notation-box summary").click()
        page.fill("#play-text", "in/20 in/19")
    while not page.locator(button).count():  # 6-5 played on the board, one click at a time
        destinations = page.locator("rect.target-dest")
        act(
            page,
            destinations.first
            if destinations.count()
            else page.locator("rect.target-source").first,
        )
    page.locator(button).evaluate("b => b.scrollIntoView({block: 'end'})")
    status = page.locator("#live").get_by_role("status")
    # The live region is there before anything is sent: one that appears with its words in
    # it is often not announced.
    expect(status).to_have_count(1)
    controls = page.locator("form.controls").bounding_box()
    held = []
    page.route("**/turn/", lambda route: held.append(route))

    page.click(button)
    request = held_request(page, held)

    expect(status).to_have_text("Sending…")
    assert _in_view(status.bounding_box(), size), status.bounding_box()
    # Nor over the button just pressed, which the player is looking at.
    assert not _overlap(status.bounding_box(), page.locator(button).bounding_box())
    assert page.locator("form.controls").bounding_box() == controls  # nothing moved
    request.continue_()
    expect(page.locator("#announce")).not_to_be_empty()
    expect(page.get_by_text("Sending…")).to_be_hidden()


def test_the_pages_keep_to_the_content_security_policy_and_log_no_error(
    page: Page, live_server, match
):
    # A CSP violation, or any other error (the match is american: each click on its board
    # once logged the greek blot field it asked HTMX to include as matching nothing).
    logged: list[str] = []
    page.on(
        "console",
        lambda message: (
            logged.append(f"{message.type}: {message.text}")
            if message.type == "error" or "Content Security Policy" in message.text
            else None
        ),
    )
    log_in(page, live_server.url, "alice")

    for path in (
        "/dashboard/",
        "/lobby/",
        match.get_absolute_url(),
        "/players/alice/",
        "/tournaments/",
        "/leaderboard/",
    ):
        page.goto(live_server.url + path)
        expect(page.locator("main")).to_be_visible()
    page.goto(live_server.url + match.get_absolute_url())
    # A browser extension (a password manager, a spelling checker) styles fields in place,
    # through the CSSOM, which the CSP allows; so do Playwright's screenshots. HTMX's swap
    # copied such a style, as an attribute, onto each field redrawn: a violation a click.
    page.evaluate(
        "document.querySelectorAll('input, textarea').forEach(f => f.style.caretColor = 'red')"
    )
    before = board_state(page)
    page.locator(".chip").first.click()
    wait_for_redraw(page, before)
    act(page, page.locator("rect.target-source").first)  # clicks on the board itself
    act(page, page.locator("rect.target-dest").first)
    # An illegal play is answered (a 400, its reason swapped in), not an error to log.
    page.locator("details.notation-box summary").click()
    page.fill("#play-text", "13/7")
    page.click("button.submit-typed")
    expect(page.locator("#live .error")).to_contain_text("13-point")

    page.evaluate("0")  # Playwright hands any console message sent before this to the listener
    # Chromium's own line for any 4xx answer, which no page can silence, is all there is.
    refused = "error: Failed to load resource: the server responded with a status of 400"
    assert [line for line in logged if not line.startswith(refused)] == []
