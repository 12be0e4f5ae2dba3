"""The compact board and the static evaluation."""

from __future__ import annotations

import random

from games.bots.board import board_after, continues_turn, flip, side_board
from games.bots.evaluate import ESCAPES, Evaluator
from games.engine import legal_plays, opponent
from games.engine.game import Game, Phase

from .helpers import SeededDice, make


def sample_plays(variant: str, seed: int, every: int = 3):
    """(play, named_double) pairs met in a random game."""
    rng = random.Random(seed)
    game = Game(variant, SeededDice(seed))
    found = []
    while game.phase is not Phase.FINISHED:
        if game.phase is Phase.NAME_DOUBLE:
            game.name_double(rng.choice(game.allowed_doubles()))
            continue
        plays = game.legal_plays()
        named = game.kind == "named_double"
        if len(found) % every == 0:
            found += [(p, named) for p in plays[:5]]
        game.play(rng.choice(plays))
    return found


def test_board_after_matches_the_result_position() -> None:
    for variant in ("american", "greek"):
        for play, named in sample_plays(variant, 1):
            assert board_after(play) == side_board(play.result, play.mover)
            assert (
                continues_turn(play, named_double=named)
                == (play.result.turn == play.mover and not play.result.is_game_over)
                or not named
            )  # legal_plays without the flag builds results as a roll


def test_continues_turn_matches_the_engine_for_named_doubles() -> None:
    position = make(white={13: 4}, waiting=(11, 15))
    for play in legal_plays(position, (3, 3), named_double=True):
        assert continues_turn(play, named_double=True) == (play.result.turn == "white")
    for play in legal_plays(position, (1, 2)):
        assert continues_turn(play, named_double=False) == (play.result.turn == "white")


def test_flip_is_the_other_side_view() -> None:
    for play, _ in sample_plays("american", 2, every=10):
        position = play.result
        for color in ("white", "black"):
            assert flip(side_board(position, color)) == side_board(position, opponent(color))


def test_evaluation_is_antisymmetric() -> None:
    evaluator = Evaluator()
    for variant in ("american", "greek"):
        for play, _ in sample_plays(variant, 3, every=10):
            s = side_board(play.result, "white")
            for on_roll in (True, False):
                mine = evaluator.value(s, on_roll=on_roll)
                theirs = evaluator.value(flip(s), on_roll=not on_roll)
                assert abs(mine + theirs) < 1e-9
                assert -1 <= mine <= 1


def test_escapes_count_rolls_past_a_blockade() -> None:
    assert ESCAPES[0] == 36
    assert ESCAPES[0b111111] == 0  # a full prime
    assert ESCAPES[0b11111] == 11  # five points: only a 6 jumps out
    assert ESCAPES[1 << 5] == 20


def shots(blot: int, sources: list[int], blocked: int = 0, bar: int = 0) -> int:
    """How many of the 36 rolls hit a lone blot (the loss is set to one per roll)."""
    evaluator = Evaluator()
    unit = 1 / ((25 - blot) * evaluator.weights.hit_pips)  # makes the loss hit_base + 1
    risk = evaluator._risk([blot], blocked, sources, bar, 0, 0, unit, None)
    return round(risk * 36 / (evaluator.weights.hit_base + 1))


def test_blot_shots_count_direct_and_indirect_rolls() -> None:
    # 6 away: the 17 rolls of backgammon plus the 1-2 (any double may be named after it).
    assert shots(10, [4]) == 19
    # Blocking the points 2 and 3 ahead leaves 6s, 5-1, 4-2 (via 8) and 1-2: 11 + 2 + 2 + 2.
    assert shots(10, [4], blocked=(1 << 6) | (1 << 7)) == 17
    # 12 away: 6-6, 4-4, 3-3 and the 1-2; 13 away: nothing.
    assert shots(16, [4]) == 5
    assert shots(17, [4]) == 0
    # Out of reach: nothing behind the blot.
    assert shots(3, [4]) == 0
    # Two attackers on the bar: only direct entering hits (any 5 for a blot on 5).
    assert shots(5, [], bar=2) == 11 + 2


def test_a_named_blot_takes_the_hit_for_a_costlier_one() -> None:
    # greek: White blots on 20 (cheap to lose: Black's 5-point) and 9 (costly); Black's
    # checkers on 14 and 15 aim at the 20, those on 1 at the 9. Naming the 20 diverts the
    # rolls that hit both to the cheaper blot.
    evaluator = Evaluator()
    position = make(
        "greek",
        white={20: 1, 9: 1, 6: 5, 5: 4, 4: 4},
        black={14: 2, 15: 2, 1: 11},
        turn="black",
    )
    s = side_board(position, "white")
    plain = evaluator.value(s, on_roll=False)
    assert evaluator.value(s, on_roll=False, named=20) > plain
