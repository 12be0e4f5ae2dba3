"""The beginner's randomness comes only from its seed."""

from __future__ import annotations

from games.bots import make_bot, play_turn_segment
from games.engine import legal_plays
from games.engine.game import Game, Phase

from .helpers import SeededDice, make


def record(seed: int, dice_seed: int = 9) -> list[object]:
    game = Game("greek", SeededDice(dice_seed))
    bots = {"white": make_bot("beginner", seed), "black": make_bot("beginner", seed + 1)}
    while game.phase is not Phase.FINISHED:
        play_turn_segment(game, bots[game.to_move])
    return game.events


def test_beginner_is_deterministic_for_a_seed() -> None:
    assert record(3) == record(3)


def test_beginner_depends_on_its_seed() -> None:
    assert record(3) != record(4)


def test_beginner_is_loose_but_not_random() -> None:
    # The same position and dice, asked many times with different seeds, get several
    # answers, and the best-looking play is the most frequent one.
    position = make(white={24: 2, 13: 5, 8: 3, 6: 5}, black={1: 2, 12: 5, 17: 3, 19: 5})
    plays = legal_plays(position, (3, 1))
    chosen = [
        make_bot("beginner", seed).choose_play(position, (3, 1), named_double=False, plays=plays)
        for seed in range(100)
    ]
    assert len(set(chosen)) > 1
    point_on_five = next(p for p in plays if p.result.points[4] == 2)
    assert max(set(chosen), key=chosen.count) == point_on_five
