"""Steps a player takes in the browser, shared by the browser tests."""

from __future__ import annotations

import random
import time

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

PASSWORD = "a long correspondence"

_AXE = Axe()
# WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe-core's best practices (landmarks,
# headings, unique names), which is where a screen reader user's trouble usually starts.
_AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
}


def sign_up(page: Page, base_url: str, username: str) -> None:
    """Create an account through the sign-up page (which logs the new player in)."""
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)


def log_in(page: Page, base_url: str, username: str, password: str = PASSWORD) -> None:
    """Log in through the login page."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def axe_violations(page: Page) -> dict[str, list[str]]:
    """What axe-core finds wrong with the page as it stands, as {"axe: <rule>": [the
    elements, then axe's advice]}; empty when nothing is."""
    found: dict[str, list[str]] = {}
    for violation in _AXE.run(page, options=_AXE_OPTIONS).response["violations"]:
        nodes = violation["nodes"]
        targets = [" ".join(map(str, node["target"])) for node in nodes[:5]]
        advice = nodes[0].get("failureSummary", "") if nodes else ""
        found[f"axe: {violation['id']} ({violation['impact']})"] = [*targets, advice[:300]]
    return found


def board_state(page: Page) -> str:
    return page.get_attribute("#live", "data-state") or ""


def mode(page: Page) -> str:
    """What the match page offers now: play, double, wait, finished or replay."""
    return page.get_attribute("#live", "data-mode") or ""


def wait_for_redraw(page: Page, before: str) -> None:
    """Wait until HTMX has swapped in a board whose state differs from ``before``."""
    page.wait_for_function(
        """before => {
            const live = document.getElementById("live");
            // htmx-added lasts until HTMX has settled the swap and wired up the new board.
            return live && live.dataset.state !== before
                && !live.classList.contains("htmx-request")
                && !live.classList.contains("htmx-added");
        }""",
        arg=before,
    )


def held_request(page: Page, held: list[Route], seconds: float = 5.0) -> Route:
    """The first request a ``page.route`` handler put in ``held``, once it has been put there.

    The page can show that it is waiting (HTMX's indicator) before Playwright has handed the
    request to the route handler, so a test that only waits for the page races the handler.
    """
    deadline = time.monotonic() + seconds
    while not held:
        if time.monotonic() > deadline:
            raise AssertionError(f"no request reached the route handler in {seconds} s")
        page.wait_for_timeout(10)  # lets Playwright dispatch the handler meanwhile
    return held[0]


def act(page: Page, locator: Locator) -> None:
    """Click something on the board or its controls and wait for the redrawn board."""
    before = board_state(page)
    locator.click()
    try:
        wait_for_redraw(page, before)
    except PlaywrightTimeout:
        errors = page.locator("#live .error").all_inner_texts()
        raise AssertionError(f"the board did not change from {before!r}: {errors}") from None


def name_a_double(page: Page) -> None:
    """Name one of the doubles the page offers, at random (R8.2 may allow only some)."""
    buttons = page.locator("button.double-button")
    act(page, buttons.nth(random.randrange(buttons.count())))


def play_by_clicking(page: Page) -> int:
    """Play the current segment with the mouse; return how many clicks it took."""
    if mode(page) == "double":
        name_a_double(page)
        return 1
    clicks = 0
    while mode(page) == "play":
        submit = page.locator("button.submit-play")
        if submit.count():
            act(page, submit)
            return clicks + 1
        destinations = page.locator("rect.target-dest")
        if destinations.count():
            act(page, destinations.first)
        else:
            act(page, page.locator("rect.target-source").first)
        clicks += 1
    return clicks
