"""The main pages on a 320px phone with the text at 200% (the root font size doubled, as a
browser's text zoom does): nothing takes the page sideways, no box but a table's or a code
sample's scrolls sideways, the player's own name stays readable in the header, and the
settings' radio buttons grow with the text.

The header's site name never wrapped and took the page to 354px; the username beside
"Settings" and "Log out" was squeezed to nothing (to "k" at 390px); a date field widened
the settings form past the screen; three buttons to name a double, side by side, were
wider than it; and the history's names, 6.5rem beside the plays, left the plays a letter a
line and pushed the replay links out of its box.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page

from games import services
from games.engine.game import ScriptedDice
from games.models import Match
from games.tournaments import services as tournaments
from tests.matches import take_turn

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LARGE_TEXT = "document.documentElement.style.fontSize = '200%'"

# What does not fit, as {check: [what]}; empty when everything does.
PROBLEMS = """
() => {
  const problems = {};
  const add = (check, what) => (problems[check] ||= []).push(String(what).slice(0, 90));
  const width = document.documentElement.scrollWidth;
  if (width > innerWidth) add("scrolls sideways", `${width}px wide`);
  // A table or a code sample may scroll in its own named region; nothing else.
  for (const el of document.querySelectorAll("body *")) {
    if (el.matches("pre, [role=region], .visually-hidden")) continue;
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
    if (scrolls && el.scrollWidth > el.clientWidth + 1) {
      add("a box that scrolls sideways", el.outerHTML.slice(0, 90));
    }
  }
  const who = document.querySelector(".nav-user .who");
  if (who && (!who.clientWidth || who.scrollWidth > who.clientWidth)) {
    add("username cut short", `${who.clientWidth}px of ${who.scrollWidth}px`);
  }
  for (const radio of document.querySelectorAll("input[type=radio]")) {
    if (radio.getBoundingClientRect().width < 24) add("tiny radio button", radio.name);
  }
  return problems;
}
"""


def _start(white, black, dice: list[int]) -> Match:
    options = {"variant": "american", "points": 1, "days_per_move": 2}
    return services.start_match(white=white, black=black, dice=ScriptedDice(dice), **options)


@pytest.fixture
def pages(django_user_model) -> list[str]:
    """The main pages kbplayer sees, with a match of a few turns, one where a double is to
    be named, and a tournament under way."""
    names = ("kbplayer", "bob", "carol", "dave")
    kb, bob, carol, dave = (
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in names
    )
    your_turn = take_turn(_start(kb, carol, [5, 2, 6, 3]), kb, [4, 1], play="in/22 in/19")
    your_turn = take_turn(your_turn, carol, [6, 5], play="in/24 in/21")
    naming_a_double = take_turn(_start(kb, dave, [5, 2, 2, 1]), kb, play="in/24 in/23")
    services.create_challenge(bob, opponent=kb)
    services.create_challenge(carol, variant="greek")
    cup = tournaments.create_tournament(
        bob, name="Harbour cup", signup_deadline=timezone.now() + timedelta(days=1), points=1
    )
    for entrant in (kb, bob, carol, dave):
        tournaments.sign_up(cup.pk, user=entrant)
    tournaments.start_tournament(cup.pk, user=bob)
    return [
        "/dashboard/",
        "/lobby/",
        "/challenges/new/",
        your_turn.get_absolute_url(),
        naming_a_double.get_absolute_url(),
        "/players/kbplayer/",
        "/leaderboard/",
        "/rules/",
        "/tournaments/",
        "/tournaments/new/",
        cup.get_absolute_url(),
        "/accounts/settings/",
    ]


def _problems(page: Page, base: str, paths: list[str]) -> dict[str, dict]:
    found = {}
    for path in paths:
        page.goto(base + path)
        page.evaluate(LARGE_TEXT)
        problems = page.evaluate(PROBLEMS)
        if problems:
            found[path] = problems
    return found


@pytest.mark.parametrize("width", [320, 390])
def test_the_main_pages_fit_a_phone_with_text_at_200_percent(page: Page, live_server, pages, width):
    page.set_viewport_size({"width": width, "height": 700})

    found = _problems(page, live_server.url, ["/", "/accounts/signup/", "/accounts/login/"])
    log_in(page, live_server.url, "kbplayer")
    found |= _problems(page, live_server.url, pages)

    assert found == {}, json.dumps(found, indent=1)
