"""Move notation (RULES.md "Move notation"): formatting plays and reading a player's text.

Points are written from the mover's own side: ``13/7``, ``13/7*`` (a hit), ``bar/22``,
``in/22`` (a waiting checker enters, american), ``5/off``; identical steps repeat as
``6/4(2)``. :func:`format_play` writes that canonical form and :func:`read_steps` reads it
back. A player's input may also give a checker's whole path ``24/18/13`` or a combined move
``24/13``, and may leave out a ``*``, but not write one where nothing is hit (see
:func:`parse_play`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .errors import IllegalPlayError, InvalidNotationError

# The parser replays written moves on the move generator's own board list and asks the
# generator which single steps are legal, so the two can never disagree on R2, R3 or R6, and
# a replayed board compares directly with a play's key (see moves.py).
from .moves import (
    BAR,
    IN,
    OFF,
    Play,
    Step,
    _check_dice,
    _mover_board,
    _outside,
    _single_moves,
    legal_plays,
)
from .moves import _apply as _apply_step
from .moves import _undo as _undo_step
from .position import CHECKERS, Position, own_point


def format_point(point: int) -> str:
    """``bar``, ``in``, ``off`` or the point number."""
    return _POINT_TEXT.get(point) or str(point)


#: Every point's text, worked out once: a turn's answer writes every legal play (dozens).
_POINT_TEXT = {BAR: "bar", IN: "in", OFF: "off", **{point: str(point) for point in range(1, 25)}}
#: Each source's place in the canonical order, by its number: bar first (R3), then waiting
#: checkers, then from the back of the board forward (a list: BAR and IN are 25 and 26).
_SOURCE_RANK = [*range(BAR), 28, 27]
#: Every step's text, by (source, dest, hit), worked out once as well.
_STEP_TEXT = {
    (source, dest, hit): f"{_POINT_TEXT[source]}/{_POINT_TEXT[dest]}{'*' if hit else ''}"
    for source in (*range(1, 25), BAR, IN)
    for dest in range(OFF, 25)
    for hit in (False, True)
}


def _order(step: Step) -> int:
    # By source, then by dest, both from the back forward: one number, dest below 32.
    return -(_SOURCE_RANK[step[0]] * 32 + step[1])


def canonical_steps(steps: Iterable[Step]) -> list[Step]:
    """The steps in a fixed order, the hit marked on the first landing on each hit point."""
    ordered = sorted(steps, key=_order)
    hit_points = {step.dest for step in ordered if step.hit}
    for index, step in enumerate(ordered):
        hit = step.dest in hit_points
        if hit:
            hit_points.discard(step.dest)
        if step.hit != hit:
            ordered[index] = step._replace(hit=hit)
    return ordered


def format_steps(steps: Iterable[Step]) -> str:
    """Canonical notation of a sequence of steps, e.g. ``6/4(2) 13/7*``."""
    parts: list[str] = []
    last = ""
    count = 0
    for source, dest, _die, hit in canonical_steps(steps):
        text = _STEP_TEXT.get((source, dest, hit)) or (
            f"{format_point(source)}/{format_point(dest)}{'*' if hit else ''}"
        )
        if text == last:
            count += 1
            continue
        if count:
            parts.append(last if count == 1 else f"{last}({count})")
        last, count = text, 1
    if count:
        parts.append(last if count == 1 else f"{last}({count})")
    return " ".join(parts)


def format_play(play: Play) -> str:
    """Canonical notation of a play; the empty string for a dance."""
    return format_steps(play.steps)


# -- reading canonical notation back -------------------------------------------------------


class WrittenStep(NamedTuple):
    """One step of canonical notation: a checker carried by one die, in the mover's own
    numbering, and whether it hit.

    ``source`` is a point 1-24, ``BAR`` or ``IN``; ``dest`` a point 1-24 or ``OFF`` (as in
    :class:`Step`). The die is not written, and not always known: ``5/off`` may be a 6.
    """

    source: int
    dest: int
    hit: bool = False


_CANONICAL_STEP = re.compile(
    r"(?P<source>bar|in|[0-9]{1,2})/(?P<dest>off|[0-9]{1,2})(?P<hit>\*?)(?:\((?P<count>[2-4])\))?"
)


def read_steps(text: str) -> list[WrittenStep]:
    """The steps of canonical notation, as :func:`format_play` and :func:`format_steps`
    write it, with their hits: ``bar/22*``, ``in/22``, ``13/7*``, ``5/off`` and repeats
    ``6/4(2)`` (written out, a hit on the first of them) separated by single spaces; the
    empty string (a dance) has none. Steps keep their written order.

    This reads stored plays, which are always canonical; a player's text, with its paths,
    combined moves and spacing, is for :func:`parse_play`, which knows the position.

    Raises :class:`InvalidNotationError` for anything else, e.g. a path ``24/18/13`` or a
    step longer than a die (``24/13``).

    >>> steps = read_steps("bar/22* 13/7(2) 6/off")
    >>> [(format_point(s.source), format_point(s.dest), s.hit) for s in steps]
    [('bar', '22', True), ('13', '7', False), ('13', '7', False), ('6', 'off', False)]
    >>> read_steps("")
    []
    """
    steps: list[WrittenStep] = []
    for token in text.split(" ") if text else []:
        step, count = _read_canonical(token)
        # A hit happens on the first landing only: the checkers after it find the point open.
        steps += [step] + [step._replace(hit=False)] * (count - 1)
    return steps


def _read_canonical(token: str) -> tuple[WrittenStep, int]:
    """One token of canonical notation: its step and how many times it is repeated."""
    match = _CANONICAL_STEP.fullmatch(token)
    if match is None:
        raise InvalidNotationError(f"not canonical notation: {_quote(token)}")
    entering = match["source"] in ("bar", "in")
    source = (BAR if match["source"] == "bar" else IN) if entering else int(match["source"])
    dest = OFF if match["dest"] == "off" else int(match["dest"])
    if dest == OFF:
        # Bearing off (R6) is from the home board, and there is nothing there to hit.
        one_die = 1 <= source <= 6 and not match["hit"]
    else:
        start = 25 if entering else source  # an entering checker counts from 25
        one_die = (entering or source <= 24) and dest >= 1 and 1 <= start - dest <= 6
    if not one_die:
        raise InvalidNotationError(f"not a step of one die: {_quote(token)}")
    return WrittenStep(source, dest, bool(match["hit"])), int(match["count"] or 1)


# -- reading a player's text ---------------------------------------------------------------
#
# parse_play works in three stages:
#
# 1. _read_moves turns the text into written moves (source, dest), expanding repeats and
#    paths. Text that cannot denote a move in any position raises InvalidNotationError.
# 2. _Replay plays those moves on a copy of the board, trying every way to share the
#    segment's dice among them (a move may use one die or several, in any order), and
#    records each complete replay's resulting board, or why the furthest move failed.
# 3. A resulting board that equals a legal play's key is that play (R5.4: plays are told
#    apart by the position they reach). Otherwise the failure is explained.
#
# Boards are the generator's list from the mover's side (moves.py); its off, bar and
# waiting counts sit at the indices OFF (0), BAR (25) and IN (26).

_NO_MOVE = frozenset({"", "-", "dance"})
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}
_MAX_REPEAT = 4
_TOKEN = re.compile(r"(?P<path>[^()]*)(?:\((?P<count>[^()]*)\))?")
_ELEMENT = re.compile(r"(?P<name>[0-9]+|bar|in|off)(?P<hit>\*?)")


class _Move(NamedTuple):
    """One checker carried from ``source`` to ``dest`` as written, by one or more dice.

    ``source`` is a point 1-24, ``BAR`` or ``IN``; ``dest`` a point 1-24 or ``OFF`` (the
    mover's own numbering, as in :class:`Step`); ``hit`` when ``dest`` is marked ``*``.
    """

    source: int
    dest: int
    hit: bool = False

    @property
    def start(self) -> int:
        """The point the pips are counted from: checkers entering come from 25."""
        return 25 if self.source in (BAR, IN) else self.source

    @property
    def pips(self) -> int:
        return self.start - self.dest

    def __str__(self) -> str:
        return f"{format_point(self.source)}/{format_point(self.dest)}"

    @property
    def unmarked(self) -> _Move:
        """The move without its ``*``: replays go by the board, which says what is hit."""
        return self._replace(hit=False)


def _read_moves(text: str) -> list[_Move]:
    """The moves written in ``text``, in the written order, with paths and repeats expanded
    and each ``*`` kept on the move that lands on the point it follows.

    Raises :class:`InvalidNotationError` for text that cannot denote moves at all.
    """
    normal = _normalize(text)
    if normal in _NO_MOVE:
        return []
    moves: list[_Move] = []
    for token in re.split(r"[\s,]+", normal):
        if token:
            moves.extend(_read_token(token))
    return moves


def _normalize(text: str) -> str:
    """Lower case, with the spaces a player may put inside a move (``13 / 7 (2)``) removed."""
    text = text.strip().lower()
    text = re.sub(r"\s*/\s*", "/", text)
    text = re.sub(r"\s+(?=[*(])", "", text)
    return re.sub(r"\(\s*([^()]*?)\s*\)", r"(\1)", text)


def _read_token(token: str) -> list[_Move]:
    """The moves of one token: ``13/7``, ``6/4*(2)`` or a path such as ``24/18/13``."""
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise InvalidNotationError(
            f"cannot read {_quote(token)}: a repeat count goes last, in brackets, as in 6/4(2)"
        )
    path, count = match["path"], _read_count(token, match["count"])
    if "/" not in path:
        raise InvalidNotationError(
            f"cannot read {_quote(token)}: write a move as from/to, for example 13/7"
        )
    elements = path.split("/")
    points = [
        _read_element(token, element, first=i == 0, last=i == len(elements) - 1)
        for i, element in enumerate(elements)
    ]
    moves = [
        _checked_move(source, dest, hit=hit)
        for (source, _), (dest, hit) in itertools.pairwise(points)
    ]
    return moves * count


def _read_count(token: str, count: str | None) -> int:
    """The repeat count of ``6/4(2)``: 1 when there is none."""
    if count is None:
        return 1
    if not (count.isascii() and count.isdigit()) or len(count) > 1:
        raise InvalidNotationError(
            f"cannot read {_quote(token)}: a repeat count is a number from 1 to 4, as in 6/4(2)"
        )
    if not 1 <= int(count) <= _MAX_REPEAT:
        raise InvalidNotationError(
            f"{_quote(token)}: a move can be repeated 1 to 4 times, not {count}"
        )
    return int(count)


def _read_element(token: str, element: str, *, first: bool, last: bool) -> tuple[int, bool]:
    """One point of a move: 1-24, or ``bar``/``in`` to start it, or ``off`` to end it; and
    whether it is marked ``*`` as a hit."""
    match = _ELEMENT.fullmatch(element)
    if match is None:
        if not element:
            raise InvalidNotationError(
                f"cannot read {_quote(token)}: a move needs a point on each side of '/'"
            )
        raise InvalidNotationError(
            f"cannot read {_quote(element)} in {_quote(token)}: a point is a number from 1"
            " to 24, or bar, in or off"
        )
    name, hit = match["name"], bool(match["hit"])
    if hit and first:
        raise InvalidNotationError(
            f"{_quote(token)}: a '*' marks a hit, after the point landed on, as in 13/7*"
        )
    if name in ("bar", "in"):
        if not first:
            raise InvalidNotationError(
                f"{_quote(token)}: {name} can only start a move, as in {name}/22"
            )
        return (BAR if name == "bar" else IN), False
    if name == "off":
        if not last:
            raise InvalidNotationError(f"{_quote(token)}: off can only end a move, as in 5/off")
        if hit:
            raise InvalidNotationError(
                f"{_quote(token)}: a checker borne off hits nothing, so off takes no '*'"
            )
        return OFF, False
    # Length first: int() of thousands of digits is slow (and refused by Python).
    if len(name) > 2 or not 1 <= int(name) <= 24:
        point = f"{name}-point" if len(name) <= 3 else "such point"
        raise InvalidNotationError(
            f"there is no {point}: points run from 1 to 24 (use bar, in or off for the rest)"
        )
    return int(name), hit


def _checked_move(source: int, dest: int, *, hit: bool = False) -> _Move:
    """A written move, refused when it could never be played (backwards, bar/off)."""
    move = _Move(source, dest, hit)
    if source in (BAR, IN) and dest == OFF:
        raise InvalidNotationError(f"{move}: a checker cannot enter and bear off in one move")
    if move.pips == 0:
        raise InvalidNotationError(f"{move} does not move the checker")
    if move.pips < 0:
        raise InvalidNotationError(
            f"{move} moves backwards: points are numbered from your own side, and you move"
            " from 24 down to 1"
        )
    return move


def _quote(text: str, limit: int = 20) -> str:
    """``text`` in quotes for a message, shortened so a huge input cannot flood it."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


# -- replaying the moves -------------------------------------------------------------------


class _Outcome(NamedTuple):
    """One complete replay: the board reached, the dice used and the steps made, in the
    order played."""

    key: tuple[int, ...]
    dice: tuple[int, ...]
    steps: tuple[Step, ...]


class _Failure(NamedTuple):
    """Why the move at ``index`` (of the replayed order) could not be played."""

    index: int
    message: str


class _Reason(NamedTuple):
    """Why one die could not carry a checker on; ``blocked`` names a blocked point."""

    message: str
    blocked: int | None = None


class _Replay:
    """Every way of playing written moves, in one order, with the segment's dice.

    The board list is changed in place while searching and restored on the way back, so one
    replay costs no copies. ``outcomes`` holds every complete replay; ``failure`` the failure
    of the furthest move any replay reached (the most telling one to report).
    """

    def __init__(
        self, position: Position, pool: tuple[int, ...], label: str, *, named_double: bool
    ) -> None:
        self.board = _mover_board(position)
        self.has_waiting = position.variant.has_waiting
        self.pool = pool
        self.label = label
        # A double named after a 1-2 was chosen, not rolled: the reasons say so.
        self.roll = "named" if named_double else "rolled"
        self.outcomes: list[_Outcome] = []
        self.failure: _Failure | None = None

    def run(self, moves: Sequence[_Move]) -> _Replay:
        self._search(moves, 0, self.pool, (), (), _outside(self.board))
        return self

    def _search(
        self,
        moves: Sequence[_Move],
        index: int,
        remaining: tuple[int, ...],
        used: tuple[int, ...],
        made: tuple[Step, ...],
        outside: int,
    ) -> None:
        if index == len(moves):
            self.outcomes.append(_Outcome(tuple(self.board), used, made))
            return
        move = moves[index]
        problem = self._source_problem(move)
        chains = _chains(move, remaining)
        if problem is None and not chains:
            problem = self._distance_problem(move, remaining, used)
        if problem is not None:
            self._fail(index, problem)
            return
        reasons: list[_Reason] = []
        for chain in chains:
            applied, after, reason = self._play_chain(move, chain, outside)
            if reason is None:
                steps = tuple(
                    Step(source, dest, die, hit)
                    for (source, dest, hit), die in zip(applied, chain, strict=True)
                )
                self._search(
                    moves, index + 1, _without(remaining, chain), used + chain, made + steps, after
                )
            else:
                reasons.append(reason)
            for source, dest, hit in reversed(applied):
                _undo_step(self.board, source, dest, hit)
        if len(reasons) == len(chains):
            self._fail(index, f"{move}: {_combine(reasons)}")

    def _fail(self, index: int, message: str) -> None:
        if self.failure is None or index > self.failure.index:
            self.failure = _Failure(index, message)

    def _source_problem(self, move: _Move) -> str | None:
        """Is there a checker to move, and may it move now (R3 bar first)?"""
        b = self.board
        if move.source == BAR and not b[BAR]:
            hint = " (write in/.. to enter a waiting checker)" if b[IN] else ""
            return f"{move}: you have no checker on the bar{hint}"
        if move.source == IN and not self.has_waiting:
            return f"{move}: {self._no_waiting_in_greek(move)}"
        if move.source == IN and not b[IN]:
            hint = " (write bar/.. to enter from the bar)" if b[BAR] else ""
            return f"{move}: you have no checker waiting to enter{hint}"
        if move.source not in (BAR, IN) and b[move.source] <= 0:
            return f"{move}: you have no checker on your {move.source}-point"
        if b[BAR] and move.source != BAR:
            return f"{move}: {_bar_first(b[BAR])}"
        return None

    def _no_waiting_in_greek(self, move: _Move) -> str:
        """Why ``in/..`` means nothing in the greek game, and what to write instead.

        "You have no checker waiting" would suggest the player might have one: greek
        checkers start on the board (R1) and only a hit checker comes in, from the bar.
        """
        said = "the Greek game has no checkers waiting to enter (they all start on your 24-point)"
        # in/19 to in/24 name one die (25 - dest): the move that plays it is suggested.
        entry = move.dest >= 19
        if self.board[BAR]:
            # From the bar a checker enters where in/.. would have put it (R2).
            bar = f"bar/{move.dest}" if entry else "bar/.."
            return f"{said}: write {bar} to enter your checker from the bar"
        if self.board[24] > 0 and entry:
            return (
                f"{said}: write a move from the point a checker stands on, such as"
                f" 24/{move.dest - 1}"
            )
        return f"{said}: write a move from the point a checker stands on"

    def _distance_problem(
        self, move: _Move, remaining: tuple[int, ...], used: tuple[int, ...]
    ) -> str:
        """No die, and no sum of dice, left over carries the checker there."""
        pips = f"{move.pips} pip{'s' if move.pips != 1 else ''}"
        verb = "needs" if move.dest == OFF else "moves"
        if not used:
            have = f"you {self.roll} {self.label}"
        elif not remaining:
            have = f"no dice of {self.label} are left"
        else:
            verb_left = "is" if len(remaining) == 1 else "are"
            have = f"only {_dice_words(remaining)} of {self.label} {verb_left} left"
        return f"{move} {verb} {pips}, but {have}"

    def _play_chain(
        self, move: _Move, chain: tuple[int, ...], outside: int
    ) -> tuple[list[tuple[int, int, bool]], int, _Reason | None]:
        """Carry the checker die by die; each step must be one the generator would make."""
        applied: list[tuple[int, int, bool]] = []
        source, point = move.source, move.start
        for die in chain:
            point -= die
            dest = OFF if point <= 0 else point
            if (source, dest) not in _single_moves(self.board, die, outside):
                return applied, outside, self._why_not(source, dest, die, outside)
            hit, outside = _apply_step(self.board, source, dest, outside)
            applied.append((source, dest, hit))
            source = dest
        return applied, outside, None

    def _why_not(self, source: int, dest: int, die: int, outside: int) -> _Reason:
        """Why a single step, known to be illegal, is illegal (R2, R3, R6)."""
        b = self.board
        if b[BAR] and source != BAR:
            # Only reached after the first die: a combined move entered one of several bar
            # checkers and tried to carry it on (R3).
            others = "your other checker" if b[BAR] == 1 else f"your other {b[BAR]} checkers"
            return _Reason(f"you must enter {others} from the bar before moving on")
        if dest != OFF and b[dest] < -1:
            return _Reason("", blocked=dest)
        if dest == OFF and outside:
            checkers = "a checker" if outside == 1 else f"{outside} checkers"
            return _Reason(
                f"you still have {checkers} outside your home board (on points 7-24, on the"
                " bar or waiting), so you cannot bear off yet"
            )
        if dest == OFF and die > source:
            higher = next((p for p in range(6, source, -1) if b[p] > 0), None)
            if higher is not None:
                return _Reason(
                    f"you must bear off from a higher point first (you have a checker on your"
                    f" {higher}-point): a die larger than the point bears off only the highest"
                    " checker"
                )
        return _Reason("that move is not legal here")


def _chains(move: _Move, remaining: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every order of the remaining dice that carries the checker exactly to its destination,
    or (bearing off) past the edge with the last die only. Single dice come first."""
    found: dict[tuple[int, ...], None] = {}
    for size in range(1, len(remaining) + 1):
        for chain in itertools.permutations(remaining, size):
            if _fits(move, chain):
                found[chain] = None
    return list(found)


def _fits(move: _Move, chain: tuple[int, ...]) -> bool:
    point = move.start
    for die in chain[:-1]:
        point -= die
        if point < 1:
            return False  # off the board before the last die: that is another move
    point -= chain[-1]
    return point <= 0 if move.dest == OFF else point == move.dest


def _without(dice: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(dice)
    for die in used:
        rest.remove(die)
    return tuple(rest)


def _combine(reasons: list[_Reason]) -> str:
    """One sentence for the ways a combined move failed (each order of its dice)."""
    blocked = sorted({r.blocked for r in reasons if r.blocked is not None}, reverse=True)
    parts: list[str] = []
    if blocked:
        names = " and ".join(f"{point}-point" for point in blocked)
        verb = "is" if len(blocked) == 1 else "are"
        parts.append(f"your {names} {verb} blocked (2 or more opposing checkers)")
    for reason in reasons:
        if reason.blocked is None and reason.message not in parts:
            parts.append(reason.message)
    return "; ".join(parts)


def _bar_first(on_bar: int) -> str:
    checkers = "checker" if on_bar == 1 else "checkers"
    return f"you must enter your {checkers} from the bar first"


def _dice_words(dice: tuple[int, ...]) -> str:
    if len(dice) == 1:
        return f"a {dice[0]}"
    if len(set(dice)) == 1:
        return f"{_NUMBER_WORDS[len(dice)]} {dice[0]}s"
    return " and ".join(map(str, dice))


# -- the parser ----------------------------------------------------------------------------


def parse_play(
    position: Position,
    dice: Sequence[int],
    text: str,
    *,
    plays: list[Play] | None = None,
    named_double: bool = False,
) -> Play:
    """The legal play that a player's ``text`` denotes, for one dice segment.

    ``text`` uses the mover's own point numbers (RULES.md "Move notation"): steps such as
    ``13/7``, ``13/7*``, ``bar/22``, ``in/22`` and ``5/off``, repeats ``6/4(2)``, a checker's
    path ``24/18/13``, or a combined move ``24/13`` when it is unambiguous; spaces or commas
    separate moves and case does not matter. A ``*`` may be left out (a hit is a fact of the
    position), but one written where the play hits nothing is refused: the player expected
    a blot that is not there. The empty string, ``-`` or ``dance`` means no move. Moves may
    be written in any order.

    ``plays`` are the segment's legal plays if the caller already has them; otherwise they
    are generated (``named_double`` as for :func:`legal_plays`). The answer is one of them.

    Raises :class:`InvalidNotationError` when the text cannot be read, and
    :class:`IllegalPlayError` with the reason when it denotes no legal play, or more than one.

    >>> from games.engine import Position
    >>> start = Position.initial("american")
    >>> format_play(parse_play(start, (6, 3), "in/16"))
    'in/19 19/16'
    >>> parse_play(start, (6, 3), "in/22 22/19")
    Traceback (most recent call last):
    ...
    games.engine.errors.IllegalPlayError: 22/19 moves 3 pips, but only a 6 of 6-3 is left
    >>> parse_play(start, (6, 3), "in/22* in/19")
    Traceback (most recent call last):
    ...
    games.engine.errors.IllegalPlayError: in/22*: there is no blot on your 22-point to hit
    """
    pair = _check_dice(dice)
    if plays is None:
        plays = legal_plays(position, pair, named_double=named_double)
    if not plays:
        raise IllegalPlayError("there is nothing to play now")
    written = _read_moves(text)
    moves = [move.unmarked for move in written]
    pool = (pair[0],) * 4 if pair[0] == pair[1] else tuple(sorted(pair, reverse=True))
    label = format_dice(pair)
    if len(moves) > len(pool):
        roll = "named" if named_double else "rolled"
        raise IllegalPlayError(f"you {roll} {label}: that is only {_NUMBER_WORDS[len(pool)]} moves")
    by_key = {play._key: play for play in plays}
    replays: list[_Replay] = []
    # The written order first. Moves are a multiset, though, and a sorted or hand-written
    # order is not always playable as written, so other orders are tried before giving up.
    for order in dict.fromkeys(itertools.permutations(moves)):
        replay = _Replay(position, pool, label, named_double=named_double).run(order)
        found = list({o.key: by_key[o.key] for o in replay.outcomes if o.key in by_key}.values())
        if len(found) == 1:
            _check_hits(written, found[0])
            return _as_written(found[0], replay.outcomes)
        if found:
            raise _ambiguous(text, label, found)
        replays.append(replay)
    raise IllegalPlayError(_explain(position, pair, plays, replays, named_double, bool(moves)))


def _as_written(play: Play, outcomes: list[_Outcome]) -> Play:
    """``play`` with its steps in the order the player wrote them (the first replay that
    reached it): the same play (R5.4), but the history shows the player's own moves, not
    another order of them that the move generator happened to find first (``bar/24 24/22*``
    for a 1-2, not ``bar/23 23/22*``). Each step of a replay is one the generator makes, in
    that order, so the order is a legal one. Kept as generated should the reading use other
    dice (a checker borne off with a higher die): the play's dice are what count."""
    steps = next(o.steps for o in outcomes if o.key == play._key)
    dice = sorted(step.die for step in steps)
    if steps == play.steps or dice != sorted(step.die for step in play.steps):
        return play
    return Play(play.position, play.dice, steps, play._key, play._result)


def _check_hits(written: Sequence[_Move], play: Play) -> None:
    """Refuse a ``*`` where ``play`` hits nothing: the player believes a blot is there, so
    the play is probably not the one they meant.

    Every move lands on the point it is written to, and any landing on a blot hits it
    (RULES.md R2), so whichever order the moves are played in, this is the same check.
    """
    hit_points = {step.dest for step in play.steps if step.hit}
    for move in written:
        if move.hit and move.dest not in hit_points:
            raise IllegalPlayError(f"{move}*: there is no blot on your {move.dest}-point to hit")


def dice_as_written(dice: Sequence[int]) -> tuple[int, int]:
    """A roll's two dice in the order players write them (RULES.md, backgammon records):
    the higher first, but the acey-deucey ``1-2``, as it is named. Stored rolls keep the
    order they were rolled in (games.dice derives them so); this is for showing them.

    >>> dice_as_written((3, 5)), dice_as_written((2, 1)), dice_as_written((4, 4))
    ((5, 3), (1, 2), (4, 4))
    """
    high, low = sorted(_check_dice(dice), reverse=True)
    return (1, 2) if (high, low) == (2, 1) else (high, low)


def format_dice(dice: Sequence[int]) -> str:
    """A roll as players write it: ``5-3`` for a 3 then a 5, ``1-2``, ``6-6``
    (:func:`dice_as_written`).

    >>> format_dice([3, 5])
    '5-3'
    """
    first, second = dice_as_written(dice)
    return f"{first}-{second}"


def _ambiguous(text: str, label: str, found: list[Play]) -> IllegalPlayError:
    options = sorted(format_play(play) for play in found)
    return IllegalPlayError(
        f"{_quote(text.strip(), 40)} is ambiguous with {label}: it could mean"
        f" {' or '.join(options)}; write the checker's path step by step, for example"
        f" {options[0]}"
    )


def _explain(
    position: Position,
    dice: tuple[int, int],
    plays: list[Play],
    replays: list[_Replay],
    named_double: bool,
    wrote_moves: bool,
) -> str:
    """Why no replay reached a legal play.

    When some order of the moves could be played through, the play as a whole breaks a
    rule (R5, R8) and that is the most useful thing to say; otherwise the written order's
    furthest failing move is reported.
    """
    complete = [o for replay in replays for o in replay.outcomes]
    if complete:
        message = _why_illegal(position, dice, plays, complete, named_double)
    else:
        failure = replays[0].failure
        message = failure.message if failure is not None else "that play is not legal"
    if wrote_moves and all(play.is_dance for play in plays):
        message += f"; no move is possible with {format_dice(dice)}, so submit no move (a dance)"
    return message


def _why_illegal(
    position: Position,
    dice: tuple[int, int],
    plays: list[Play],
    outcomes: list[_Outcome],
    named_double: bool,
) -> str:
    """Why a play whose every step is legal is still not a legal play (R5, R8)."""
    high, low = sorted(dice, reverse=True)
    label = format_dice(dice)
    full = 4 if high == low else 2

    def dice_used(steps: int, off: int) -> int:
        return full if off == CHECKERS else steps  # R5.5: winning uses every die

    # The reading that uses the most dice is the one closest to what the player meant.
    outcome = max(outcomes, key=lambda o: dice_used(len(o.dice), o.key[OFF]))
    used = dice_used(len(outcome.dice), outcome.key[OFF])
    most = max(full if p.wins else len(p.steps) for p in plays)
    if used < most:
        if not outcome.dice:
            return f"you can move with {label}, so you cannot pass"
        if high == low:
            return f"you must play as many of the four {high}s as you can ({most})"
        return f"you must use both dice: {label} can be played in full"
    higher_playable = any(p.steps and p.steps[0].die == high for p in plays)
    if high != low and most == 1 and outcome.dice != (high,) and higher_playable:
        return f"you must play the higher die ({high}) when only one die can be played"
    target = position.obligation
    if target is not None:
        free = legal_plays(position._replace(named_blot=None), dice, named_double=named_double)
        if outcome.key in {play._key for play in free}:
            point = own_point(position.turn, target)
            later = " or leave a double that can hit it" if {high, low} == {1, 2} else ""
            return f"you must hit the named blot on your {point}-point{later}"
    return f"that play is not legal with {label}"
