"""A right-to-left name keeps to its place on the page: the digit at the end of the display
name "علي الحسن 2" stays with it, before the username in brackets, where the browser's
bidirectional ordering used to carry it past them ("Challenge from علي الحسن (علي) 2")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from games import services

from .helpers import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALI = "\u0639\u0644\u064a"  # علي
ALI_AL_HASSAN_2 = "\u0639\u0644\u064a \u0627\u0644\u062d\u0633\u0646 2"  # علي الحسن 2

# The left edge of the first ``char`` drawn inside ``selector``, as the browser lays it out.
LEFT_OF = """([selector, char]) => {
  const root = document.querySelector(selector);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(char);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect().left;
  }
  return null;
}"""


def _left_of(page: Page, selector: str, char: str) -> float:
    left = page.evaluate(LEFT_OF, [selector, char])
    assert left is not None, f"no {char!r} in {selector}"
    return left


@pytest.fixture
def ali(django_user_model):
    return django_user_model.objects.create_user(
        ALI, "ali@example.com", PASSWORD, display_name=ALI_AL_HASSAN_2
    )


def test_the_challenge_heading_keeps_the_number_in_the_name(page: Page, live_server, ali):
    bob = type(ali).objects.create_user("bob", "bob@example.com", PASSWORD)
    challenge = services.create_challenge(ali, opponent=bob)
    log_in(page, live_server.url, "bob")

    page.goto(live_server.url + challenge.get_absolute_url())

    assert _left_of(page, "main h1", "2") < _left_of(page, "main h1", "(")


def test_the_dashboard_keeps_the_number_in_the_name(page: Page, live_server, ali):
    bob = type(ali).objects.create_user("bob", "bob@example.com", PASSWORD)
    services.create_challenge(ali, opponent=bob)
    log_in(page, live_server.url, "bob")

    page.goto(f"{live_server.url}/dashboard/")

    card = "main .card-turn > span"  # the challenger's name, then the username in brackets
    assert _left_of(page, card, "2") < _left_of(page, card, "(")
