"""Legal plays of one dice segment (RULES.md R2-R6 and R8).

The generator works on a flat list from the mover's side, which is much faster than
building a :class:`Position` per step:

* ``b[0]``      the mover's borne-off checkers
* ``b[1..24]``  the mover's own points: positive = the mover's checkers, negative = the
  opponent's
* ``b[25]``     the mover's bar, ``b[26]`` the mover's waiting checkers (american)
* ``b[27]``     the opponent's bar (it only grows: by our hits)

A tuple of that list identifies a resulting position, so it doubles as the key that
merges move orders reaching the same position (R5.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .errors import IllegalActionError, IllegalPlayError
from .position import CHECKERS, WHITE, Color, Pair, Position, opponent, own_point

#: Step sources and destinations besides points 1-24, in the mover's numbering.
OFF = 0
BAR = 25
IN = 26

_MY_OFF, _MY_BAR, _MY_WAITING, _OPP_BAR = 0, 25, 26, 27


class Step(NamedTuple):
    """One checker moved by one die, in the mover's own numbering.

    ``source`` is a point 1-24, :data:`BAR` or :data:`IN` (a waiting checker entering);
    ``dest`` is a point 1-24 or :data:`OFF`.
    """

    source: int
    dest: int
    die: int
    hit: bool = False


class Play:
    """A legal way to play one dice segment: its steps and the :class:`Position` it reaches.

    Two plays are equal when they start from the same position, use the same dice and
    reach the same result (R5.4: move orders are not distinguished).
    """

    __slots__ = ("_key", "_result", "dice", "position", "steps")

    def __init__(
        self,
        position: Position,
        dice: tuple[int, int],
        steps: tuple[Step, ...],
        key: tuple[int, ...],
        result: Position | None = None,
    ) -> None:
        self.position = position
        self.dice = dice
        self.steps = steps
        self._key = key
        self._result = result

    @property
    def result(self) -> Position:
        """The position after the play (built on first use: most callers need few)."""
        if self._result is None:
            self._result = _result_position(self.position, self.dice, self._key, self.steps)
        return self._result

    @property
    def mover(self) -> Color:
        return self.position.turn

    @property
    def is_dance(self) -> bool:
        """No checker could move (R5.3)."""
        return not self.steps

    @property
    def wins(self) -> bool:
        """Does this play bear off the mover's last checker (R5.5, R7.7)?"""
        return self._key[_MY_OFF] == CHECKERS

    def blots_left(self) -> list[int]:
        """The mover's blots after this play, in their own point numbers, lowest first:
        those a greek player may name at the end of the turn (R8.1). None for a play that
        wins the game (nothing is left to name) or after which the turn goes on (a 1-2's
        segment, whose double comes next)."""
        after = self.result
        if self.wins or after.turn == self.mover:
            return []
        return sorted(own_point(self.mover, point) for point in after.blots(self.mover))

    def hits_point(self, own: int) -> bool:
        """Does any step hit on the mover's own point ``own``?"""
        return any(s.hit and s.dest == own for s in self.steps)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return (self.position, self.dice, self._key) == (other.position, other.dice, other._key)

    def __hash__(self) -> int:
        return hash((self.position, self.dice, self._key))

    def __repr__(self) -> str:
        from .notation import format_play

        return f"<Play {'-'.join(map(str, self.dice))}: {format_play(self) or '(no move)'}>"


def legal_plays(
    position: Position, dice: Sequence[int], *, named_double: bool = False
) -> list[Play]:
    """Every legal play of one dice segment, each distinct resulting position once (R5.4).

    ``dice`` is ``(a, b)`` for a normal roll or the 1-2 segment, or ``(d, d)`` for four
    moves of ``d`` (rolled, or named after a 1-2 — pass ``named_double=True`` then, which
    only decides whose turn it is in the results: R7.5).

    Applies R3 (bar first), R4, R5 (maximum dice, higher die, dance), R6 (bearing off) and,
    in greek with a named blot, R8, including the whole-turn look-ahead through the named
    double when the dice are (1, 2). A dance returns one play with no steps.

    ``play.result`` has the mover still to move when the turn goes on after this segment
    (a 1-2 that earns its double; an american named double played in full); otherwise the
    opponent is to move and ``named_blot`` is cleared (a new naming is added by the turn).

    >>> from games.engine import Position
    >>> start = Position.initial("american")
    >>> sorted(p.result.points.index(1) + 1 for p in legal_plays(start, (6, 3)))
    [16, 19]
    >>> len(legal_plays(start, (6, 3)))  # in/22 22/16 reaches the same as in/19 19/16
    2
    """
    plays = _unrestricted_plays(position, dice)
    target = position.obligation
    if target is not None:
        plays = _hitting(position, plays, target) or plays  # R8.3: else it lapses
    if named_double:
        for play in plays:
            play._result = _result_position(position, play.dice, play._key, play.steps, named=True)
    return plays


