"""The lobby's pages of open challenges on a 390px phone, with the keyboard: the bots are a
link away at the top, and the older challenges a link away at the bottom."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games import services, views
from games.models import Challenge

from .helpers import axe_violations, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _fits(page: Page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], widths


def _tab_to(page: Page, name: str) -> None:
    """Press Tab until the link called ``name`` has the focus."""
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == name:
            return
    raise AssertionError(f"no link {name!r} reached with Tab")


def test_a_phone_reaches_the_bots_and_the_older_challenges_by_keyboard(
    page: Page, live_server, django_user_model
):
    services.bot_users()  # created by a migration, which an earlier test's flush undid
    dora = django_user_model.objects.create_user("dora", "dora@example.com")
    Challenge.objects.bulk_create(
        Challenge(challenger=dora) for _ in range(views.LOBBY_PER_PAGE + 2)
    )
    last_shown = Challenge.objects.order_by("-pk")[views.LOBBY_PER_PAGE - 1]
    accept = page.get_by_role("button", name="Accept")
    page.set_viewport_size(PHONE)
    sign_up(page, live_server.url, "cleo")
    page.goto(f"{live_server.url}/lobby/")
    expect(accept).to_have_count(views.LOBBY_PER_PAGE)
    _fits(page)
    assert axe_violations(page) == {}

    _tab_to(page, "play a bot")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Play a bot")).to_be_in_viewport()
    _tab_to(page, "Older challenges")
    page.keyboard.press("Enter")

    expect(page).to_have_url(f"{live_server.url}/lobby/?before={last_shown.pk}")
    expect(accept).to_have_count(2)
    _fits(page)
    assert axe_violations(page) == {}
    _tab_to(page, "Newest challenges")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}/lobby/")
    expect(accept).to_have_count(views.LOBBY_PER_PAGE)
