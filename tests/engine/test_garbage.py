"""The engine leaves no reference cycles behind: what a search builds is freed as soon as
it is done with, not left for the garbage collector (whose collections a turn pays for)."""

from __future__ import annotations

import gc
import random
from functools import cache

import pytest

from games.engine import legal_plays, variant_named
from games.engine.game import Game

from .helpers import make, play_random_game

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


@cache
def positions() -> tuple:
    """The starting positions, a greek position with a blot named, and positions from a
    seeded random game of each variant."""
    found = [
        variant_named("american").initial_position(),
        variant_named("greek").initial_position(),
        make("greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14}, named_blot=7),
    ]
    for variant in ("american", "greek"):
        found += play_random_game(Game(variant), random.Random(7))[::15]
    return tuple(found)


@pytest.mark.parametrize("dice", ROLLS, ids=[f"{a}-{b}" for a, b in ROLLS])
def test_legal_plays_leave_no_garbage_for_the_collector(dice):
    every = positions()
    gc.collect()
    gc.disable()  # so that nothing is collected before it is counted
    try:
        for position in every:
            legal_plays(position, dice)
        assert gc.collect() == 0
    finally:
        gc.enable()