def _unrestricted_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """:func:`legal_plays` before R8 (and with the mover's turn decided as for a rolled
    segment)."""
    a, b = _check_dice(dice)
    board = _mover_board(position)
    found = _double_plays(board, a) if a == b else _roll_plays(board, a, b)
    return [
        Play(position, (a, b), tuple(Step(*s) for s in steps), key) for key, steps in found.items()
    ]


def _check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise IllegalActionError("dice must be two numbers from 1 to 6")
    return dice[0], dice[1]


# -- the generator -------------------------------------------------------------------------


def _mover_board(position: Position) -> list[int]:
    mover = position.turn
    if mover == WHITE:
        board = [position.off.white, *position.points]
    else:
        board = [position.off.black, *(-n for n in reversed(position.points))]
    board += [position.bar.of(mover), position.waiting.of(mover), position.bar.of(opponent(mover))]
    return board


def _outside(b: list[int]) -> int:
    """Checkers that keep the mover from bearing off: on points 7-24, bar or waiting (R6)."""
    return sum(n for n in b[7:25] if n > 0) + b[_MY_BAR] + b[_MY_WAITING]


def _single_moves(b: list[int], d: int, outside: int, floor: int = IN) -> list[tuple[int, int]]:
    """(source, dest) of every legal single move of die ``d``; sources no higher than
    ``floor`` (in generation order IN > BAR-less points 24..1), used to prune doubles."""
    if b[_MY_BAR]:
        # R3: while a checker is on the bar, entering it is the only legal move.
        dest = 25 - d
        return [(BAR, dest)] if b[dest] >= -1 else []
    moves = []
    if b[_MY_WAITING] and floor >= IN:
        dest = 25 - d
        if b[dest] >= -1:
            moves.append((IN, dest))
    top = min(24, floor)
    for source in range(top, d, -1):
        if b[source] > 0 and b[source - d] >= -1:
            moves.append((source, source - d))
    if outside == 0:
        # R6: bear off with the exact die; a larger die only from the highest point.
        if d <= top and b[d] > 0:
            moves.append((d, OFF))
        else:
            for source in range(6, 0, -1):
                if b[source] > 0:
                    if source < d and source <= top:
                        moves.append((source, OFF))
                    break
    return moves


def _apply(b: list[int], source: int, dest: int, outside: int) -> tuple[bool, int]:
    """Move one checker in place; return (hit, new outside count)."""
    if source == BAR:
        b[_MY_BAR] -= 1
        outside -= 1
    elif source == IN:
        b[_MY_WAITING] -= 1
        outside -= 1
    else:
        b[source] -= 1
        if source >= 7:
            outside -= 1
    hit = False
    if dest == OFF:
        b[_MY_OFF] += 1
    else:
        if b[dest] == -1:
            b[dest] = 1
            b[_OPP_BAR] += 1
            hit = True
        else:
            b[dest] += 1
        if dest >= 7:
            outside += 1
    return hit, outside


def _undo(b: list[int], source: int, dest: int, hit: bool) -> None:
    if dest == OFF:
        b[_MY_OFF] -= 1
    elif hit:
        b[dest] = -1
        b[_OPP_BAR] -= 1
    else:
        b[dest] -= 1
    if source == BAR:
        b[_MY_BAR] += 1
    elif source == IN:
        b[_MY_WAITING] += 1
    else:
        b[source] += 1


Steps = tuple[tuple[int, int, int, bool], ...]


