"""Browser tests: Playwright drives Debian's Chromium against pytest-django's live server.

Playwright's browsers are not downloaded here; the system Chromium is launched instead.
Playwright's sync API runs an event loop in the test thread, so Django's guard against
ORM calls from async code must be lifted for tests that use both a page and the database.
"""

import os

import pytest

from games import services
from games.engine.game import ScriptedDice
from games.models import Match
from tests.matches import opened_by_white

from .helpers import PASSWORD

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        # As the services tests do: skipped on a contributor's machine, failed in CI.
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("ACEY_REQUIRE_SERVICES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(autouse=True)
def _limits_afresh(empty_cache):
    """Every browser test: its sign-ups and logins all come from 127.0.0.1, and the limits
    on them (accounts.throttle) count in the cache, which must not carry them over."""


@pytest.fixture
def match(django_user_model) -> Match:
    """Alice (white) to move with 6-5, with checkers on her 22- and 19-points and waiting."""
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    match = opened_by_white(alice, bob)
    for user, play, dice in ((alice, "in/22 in/19", [4, 1]), (bob, "in/24 in/21", [6, 5])):
        action = services.TurnAction(segment=match.segment_count, play=play)
        match = services.submit_segment(match.pk, user=user, action=action, dice=ScriptedDice(dice))
    return match
