"""A greek player types the blot to name first, then clicks the play on the board: the
number is kept through the clicks (the field goes with the first move) and comes back
chosen in the list of blots the whole play leaves. It was dropped without a word."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.matches import opened_by_white

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_blot_number_typed_before_clicking_the_board_is_kept(
    page: Page, live_server, django_user_model
):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    match = opened_by_white(alice, bob, dice=(5, 2, 6, 5), variant="greek")
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())

    page.fill("#name-blot", "19")
    page.locator("#target-to-18").click()  # the 6 (24 was chosen already, alone to move)
    expect(page.locator("#name-blot")).to_have_count(0)  # the number field has gone
    page.locator("#target-from-24").click()  # then the 5, from 24 too
    page.locator("#target-to-19").click()

    expect(page.locator("select#name-blot")).to_have_value("19")
