"""A username of 150 characters (no spaces) in the header of a 390px phone: it is cut short
with an ellipsis, the full name kept in its title, and "Settings" and "Log out" beside it
stay whole words, where they were squeezed to a letter a line on every page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_USERNAME = "bartholomew_" + "b" * 138  # 150 characters, the longest allowed

# How many lines the text of the element ``selector`` takes.
LINES = """selector => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(selector));
  return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size;
}"""


def test_a_long_username_leaves_the_header_links_whole_on_a_phone(
    page: Page, live_server, django_user_model
):
    django_user_model.objects.create_user(LONG_USERNAME, "bart@example.com", PASSWORD)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, LONG_USERNAME)

    for path in ("/dashboard/", "/accounts/settings/"):
        page.goto(live_server.url + path)

        assert page.evaluate(LINES, ".nav-user a[href='/accounts/settings/']") == 1, path
        assert page.evaluate(LINES, ".nav-user button") == 1, path
        who = page.locator(".nav-user .who")
        assert who.get_attribute("title").startswith(LONG_USERNAME), path
        # Cut short within the screen, not drawn past it.
        assert who.evaluate("el => el.scrollWidth > el.clientWidth"), path
        box = who.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, path
        widths = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1], path
