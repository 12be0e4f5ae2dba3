"""The bot interface and the helper that lets a bot play a game's current decision."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from games.engine import Color, Play, Position, own_point
from games.engine.game import Game, Phase, SegmentKind


class Bot(ABC):
    """A computer player. Every choice is made among the legal options it is given.

    Subclasses set :attr:`name` and implement the three decisions; a bot may keep a
    seeded :class:`random.Random` (``self.random``) but no other game state is needed.
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.random = random.Random(seed)

    @abstractmethod
    def choose_play(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        named_double: bool,
        plays: list[Play],
    ) -> Play:
        """One of ``plays`` (the legal plays of this segment, never empty)."""

    @abstractmethod
    def choose_double(self, position: Position, allowed: list[int]) -> int:
        """After a 1-2 segment: one of ``allowed`` (the doubles R7.3 / R8.2 permit)."""

    @abstractmethod
    def choose_blot(self, position_after: Position, mover: Color) -> int | None:
        """Greek, at the end of a turn: one of ``mover``'s own blots in ``position_after``
        to name (R8.1), as ``mover``'s own point number, or ``None``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


def own_blots(position: Position, color: Color) -> list[int]:
    """``color``'s blots in ``position`` as that player's own point numbers."""
    return [own_point(color, absolute) for absolute in position.blots(color)]


def play_turn_segment(game: Game, bot: Bot) -> None:
    """Make ``bot``'s decision for the game's current phase through the engine API.

    In the ``name_double`` phase the bot names one of the allowed doubles; in the ``play``
    phase it picks one of the legal plays and, when the segment ends a greek turn, may
    name one of its blots. Raises ``ValueError`` if the game is over.
    """
    if game.phase is Phase.FINISHED:
        raise ValueError("the game is over")
    if game.phase is Phase.NAME_DOUBLE:
        allowed = game.allowed_doubles()
        value = bot.choose_double(game.position, allowed)
        if value not in allowed:
            raise ValueError(f"{bot!r} named {value}-{value}, not one of {allowed}")
        game.name_double(value)
        return
    plays = game.legal_plays()
    dice = game.dice
    assert dice is not None
    named_double = game.kind is SegmentKind.NAMED_DOUBLE
    play = bot.choose_play(game.position, dice, named_double=named_double, plays=plays)
    if play not in plays:
        raise ValueError(f"{bot!r} chose {play!r}, which is not a legal play")
    blot = None
    mover = game.position.turn
    if game.may_name_blot:
        after = play.result
        if after.turn != mover and not after.is_game_over:
            blot = bot.choose_blot(after, mover)
            if blot is not None and blot not in own_blots(after, mover):
                raise ValueError(f"{bot!r} named {blot}, which is not one of its blots")
    game.play(play, name_blot=blot)


class RandomBot(Bot):
    """Uniformly random legal choices (a baseline for benchmarks, not offered on the site)."""

    name = "random"

    def choose_play(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        named_double: bool,
        plays: list[Play],
    ) -> Play:
        return self.random.choice(plays)

    def choose_double(self, position: Position, allowed: list[int]) -> int:
        return self.random.choice(allowed)

    def choose_blot(self, position_after: Position, mover: Color) -> int | None:
        blots = own_blots(position_after, mover)
        if blots and self.random.random() < 0.3:
            return self.random.choice(blots)
        return None
