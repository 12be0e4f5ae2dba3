"""Copying an invite link with a button, and a message pasted too long for its box: the
browser cuts it at the box's maxlength without a word, so the page says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import ApiToken
from games import services
from games.models import Match

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_invite_link_is_copied_with_its_button(browser: Browser, live_server, match):
    challenge = services.create_challenge(match.white, private=True)
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    log_in(page, live_server.url, match.white.username, PASSWORD)
    page.goto(live_server.url + challenge.get_absolute_url())

    page.get_by_role("button", name="Copy the invite link").click()

    # Its name says it is done, once (a live region): "Copied the invite link".
    expect(page.locator("button[data-copy]")).to_have_accessible_name("Copied the invite link")
    link = page.locator("#invite-url").input_value()
    assert link.endswith(challenge.invite_path())
    assert page.evaluate("navigator.clipboard.readText()") == link
    context.close()


def test_a_new_api_key_is_copied_with_its_button(browser: Browser, live_server, match):
    # A key is shown once, and selecting all of it in a narrow field is fiddly on a phone.
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    log_in(page, live_server.url, match.white.username, PASSWORD)
    page.goto(live_server.url + "/accounts/settings/")
    page.get_by_label("Name of the new key").fill("my bot")
    page.locator("#id_key_password").fill(PASSWORD)
    page.get_by_role("button", name="Create a key").click()

    page.get_by_role("button", name="Copy the key").click()

    expect(page.locator("button[data-copy]")).to_have_accessible_name("Copied the key")
    key = page.locator("#api-key").input_value()
    assert key and page.evaluate("navigator.clipboard.readText()") == key
    assert ApiToken.user_for_key(key) == match.white
    context.close()


def test_without_javascript_there_is_no_copy_button(browser: Browser, live_server, match):
    challenge = services.create_challenge(match.white, private=True)
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server.url, match.white.username, PASSWORD)
    page.goto(live_server.url + challenge.get_absolute_url())

    expect(page.locator("#invite-url")).to_be_visible()
    expect(page.get_by_role("button", name="Copy the invite link")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("length", [500, 600])
def test_a_message_pasted_too_long_for_its_box_is_said_to_be_cut(
    page: Page, live_server, match: Match, length: int
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    box = page.get_by_label("Message to bob")
    box.focus()

    # The paste event as the browser fires it; the browser then inserts what fits.
    box.evaluate(
        """(box, text) => {
            const data = new DataTransfer();
            data.setData("text/plain", text);
            box.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true}));
        }""",
        "x" * length,
    )

    note = page.locator("#message-text-cut")
    if length > 500:
        expect(note).to_be_visible()
        expect(note).to_have_text(
            "Only 500 characters fit: the end of what you pasted was left out."
        )
        box.fill("Shorter, then.")  # room again: the note has had its say
        expect(note).to_be_hidden()
    else:
        expect(note).to_be_hidden()
