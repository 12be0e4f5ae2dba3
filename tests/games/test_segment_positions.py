"""Each stored segment keeps the position after it: what a replay of the history shows.

An opening roll of a later game was once stored with the position before the previous
game's last play (the match row's, not yet saved), so replaying it showed the wrong board.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import services
from games.api import match_state
from games.board import _describe
from games.engine import Position
from games.engine import game as game_module
from games.models import Match, Segment
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


def _play_out(match: Match, alice, bob, seed: int) -> Match:
    """Play ``match`` to its end with legal plays chosen at random (seeded), checking
    after every action that the last stored segment holds the match's position."""
    choose = random.Random(seed)
    # Fixed dice, so that the test plays the same games each time.
    Match.objects.filter(pk=match.pk).update(server_seed=f"{seed:064x}")
    while True:
        match = Match.objects.select_related("white", "black").get(pk=match.pk)
        last = Segment.objects.filter(match=match).order_by("-number").first()
        if not match.is_active:
            return match
        assert last.position == match.position, f"segment {last.number}"
        state = match_state(match, since=match.segment_count)
        player = alice if state["to_move"] == alice.username else bob
        if state.get("allowed_doubles"):
            action = services.TurnAction(
                segment=match.segment_count, double=choose.choice(state["allowed_doubles"])
            )
        else:
            action = services.TurnAction(
                segment=match.segment_count, play=choose.choice(state["legal_plays"])
            )
        services.submit_segment(match.pk, user=player, action=action)


# An american game scores 1 to 15 (a random player loses big): 25 points take some games.
@pytest.mark.parametrize(("variant", "points"), [("american", 25), ("greek", 2)])
def test_every_segment_holds_the_position_after_it_across_games(
    client, alice, bob, variant, points
):
    match = services.start_match(
        white=alice, black=bob, variant=variant, points=points, days_per_move=2
    )

    match = _play_out(match, alice, bob, seed=2)

    rows = list(Segment.objects.filter(match=match).order_by("number"))
    openings = [row for row in rows if row.kind == Segment.Kind.OPENING]
    assert {row.game_number for row in openings} == set(range(1, match.game_number + 1))
    assert match.game_number > 1  # the games this is about
    for row in openings:
        white, black = row.dice
        if white != black:
            first = Position.initial(variant, "white" if white > black else "black")
            assert row.position == first.to_dict(), f"opening segment {row.number}"
    for before, row in itertools.pairwise(rows):
        if row.kind == Segment.Kind.DOUBLE:  # naming a double moves nothing
            assert row.position == before.position, f"double segment {row.number}"

    # A replay of the second game's opening shows that game's first position.
    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk]) + f"?replay={openings[-1].number}")
    assert page.status_code == 200
    first = Position.initial(variant, openings[-1].position["turn"])
    assert escape(_describe(first, "white")) in page.text  # the board's text description
    # And the score as it stood then: the points of the games before that one.
    scores = re.findall(r'<span class="score" title="Score">(\d+) pt', page.text)
    before = match.game_results.filter(game_number__lt=openings[-1].game_number)
    assert sum(map(int, scores)) == sum(result.points for result in before)
    assert sum(match.score.values()) > sum(map(int, scores))  # the match's score is more


def test_a_double_named_automatically_after_a_play_holds_the_position_after_the_play(
    alice, bob, monkeypatch
):
    # White opens with 1-2; only one double may then be named (as R8.2 can narrow it in
    # greek), so the server names it in the same request as the play.
    match = opened_by_white(alice, bob, dice=(5, 2, 1, 2, 3, 4, 5, 6))
    monkeypatch.setattr(game_module, "allowed_doubles", lambda position: [6])
    play = services.TurnAction(segment=match.segment_count, play="in/24 in/23")
    services.submit_segment(match.pk, user=alice, action=play)

    played, double = Segment.objects.filter(match=match).order_by("-number")[:2][::-1]
    assert (double.kind, double.automatic) == (Segment.Kind.DOUBLE, True)
    assert double.position == played.position
    assert double.position["waiting"]["white"] == 13

    # The named double's play, sent twice, is known for what it is.
    match.refresh_from_db()
    named = services.TurnAction(segment=match.segment_count, play="24/18 23/17 in/19(2)")
    services.submit_segment(match.pk, user=alice, action=named)
    assert services.already_played(match.pk, user=alice, action=named)
