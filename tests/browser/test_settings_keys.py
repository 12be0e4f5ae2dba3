"""Revoking an API key on a 390px phone, with the keyboard and without JavaScript: the
settings page asks first, and "No" keeps the key."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import ApiToken

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_revoking_a_key_asks_first_without_javascript(
    browser: Browser, live_server, django_user_model
):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    token, _ = ApiToken.issue(alice, "my bot")
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + "/accounts/settings/")

    page.get_by_role("link", name="Revoke… the key my bot").focus()
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", level=1)).to_have_text("Revoke the key “my bot”?")
    assert ApiToken.objects.filter(pk=token.pk).exists()
    page.get_by_role("link", name="No, keep it").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="API keys")).to_be_visible()
    assert ApiToken.objects.filter(pk=token.pk).exists()

    page.get_by_role("link", name="Revoke… the key my bot").focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Yes, revoke the key").focus()
    page.keyboard.press("Enter")

    expect(page.locator(".messages")).to_contain_text("The key “my bot”")
    expect(page.get_by_text("You have no API keys.")).to_be_visible()
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], widths
    context.close()
