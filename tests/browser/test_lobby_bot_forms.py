"""The lobby's bot cards each ask the same questions (variant, length, rated): each card's
controls are a group named after its bot, so that a screen reader tabbing through them
hears whose they are, not "Variant, combo box" once for every bot."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games import services

from .helpers import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_each_bot_s_choices_are_grouped_under_its_name(page: Page, live_server):
    bots = services.bot_users()  # created by a migration, which an earlier test's flush undid
    sign_up(page, live_server.url, "cleo")
    page.goto(f"{live_server.url}/lobby/")

    for bot in bots:
        group = page.get_by_role("group", name=str(bot), exact=True)
        expect(group.get_by_role("combobox", name="Variant")).to_have_count(1)
        expect(group.get_by_role("combobox", name="Length")).to_have_count(1)
        expect(group.get_by_role("checkbox", name="Rated")).to_have_count(1)
