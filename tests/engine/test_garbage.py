"""The engine leaves no reference cycles behind: what a search builds is freed as soon as
it is done with, not left for the garbage collector (whose collections a turn pays for)."""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import legal_plays, variant_named
from games.engine.game import Game

from .helpers import make, play_random_game

REPOSITORY = Path(__file__).resolve().parents[2]
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def positions() -> list:
    """The starting positions, a greek position with a blot named, and positions from a
    seeded random game of each variant."""
    found = [
        variant_named("american").initial_position(),
        variant_named("greek").initial_position(),
        make("greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14}, named_blot=7),
    ]
    for variant in ("american", "greek"):
        found += play_random_game(Game(variant), random.Random(7))[::15]
    return found


def garbage_by_roll() -> dict[str, int]:
    """For each roll, how many objects the collector finds after ``legal_plays`` of it
    in every position: what it left in reference cycles."""
    every = positions()
    found = {}
    for a, b in ROLLS:
        gc.collect()
        gc.disable()  # so that nothing is collected before it is counted
        try:
            for position in every:
                legal_plays(position, (a, b))
            found[f"{a}-{b}"] = gc.collect()
        finally:
            gc.enable()
    return found


@pytest.fixture(scope="module")
def garbage() -> dict[str, int]:
    # Counted in a process of its own: the collector counts every thread's garbage, and
    # in the suite's process a live server's thread may be answering a browser meanwhile.
    program = (
        "import json\n"
        "from tests.engine.test_garbage import garbage_by_roll\n"
        "print(json.dumps(garbage_by_roll()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=REPOSITORY, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("dice", ROLLS, ids=[f"{a}-{b}" for a, b in ROLLS])
def test_legal_plays_leave_no_garbage_for_the_collector(garbage, dice):
    assert garbage[f"{dice[0]}-{dice[1]}"] == 0