def _roll_plays(b: list[int], high: int, low: int) -> dict[tuple[int, ...], Steps]:
    """Plays of a non-double roll: both orders of the dice, then R5.1/R5.2 filtering."""
    if high < low:
        high, low = low, high
    full: dict[tuple[int, ...], Steps] = {}
    single_high: dict[tuple[int, ...], Steps] = {}
    single_low: dict[tuple[int, ...], Steps] = {}
    outside = _outside(b)
    for first, second, singles in ((high, low, single_high), (low, high, single_low)):
        for source, dest in _single_moves(b, first, outside):
            hit, out1 = _apply(b, source, dest, outside)
            step1 = (source, dest, first, hit)
            if b[_MY_OFF] == CHECKERS:
                # R5.5: bearing off the last checker counts as using every die.
                full.setdefault(tuple(b), (step1,))
            else:
                seconds = _single_moves(b, second, out1)
                if not seconds:
                    singles.setdefault(tuple(b), (step1,))
                for source2, dest2 in seconds:
                    hit2, _ = _apply(b, source2, dest2, out1)
                    full.setdefault(tuple(b), (step1, (source2, dest2, second, hit2)))
                    _undo(b, source2, dest2, hit2)
            _undo(b, source, dest, hit)
    if full:
        return full
    if single_high:
        return single_high  # R5.2: the higher die when only one can be played
    if single_low:
        return single_low
    return {tuple(b): ()}  # R5.3: dance


def _double_plays(b: list[int], d: int) -> dict[tuple[int, ...], Steps]:
    """Plays of four moves of ``d``.

    Moves are generated with non-increasing sources: any legal order of four equal dice
    can be rearranged that way and reaches the same position, so this prunes repeats
    without losing plays (a property test compares it with the unpruned search).
    """
    best = [0]
    found: dict[int, dict[tuple[int, ...], Steps]] = {n: {} for n in range(5)}
    _search_double_plays(b, d, _outside(b), IN, (), best, found)
    return found[best[0]]


# The searches of four equal dice recurse through functions of the module's, their state
# passed along, not through functions nested in their callers: a nested function that
# calls itself refers to itself through its closure, a reference cycle that kept each
# search's plays until the garbage collector freed them (half the objects a turn left it).


def _search_double_plays(
    b: list[int],
    d: int,
    outside: int,
    floor: int,
    path: Steps,
    best: list[int],
    found: dict[int, dict[tuple[int, ...], Steps]],
) -> None:
    """:func:`_double_plays`'s search from ``path``: ``best`` holds the most moves seen,
    ``found`` the plays of each length by the board they lead to."""
    depth = len(path)
    if b[_MY_OFF] == CHECKERS:
        depth = 4  # R5.5
    moves = _single_moves(b, d, outside, floor) if depth < 4 else []
    if not moves:
        if depth >= best[0]:
            best[0] = depth
            found[depth].setdefault(tuple(b), path)
        return
    for source, dest in moves:
        hit, out = _apply(b, source, dest, outside)
        step = (source, dest, d, hit)
        _search_double_plays(b, d, out, source if source != BAR else IN, (*path, step), best, found)
        _undo(b, source, dest, hit)


# -- results ---------------------------------------------------------------------------------


def _result_position(
    position: Position,
    dice: tuple[int, int],
    key: tuple[int, ...],
    steps: Iterable[Step],
    *,
    named: bool = False,
) -> Position:
    mover = position.turn
    other = opponent(mover)
    if mover == WHITE:
        points = key[1:25]
    else:
        points = tuple(-n for n in reversed(key[1:25]))
    wins = key[_MY_OFF] == CHECKERS
    used = len(tuple(steps))
    if wins:
        continues = False  # R7.7: the rest of the turn is void
    elif set(dice) == {1, 2}:
        continues = used == 2 or not position.variant.acey_deucey_needs_both_dice
    else:
        continues = named and used == 4 and position.variant.extra_roll_after_named_double
    bar = Pair(key[_MY_BAR], key[_OPP_BAR]) if mover == WHITE else Pair(key[_OPP_BAR], key[25])
    off = position.off.replace(mover, key[_MY_OFF])
    waiting = position.waiting.replace(mover, key[_MY_WAITING])
    if continues:
        blot = position.named_blot
        if blot is not None and points[blot - 1] != (1 if other == WHITE else -1):
            blot = None  # hit (or no longer a blot): the obligation is met
        return Position(position.variant, mover, points, bar, off, waiting, blot)
    return Position(position.variant, other, points, bar, off, waiting, None)


