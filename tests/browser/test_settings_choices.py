"""The settings page's game email choices on a 390px phone: each choice's words wrap
beside its radio button, not under it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The left edge of every line of each choice's words, and its radio button's right edge.
EDGES = """() => [...document.querySelectorAll('input[name=email_preference]')].map(radio => {
  const range = document.createRange();
  range.selectNodeContents(radio.parentElement);
  range.setStartAfter(radio);
  const lines = [...range.getClientRects()].filter(rect => rect.width > 0);
  return {radio: radio.getBoundingClientRect().right, lines: lines.map(rect => rect.left)};
})"""


def test_each_email_choice_wraps_beside_its_radio_button(
    page: Page, live_server, django_user_model
):
    django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + "/accounts/settings/")

    choices = page.evaluate(EDGES)

    assert len(choices) == 3
    assert any(len(choice["lines"]) > 1 for choice in choices)  # a choice wraps
    for choice in choices:
        assert all(left >= choice["radio"] for left in choice["lines"]), choice
