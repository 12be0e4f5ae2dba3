"""Typing an opponent's name in the challenge form brings suggestions (a <datalist>)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_typing_a_name_suggests_players(page: Page, live_server, django_user_model):
    for name in ("alice", "bob", "bonnie", "carl"):
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/challenges/new/")

    page.get_by_label("Opponent").press_sequentially("bo")

    options = page.locator("#opponent-names option")
    expect(options).to_have_count(2)
    assert [options.nth(i).get_attribute("value") for i in range(2)] == ["bob", "bonnie"]
