"""A table or bracket wider than a phone fades out at the edge where more is hidden, so
that it shows it scrolls sideways; one that fits the screen does not fade."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Locator, Page

from games.tournaments import services as tournaments

from .helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fades(box: Locator) -> tuple[str, str]:
    """The widths of the fades at the box's left and right edges ("0px" for none), once
    the page has drawn two frames since the last scroll or resize."""
    return tuple(
        box.evaluate(
            """async box => {
                const frame = () => new Promise(requestAnimationFrame);
                await frame();
                await frame();
                const style = getComputedStyle(box);
                return ["left", "right"].map(side => style.getPropertyValue(`--fade-${side}`));
            }"""
        )
    )


def _scroll_to_the_end(box: Locator) -> None:
    box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")


def test_the_profile_ratings_table_fades_where_it_scrolls(page: Page, live_server, alice):
    # It fits a 390px phone (tests/browser/test_layout_phone.py); not the narrowest.
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{live_server.url}/players/alice/")
    ratings = page.get_by_role("region", name="Ratings and records")

    at_start = _fades(ratings)
    _scroll_to_the_end(ratings)
    at_end = _fades(ratings)
    page.set_viewport_size({"width": 1200, "height": 844})  # a phone turned sideways
    fitting = _fades(ratings)

    assert at_start[0] == "0px" and at_start[1] != "0px"
    assert at_end[0] != "0px" and at_end[1] == "0px"
    assert fitting == ("0px", "0px")


def test_the_bracket_fades_where_it_scrolls(page: Page, live_server, django_user_model):
    players = [
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob", "carol", "dave")
    ]
    cup = tournaments.create_tournament(
        players[0], name="Harbour cup", signup_deadline=timezone.now() + timedelta(days=1)
    )
    for player in players:
        tournaments.sign_up(cup.pk, user=player)
    tournaments.start_tournament(cup.pk, user=players[0])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + cup.get_absolute_url())
    bracket = page.locator(".bracket")

    at_start = _fades(bracket)
    _scroll_to_the_end(bracket)

    assert at_start[0] == "0px" and at_start[1] != "0px"
    assert _fades(bracket)[1] == "0px"