# -- R8 compulsory hit ---------------------------------------------------------------------


def can_hit_named_blot(position: Position, dice: Sequence[int] | None) -> bool:
    """Can the mover's turn, from this segment on, hit the blot named against them (R8.2)?

    ``dice`` are the segment's, or None for a double still to be named after a 1-2. False
    when no naming binds the mover; when it is False the naming lapses (R8.3) and every
    play legal without it is allowed, which a player told only "hit it if you can" could
    not tell from the board.
    """
    target = position.obligation
    if target is None:
        return False
    if dice is None:
        return any(named_double_can_hit(position, d) for d in range(1, 7))
    return bool(_hitting(position, _unrestricted_plays(position, dice), target))


def _hitting(position: Position, plays: list[Play], target: int) -> list[Play]:
    """The ``plays`` that hit the named blot on absolute ``target`` (R8.2), a 1-2's also
    when its named double can still hit.

    The blot was hit exactly when its point no longer holds an opposing checker in the
    result (opposing checkers only leave a point by being hit).
    """
    own = target if position.turn == WHITE else 25 - target
    hitting = [p for p in plays if p._key[own] != -1]
    if plays and set(plays[0].dice) == {1, 2}:
        # R8.2: a 1-2 play also satisfies the obligation when the named double can still
        # hit; a play that bears off the last checker has no continuation.
        hitting += [
            p
            for p in plays
            if p._key[own] == -1
            and not p.wins
            and any(_double_hits(list(p._key), d, own) for d in range(1, 7))
        ]
    return hitting


def allowed_doubles(position: Position) -> list[int]:
    """The doubles the mover may name after a 1-2 (R7.3): those that can hit a blot named
    against them when any can (R8.2), else all six."""
    hitting = [d for d in range(1, 7) if named_double_can_hit(position, d)]
    return hitting or list(range(1, 7))


def named_double_can_hit(position: Position, d: int) -> bool:
    """Does naming ``d-d`` here leave a legal play that hits the named blot (R7.3, R8.2)?"""
    target = position.obligation
    if target is None:
        return False
    own = target if position.turn == WHITE else 25 - target
    return _double_hits(_mover_board(position), d, own)


def _double_hits(b: list[int], d: int, own: int) -> bool:
    """Does some play of four ``d`` moves using the most dice possible hit on ``own``?

    A depth-first search that stops at the first four-move hit; otherwise it must learn
    the most moves possible before it can tell (R8.3: never fewer dice for the hit).
    """
    if not _may_reach(b, d, own):
        return False
    best = [0, False]  # most moves seen, and whether a play of that many hits
    return _search_double_hits(b, d, own, _outside(b), IN, 0, best) or bool(best[1])


def _search_double_hits(
    b: list[int], d: int, own: int, outside: int, floor: int, depth: int, best: list
) -> bool:
    """:func:`_double_hits`'s search, ``depth`` moves made: True at a four-move play that
    hits on ``own``; ``best`` is updated with the most moves seen and whether a play of
    that many hits."""
    if b[_MY_OFF] == CHECKERS:
        depth = 4  # R5.5
    moves = _single_moves(b, d, outside, floor) if depth < 4 else []
    if not moves:
        hit = b[own] != -1
        if depth > best[0]:
            best[0], best[1] = depth, hit
        elif depth == best[0]:
            best[1] = best[1] or hit
        return depth == 4 and hit
    for source, dest in moves:
        hit, out = _apply(b, source, dest, outside)
        stop = _search_double_hits(b, d, own, out, source if source != BAR else IN, depth + 1, best)
        _undo(b, source, dest, hit)
        if stop:
            return True
    return False


def _may_reach(b: list[int], d: int, own: int) -> bool:
    """Cheap necessary test: could any checker land on ``own`` with up to four ``d`` steps?"""
    for k in range(1, 5):
        source = own + k * d
        if source <= 24 and b[source] > 0:
            return True
        if source == 25 and (b[_MY_BAR] or b[_MY_WAITING]):
            return True  # entering counts as a step from point 25
    return False


# -- playing step by step (the clickable board) ---------------------------------------------


