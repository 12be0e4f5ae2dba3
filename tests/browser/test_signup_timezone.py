"""A new player's browser tells the sign-up form its timezone, so times are theirs from the
start."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from accounts.models import User

from .helpers import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("zone", ["Asia/Tokyo", "Europe/Athens"])
def test_sign_up_takes_the_browsers_timezone(browser: Browser, live_server, zone):
    context = browser.new_context(timezone_id=zone)
    page = context.new_page()

    sign_up(page, live_server.url, "newcomer")

    assert User.objects.get(username="newcomer").timezone == zone
    context.close()
