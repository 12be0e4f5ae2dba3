"""A hand-tuned static evaluation of Acey-Deucey positions.

:meth:`Evaluator.value` scores a side board (see :mod:`games.bots.board`) for "me" as a
number from -1 (certain loss) to +1 (certain win). It adds up, in logit units,

* the race: pip counts, with half a roll for the side on roll;
* the blot risk of the side *not* on roll: for each of the 36 rolls, which blots the
  roller can hit, directly or indirectly, with points made by the blots' owner blocking
  touch-downs (a 1-2 counts as hitting anything some double reaches); a hit costs a
  tempo plus the pips the checker loses;
* made points by location (home board, bar point, anchors) and how well they trap the
  opponent's checkers behind them (escape counts over the 36 rolls through the points
  in front, so primes count fully);
* checkers on the bar and waiting (american) against the opposing home board;
* stacks; and in a pure race, pips plus a wastage allowance per checker left.

The result is squashed with a logistic so that averages over dice rolls (the expert's
look-ahead) behave like winning chances.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .board import MY_BAR, MY_OFF, MY_WAITING, OPP_BAR, OPP_OFF, OPP_WAITING, SideBoard

#: The 21 distinct rolls with their weights out of 36.
ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)


def _bit(a: int, b: int) -> int:
    return 1 << ((a - 1) * 6 + (b - 1))


def _roll_mask(a: int, b: int) -> int:
    """The ordered rolls (out of 36) that show ``a`` and ``b``."""
    return _bit(a, b) | _bit(b, a)


ACEY_DEUCEY = _roll_mask(1, 2)


def _shot_patterns() -> list[tuple[tuple[int, int], ...]]:
    """For each distance 0..24: (rolls mask, intermediate offsets mask) ways to cover it.

    A pattern hits when none of its intermediate touch-down offsets is blocked. A 1-2 is
    counted with every double, since it lets the roller name any of them.
    """
    patterns: list[list[tuple[int, int]]] = [[] for _ in range(25)]
    for d in range(1, 7):
        die = 0
        for e in range(1, 7):
            die |= _roll_mask(d, e)
        patterns[d].append((die | ACEY_DEUCEY, 0))
    for a in range(1, 7):
        for b in range(a + 1, 7):
            patterns[a + b].append((_roll_mask(a, b), 1 << a))
            patterns[a + b].append((_roll_mask(a, b), 1 << b))
    for d in range(1, 7):
        for k in range(2, 5):
            offsets = 0
            for i in range(1, k):
                offsets |= 1 << (i * d)
            patterns[k * d].append((_bit(d, d) | ACEY_DEUCEY, offsets))
    return [tuple(p) for p in patterns]


SHOT_PATTERNS = _shot_patterns()
#: Per distance: the rolls that hit with one die (no touch-down), and the other patterns.
DIRECT_SHOTS: tuple[int, ...] = tuple(
    sum(rolls for rolls, offsets in patterns if offsets == 0) for patterns in SHOT_PATTERNS
)
INDIRECT_SHOTS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((rolls, offsets) for rolls, offsets in patterns if offsets) for patterns in SHOT_PATTERNS
)


def _shot_table(dist: int) -> tuple[int, ...]:
    """For a distance up to 12: the hitting rolls for every pattern of blocked points
    between (index bit i - 1 set when the point i ahead is blocked)."""
    table = []
    for index in range(1 << (dist - 1)):
        blocked = index << 1
        mask = DIRECT_SHOTS[dist]
        for rolls, offsets in INDIRECT_SHOTS[dist]:
            if not blocked & offsets:
                mask |= rolls
        table.append(mask)
    return tuple(table)


#: SHOT_TABLES[dist][(blocked >> 1) & (2 ** (dist - 1) - 1)] for distances 1-12.
SHOT_TABLES: tuple[tuple[int, ...], ...] = ((), *(_shot_table(d) for d in range(1, 13)))


def _escapes(front: int) -> int:
    """Rolls (of 36) that carry a lone checker past every blocked point of ``front``.

    ``front`` has bit ``i`` (0-based) set when the point ``i + 1`` ahead is blocked.
    """
    last = front.bit_length()  # offset of the furthest blocked point
    count = 0
    for a, b, weight in ROLLS:
        if a == b:
            reach, pos = 0, 0
            for _ in range(4):
                pos += a
                if front >> (pos - 1) & 1:
                    break
                reach = pos
        else:
            reach = 0
            for first, second in ((a, b), (b, a)):
                if not front >> (first - 1) & 1:
                    reach = max(reach, first)
                    if not front >> (first + second - 1) & 1:
                        reach = max(reach, first + second)
        if reach > last:
            count += weight
    return count


ESCAPES: tuple[int, ...] = tuple(_escapes(mask) for mask in range(1 << 12))

#: Points 1-18 of their owner: those that block the other side's checkers on their way
#: home (points 19-24 are the other side's home board, which its checkers need not pass).
OUTFIELD = ((1 << 19) - 1) & ~1


def _default_point_values() -> tuple[float, ...]:
    values = [0.0] * 25
    for point, v in {
        1: 0.02,
        2: 0.08,
        3: 0.14,
        4: 0.2,
        5: 0.26,
        6: 0.24,
        7: 0.18,
        8: 0.1,
        9: 0.06,
        10: 0.04,
        11: 0.03,
        12: 0.02,
        18: 0.04,
        19: 0.08,
        20: 0.14,
        21: 0.14,
        22: 0.08,
        23: 0.05,
        24: 0.03,
    }.items():
        values[point] = v
    return tuple(values)


@dataclass(frozen=True)
class Weights:
    """The evaluation's hand-tuned weights, in logit units unless noted."""

    #: pips in a pure race and in contact positions (per pip over the race's spread)
    race_pip: float = 0.8
    contact_pip: float = 0.55
    #: pips a checker left on the board is worth in a race (bear-off wastage)
    wastage: float = 2.0
    #: being on roll: half a roll in pips in a race; in contact a fixed amount
    tempo_pips: float = 4.0
    tempo: float = 0.15
    #: a hit: a fixed tempo loss, more against a closed board (per (home points / 6) ** 2),
    #: plus the pips the checker loses (per pip over the race's spread)
    hit_base: float = 0.35
    hit_entry: float = 0.5
    hit_pips: float = 0.55
    #: value of a made point, by the owner's point number (index 1-24)
    point_values: tuple[float, ...] = field(default_factory=_default_point_values)
    #: the share of rolls on which the opponent's rearmost checker cannot escape past
    #: our outfield points
    trap: float = 0.45
    #: checkers on the bar / waiting against a closed board (times (home points / 6) ** 2)
    bar: float = 0.15
    bar_closed: float = 0.9
    waiting_closed: float = 0.35
    #: checkers beyond three on one point
    stack: float = 0.04
    #: all contact terms together, calibrating them against the race formula (fitted to
    #: the outcomes of self-play games)
    contact_scale: float = 0.4


