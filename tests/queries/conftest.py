"""Matches with a short or long history or several games; counting a request's SQL queries."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import format_play
from games.engine.game import ScriptedDice
from games.models import Match
from games.services import TurnAction
from tests.matches import opened_by_white

SHORT = 4
LONG = 60
WHITE_STARTS = [5, 2, 6, 3]  # an opening roll white wins, then white's 6-3
BLACK_STARTS = [2, 5, 6, 3]


def play_first_legal(match: Match) -> Match:
    """The player to move plays the first legal play (6-6 when naming a double)."""
    match.refresh_from_db()
    if match.phase == "name_double":
        action = TurnAction(segment=match.segment_count, double=6)
    else:
        play = services.load_game(match).legal_plays()[0]
        action = TurnAction(segment=match.segment_count, play=format_play(play))
    return services.submit_segment(match.pk, user=match.to_move, action=action)


def played(white, black, *, segments: int) -> Match:
    """A match between ``white`` and ``black`` with at least ``segments`` stored segments,
    its player to move facing dice to play."""
    match = services.start_match(
        white=white, black=black, variant="american", points=7, days_per_move=2
    )
    while match.segment_count < segments or match.phase != "play":
        match = play_first_legal(match)
    assert match.is_active
    return match


def play(match: Match, user, text: str, dice: list[int]) -> Match:
    action = TurnAction(segment=match.segment_count, play=text)
    return services.submit_segment(match.pk, user=user, action=action, dice=ScriptedDice(dice))


def end_game(match: Match, *, loser_off: int, then: list[int]) -> Match:
    """The player to move wins the game: it is given a last checker on its 1-point, which
    it bears off, the loser having borne off ``loser_off`` (american: 15 - that in points).
    ``then`` are the dice of the next game's opening and first roll."""
    mover = match.color_of(match.to_move)
    points = [0] * 24
    if mover == "white":
        points[0], points[23] = 1, -(15 - loser_off)  # white's 1-point, black's 1-point
    else:
        points[23], points[0] = -1, 15 - loser_off
    loser = "black" if mover == "white" else "white"
    match.position = {
        **match.position,
        "points": points,
        "bar": {"white": 0, "black": 0},
        "off": {mover: 14, loser: loser_off},
        "waiting": {"white": 0, "black": 0},
    }
    match.save()
    return play(match, match.to_move, "1/off", then)


def three_games(alice, bob) -> Match:
    """Game 1 (segments 1-4): two turns each way, then alice wins 3 points. Game 2
    (segments 5-6): bob wins 1 point. Game 3 (segment 7 on): alice to move with 6-3."""
    match = opened_by_white(alice, bob, points=25)
    match = play(match, alice, "in/22 in/19", [4, 1])
    match = play(match, bob, "in/24 in/21", [6, 5])
    match = end_game(match, loser_off=12, then=BLACK_STARTS)
    match = end_game(match, loser_off=14, then=WHITE_STARTS)
    assert (match.game_number, match.segment_count, match.to_move) == (3, 7, alice)
    return match


@pytest.fixture
def short_match(alice, bob) -> Match:
    return played(alice, bob, segments=SHORT)


@pytest.fixture
def long_match(alice, bob) -> Match:
    return played(alice, bob, segments=LONG)


def count_queries(request: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as queries:
        request()
    return len(queries)


def get_ok(client: Client, url: str, **headers: str) -> Callable[[], object]:
    def get() -> None:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, response.content[:500]

    return get
