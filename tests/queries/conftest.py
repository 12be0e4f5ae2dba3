"""Matches with a short and a long history, and a way to count a request's SQL queries."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import format_play
from games.models import Match
from games.services import TurnAction

SHORT = 4
LONG = 60


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
