"""Two people sign up, one challenges the other, and they play a whole game in the browser.

Nothing here calls the services to move: each player reads the page and acts on it. Ann
plays only by clicking the board (a source, then a highlighted destination, then Submit);
Ben only by typing notation into the notation box, taking the first example play the page
offers. The dice are real (random), so every run plays a different game.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import act, mode, name_a_double, play_by_clicking, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_ACTIONS = 4000  # a guard: an american game takes a few hundred


def play_by_typing(page: Page) -> int:
    """Play the current segment by typing the first example play into the notation box."""
    if mode(page) == "double":
        name_a_double(page)
        return 1
    box = page.locator("details.notation-box")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    play = box.locator("code.example-play").first.inner_text()
    page.fill("#play-text", play)
    act(page, page.locator("button.submit-typed"))
    return 1


@pytest.fixture
def two_browsers(browser):
    """Ann at a desktop, Ben on a phone: separate browser contexts, so separate sessions."""
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 900}),
        browser.new_context(viewport={"width": 390, "height": 844}),
    ]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(15_000)
    yield pages
    # Closed here, so no open connection or waiting page's poll outlives the live server's
    # test database.
    for context in contexts:
        context.close()


def test_two_players_sign_up_challenge_and_play_a_whole_game(two_browsers, live_server):
    base = live_server.url
    ann, ben = two_browsers

    sign_up(ann, base, "ann")
    sign_up(ben, base, "ben")

    # Ann challenges Ben by name to a one-point american game.
    ann.goto(f"{base}/challenges/new/")
    ann.fill("input[name=opponent]", "ben")
    ann.select_option("select[name=variant]", "american")
    ann.select_option("select[name=points]", "1")
    ann.click("main form button[type=submit]")
    expect(ann.locator("main")).to_contain_text("Challenge sent")

    # Ben finds it on his dashboard and accepts.
    ben.goto(f"{base}/dashboard/")
    ben.get_by_role("link", name="ann", exact=True).click()
    ben.get_by_role("button", name="Accept and play").click()
    ben.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_url = ben.url
    ann.goto(match_url)

    players = {ann: play_by_clicking, ben: play_by_typing}
    current = ann if mode(ann) in ("play", "double") else ben
    other = ben if current is ann else ann
    assert mode(current) in ("play", "double") and mode(other) == "wait"

    actions = {ann: 0, ben: 0}
    while mode(current) != "finished":
        actions[current] += players[current](current)
        assert sum(actions.values()) < MAX_ACTIONS
        if mode(current) == "wait":
            current, other = other, current
            current.goto(match_url)
            assert mode(current) in ("play", "double", "finished")

    other.goto(match_url)
    for page in (ann, ben):
        assert mode(page) == "finished"
        expect(page.locator(".turnbar")).to_contain_text("won")
    assert actions[ann] > 0 and actions[ben] > 0
    expect(ann.locator(".turns")).to_contain_text("Opening roll")
