"""The lobby's "Rated" box on each bot's card: on a phone, its label is a target a thumb
can hit (44px tall, as the buttons beside it), and pressing its word toggles it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games import services

from .helpers import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_each_rated_label_is_a_44px_target_that_toggles_its_box(page: Page, live_server):
    services.bot_users()  # created by a migration, which an earlier test's flush undid
    page.set_viewport_size({"width": 390, "height": 844})
    sign_up(page, live_server.url, "cleo")
    page.goto(f"{live_server.url}/lobby/")

    labels = page.locator("li.card label.check")
    assert labels.count() == len(services.bot_users())
    for label in labels.all():
        box = label.bounding_box()
        assert box is not None and box["height"] >= 44, box
        checkbox = label.locator("input[type=checkbox]")
        expect(checkbox).to_be_checked()
        # The word, not the box: a press below the box but within the label counts too.
        label.click(position={"x": box["width"] - 4, "y": box["height"] - 4})
        expect(checkbox).not_to_be_checked()
