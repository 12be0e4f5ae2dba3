"""A slow, independent reading of RULES.md R2-R6 and R8, used as an oracle in tests.

It shares nothing with ``games.engine.moves`` but the Position type: absolute points,
every order of every die, no pruning. It returns the set of resulting positions (as
``(points, bar, off, waiting)`` tuples) together with whether each hits the named blot.
"""

from __future__ import annotations

from itertools import permutations

from games.engine import Position

State = tuple[tuple[int, ...], tuple[int, int], tuple[int, int], tuple[int, int]]
WHITE, BLACK = 0, 1


def _state(position: Position) -> State:
    return (position.points, tuple(position.bar), tuple(position.off), tuple(position.waiting))


def _sign(color: int) -> int:
    return 1 if color == WHITE else -1


def _mine(points: tuple[int, ...], color: int, absolute: int) -> int:
    return max(0, points[absolute - 1] * _sign(color))


def _theirs(points: tuple[int, ...], color: int, absolute: int) -> int:
    return max(0, -points[absolute - 1] * _sign(color))


def _home(color: int) -> range:
    return range(1, 7) if color == WHITE else range(19, 25)


def _all_home(state: State, color: int) -> bool:
    points, bar, _, waiting = state
    if bar[color] or waiting[color]:
        return False
    return all(_mine(points, color, a) == 0 for a in range(1, 25) if a not in _home(color))


def _distance_to_off(color: int, absolute: int) -> int:
    return absolute if color == WHITE else 25 - absolute


def _moves(state: State, color: int, die: int) -> list[tuple[State, int | None]]:
    """Every state reachable with one checker moved by ``die``; the landing point if hit."""
    points, bar, off, waiting = state
    out = []
    entry = 25 - die if color == WHITE else die
    sources: list[str | int] = []
    if bar[color]:
        sources = ["bar"]
    else:
        if waiting[color]:
            sources.append("in")
        sources += [a for a in range(1, 25) if _mine(points, color, a)]
    for source in sources:
        if source in ("bar", "in"):
            dest: int | None = entry
        else:
            assert isinstance(source, int)
            dest = source - die if color == WHITE else source + die
            if not 1 <= dest <= 24:
                dest = None  # bearing off
        new_points = list(points)
        new_bar, new_off, new_waiting = list(bar), list(off), list(waiting)
        if source == "bar":
            new_bar[color] -= 1
        elif source == "in":
            new_waiting[color] -= 1
        else:
            new_points[source - 1] -= _sign(color)
        hit = None
        if dest is None:
            assert isinstance(source, int)
            if not _all_home(state, color):
                continue
            distance = _distance_to_off(color, source)
            if distance != die:
                higher = [
                    a
                    for a in _home(color)
                    if _mine(points, color, a) and _distance_to_off(color, a) > distance
                ]
                if distance > die or higher:
                    continue
            new_off[color] += 1
        else:
            opposing = _theirs(points, color, dest)
            if opposing >= 2:
                continue
            if opposing == 1:
                new_points[dest - 1] = 0
                new_bar[1 - color] += 1
                hit = dest
            new_points[dest - 1] += _sign(color)
        out.append(((tuple(new_points), tuple(new_bar), tuple(new_off), tuple(new_waiting)), hit))
    return out


def reference_results(position: Position, dice: tuple[int, int]) -> dict[State, bool]:
    """Resulting states of every legal play of one segment -> does it hit the named blot."""
    color = WHITE if position.turn == "white" else BLACK
    a, b = dice
    orders = [(a, a, a, a)] if a == b else list(set(permutations((a, b))))
    named = position.obligation
    # state -> (number of dice used, the dice sequences reaching it, hits the named blot)
    found: dict[State, tuple[int, set[tuple[int, ...]], bool]] = {}

    def walk(state: State, remaining: tuple[int, ...], used: tuple[int, ...], hit: bool) -> None:
        moves = _moves(state, color, remaining[0]) if remaining else []
        if state[2][color] == 15:
            used = (a, b) if a != b else (a,) * 4  # R5.5: the last checker off uses every die
            moves = []
        if not moves:
            previous = found.get(state)
            if previous is None or len(used) > previous[0]:
                found[state] = (len(used), {used}, hit)
            elif len(used) == previous[0]:
                found[state] = (len(used), previous[1] | {used}, hit or previous[2])
            return
        for new_state, landed in moves:
            walk(new_state, remaining[1:], (*used, remaining[0]), hit or landed == named)

    for order in orders:
        walk(_state(position), order, (), False)
    most = max(n for n, _, _ in found.values())
    plays = {s: v for s, v in found.items() if v[0] == most}
    if most == 1 and a != b:
        high = max(a, b)
        with_high = {s: v for s, v in plays.items() if (high,) in v[1]}
        plays = with_high or plays
    return {s: v[2] for s, v in plays.items()}


def reference_max_dice(position: Position, dice: tuple[int, int]) -> int:
    """The most dice any sequence of single moves can use (the last checker off counts all)."""
    color = WHITE if position.turn == "white" else BLACK
    a, b = dice
    orders = [(a, a, a, a)] if a == b else [(a, b), (b, a)]

    total = len(orders[0])

    def most(state: State, remaining: tuple[int, ...]) -> int:
        """Dice used so far plus the most the remaining dice can add."""
        if state[2][color] == 15:
            return total
        used = total - len(remaining)
        if not remaining:
            return used
        moves = _moves(state, color, remaining[0])
        return max((most(s, remaining[1:]) for s, _ in moves), default=used)

    return max(most(_state(position), order) for order in orders)


def reference_states(position: Position, dice: tuple[int, int]) -> set[State]:
    """Resulting states under R3-R6 and R8 (with the 1-2 look-ahead through six doubles)."""
    results = reference_results(position, dice)
    if position.obligation is None:
        return set(results)
    hitting = {s for s, hit in results.items() if hit}
    if set(dice) == {1, 2}:
        for state, hit in results.items():
            if not hit and _some_double_hits(position, state):
                hitting.add(state)
    return hitting or set(results)


def _some_double_hits(position: Position, state: State) -> bool:
    points, bar, off, waiting = state
    mover = position.turn
    if off[0 if mover == "white" else 1] == 15:
        return False
    after = position._replace(
        points=points,
        bar=type(position.bar)(*bar),
        off=type(position.off)(*off),
        waiting=type(position.waiting)(*waiting),
    )
    if after.obligation is None:
        return False
    return any(any(reference_results(after, (d, d)).values()) for d in range(1, 7))
