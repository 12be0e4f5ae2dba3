"""Small builders shared by the engine tests."""

from __future__ import annotations

import random

from games.engine import Pair, Position, format_play, legal_plays, variant_named
from games.engine.game import Game, Phase


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


def notations(position: Position, dice: tuple[int, int], **kwargs: bool) -> set[str]:
    return {format_play(p) for p in legal_plays(position, dice, **kwargs)}


class SeededDice:
    """A reproducible dice source for tests."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll_die(self) -> int:
        return self.random.randint(1, 6)


def play_random_game(game: Game, rng: random.Random, *, name_blots: bool = True) -> list[Position]:
    """Play ``game`` to the end with random legal choices; return every position seen."""
    seen = [game.position]
    while game.phase is not Phase.FINISHED:
        if game.phase is Phase.NAME_DOUBLE:
            game.name_double(rng.choice(game.allowed_doubles()))
            continue
        play = rng.choice(game.legal_plays())
        named = None
        mover = game.position.turn
        if name_blots and game.may_name_blot and not play.result.is_game_over:
            blots = play.result.blots(mover)
            if blots and rng.random() < 0.5:
                absolute = rng.choice(blots)
                named = absolute if mover == "white" else 25 - absolute
        game.play(play, name_blot=named)
        seen.append(game.position)
    return seen
