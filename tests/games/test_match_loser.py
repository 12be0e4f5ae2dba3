"""Match.loser_color: who lost a decided match, the one rule the history's closing line,
the dice page and the tournament's advancement read."""

from __future__ import annotations

import pytest

from games import services
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


def test_a_match_in_play_has_no_loser(alice, bob):
    match = opened_by_white(alice, bob)

    assert match.loser_color is None


@pytest.mark.parametrize(("resigning", "loser"), [("alice", "white"), ("bob", "black")])
def test_the_loser_is_the_colour_that_did_not_win(alice, bob, resigning, loser):
    match = opened_by_white(alice, bob)

    services.resign(match.pk, user=alice if resigning == "alice" else bob)
    match.refresh_from_db()

    assert match.loser_color == loser
