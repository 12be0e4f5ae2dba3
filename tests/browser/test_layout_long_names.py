"""Long names and long words on a 390px phone: the page wraps them and never scrolls sideways.

Display names run to 60 characters and usernames to 150, with no spaces in either; an About
text may hold a word (a link, say) of any length. Such a word used to set the width of the
box that held it, and that box the width of the page.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page

from games import services
from games.engine.game import ScriptedDice
from games.models import Match
from games.tournaments import services as tournaments
from tests.matches import each_moves, opened_by_white

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_DISPLAY_NAME = "Bartholomew_the_Magnificent_Champion_of_the_Seven_Seas_xx"
LONG_WORD = "https://example.com/" + "acey-deucey-" * 8  # 116 characters, no space
LONG_USERNAME = "bob_" + "b" * 96  # shown as it is: bob sets no display name


def _scroll_widths(page: Page) -> list[int]:
    return page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )


def _set_profile(page: Page, base: str, *, display_name: str, about: str) -> None:
    page.goto(f"{base}/accounts/settings/")
    page.fill("input[name=display_name]", display_name)
    page.fill("textarea[name=about]", about)
    page.click("form.stack button:has-text('Save')")
    page.wait_for_selector(".messages >> text=Your settings are saved.")


def test_long_names_and_words_do_not_widen_a_phone_page(page: Page, live_server, django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user(LONG_USERNAME, "bob@example.com", PASSWORD)
    match = opened_by_white(alice, bob)
    services.create_challenge(bob, variant="greek")  # bob's long username in the lobby
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")
    _set_profile(page, live_server.url, display_name=LONG_DISPLAY_NAME, about=f"See {LONG_WORD}")
    services.create_challenge(alice, variant="american")  # and alice's long display name

    too_wide = {}
    for path in (
        match.get_absolute_url(),
        "/dashboard/",
        "/players/alice/",
        f"/players/{LONG_USERNAME}/",
        "/lobby/",
    ):
        page.goto(live_server.url + path)
        assert LONG_DISPLAY_NAME in page.locator("main").inner_text(), path
        scroll_width, client_width = _scroll_widths(page)
        if scroll_width > client_width:
            too_wide[path] = scroll_width

    assert too_wide == {}


def test_a_long_name_keeps_its_colour_beside_it_on_a_phone(
    page: Page, live_server, django_user_model
):
    """The scoreboard's swatch starts the name's first line: it once stood alone on a line
    of its own above a name too long to share one with it."""
    alice = django_user_model.objects.create_user(
        "alice", "alice@example.com", PASSWORD, display_name=LONG_DISPLAY_NAME[:40] + " Smythe"
    )
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    match = opened_by_white(alice, bob)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + match.get_absolute_url())

    for player in page.locator(".scoreboard .player").all():
        swatch = player.locator(".swatch").bounding_box()
        name = player.locator(".player-name").bounding_box()
        assert swatch is not None and name is not None
        # On the name's first line, not on a line above it.
        assert name["y"] - 1 <= swatch["y"] < name["y"] + swatch["height"] * 1.5, (
            player.inner_text()
        )


def test_a_long_name_in_the_history_is_cut_only_on_a_phone(
    page: Page, live_server, django_user_model
):
    """A desktop shows it whole: cut with an ellipsis after a line (its swatch took the
    first), it was cut at 1280px too. A phone cuts it after two lines; its title keeps it."""
    name = "alice_the_magnificent_of_the_seven_seas"
    clipped_at = _history_name_clipped(page, live_server, django_user_model, name)

    assert clipped_at == {1280: False, 390: True}


def test_a_very_long_name_in_the_history_takes_four_lines_at_most_on_a_desktop(
    page: Page, live_server, django_user_model
):
    """A username of a hundred letters ran down ten lines of the history at 1280px."""
    clipped_at = _history_name_clipped(page, live_server, django_user_model, LONG_USERNAME)

    assert clipped_at == {1280: True, 390: True}
    page.set_viewport_size({"width": 1280, "height": 800})
    page.reload()
    name = page.locator(".turn-who .turn-name").first
    line = float(name.evaluate("el => getComputedStyle(el).lineHeight").removesuffix("px"))
    assert name.bounding_box()["height"] <= 4 * line + 1


def _history_name_clipped(page: Page, live_server, django_user_model, name: str) -> dict:
    """Whether the history cuts ``name`` (white's, of the one turn played) at 1280px and at
    390px, checking each time that its title and text hold it whole."""
    alice = django_user_model.objects.create_user(name, "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    match = opened_by_white(alice, bob)
    services.submit_segment(
        match.pk,
        user=alice,
        action=services.TurnAction(segment=match.segment_count, play="in/22 in/19"),
        dice=ScriptedDice([4, 1]),
    )
    clipped_at = {}
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})

        page.goto(live_server.url + match.get_absolute_url())
        who = page.locator(".turn-who", has_text=name[:10]).first
        clipped_at[width] = who.evaluate(
            """who => [who, ...who.querySelectorAll("*")].some(el =>
                el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)"""
        )

        assert who.get_attribute("title") == name
        assert who.locator("bdi").inner_text() == name
    return clipped_at


def test_long_names_with_their_usernames_do_not_widen_a_phones_leaderboard_or_tournament(
    page: Page, live_server, django_user_model
):
    """The leaderboard and a tournament's bracket, standings and rounds show the username
    beside a display name: with both long, the page still does not scroll sideways."""
    organiser = django_user_model.objects.create_user("olga", "olga@example.com", PASSWORD)
    long_both = django_user_model.objects.create_user(
        LONG_USERNAME, "bob@example.com", PASSWORD, display_name=LONG_DISPLAY_NAME
    )
    alice = django_user_model.objects.create_user(
        "alice", "alice@example.com", PASSWORD, display_name="Alice Liddell"
    )
    pages = ["/leaderboard/"]
    for format in ("single_elimination", "round_robin"):
        tournament = tournaments.create_tournament(
            organiser,
            name=f"{format} cup",
            signup_deadline=timezone.now() + timedelta(days=1),
            format=format,
            points=1,
            min_players=2,
        )
        for player in (long_both, alice):
            tournaments.sign_up(tournament.pk, user=player)
        tournaments.start_tournament(tournament.pk, user=organiser)
        match = each_moves(Match.objects.get(tournament_match__tournament=tournament))
        tournaments.match_finished(services.resign(match.pk, user=alice))  # rated: both moved
        pages.append(tournament.get_absolute_url())
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "olga")

    too_wide = {}
    for path in pages:
        page.goto(live_server.url + path)
        assert LONG_USERNAME in page.locator("main").inner_text(), path
        scroll_width, client_width = _scroll_widths(page)
        if scroll_width > client_width:
            too_wide[path] = scroll_width

    assert too_wide == {}
