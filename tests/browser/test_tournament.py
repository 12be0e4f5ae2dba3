"""One small tournament followed in the browser: the organiser creates it through the
pages, four players sign up through the pages, the organiser starts it, every match is
resigned through the match page's Resign button, and the champion is on the tournament
page. Also: the bracket fits a phone (it scrolls inside its own box) and is usable from the
keyboard.

The tournament advances when a match ends only once games.services.finish_match calls
games.tournaments.services.match_finished; until then the test calls it after each
resignation (a no-op once the hook is wired).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games import services as game_services
from games.models import Match
from games.tournaments import services
from games.tournaments.models import Entry, Tournament

from .helpers import PASSWORD, axe_violations, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["ann", "ben", "cat", "dan"]


@pytest.fixture
def people(django_user_model) -> None:
    for name in ["olga", *PLAYERS]:
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)


def _page(browser: Browser, base: str, username: str, *, width: int = 1280) -> Page:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    log_in(page, base, username)
    return page


def _create_tournament(page: Page, base: str) -> str:
    page.goto(f"{base}/tournaments/")
    page.get_by_role("link", name="Organise a tournament").click()
    page.fill("input[name=name]", "Browser cup")
    page.select_option("select[name=format]", "single_elimination")
    page.select_option("select[name=points]", "1")
    page.fill("input[name=min_players]", "4")
    page.fill("input[name=max_players]", "4")
    page.get_by_label("When the organiser starts it").check()
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("h1")).to_have_text("Browser cup")
    return page.url


def _resign_through_the_match_page(page: Page, base: str, match: Match) -> None:
    page.goto(base + match.get_absolute_url())
    page.get_by_role("link", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign the match").click()
    page.wait_for_url(f"**{match.get_absolute_url()}")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    services.match_finished(match)  # a no-op once finish_match calls it


def test_a_four_player_knock_out_is_followed_to_its_champion(browser: Browser, live_server, people):
    base = live_server.url
    olga = _page(browser, base, "olga")
    tournament_url = _create_tournament(olga, base)
    players = {name: _page(browser, base, name, width=390) for name in PLAYERS}

    for page in players.values():
        page.goto(tournament_url)
        page.get_by_role("button", name="Sign up").click()
        expect(page.locator(".messages")).to_contain_text("You are signed up")

    olga.reload()
    olga.get_by_role("button", name="Start early").click()
    expect(olga.locator(".messages")).to_contain_text("The tournament has started")
    tournament = Tournament.objects.get(name="Browser cup")
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("user__username", "seed"))

    # The better seed wins every match: the loser resigns on the match page.
    for _ in range(3):
        match = Match.objects.filter(status=Match.Status.ACTIVE).select_related("white", "black")[0]
        loser = max([match.white, match.black], key=lambda user: seeds[user.username])
        _resign_through_the_match_page(players[loser.username], base, match)

    top_seed = next(name for name, seed in seeds.items() if seed == 1)
    olga.goto(tournament_url)
    expect(olga.locator("#champion")).to_have_text(f"Champion: {top_seed}")
    expect(olga.locator(".slot-side.winner")).to_have_count(3)
    placings = olga.get_by_role("region", name="Final placings").locator("tbody tr")
    expect(placings).to_have_count(4)
    expect(placings.first).to_contain_text(f"1 {top_seed} Champion")
    assert Match.objects.count() == 3


def test_the_bracket_scrolls_inside_its_box_on_a_phone_and_works_from_the_keyboard(
    browser: Browser, live_server, people, django_user_model
):
    organiser = django_user_model.objects.get(username="olga")
    players = [django_user_model.objects.get(username=name) for name in PLAYERS]
    players += [
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ["eve", "fay", "gus", "hal"]
    ]
    tournament = services.create_tournament(
        organiser, name="Phone cup", signup_deadline=timezone.now() + timedelta(days=1)
    )
    for player in players:
        services.sign_up(tournament.pk, user=player)
    services.start_tournament(tournament.pk, user=organiser)
    while match := Match.objects.filter(status=Match.Status.ACTIVE).first():
        services.match_finished(game_services.resign(match.pk, user=match.white))
    page = _page(browser, live_server.url, "ann", width=390)

    page.goto(live_server.url + tournament.get_absolute_url())

    expect(page.locator("#champion")).to_be_visible()
    assert axe_violations(page) == {}  # the final placings' table, too
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    bracket = page.locator(".bracket")
    assert bracket.evaluate("box => box.scrollWidth > box.clientWidth")
    bracket.focus()
    page.keyboard.press("ArrowRight")  # a focused scroll box scrolls from the keyboard
    page.wait_for_function("() => document.querySelector('.bracket').scrollLeft > 0")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    assert focused and focused.startswith("/matches/")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{focused}")


@pytest.mark.parametrize("width", [390, 1280])
def test_a_two_digit_score_stays_on_one_line_beside_a_long_name(
    browser: Browser, live_server, people, django_user_model, width
):
    """A long name beside a two-digit score (an american match to 15) squeezed the score's
    box until "1" and "5" stood one above the other."""
    organiser = django_user_model.objects.get(username="olga")
    long_name = django_user_model.objects.create_user(
        "bartholomew_smythe_of_the_seas", "bart@example.com", PASSWORD
    )
    tournament = services.create_tournament(
        organiser,
        name="Long cup",
        signup_deadline=timezone.now() + timedelta(days=1),
        points=15,
        min_players=2,
    )
    for player in (long_name, django_user_model.objects.get(username="ann")):
        services.sign_up(tournament.pk, user=player)
    services.start_tournament(tournament.pk, user=organiser)
    match = Match.objects.get(status=Match.Status.ACTIVE)
    Match.objects.filter(pk=match.pk).update(score_white=12, score_black=13)
    loser = match.white if match.white.username == "ann" else match.black
    services.match_finished(game_services.resign(match.pk, user=loser))
    page = _page(browser, live_server.url, "ann", width=width)

    page.goto(live_server.url + tournament.get_absolute_url())

    points = page.locator(".slot-points")
    expect(points).to_have_count(2)
    assert all(len(score) == 2 for score in points.all_inner_texts())
    # One line box each: a wrapped score has one per line.
    lines = points.evaluate_all(
        """all => all.map(el => {
            const range = document.createRange();
            range.selectNodeContents(el);
            return range.getClientRects().length;
        })"""
    )
    assert lines == [1, 1]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
