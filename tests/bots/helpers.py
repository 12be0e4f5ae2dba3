"""Builders shared by the bot tests."""

from __future__ import annotations

import random

from games.engine import Position
from games.engine.game import Game, GameState, Phase, SegmentKind
from tests.engine.helpers import make as make  # the one position builder, shared


class SeededDice:
    """A reproducible dice source."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll_die(self) -> int:
        return self.random.randint(1, 6)


def game_at(
    position: Position,
    dice: tuple[int, int] | None,
    seed: int = 0,
    *,
    kind: SegmentKind | None = None,
) -> Game:
    """A game standing at ``position``: to play ``dice``, or to name a double if ``None``."""
    if dice is None:
        state = GameState(position, Phase.NAME_DOUBLE, None, None)
    else:
        if kind is None:
            kind = SegmentKind.ACEY_DEUCEY if sorted(dice) == [1, 2] else SegmentKind.ROLL
        state = GameState(position, Phase.PLAY, dice, kind)
    return Game(position.variant, SeededDice(seed), state=state)