class Evaluator:
    """Scores side boards; one instance per set of weights (it keeps no other state)."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def value(self, s: SideBoard, *, on_roll: bool, named: int | None = None) -> float:
        """Winning chances of "me" in ``s`` mapped to -1..+1.

        ``on_roll`` says whether I roll next (then the opponent's blots are at risk, else
        mine). ``named`` is one of my own points holding a blot I named (greek R8): the
        opponent must hit it when they can.
        """
        if s[MY_OFF] == 15:
            return 1.0
        if s[OPP_OFF] == 15:
            return -1.0
        logit = self.logit(s, on_roll=on_roll, named=named)
        if logit > 30:
            return 1.0
        if logit < -30:
            return -1.0
        return 2.0 / (1.0 + math.exp(-logit)) - 1.0

    def logit(self, s: SideBoard, *, on_roll: bool, named: int | None = None) -> float:
        """The evaluation before squashing (positive favours me).

        One pass over the points collects pips, made points (as bitmasks, mine in my
        numbering, theirs in theirs), blots and checker positions; the rest are table
        look-ups and the blot-risk count.
        """
        w = self.weights
        pv = w.point_values
        my_made = 0  # bit p: I hold my point p
        opp_made = 0  # bit j: they hold their point j (my point 25 - j)
        my_pips = 25 * (s[MY_BAR] + s[MY_WAITING])
        opp_pips = 25 * (s[OPP_BAR] + s[OPP_WAITING])
        mine: list[int] = []  # my points holding my checkers, ascending
        theirs: list[int] = []  # my points holding theirs, ascending
        positional = 0.0
        stacks = 0
        for p in range(1, 25):
            n = s[p]
            if n > 0:
                mine.append(p)
                my_pips += n * p
                if n >= 2:
                    my_made |= 1 << p
                    positional += pv[p]
                    if n > 3:
                        stacks += n - 3
            elif n < 0:
                theirs.append(p)
                j = 25 - p
                opp_pips -= n * j
                if n <= -2:
                    opp_made |= 1 << j
                    positional -= pv[j]
                    if n < -3:
                        stacks -= -n - 3
        # Rearmost checkers: mine as my point (25 = bar or waiting), theirs as my point
        # (0 = bar or waiting).
        if s[MY_BAR] or s[MY_WAITING]:
            my_rear = 25
        else:
            my_rear = mine[-1] if mine else 0
        if s[OPP_BAR] or s[OPP_WAITING]:
            opp_rear = 0
        else:
            opp_rear = theirs[0] if theirs else 25
        tempo = w.tempo_pips if on_roll else -w.tempo_pips
        if my_rear <= opp_rear:
            # No contact: a pure race.
            my_eff = my_pips + w.wastage * (15 - s[MY_OFF])
            opp_eff = opp_pips + w.wastage * (15 - s[OPP_OFF])
            avg = max(1.0, (my_eff + opp_eff) / 2)
            return w.race_pip * 1.7 * (opp_eff - my_eff + tempo) / (2.13 * math.sqrt(avg))

        # A pip is worth less the longer the race still is (its spread grows as a root).
        unit = 1.7 / (2.13 * math.sqrt(max(1.0, (my_pips + opp_pips) / 2)))
        logit = w.contact_pip * (opp_pips - my_pips) * unit + positional - w.stack * stacks
        logit += w.tempo if on_roll else -w.tempo

        my_home = (my_made >> 1 & 0x3F).bit_count()
        opp_home = (opp_made >> 1 & 0x3F).bit_count()
        my_closed = (opp_home / 6) ** 2  # how closed the board I enter against is
        opp_closed = (my_home / 6) ** 2
        if s[MY_BAR]:
            logit -= s[MY_BAR] * (w.bar + w.bar_closed * my_closed)
        if s[OPP_BAR]:
            logit += s[OPP_BAR] * (w.bar + w.bar_closed * opp_closed)
        if s[MY_WAITING]:
            logit -= s[MY_WAITING] * w.waiting_closed * my_closed
        if s[OPP_WAITING]:
            logit += s[OPP_WAITING] * w.waiting_closed * opp_closed

        # Containment of each side's rearmost checker by the other's outfield points
        # (points in the trapped side's home board need not be passed).
        if my_made & OUTFIELD and opp_rear < 18:
            logit += w.trap * (36 - ESCAPES[(my_made & OUTFIELD) >> (opp_rear + 1) & 0xFFF]) / 36
        if opp_made & OUTFIELD and my_rear > 7:
            rear = 25 - my_rear  # in their numbering
            logit -= w.trap * (36 - ESCAPES[(opp_made & OUTFIELD) >> (rear + 1) & 0xFFF]) / 36

        # Blot risk of the side not on roll, in the blots' owner's numbering.
        if on_roll:
            blots = [25 - p for p in theirs if s[p] == -1]
            if blots:
                sources = [25 - p for p in reversed(mine)]
                logit += self._risk(
                    blots, opp_made, sources, s[MY_BAR], s[MY_WAITING], my_home, unit, None
                )
        else:
            blots = [p for p in mine if s[p] == 1]
            if blots:
                logit -= self._risk(
                    blots,
                    my_made,
                    theirs,
                    s[OPP_BAR],
                    s[OPP_WAITING],
                    opp_home,
                    unit,
                    named,
                )
        return logit * w.contact_scale

    def _risk(
        self,
        blots: list[int],
        blocked: int,
        sources: list[int],
        attacker_bar: int,
        attacker_waiting: int,
        attacker_home: int,
        unit: float,
        named: int | None,
    ) -> float:
        """Expected cost (logit) of the blots' owner being hit next roll.

        ``blots``, ``blocked`` (a bitmask of the owner's made points) and ``sources`` (the
        points holding attackers, ascending) are in the owner's numbering; attackers move
        up it and enter from point 0. For each roll the costliest blot it can hit counts;
        a named blot (R8) is hit first when it can be.
        """
        w = self.weights
        # (source point, blocked points seen from it, combination shots allowed?)
        starts: list[tuple[int, int, bool]] = []
        if attacker_bar or attacker_waiting:
            # R3: with two or more on the bar, both dice go to entering.
            starts.append((0, blocked, attacker_bar <= 1))
        if attacker_bar <= 1:
            combos = attacker_bar == 0  # one on the bar takes one die
            top = blots[-1]
            for q in sources:
                if q >= top:
                    break
                starts.append((q, blocked >> q, combos))
        if not starts:
            return 0.0
        entry = w.hit_base + w.hit_entry * (attacker_home / 6) ** 2
        pip_loss = w.hit_pips * unit
        costed = []
        for p in blots:
            mask = 0
            for q, free, combos in starts:
                dist = p - q
                if dist <= 0:
                    break
                if not combos:
                    if dist <= 6:
                        mask |= DIRECT_SHOTS[dist]
                elif dist <= 12:
                    mask |= SHOT_TABLES[dist][free >> 1 & ((1 << (dist - 1)) - 1)]
                else:
                    for rolls, offsets in INDIRECT_SHOTS[dist]:
                        if not free & offsets:
                            mask |= rolls
            if mask:
                costed.append((p == named, entry + (25 - p) * pip_loss, mask))
        if not costed:
            return 0.0
        if len(costed) == 1:
            return costed[0][1] * costed[0][2].bit_count() / 36
        costed.sort(reverse=True)
        covered = 0
        total = 0.0
        for _, loss, mask in costed:
            fresh = mask & ~covered
            if fresh:
                total += loss * fresh.bit_count()
                covered |= mask
        return total / 36
