"""A board click from an address the site does not recognise (a proxy that drops the
scheme, the site reached by another name) is refused by the CSRF check every time: the
page says why, in place of the whole window, instead of reloading at every click."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_click_refused_for_its_address_shows_why_and_does_not_reload(
    page: Page, live_server, match, settings
):
    # The site believes the request came over HTTPS (as behind a proxy), while the page
    # was loaded over plain HTTP: the click's Origin is not the site's own.
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())

    def as_if_over_https(route: Route) -> None:
        if route.request.method == "POST":
            route.continue_(headers={**route.request.headers, "x-forwarded-proto": "https"})
        else:
            route.continue_()

    page.route("**/click/", as_if_over_https)
    loads = []
    page.on("load", lambda _: loads.append(page.url))
    page.locator(".move-choices .chip").first.click()

    expect(page.locator("main h1")).to_contain_text("refused")
    # Where a screen reader reads it from: nothing else tells it the window has changed.
    expect(page.locator("main h1")).to_be_focused()
    expect(page.locator("main")).to_contain_text("does not recognise")
    assert loads == []  # shown in place, not reloaded
    # One page: the refusal took the whole window, not the board's part of it.
    expect(page.locator("main")).to_have_count(1)
    expect(page.locator(".move-choices")).to_have_count(0)
