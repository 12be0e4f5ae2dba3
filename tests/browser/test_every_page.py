"""Every page a player reaches, on a 390px phone, in light colours and dark: it does not
scroll sideways, cuts no text off, its controls have names, labels and room for a finger,
and axe-core finds nothing against WCAG 2.2 A and AA or its best practices (the contrast
of every text among them). Long names are the usual trouble, so the players here have them.

One browser page visits them all and the problems are reported together: a failure names
each page and what is wrong with it.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page

from accounts.models import ApiToken
from accounts.services import email_confirmation_token
from games import blocks, services
from games.engine.game import ScriptedDice
from games.models import Match
from games.notifications import unsubscribe_token
from games.tournaments import services as tournaments
from tests.matches import take_turn

from .helpers import PASSWORD, axe_violations, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = "carol_with_a_rather_long_username"
LONG_BLOCKED = "frank_with_an_even_longer_username_still"

# What is wrong with the page, as {check: [what failed it]}; empty when nothing is.
PROBLEMS = """
() => {
  const problems = {};
  const add = (check, what) => (problems[check] ||= []).push(String(what).slice(0, 90));
  const describe = el => el.outerHTML.slice(0, 90);
  const visible = el => el.getBoundingClientRect().width > 0;

  const width = document.documentElement.scrollWidth;
  if (width > innerWidth) add("scrolls sideways", `${width}px wide`);
  if (!document.querySelector("nav.site-nav")) add("not a page of the site", "no site navigation");

  const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map(h => +h.tagName[1]);
  if (levels.filter(level => level === 1).length !== 1) add("headings", "not exactly one h1");
  levels.forEach((level, i) => {
    if (i && level > levels[i - 1] + 1) add("headings", `h${levels[i - 1]} then h${level}`);
  });

  for (const field of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    if (!field.labels.length && !field.getAttribute("aria-label")) {
      add("field without a label", describe(field));
    }
  }
  for (const el of document.querySelectorAll("[aria-describedby], [aria-labelledby]")) {
    const ids = ["aria-describedby", "aria-labelledby"].map(name => el.getAttribute(name) || "");
    for (const id of ids.join(" ").split(/\\s+/).filter(Boolean)) {
      if (!document.getElementById(id)) add("points to a missing id", `#${id}: ${describe(el)}`);
    }
  }
  for (const img of document.querySelectorAll("img:not([alt])")) add("image without alt", img.src);

  const buttonNames = new Set();
  for (const el of document.querySelectorAll("a[href], button, summary, [role=button]")) {
    const name = (el.getAttribute("aria-label") || el.textContent).trim().replace(/\\s+/g, " ");
    if (!name) add("control without a name", describe(el));
    if (el.tagName === "BUTTON" && visible(el)) {
      if (buttonNames.has(name)) add("buttons that share a name", name);
      buttonNames.add(name);
    }
  }
  // Checkboxes and radios are tapped through their label.
  const fields = "input:not([type=hidden]):not([type=checkbox]):not([type=radio])";
  for (const el of document.querySelectorAll(`button, select, textarea, summary, ${fields}`)) {
    const box = el.getBoundingClientRect();
    if (box.width && (box.width < 24 || box.height < 24)) {
      add("tiny control", `${Math.round(box.width)}x${Math.round(box.height)} ${describe(el)}`);
    }
  }

  // A scrolling box with nothing focusable inside must take the keyboard's focus itself
  // (Safari scrolls only what is focused) and say what it holds.
  const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";
  for (const el of document.querySelectorAll("main *")) {
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
    if (!scrolls || el.matches("textarea") || el.querySelector(focusable)) continue;
    const named = el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
    if (el.getAttribute("role") !== "region" || !named || el.tabIndex !== 0) {
      add("a scrolling box that is not a named, focusable region", describe(el));
    }
  }

  for (const el of document.querySelectorAll("main *")) {
    if (el.closest(".visually-hidden") || !el.textContent.trim()) continue;
    const style = getComputedStyle(el);
    const clips = style.overflowX === "hidden" || style.textOverflow === "ellipsis";
    if (clips && el.scrollWidth > el.clientWidth + 1) add("text cut off", el.textContent.trim());
  }
  for (const el of document.querySelectorAll("*")) {
    for (const attribute of el.getAttributeNames()) {
      if (attribute.startsWith("on")) add("inline script (the CSP blocks it)", describe(el));
    }
  }
  return problems;
}
"""


def _start(white, black, dice: list[int], **options) -> Match:
    options = {"variant": "american", "points": 1, "days_per_move": 2, **options}
    return services.start_match(white=white, black=black, dice=ScriptedDice(dice), **options)


@pytest.fixture
def pages(django_user_model) -> list[str]:
    """A site with a little of everything in it; the paths of its pages that alice sees."""

    def player(name: str, **extra):
        return django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD, **extra)

    alice = player("alice", display_name="Alice Featherstonehaugh-Smythe")
    bob, carol, dave = player("bob"), player(LONG_NAME), player("dave")

    your_turn = take_turn(_start(alice, carol, [5, 2, 6, 3]), alice, [4, 1], play="in/22 in/19")
    your_turn = take_turn(your_turn, carol, [6, 5], play="in/24 in/21")
    waiting = take_turn(_start(alice, carol, [5, 2, 6, 3]), alice, [4, 1], play="in/22 in/19")
    naming_a_double = take_turn(_start(alice, dave, [5, 2, 2, 1]), alice, play="in/24 in/23")
    finished = take_turn(_start(alice, carol, [5, 2, 6, 3]), alice, [4, 1], play="in/22 in/19")
    services.resign(finished.pk, user=carol)

    for challenger in (bob, dave):
        services.create_challenge(challenger, opponent=alice)  # the dashboard
    for challenger in (bob, carol):
        services.create_challenge(challenger, variant="greek")  # the lobby
    received = services.create_challenge(carol, opponent=alice, points=3)
    invite = services.create_challenge(alice, private=True)
    not_hers = _start(bob, dave, [5, 2, 6, 3])

    key, _ = ApiToken.issue(alice, "my bot")
    ApiToken.issue(alice, "the other bot")
    blocked = player(LONG_BLOCKED)
    blocks.block(alice, other=blocked)  # her profile offers Unblock; the settings list it

    cup = tournaments.create_tournament(
        bob, name="Harbour cup", signup_deadline=timezone.now() + timedelta(days=1), points=1
    )
    for entrant in (alice, bob, carol, dave):
        tournaments.sign_up(cup.pk, user=entrant)
    tournaments.start_tournament(cup.pk, user=bob)

    return [
        "/dashboard/",
        "/lobby/",
        "/challenges/new/",
        received.get_absolute_url(),
        invite.get_absolute_url(),
        your_turn.get_absolute_url(),
        waiting.get_absolute_url(),
        naming_a_double.get_absolute_url(),
        finished.get_absolute_url(),
        f"{your_turn.get_absolute_url()}?replay=2",
        f"{your_turn.get_absolute_url()}resign/",
        f"{finished.get_absolute_url()}dice/",
        "/players/alice/",
        f"/players/{LONG_NAME}/",
        f"/players/{LONG_BLOCKED}/",
        "/players/alice/dice/",
        "/leaderboard/",
        "/rules/",
        "/api/",
        "/tournaments/",
        "/tournaments/new/",
        cup.get_absolute_url(),
        "/accounts/settings/",
        "/accounts/password/change/",
        "/accounts/settings/close/",
        reverse("token_revoke", args=[key.pk]),  # the page asking to confirm
        "/accounts/logout/",  # the page asking to confirm, for a GET
        reverse("unsubscribe", args=[unsubscribe_token(alice)]),
        # Alice has not confirmed her address: the dashboard and the settings say so, and
        # the link sent to her asks her to.
        reverse("email_verify", args=[email_confirmation_token(alice)]),
        "/no-such-page/",
        f"{not_hers.get_absolute_url()}resign/",  # 403: not her match to resign
    ]


def _problems(page: Page, base: str, paths: list[str]) -> dict[str, dict]:
    found = {}
    for path in paths:
        page.goto(base + path)
        problems = page.evaluate(PROBLEMS) | axe_violations(page)
        if problems:
            found[path] = problems
    return found


@pytest.mark.parametrize("colours", ["light", "dark"])
def test_every_page_fits_a_phone_and_names_its_controls(page: Page, live_server, pages, colours):
    # In the colours the device asks for (site.css has both): axe checks the contrast of
    # every text against what is behind it.
    page.emulate_media(color_scheme=colours)
    page.set_viewport_size({"width": 390, "height": 844})
    before_login = [
        "/",
        "/accounts/signup/",
        "/accounts/login/",
        "/accounts/password/reset/",
        "/api/",
    ]

    found = _problems(page, live_server.url, before_login)
    log_in(page, live_server.url, "alice")
    found |= _problems(page, live_server.url, pages)

    assert found == {}, json.dumps(found, indent=1)


def test_a_missing_or_forbidden_page_says_so_and_leads_back(page: Page, live_server, pages):
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + "/no-such-page/")
    assert page.locator("h1").inner_text() == "Page not found"
    page.get_by_role("link", name="Go to your matches").click()
    page.wait_for_url("**/dashboard/")

    page.goto(live_server.url + pages[-1])
    assert page.locator("h1").inner_text() == "Not allowed"
    assert page.locator("main").get_by_text("You are not playing in this match.").is_visible()


# Where the keyboard's focus is now, and whether a sighted keyboard user can see it: an
# outline (or, on the board's SVG targets, a thicker stroke) and a box on the screen.
FOCUS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const ringed = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  const stroked = el instanceof SVGElement && parseFloat(style.strokeWidth) >= 3;
  const onScreen = box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight
    && box.right > 0 && box.left < innerWidth;
  return {
    what: el.outerHTML.slice(0, 90),
    seen: (ringed || stroked) && onScreen,
    why: !(ringed || stroked) ? "no focus indicator" : onScreen ? "" : "off the screen",
  };
}
"""


def test_every_stop_of_the_keyboard_shows_where_it_is(page: Page, live_server, pages):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")
    unseen: dict[str, list[str]] = {}
    stops = 0
    for path in pages[:-2]:  # not the two error pages
        page.goto(live_server.url + path)
        seen_here: set[str] = set()
        for _ in range(60):
            page.keyboard.press("Tab")
            focus = page.evaluate(FOCUS)
            if focus is None or focus["what"] in seen_here:
                break  # round to the start again
            seen_here.add(focus["what"])
            stops += 1
            if not focus["seen"]:
                unseen.setdefault(path, []).append(f"{focus['why']}: {focus['what']}")

    assert stops > 100  # the walk really went through the pages' controls
    assert unseen == {}, json.dumps(unseen, indent=1)