class PartialPlay(NamedTuple):
    """Where a player stands while entering a play one checker move at a time."""

    #: the next single moves that can still be completed into a legal play
    next_steps: tuple[Step, ...]
    #: the legal play whose position the steps so far reach, if any (more steps may still
    #: lead to another legal play: both are offered)
    complete: Play | None


def partial_play(
    position: Position,
    dice: Sequence[int],
    steps: Sequence[tuple[int, int]],
    *,
    named_double: bool = False,
) -> PartialPlay:
    """Follow ``steps`` (``(source, dest)`` in the mover's numbering, one die each) and say
    which single moves may come next and whether they already make a legal play.

    Raises :class:`IllegalPlayError` if the steps cannot be the start of any legal play.
    Every order of the dice is tried, so a player may click the moves in any order.

    >>> from games.engine import Position
    >>> start = Position.initial("american")
    >>> sorted((s.source, s.dest) for s in partial_play(start, (6, 3), []).next_steps)
    [(26, 19), (26, 22)]
    >>> partial_play(start, (6, 3), [(26, 22), (22, 16)]).complete is not None
    True
    """
    plays = legal_plays(position, dice, named_double=named_double)
    by_key = {play._key: play for play in plays}
    a, b = _check_dice(dice)
    board = _mover_board(position)
    remaining = [a, a, a, a] if a == b else [a, b]
    # A step may fit more than one die (bearing off with a larger die), so follow every
    # assignment of dice to the steps so far.
    states = _follow(board, list(steps), remaining, _outside(board))
    if not states:
        shown = " ".join(f"{_point_name(s)}/{_point_name(d)}" for s, d in steps)
        raise IllegalPlayError(f"{shown} is not a legal way to start playing these dice")
    nexts: dict[tuple[int, int], Step] = {}
    complete = None
    for state, rest, outside in states:
        # The steps so far may already reach a legal play's position (R5.4) while more
        # moves could still lead to another one, so report both.
        complete = complete or by_key.get(tuple(state))
        for die in set(rest):
            for source, dest in _single_moves(state, die, outside):
                hit, out = _apply(state, source, dest, outside)
                after = list(rest)
                after.remove(die)
                if _completes(state, after, out, by_key):
                    nexts.setdefault((source, dest), Step(source, dest, die, hit))
                _undo(state, source, dest, hit)
    if not nexts and complete is None:
        raise IllegalPlayError("those moves cannot be completed into a legal play")
    return PartialPlay(tuple(nexts.values()), complete)


def _follow(
    b: list[int], steps: list[tuple[int, int]], remaining: list[int], outside: int
) -> list[tuple[list[int], list[int], int]]:
    """Every (board, dice left, outside) reached by playing ``steps`` with some dice."""
    if not steps:
        return [(list(b), remaining, outside)]
    (source, dest), rest_steps = steps[0], steps[1:]
    reached = []
    for die in set(remaining):
        if (source, dest) not in _single_moves(b, die, outside):
            continue
        hit, out = _apply(b, source, dest, outside)
        rest = list(remaining)
        rest.remove(die)
        reached += _follow(b, rest_steps, rest, out)
        _undo(b, source, dest, hit)
    return reached


def position_after_steps(position: Position, steps: Sequence[tuple[int, int]]) -> Position:
    """The position after single moves ``(source, dest)`` in the mover's numbering, the
    mover still to move. The moves must come from :func:`partial_play`: only the board is
    updated here (hits included), no rule is checked."""
    board = _mover_board(position)
    outside = _outside(board)
    for source, dest in steps:
        _, outside = _apply(board, source, dest, outside)
    after = _result_position(position, (1, 2), tuple(board), (), named=False)
    return after._replace(turn=position.turn, named_blot=position.named_blot)


def _completes(
    b: list[int], remaining: list[int], outside: int, by_key: dict[tuple[int, ...], Play]
) -> bool:
    """Can some order of the remaining dice finish into one of the legal plays?"""
    if tuple(b) in by_key:
        return True
    for die in set(remaining):
        for source, dest in _single_moves(b, die, outside):
            hit, out = _apply(b, source, dest, outside)
            rest = list(remaining)
            rest.remove(die)
            found = _completes(b, rest, out, by_key)
            _undo(b, source, dest, hit)
            if found:
                return True
    return False


def _point_name(point: int) -> str:
    return {BAR: "bar", IN: "in", OFF: "off"}.get(point, str(point))
