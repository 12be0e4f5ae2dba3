"""One game as a turn state machine (RULES.md R1, R7, R8) and where its dice come from.

A turn is a sequence of *segments*, each stored on its own: a normal roll; or the 1-2
segment, then naming a double, then the named-double segment and (american, all four
played) a new roll. :class:`Game` walks that sequence, rolling dice from an injectable
:class:`DiceSource` only after the previous segment has been applied.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple, Protocol

from .errors import BlotNamingError, IllegalActionError, IllegalPlayError
from .moves import Play, Step, allowed_doubles, legal_plays
from .notation import format_steps
from .position import BLACK, WHITE, Color, Position, Variant, own_point, variant_named


class DiceSource(Protocol):
    """Anything that rolls one fair die."""

    def roll_die(self) -> int: ...


class SystemDice:
    """The default source: the operating system's CSPRNG (``secrets.SystemRandom``)."""

    def __init__(self) -> None:
        self._random = secrets.SystemRandom()

    def roll_die(self) -> int:
        return self._random.randint(1, 6)


class ScriptedDice:
    """Dice given in advance, for tests and for replaying a record.

    >>> dice = ScriptedDice([6, 3])
    >>> dice.roll_die(), dice.roll_die()
    (6, 3)
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values: Iterator[int] = iter(values)

    def roll_die(self) -> int:
        try:
            value = next(self._values)
        except StopIteration:
            raise IllegalActionError("the scripted dice have run out") from None
        if not 1 <= value <= 6:
            raise IllegalActionError(f"a die shows 1 to 6, not {value}")
        return value


class Phase(StrEnum):
    PLAY = "play"  # dice are known; the mover plays them
    NAME_DOUBLE = "name_double"  # after a 1-2 segment (R7.3)
    FINISHED = "finished"


class SegmentKind(StrEnum):
    ROLL = "roll"  # a rolled pair, doubles included
    ACEY_DEUCEY = "acey_deucey"  # the 1-2 segment (R7.1)
    NAMED_DOUBLE = "named_double"  # four moves of the named number (R7.4)


@dataclass(frozen=True)
class OpeningRoll:
    """R1: each player rolls one die; a tie is recorded and rolled again."""

    white: int
    black: int

    @property
    def winner(self) -> Color | None:
        if self.white == self.black:
            return None
        return WHITE if self.white > self.black else BLACK


@dataclass(frozen=True)
class DoubleNamed:
    """R7.3: after a 1-2 the mover names a double."""

    player: Color
    value: int


@dataclass(frozen=True)
class SegmentPlayed:
    """One dice segment as played, and the position after it (with any R8 naming)."""

    player: Color
    kind: SegmentKind
    dice: tuple[int, int]
    steps: tuple[Step, ...]
    named_blot: int | None  # the mover's own point named under R8, if any
    position: Position

    @property
    def notation(self) -> str:
        """The canonical play; the empty string for a dance."""
        return format_steps(self.steps)


Event = OpeningRoll | DoubleNamed | SegmentPlayed


class GameState(NamedTuple):
    """All a game needs to go on: store it and a game can continue without its history."""

    position: Position
    phase: Phase
    dice: tuple[int, int] | None
    kind: SegmentKind | None


@lru_cache(maxsize=16)
def _legal_plays(position: Position, dice: tuple[int, int], named_double: bool) -> tuple[Play, ...]:
    # A turn asks for the same segment's plays several times, from different Game objects:
    # to check the play sent, to see whether the next segment is forced, and to list the
    # next segment's plays in the answer. Positions and plays are immutable, so a few
    # recent answers are kept rather than generated again.
    return tuple(legal_plays(position, dice, named_double=named_double))


class Game:
    """One game from the opening roll to the last checker borne off.

    >>> game = Game("american", ScriptedDice([5, 2, 6, 3, 4, 1]))
    >>> game.to_move, game.dice, game.phase
    ('white', (6, 3), <Phase.PLAY: 'play'>)
    >>> event = game.play(game.legal_plays()[0])
    >>> game.to_move, game.dice
    ('black', (4, 1))
    """

    def __init__(
        self,
        variant: str | Variant,
        dice: DiceSource | None = None,
        *,
        state: GameState | None = None,
    ) -> None:
        self.variant = variant_named(variant) if isinstance(variant, str) else variant
        self.dice_source: DiceSource = dice if dice is not None else SystemDice()
        self.events: list[Event] = []
        if state is None:
            self._open()
        else:
            self.state = state

    # -- state ------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.state.position

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice of the segment to play (the named double in its segment)."""
        return self.state.dice

    @property
    def kind(self) -> SegmentKind | None:
        return self.state.kind

    @property
    def to_move(self) -> Color | None:
        return None if self.phase is Phase.FINISHED else self.position.turn

    @property
    def winner(self) -> Color | None:
        return self.position.winner

    @property
    def points(self) -> int:
        """What the winner scores (R9); 0 while the game is on."""
        winner = self.winner
        if winner is None:
            return 0
        loser = BLACK if winner == WHITE else WHITE
        return self.variant.game_points(self.position.off.of(loser))

    def legal_plays(self) -> list[Play]:
        """The legal plays of the current segment (empty unless the phase is ``play``)."""
        if self.phase is not Phase.PLAY or self.dice is None:
            return []
        return list(_legal_plays(self.position, self.dice, self.kind is SegmentKind.NAMED_DOUBLE))

    def forced_play(self) -> Play | None:
        """The only legal play, when there is exactly one (a dance included)."""
        plays = self.legal_plays()
        return plays[0] if len(plays) == 1 else None

    def allowed_doubles(self) -> list[int]:
        """Doubles the mover may name now (R7.3; R8.2 may narrow them in greek)."""
        if self.phase is not Phase.NAME_DOUBLE:
            return []
        return allowed_doubles(self.position)

    @property
    def may_name_blot(self) -> bool:
        """Does the segment to play end a greek turn, so that a blot may be named (R8.1)?"""
        return (
            self.phase is Phase.PLAY
            and self.variant.compulsory_hit
            and self.kind is not SegmentKind.ACEY_DEUCEY
        )

    # -- actions ----------------------------------------------------------------------

    def play(self, play: Play | str, *, name_blot: int | None = None) -> SegmentPlayed:
        """Play the current segment: a :class:`Play` from :meth:`legal_plays` (or one from
        :func:`~games.engine.notation.parse_play`, its steps in the player's order) or
        notation.

        ``name_blot`` is a greek player's own point naming one of their blots at the end of
        the turn (R8.1). Raises :class:`IllegalPlayError` with a readable reason.
        """
        if self.phase is not Phase.PLAY:
            raise IllegalActionError(
                "the game is over" if self.phase is Phase.FINISHED else "name a double first"
            )
        plays = self.legal_plays()
        chosen = self._choose(play, plays)
        mover = self.position.turn
        after = chosen.result
        if name_blot is not None:
            after = self._named(after, mover, name_blot)
        assert self.dice is not None and self.kind is not None
        event = SegmentPlayed(mover, self.kind, self.dice, chosen.steps, name_blot, after)
        # Roll the next dice before changing anything, so a failing dice source leaves
        # the game exactly as it was.
        state = self._next_state(after, mover)
        self.events.append(event)
        self.state = state
        return event

    def name_double(self, value: int) -> DoubleNamed:
        """Name the double to play after a 1-2 (R7.3)."""
        if self.phase is not Phase.NAME_DOUBLE:
            raise IllegalActionError("a double can only be named right after a 1-2")
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise IllegalActionError("name a double from 1-1 to 6-6")
        if value not in self.allowed_doubles():
            point = own_point(self.position.turn, self.position.obligation or 0)
            raise IllegalPlayError(
                f"{value}-{value} cannot hit the named blot on your {point}-point, and another"
                " double can: name one that hits (R8.2)"
            )
        event = DoubleNamed(self.position.turn, value)
        self.events.append(event)
        self.state = GameState(self.position, Phase.PLAY, (value, value), SegmentKind.NAMED_DOUBLE)
        return event

    # -- internals --------------------------------------------------------------------

    def _open(self) -> None:
        while True:
            opening = OpeningRoll(self.dice_source.roll_die(), self.dice_source.roll_die())
            self.events.append(opening)
            if opening.winner is not None:
                break
        self.state = self._roll(self.variant.initial_position(opening.winner))

    def _roll(self, position: Position) -> GameState:
        dice = (self.dice_source.roll_die(), self.dice_source.roll_die())
        kind = SegmentKind.ACEY_DEUCEY if sorted(dice) == [1, 2] else SegmentKind.ROLL
        return GameState(position, Phase.PLAY, dice, kind)

    def _next_state(self, after: Position, mover: Color) -> GameState:
        if after.is_game_over:
            return GameState(after, Phase.FINISHED, None, None)
        if after.turn == mover and self.kind is SegmentKind.ACEY_DEUCEY:
            return GameState(after, Phase.NAME_DOUBLE, None, None)
        # Either the turn passed, or an american named double earned a new roll (R7.5).
        return self._roll(after)

    def _choose(self, play: Play | str, plays: list[Play]) -> Play:
        if isinstance(play, str):
            from .notation import parse_play

            return parse_play(self.position, self.dice or (0, 0), play, plays=plays)
        for candidate in plays:
            if candidate == play:
                # The same play (R5.4), as given: parse_play's keeps the dice the player
                # moved each checker by, which the history shows.
                return play
        raise IllegalPlayError("that play is not legal with these dice")

    def _named(self, after: Position, mover: Color, own: int) -> Position:
        if not self.may_name_blot or after.turn == mover:
            raise BlotNamingError("a blot can only be named at the end of a greek turn")
        if after.is_game_over:
            raise BlotNamingError("this play ends the game: there is no blot to name")
        if not isinstance(own, int) or isinstance(own, bool) or not 1 <= own <= 24:
            raise BlotNamingError("name a blot by your point number, 1 to 24")
        absolute = own if mover == WHITE else 25 - own
        if not after.is_blot_of(mover, absolute):
            raise BlotNamingError(
                f"you can only name a blot: your {own}-point will not hold exactly one checker"
            )
        return after._replace(named_blot=absolute)
