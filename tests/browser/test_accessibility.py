"""What test_every_page checks of each page as it loads, axe-core checks here of the states a
player brings about: a failed login or sign-up, a message after an action, a form sent
back with its errors, and the match page while a play is being made and after a typed play
is refused. Every state is visited before the assertion, so a failure lists them all."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import chat

from .helpers import PASSWORD, act, axe_violations, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _submit(page: Page) -> None:
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def test_the_states_a_player_brings_about_pass_axe(page: Page, live_server, match):
    found: dict[str, dict] = {}

    def check(state: str) -> None:
        if violations := axe_violations(page):
            found[state] = violations

    base = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "not her password")
    _submit(page)
    expect(page.locator("main form")).to_contain_text("enter a correct username and password")
    check("a failed login")

    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=email]", "someone@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", "a different one")
    _submit(page)
    expect(page.locator("main form")).to_contain_text("already exists")
    check("a sign-up sent back with errors")

    log_in(page, base, "alice")
    page.goto(base + "/challenges/new/")
    _submit(page)
    expect(page.locator(".messages")).to_be_visible()
    check("a message after an action (a challenge made)")

    page.goto(base + "/tournaments/new/")
    page.fill("input[name=name]", "")
    _submit(page)
    expect(page.locator("main form [aria-invalid=true]").first).to_be_visible()
    check("a tournament form sent back with errors")

    page.goto(base + "/accounts/settings/")
    # More days than a year allows: the server, not the browser, refuses it.
    page.fill("#id_back_on", (timezone.localdate() + timedelta(days=90)).isoformat())
    page.locator("#id_back_on").press("Enter")
    expect(page.locator("#id_back_on")).to_have_attribute("aria-invalid", "true")
    check("time away refused")

    page.goto(base + "/accounts/settings/")
    page.get_by_label("Name of the new key").fill("my bot")
    page.locator("#id_key_password").fill(PASSWORD)
    page.get_by_role("button", name="Create a key").click()
    expect(page.locator("#api-key")).to_be_focused()  # ready to copy
    check("a new API key shown")

    chat.post_message(match.pk, user=match.black, text="Good luck!")
    page.goto(base + "/dashboard/")
    expect(page.locator(".card-news")).to_have_text(f"1 new message in match #{match.pk}")
    check("a message unread on the dashboard")
    page.goto(base + match.get_absolute_url())
    expect(page.locator("#messages .chat-new")).to_be_visible()
    check("a new message marked on the match page")

    page.goto(base + match.get_absolute_url())
    act(page, page.locator("rect.target-source").first)
    check("a checker chosen on the board")
    act(page, page.locator("rect.target-dest").first)
    check("a play half made")
    page.locator("details.notation-box summary").click()
    page.fill("#play-text", "24/22 23/19x")
    page.click("button.submit-typed")
    expect(page.locator("#live .notation-box .error")).to_be_visible()
    check("a typed play refused")

    assert found == {}, json.dumps(found, indent=1)
