"""A typed play that fails, on a phone: the text stays in the box with the reason beside it,
with JavaScript (an HTMX swap) and without (the page drawn again)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from games.models import Match
from tests.matches import opened_by_white

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TYPED = "24/22 23/19x"


def _on_screen(page: Page, locator: Locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def _submit_typed_play(page: Page) -> None:
    page.locator("details.notation-box summary").click()
    page.fill("#play-text", TYPED)
    page.click("button.submit-typed")


def _assert_the_box_shows_the_text_and_the_reason(page: Page) -> None:
    error = page.locator("#live .notation-box .error")
    expect(error).to_contain_text("Cannot read '19x'")
    expect(page.locator("details.notation-box")).to_have_attribute("open", "")
    expect(page.locator("#play-text")).to_have_value(TYPED)
    expect(page.locator("#play-text")).to_be_focused()
    expect(page.locator("#play-text")).to_have_attribute("aria-describedby", "play-error play-help")
    assert _on_screen(page, error), error.bounding_box()
    assert _on_screen(page, page.locator("#play-text"))


def test_a_typed_play_that_fails_stays_in_the_box_with_the_reason_beside_it(
    page: Page, live_server, match
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())

    _submit_typed_play(page)

    _assert_the_box_shows_the_text_and_the_reason(page)
    expect(page.locator("#announce")).to_contain_text("Cannot read '19x'")
    # The caret is after the text, where the player corrects it.
    assert page.evaluate("document.activeElement.selectionStart") == len(TYPED)
    # The reason is said once on the page, beside the box, not above the board too.
    expect(page.locator("#live .error")).to_have_count(1)


def test_an_empty_typed_play_is_answered_beside_the_box_too(page: Page, live_server, match):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())

    page.locator("details.notation-box summary").click()
    page.click("button.submit-typed")

    error = page.locator("#live .notation-box .error")
    expect(error).to_contain_text("you cannot pass")
    assert _on_screen(page, error), error.bounding_box()
    expect(page.locator("#live .error")).to_have_count(1)


def test_without_javascript_a_typed_play_that_fails_stays_in_the_box_too(
    browser: Browser, live_server, match
):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())

    _submit_typed_play(page)

    _assert_the_box_shows_the_text_and_the_reason(page)
    expect(page.locator(".messages")).to_have_count(0)
    # The page's links still lead to the match page from the turn's address.
    page.click("text=Replay from the start")
    expect(page.locator("#live")).to_have_attribute("data-mode", "replay")
    context.close()


@pytest.fixture
def greek_match(django_user_model) -> Match:
    """Greek: alice (white) to play 6-5 from her 24-point."""
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    return opened_by_white(alice, bob, dice=(5, 2, 6, 5), variant="greek")


def test_a_blot_that_is_no_blot_keeps_play_and_blot_with_the_focus_on_the_blot(
    page: Page, live_server, greek_match
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + greek_match.get_absolute_url())

    page.fill("#name-blot", "7")
    page.locator("details.notation-box summary").click()
    page.fill("#play-text", "24/18 24/19")
    page.click("button.submit-typed")

    blot = page.locator("#name-blot")
    reason = "You can only name a blot: your 7-point will not hold exactly one checker."
    expect(page.locator("#blot-error")).to_have_text(reason)
    expect(blot).to_be_focused()
    expect(blot).to_have_value("7")
    expect(blot).to_have_attribute("aria-invalid", "true")
    expect(blot).to_have_attribute("aria-describedby", "blot-error")
    expect(page.locator("#play-text")).to_have_value("24/18 24/19")
    expect(page.locator("#announce")).to_have_text(reason)
    assert _on_screen(page, page.locator("#blot-error"))

    # Put right, the same play goes through with the blot named.
    blot.fill("18")
    page.click("button.submit-typed")
    expect(page.locator("#live")).to_have_attribute("data-mode", "wait")
