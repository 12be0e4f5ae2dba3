"""The history's earlier games: opened with the keyboard, their turns load (saying so while
they do) and stay open when the board is redrawn; without JavaScript a link shows them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from games.models import Match
from tests.queries.conftest import three_games

from .helpers import PASSWORD, act, board_state, held_request, log_in, wait_for_redraw
from .test_every_page import PROBLEMS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def games(django_user_model) -> Match:
    """Games 1 (alice won) and 2 (bob won) played; alice to move in game 3 with 6-3."""
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    return three_games(alice, bob)


def test_an_earlier_game_opened_with_the_keyboard_loads_and_stays_open(
    page: Page, live_server, games
):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")
    held: list[Route] = []

    def hold(route: Route) -> None:  # answered below, once "Loading…" has been seen
        held.append(route)

    page.route("**/history/2/", hold)
    page.goto(live_server.url + games.get_absolute_url())
    game = page.locator("#history-game-2")
    summary = game.locator("> summary")
    expect(summary).to_have_text("Game 2: bob won 1 point (borne off) · segments 5 to 6")
    expect(game).not_to_have_attribute("open", "")
    expect(game.locator(".turns")).to_have_count(0)

    summary.focus()
    page.keyboard.press("Enter")

    expect(game.get_by_text("Loading…")).to_be_visible()
    held_request(page, held).continue_()
    expect(game.locator(".turns")).to_contain_text("Opening roll: white 2, black 5")
    expect(game.locator(".turns")).to_contain_text("bob")
    expect(game.locator(".turns")).to_contain_text("6-3: 1/off")
    expect(summary).to_be_focused()
    expect(page.locator("#history-game-1 .turns")).to_have_count(0)
    assert page.evaluate(PROBLEMS) == {}

    # A click on the board keeps the whole history; the played segment redraws it, and the
    # opened game is the very element the reader opened.
    game.evaluate("element => element.dataset.marked = 'yes'")
    act(page, page.locator(".target").first)
    expect(page.locator("#history-game-2[data-marked='yes']")).to_have_count(1)
    while page.locator(".submit-play").count() == 0:
        act(page, page.locator(".target").first)
    before = board_state(page)
    page.locator(".submit-play").click()
    wait_for_redraw(page, before)

    expect(page.locator("#history > .turns")).to_contain_text("alice")
    expect(page.locator("#history > .turns .turn-entry")).to_have_count(2)
    kept = page.locator("#history-game-2[data-marked='yes'][open]")
    expect(kept).to_have_count(1)
    expect(kept.locator(".turns")).to_contain_text("6-3: 1/off")
    expect(page.locator("#history-game-1")).not_to_have_attribute("open", "")
    expect(page.locator("#history-game-1 .turns")).to_have_count(0)
    page.evaluate("0")  # Playwright hands any request made before this to the handler first
    assert len(held) == 1  # loaded once


def test_without_javascript_an_earlier_games_link_shows_it(browser: Browser, live_server, games):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + games.get_absolute_url())
    game = page.locator("#history-game-1")

    game.locator("> summary").click()
    game.get_by_role("link", name="Show the moves of game 1").click()

    page.wait_for_url("**/?game=1#history-game-1")
    expect(game).to_have_attribute("open", "")
    expect(game.locator(".turns")).to_contain_text("6-3: in/22 in/19")
    expect(game.locator(".turns")).to_contain_text("6-5: 1/off")
    expect(page.locator("#history-game-2 .turns")).to_have_count(0)
    context.close()


def test_an_earlier_game_whose_load_failed_loads_when_opened_again(page: Page, live_server, games):
    requests: list[str] = []

    def lose_the_first(route: Route) -> None:  # a phone's network dropping one request
        requests.append(route.request.url)
        if len(requests) == 1:
            route.abort()
        else:
            route.continue_()

    page.route("**/history/1/", lose_the_first)
    page.goto(live_server.url + games.get_absolute_url())
    game = page.locator("#history-game-1")
    summary = game.locator("> summary")

    summary.click()
    expect(page.get_by_role("link", name="Show the moves of game 1")).to_be_visible()
    # The failure is said once HTMX has given the request up (and no longer drops new ones).
    expect(page.locator("#live .send-failed")).to_be_visible()
    expect(game.locator(".turns")).to_have_count(0)
    summary.click()  # closed
    expect(game).not_to_have_attribute("open", "")
    summary.click()  # opened again

    expect(game.locator(".turns")).to_contain_text("6-3: in/22 in/19")
    loaded = len(requests)
    summary.click()
    summary.click()
    expect(game).to_have_attribute("open", "")
    page.evaluate("0")  # any request made before this has reached the handler
    assert len(requests) == loaded  # once loaded, never fetched again
