"""A compact board seen from one side: the bots' working representation.

A *side board* is a tuple of 30 integers seen from one player ("me"):

* ``s[0]``        my borne-off checkers
* ``s[1..24]``    my own points: positive = my checkers, negative = the opponent's
* ``s[25]``       my bar, ``s[26]`` my waiting checkers (american)
* ``s[27]``       the opponent's bar, ``s[28]`` their borne-off, ``s[29]`` their waiting

The first 28 entries are exactly the engine's key of a play (see ``games.engine.moves``),
so the board after a play is the play's key plus two counts the play cannot change;
evaluating thousands of plays then never builds a :class:`Position`.
"""

from __future__ import annotations

from games.engine import WHITE, Color, Play, Position, opponent

SideBoard = tuple[int, ...]

MY_OFF, MY_BAR, MY_WAITING, OPP_BAR, OPP_OFF, OPP_WAITING = 0, 25, 26, 27, 28, 29
SIZE = 30


def side_board(position: Position, me: Color) -> SideBoard:
    """The position seen from ``me`` (whoever is to move)."""
    other = opponent(me)
    if me == WHITE:
        points = position.points
    else:
        points = tuple(-n for n in reversed(position.points))
    return (
        position.off.of(me),
        *points,
        position.bar.of(me),
        position.waiting.of(me),
        position.bar.of(other),
        position.off.of(other),
        position.waiting.of(other),
    )


def flip(s: SideBoard) -> SideBoard:
    """The same board seen from the other player."""
    return (
        s[OPP_OFF],
        *(-n for n in reversed(s[1:25])),
        s[OPP_BAR],
        s[OPP_WAITING],
        s[MY_BAR],
        s[MY_OFF],
        s[MY_WAITING],
    )


def board_after(play: Play) -> SideBoard:
    """The board after ``play``, seen from its mover, without building ``play.result``.

    Uses the engine's play key when it has the documented layout; otherwise (should the
    engine change) it falls back on the result position.
    """
    key = getattr(play, "_key", None)
    position = play.position
    if isinstance(key, tuple) and len(key) == 28:
        other = opponent(position.turn)
        return (*key, position.off.of(other), position.waiting.of(other))
    return side_board(play.result, play.mover)


def continues_turn(play: Play, *, named_double: bool) -> bool:
    """Does the mover go on after ``play`` (a 1-2 earning its double; an american named
    double played in full earning a new roll)? Mirrors RULES.md R7 without building the
    result position."""
    if play.wins:
        return False
    variant = play.position.variant
    if not named_double and play.dice in ((1, 2), (2, 1)):
        return len(play.steps) == 2 or not variant.acey_deucey_needs_both_dice
    return named_double and len(play.steps) == 4 and variant.extra_roll_after_named_double
