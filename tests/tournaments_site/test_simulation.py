"""Whole tournaments played out through the site with random results (resignations of a
random player), then checked against the invariants in helpers.check_invariants."""

from __future__ import annotations

import random
import re

import pytest

from games.tournaments.brackets import Format

from .helpers import check_invariants, make_users, play_out, started_tournament

pytestmark = pytest.mark.django_db

FORMATS = [kind.value for kind in Format]


@pytest.mark.parametrize("count", range(2, 10))
@pytest.mark.parametrize("format", FORMATS)
def test_it_plays_a_whole_tournament_to_one_champion(format, count):
    organiser, *players = make_users(count + 1)
    tournament = started_tournament(organiser, players, format=format)

    play_out(tournament, random.Random(f"{format}-{count}"))

    check_invariants(tournament)


@pytest.mark.parametrize(
    ("format", "count"),
    [
        (Format.SINGLE_ELIMINATION, 16),
        (Format.SINGLE_ELIMINATION, 33),
        (Format.DOUBLE_ELIMINATION, 16),
        (Format.SWISS, 16),
        (Format.SWISS, 33),
    ],
)
def test_it_plays_a_large_tournament_to_one_champion(format, count):
    organiser, *players = make_users(count + 1)
    tournament = started_tournament(organiser, players, format=format)

    play_out(tournament, random.Random(f"{format}-{count}"))

    check_invariants(tournament)


@pytest.mark.parametrize("count", [3, 5, 8])
@pytest.mark.parametrize("format", FORMATS)
def test_it_plays_a_whole_tournament_with_withdrawals(client, format, count):
    organiser, *players = make_users(count + 1)
    tournament = started_tournament(organiser, players, format=format)

    withdrawn = play_out(
        tournament, random.Random(f"withdrawals-{format}-{count}"), withdrawals=count // 2
    )

    assert withdrawn
    check_invariants(tournament, withdrawn=withdrawn)
    page = client.get(tournament.get_absolute_url()).text
    if format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION):
        # Everyone placed, the withdrawn too, by the round they went out in.
        placings = re.search(r'<table class="standings placings">.*?</table>', page, re.S)
        assert placings and placings.group(0).count("<tr>") == count + 1  # and the head
