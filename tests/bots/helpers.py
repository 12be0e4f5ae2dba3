"""Builders shared by the bot tests."""

from __future__ import annotations

import random

from games.engine import Pair, Position, variant_named
from games.engine.game import Game, GameState, Phase, SegmentKind


def make(
    variant: str = "american",
    turn: str = "white",
    *,
    white: dict[int, int] | None = None,
    black: dict[int, int] | None = None,
    bar: tuple[int, int] = (0, 0),
    waiting: tuple[int, int] = (0, 0),
    named_blot: int | None = None,
) -> Position:
    """A position from absolute point -> count maps; whatever is not placed is borne off."""
    white = white or {}
    black = black or {}
    points = [0] * 24
    for point, n in white.items():
        points[point - 1] = n
    for point, n in black.items():
        points[point - 1] = -n
    off = Pair(
        15 - sum(white.values()) - bar[0] - waiting[0],
        15 - sum(black.values()) - bar[1] - waiting[1],
    )
    position = Position(
        variant_named(variant), turn, tuple(points), Pair(*bar), off, Pair(*waiting), named_blot
    )
    position.validate()
    return position


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
