"""The board: colours, variants and the immutable :class:`Position`.

Points are numbered 1-24 in absolute terms (RULES.md "Board and directions"): White moves
24 -> 1 and bears off below 1, Black moves 1 -> 24 and bears off above 24. A player reads
the board from their own side: for White own = absolute, for Black own = 25 - absolute.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, NamedTuple

from .errors import InvalidPositionError

Color = Literal["white", "black"]
WHITE: Color = "white"
BLACK: Color = "black"
COLORS: tuple[Color, Color] = (WHITE, BLACK)
CHECKERS = 15


def opponent(color: Color) -> Color:
    """The other colour."""
    return BLACK if color == WHITE else WHITE


def own_point(color: Color, absolute: int) -> int:
    """The number a player of ``color`` reads for an absolute point (1-24)."""
    return absolute if color == WHITE else 25 - absolute


def absolute_point(color: Color, own: int) -> int:
    """The absolute number of a player's own point (1-24); the inverse of :func:`own_point`."""
    return own if color == WHITE else 25 - own


class Pair(NamedTuple):
    """A count per colour: ``pair.white``, ``pair.black``, or ``pair.of(color)``."""

    white: int
    black: int

    def of(self, color: Color) -> int:
        """The count for ``color``."""
        return self.white if color == WHITE else self.black

    def replace(self, color: Color, value: int) -> Pair:
        """A copy with the count for ``color`` set to ``value``."""
        return Pair(value, self.black) if color == WHITE else Pair(self.white, value)

    def to_dict(self) -> dict[str, int]:
        return {"white": self.white, "black": self.black}


class Variant:
    """Rules that differ between variants, as hooks rather than ``if variant == ...``."""

    name: ClassVar[str]
    #: R7.2: after a 1-2, does the turn go on only if both dice were played?
    acey_deucey_needs_both_dice: ClassVar[bool]
    #: R7.5: after all four moves of a named double, does the player roll again?
    extra_roll_after_named_double: ClassVar[bool]
    #: R8: may a player name a blot the opponent must hit?
    compulsory_hit: ClassVar[bool]
    #: R1: do checkers start off the board, waiting to enter?
    has_waiting: ClassVar[bool]

    def initial_position(self, turn: Color = WHITE) -> Position:
        """The R1 starting position of a game, with ``turn`` to move."""
        raise NotImplementedError

    def game_points(self, loser_off: int) -> int:
        """R9: what the winner scores when the loser has borne off ``loser_off`` checkers."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Variants are singletons; unpickling (e.g. in a worker process) must return the same one.
        return (variant_named, (self.name,))


class American(Variant):
    """US Navy Acey-Deucey: all checkers start off the board; 1-2 earns a double and a roll."""

    name = "american"
    acey_deucey_needs_both_dice = True
    extra_roll_after_named_double = True
    compulsory_hit = False
    has_waiting = True

    def initial_position(self, turn: Color = WHITE) -> Position:
        return Position(self, turn, (0,) * 24, Pair(0, 0), Pair(0, 0), Pair(15, 15), None)

    def game_points(self, loser_off: int) -> int:
        # One point per opposing checker not borne off; a shutout therefore scores 15.
        return CHECKERS - loser_off


class Greek(Variant):
    """Greek Acey-Deucey: checkers start on the opponent's 1-point; compulsory hit (R8)."""

    name = "greek"
    acey_deucey_needs_both_dice = False
    extra_roll_after_named_double = False
    compulsory_hit = True
    has_waiting = False

    def initial_position(self, turn: Color = WHITE) -> Position:
        points = [0] * 24
        points[23] = CHECKERS  # White on absolute 24, Black's one-point
        points[0] = -CHECKERS  # Black on absolute 1, White's one-point
        return Position(self, turn, tuple(points), Pair(0, 0), Pair(0, 0), Pair(0, 0), None)

    def game_points(self, loser_off: int) -> int:
        return 1


AMERICAN = American()
GREEK = Greek()
VARIANTS: dict[str, Variant] = {AMERICAN.name: AMERICAN, GREEK.name: GREEK}


def variant_named(name: str) -> Variant:
    """The variant called ``name`` (``"american"`` or ``"greek"``)."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise InvalidPositionError(
            f"unknown variant {name!r}: expected 'american' or 'greek'"
        ) from None


class Position(NamedTuple):
    """One moment of a game: where every checker is and who is to move.

    Immutable and hashable. ``points[i]`` is absolute point ``i + 1``: positive counts are
    White checkers, negative counts Black ones. ``named_blot`` is the absolute point of the
    blot named under R8 by the player who is *not* to move, or ``None``.

    >>> p = Position.initial("american")
    >>> p.waiting
    Pair(white=15, black=15)
    >>> Position.from_dict(p.to_dict()) == p
    True
    """

    variant: Variant
    turn: Color
    points: tuple[int, ...]
    bar: Pair
    off: Pair
    waiting: Pair
    named_blot: int | None = None

    @classmethod
    def initial(cls, variant: str | Variant, turn: Color = WHITE) -> Position:
        """The R1 starting position of ``variant`` with ``turn`` to move."""
        if isinstance(variant, str):
            variant = variant_named(variant)
        return variant.initial_position(turn)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """Read the RULES.md "Position format" dict, checking every invariant.

        Raises :class:`InvalidPositionError` with a readable reason on bad data.
        """
        if not isinstance(data, Mapping):
            raise InvalidPositionError("a position must be a JSON object")
        expected = {"variant", "turn", "points", "bar", "off", "waiting", "named_blot"}
        missing = expected - data.keys()
        extra = data.keys() - expected
        if missing:
            raise InvalidPositionError(f"position is missing {', '.join(sorted(missing))}")
        if extra:
            raise InvalidPositionError(f"position has unknown keys {', '.join(sorted(extra))}")
        if not isinstance(data["variant"], str):
            raise InvalidPositionError("variant must be 'american' or 'greek'")
        variant = variant_named(data["variant"])
        turn = data["turn"]
        if turn not in COLORS:
            raise InvalidPositionError("turn must be 'white' or 'black'")
        points = data["points"]
        if not isinstance(points, list | tuple) or len(points) != 24:
            raise InvalidPositionError("points must be a list of 24 integers")
        if not all(_is_int(n) for n in points):
            raise InvalidPositionError("points must be a list of 24 integers")
        position = cls(
            variant,
            turn,
            tuple(points),
            _read_pair(data, "bar"),
            _read_pair(data, "off"),
            _read_pair(data, "waiting"),
            data["named_blot"],
        )
        position.validate()
        return position

    def validate(self) -> None:
        """Raise :class:`InvalidPositionError` unless every RULES.md invariant holds."""
        for color in COLORS:
            total = (
                self.board_count(color)
                + self.bar.of(color)
                + self.off.of(color)
                + self.waiting.of(color)
            )
            if total != CHECKERS:
                raise InvalidPositionError(
                    f"{color} has {total} checkers (board, bar, off and waiting must sum to 15)"
                )
        if self.variant is GREEK and (self.waiting.white or self.waiting.black):
            raise InvalidPositionError("greek has no waiting checkers: waiting must be 0")
        blot = self.named_blot
        if blot is not None:
            if self.variant is AMERICAN:
                raise InvalidPositionError("named_blot must be null in american (R8.5)")
            if not _is_int(blot) or not 1 <= blot <= 24:
                raise InvalidPositionError("named_blot must be a point from 1 to 24, or null")

    def to_dict(self) -> dict[str, Any]:
        """The RULES.md "Position format" dict (JSON-ready)."""
        return {
            "variant": self.variant.name,
            "turn": self.turn,
            "points": list(self.points),
            "bar": self.bar.to_dict(),
            "off": self.off.to_dict(),
            "waiting": self.waiting.to_dict(),
            "named_blot": self.named_blot,
        }

    # -- reading the board -------------------------------------------------------------

    def board_count(self, color: Color) -> int:
        """How many of ``color``'s checkers stand on points 1-24."""
        if color == WHITE:
            return sum(n for n in self.points if n > 0)
        return -sum(n for n in self.points if n < 0)

    def checkers_at(self, color: Color, own: int) -> int:
        """How many of ``color``'s checkers stand on that player's own point ``own``."""
        n = self.points[absolute_point(color, own) - 1]
        return n if color == WHITE else -n

    def pip_count(self, color: Color) -> int:
        """Pips ``color`` needs to bear everything off; bar and waiting checkers count 25."""
        pips = 25 * (self.bar.of(color) + self.waiting.of(color))
        for index, n in enumerate(self.points):
            if color == WHITE and n > 0:
                pips += n * (index + 1)
            elif color == BLACK and n < 0:
                pips += -n * (24 - index)
        return pips

    def is_blot_of(self, color: Color, absolute: int) -> bool:
        """Does absolute point ``absolute`` hold exactly one checker of ``color``?"""
        n = self.points[absolute - 1]
        return n == (1 if color == WHITE else -1)

    def blots(self, color: Color) -> list[int]:
        """Absolute points holding exactly one checker of ``color``."""
        one = 1 if color == WHITE else -1
        return [i + 1 for i, n in enumerate(self.points) if n == one]

    @property
    def winner(self) -> Color | None:
        """The colour that has borne off all 15 checkers, if any."""
        if self.off.white == CHECKERS:
            return WHITE
        if self.off.black == CHECKERS:
            return BLACK
        return None

    @property
    def is_game_over(self) -> bool:
        return self.winner is not None

    @property
    def obligation(self) -> int | None:
        """The absolute point of a named blot the mover must hit (R8), if it binds at all.

        A naming of a point that does not hold exactly one of the opponent's checkers
        creates no obligation (R8.5).
        """
        blot = self.named_blot
        if blot is None or not self.variant.compulsory_hit:
            return None
        return blot if self.is_blot_of(opponent(self.turn), blot) else None

    # -- derived positions -------------------------------------------------------------

    def with_turn(self, turn: Color) -> Position:
        return self._replace(turn=turn)

    def with_named_blot(self, absolute: int | None) -> Position:
        """A copy in which the player not to move has named the blot on ``absolute``.

        Raises :class:`InvalidPositionError` if the variant has no compulsory hit or the
        point does not hold exactly one of that player's checkers (R8.1, R8.5).
        """
        if absolute is None:
            return self._replace(named_blot=None)
        namer = opponent(self.turn)
        if not self.variant.compulsory_hit:
            raise InvalidPositionError("only greek has named blots (R8)")
        if not _is_int(absolute) or not 1 <= absolute <= 24:
            raise InvalidPositionError("a named blot must be a point from 1 to 24")
        if not self.is_blot_of(namer, absolute):
            raise InvalidPositionError(
                f"your {own_point(namer, absolute)}-point does not hold exactly one of your"
                " checkers, so it cannot be named"
            )
        return self._replace(named_blot=absolute)

    def _counts_line(self, mark: str, color: Color) -> str:
        # No "waiting" in the greek game, which has no waiting checkers (R1).
        waiting = f"waiting {self.waiting.of(color)}, " if self.variant.has_waiting else ""
        return (
            f"{mark} ({color}): bar {self.bar.of(color)}, off {self.off.of(color)}, "
            f"{waiting}pips {self.pip_count(color)}"
        )

    def diagram(self, viewer: Color = WHITE) -> str:
        """A small text drawing of the board seen from ``viewer``'s side (for emails, logs).

        Top row: the viewer's points 13-24; bottom row: 12-1. ``X`` are the viewer's
        checkers, ``O`` the opponent's; a number is shown when more than one stands there.
        """
        other = opponent(viewer)

        def cell(own: int) -> str:
            mine = self.checkers_at(viewer, own)
            # The same point is the opponent's 25 - own: they number it from their side.
            # One point never holds both colours (a landing hits or is blocked).
            theirs = self.checkers_at(other, 25 - own)
            if mine > 0:
                return f"{mine}X".rjust(3)
            if theirs > 0:
                return f"{theirs}O".rjust(3)
            return "  ."

        top = "".join(f"{n:>3}" for n in range(13, 25))
        bottom = "".join(f"{n:>3}" for n in range(12, 0, -1))
        lines = [
            top,
            "".join(cell(n) for n in range(13, 25)),
            "".join(cell(n) for n in range(12, 0, -1)),
            bottom,
            self._counts_line("X", viewer),
            self._counts_line("O", other),
        ]
        return "\n".join(lines)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_pair(data: Mapping[str, Any], key: str) -> Pair:
    value = data[key]
    if (
        not isinstance(value, Mapping)
        or set(value.keys()) != {"white", "black"}
        or not all(_is_int(v) and v >= 0 for v in value.values())
    ):
        raise InvalidPositionError(
            f"{key} must be an object {{'white': n, 'black': n}} with counts of 0 or more"
        )
    return Pair(value["white"], value["black"])
