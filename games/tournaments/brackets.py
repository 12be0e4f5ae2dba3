"""Pairings and brackets for correspondence tournaments: pure Python, no Django.

A tournament is driven by events. The site creates one from seeded player ids (best
first), starts every match in :meth:`Tournament.pending_matches`, feeds results back with
:meth:`Tournament.report` or :meth:`Tournament.withdraw`, and keeps
:meth:`Tournament.to_dict` as JSON between requests. A match becomes pending as soon as
both its players are known; round robin and Swiss open a round only when the previous
one is complete.

>>> t = Tournament.create("single_elimination", [11, 12, 13, 14])
>>> [(m.slot_id, m.players) for m in t.pending_matches()]
[('W1-1', (11, 14)), ('W1-2', (12, 13))]
>>> t.report("W1-1", 11, points=(5, 3))
[]
>>> [m.slot_id for m in t.report("W1-2", 13)]
['W2-1']
>>> t.report("W2-1", 13)
[]
>>> t.is_finished, t.champion
(True, 13)
>>> Tournament.from_dict(t.to_dict()).to_dict() == t.to_dict()
True

Slot ids: ``W<round>-<n>`` (winners bracket; the only bracket of single elimination),
``L<round>-<n>`` (losers bracket), ``GF1`` and, after a bracket reset, ``GF2``;
``R<round>-<n>`` for round robin and Swiss (a round's bye, if any, is its last slot).

A side of a match holds a player id, ``None`` while not yet known, or :data:`BYE`. Byes
are decided at once and never count as a played match; in Swiss a bye scores as a win.
A withdrawn player loses every match they are or will be in by walkover (reported
automatically, counted as a played match and a loss); if both players of a match have
withdrawn, both lose and its ``winner`` is :data:`BYE`. Nor is a withdrawn player given a
bye: one who meets a bye goes out there (neither a win nor a loss, and not a bye in the
standings), its ``winner`` is :data:`BYE`, and whoever was to meet them next has the bye.
So a player who has withdrawn never goes through again, and the champion has not withdrawn.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import islice, takewhile
from typing import Any, ClassVar, Final, Literal, TypeIs

BYE: Final = "bye"
Side = int | Literal["bye"] | None
Feed = tuple[str | None, str | None]

STATE_VERSION: Final = 1


class TournamentError(ValueError):
    """A tournament was given something it cannot accept, worded for the organiser."""


class Format(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class Bracket(StrEnum):
    """Which part of the draw a match belongs to."""

    WINNERS = "winners"  # also the whole draw of single elimination
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    ROUNDS = "rounds"  # round robin and Swiss


@dataclass(frozen=True)
class MatchSlot:
    """One match of the draw, known or still waiting for its players."""

    slot_id: str
    bracket: Bracket
    round: int
    players: tuple[Side, Side]
    winner: Side = None
    #: Reported points, in the order of ``players``; ``None`` if not reported.
    points: tuple[int, int] | None = None
    walkover: bool = False

    @property
    def is_bye(self) -> bool:
        """A side is a bye: nobody plays this match."""
        return BYE in self.players

    @property
    def is_decided(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> Side:
        """The other player of a decided match; None while it is undecided."""
        if self.winner is None:
            return None
        first, second = self.players
        return second if self.winner == first else first

    @property
    def is_ready(self) -> bool:
        """Both players are known and no result is in yet."""
        return self.winner is None and all(_is_player(side) for side in self.players)


@dataclass(frozen=True)
class Round:
    """The matches of one round of one bracket, for drawing the tournament."""

    bracket: Bracket
    number: int
    matches: tuple[MatchSlot, ...]


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings. Byes are not counted in ``played`` or ``wins``."""

    rank: int
    player: int
    played: int
    wins: int
    losses: int
    byes: int
    #: Wins, plus byes in Swiss.
    score: int
    #: Swiss only: the sum of the scores of the opponents played (byes add nothing).
    buchholz: int | None
    points_for: int
    points_against: int
    withdrawn: bool


def places(standings: Sequence[Standing]) -> dict[int, tuple[int, int]]:
    """Each player's place in ``standings``: the first and last place of those who share
    their rank (out in the same round of an elimination draw), the same for a rank alone."""
    sharing = Counter(standing.rank for standing in standings)
    return {
        standing.player: (standing.rank, standing.rank + sharing[standing.rank] - 1)
        for standing in standings
    }


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (at least 2).

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 8, 9)]
    [2, 4, 4, 8, 8, 16]
    """
    return max(2, 1 << (players - 1).bit_length())


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket order: adjacent pairs meet in round 1, seeds 1 and 2 only in the final.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def drop_order(losers_round: int, matches: int) -> list[int]:
    """For losers round ``2k`` (``losers_round == 2k``): the index of the winners-round-(k+1)
    match whose loser drops into each of its ``matches`` matches.

    The standard cycle (reversed, halves swapped, halves reversed, straight) keeps a dropped
    player away from the part of the draw they came through, which avoids every avoidable
    early rematch in draws of up to 128 players.

    >>> drop_order(2, 4), drop_order(4, 4), drop_order(6, 4), drop_order(8, 4)
    ([3, 2, 1, 0], [2, 3, 0, 1], [1, 0, 3, 2], [0, 1, 2, 3])
    """
    indexes = list(range(matches))
    half = matches // 2
    match (losers_round // 2 - 1) % 4:
        case 0:
            return indexes[::-1]
        case 1:
            return indexes[half:] + indexes[:half]
        case 2:
            return indexes[:half][::-1] + indexes[half:][::-1]
        case _:
            return indexes


def round_robin_schedule(players: Sequence[int]) -> list[list[tuple[int, Side]]]:
    """Circle-method rounds: everyone meets everyone once; with an odd count, one bye a round.

    >>> round_robin_schedule([1, 2, 3, 4])
    [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    >>> round_robin_schedule([1, 2, 3])
    [[(2, 3), (1, 'bye')], [(1, 3), (2, 'bye')], [(1, 2), (3, 'bye')]]
    """
    circle: list[int | None] = [*players, None] if len(players) % 2 else list(players)
    count = len(circle)
    schedule = []
    for _ in range(count - 1):
        games: list[tuple[int, Side]] = []
        byes: list[tuple[int, Side]] = []
        for index in range(count // 2):
            first, second = circle[index], circle[count - 1 - index]
            if first is None or second is None:
                byes.append((first if second is None else second, BYE))  # type: ignore[arg-type]
            else:
                games.append((first, second))
        schedule.append(games + byes)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return schedule


def default_swiss_rounds(players: int) -> int:
    """ceil(log2(n)) + 1 rounds, but never more than n - 1 (nor :data:`MAX_SWISS_ROUNDS`).

    >>> [default_swiss_rounds(n) for n in (2, 3, 4, 6, 8, 9, 33)]
    [1, 2, 3, 4, 4, 5, 7]
    """
    return min(math.ceil(math.log2(players)) + 1, players - 1, MAX_SWISS_ROUNDS)


#: The most rounds a new Swiss may have. Pairing a round looks for one without a rematch;
#: with nearly as many rounds as players, late rounds leave each player few opponents they
#: have not met, and in a field of dozens the search for a pairing then takes seconds to
#: minutes (48 players, 31 rounds: 30 s for one report), inside the request that reports
#: the result. With up to 15 rounds it has taken a few milliseconds in every field measured,
#: 16 to 128 players (bench/swiss.py). For everyone to meet everyone, there is the round
#: robin.
MAX_SWISS_ROUNDS: Final = 15

#: Steps the look-ahead of :func:`pair_swiss_round` may take for one round: some tenths of
#: a second for 32 players. Fields of up to 20 players have needed a few thousand at most,
#: even with as many rounds as allowed, and a few dozen with the usual rounds; a large field
#: with the usual rounds needs none, as any pairing leaves its later rounds easy to pair.
#: When they run out, the pairing being looked at is taken, or the first not ruled out:
#: that last search, like the pairing of a last round, has no limit of steps.
LOOKAHEAD_STEPS: Final = 20_000


def pair_swiss_round(
    players: Sequence[int],
    scores: Mapping[int, int],
    opponents: Mapping[int, Collection[int]],
    had_bye: Collection[int] = (),
    *,
    rounds_after: int = 0,
) -> tuple[list[tuple[int, int]], int | None]:
    """Pair one Swiss round: the pairs (higher-ranked player first) and the bye, if any.

    ``players`` is in seed order; the pairing order is score, then seed. Within a score
    group the top half meets the bottom half; an odd player out floats down to the next
    group. With an odd count the bye goes to the lowest-ranked player who has not had one;
    a second bye, again lowest-ranked first, only if every bye to a player without one would
    mean a rematch (:func:`_bye_candidates`). The search backtracks (over the bye too), so a
    pairing repeats only if every possible pairing, with every possible bye, would repeat
    one, and then as few as possible.

    ``rounds_after`` is the number of rounds still to be paired after this one. The search
    then looks ahead: it takes the first pairing in that order after which those rounds too
    can be paired without a rematch whatever their results, their byes going to players who
    have had none while there are any (so it may give a second bye now to keep a first one
    for a later round); failing that, the first after which they can be paired with a
    second bye in a later round, as that round's own pairing would give one rather than a
    rematch. Only if there is neither does it pair as if this were the last round: a
    withdrawal may have left too few players, say. The look-ahead takes at most
    :data:`LOOKAHEAD_STEPS` steps; when they run out, the pairing it was looking at is taken,
    or the first it has not ruled out: what it had no time to search is no dead end.

    >>> pair_swiss_round([1, 2, 3, 4, 5, 6], {}, {})
    ([(1, 4), (2, 5), (3, 6)], None)

    Round 2 after 1 beat 4, 2 beat 3 and 5 had the bye:

    >>> pair_swiss_round([1, 2, 3, 4, 5], {1: 1, 2: 1, 5: 1}, {1: [4], 4: [1], 2: [3], 3: [2]}, [5])
    ([(1, 2), (5, 3)], 4)

    Round 3 of 4 after 1 beat 4, 2 beat 5, 6 beat 3, then 2 beat 1, 6 beat 4, 3 beat 5. By
    score it is 2 v 6, 1 v 3 and 4 v 5; but then 1, 5 and 6 have met all but each other, as
    have 2, 3 and 4, and round 4 could not be paired. Looking ahead, 1 meets 5 and 3 meets 4:

    >>> met = {1: [4, 2], 2: [5, 1], 3: [6, 5], 4: [1, 6], 5: [2, 3], 6: [3, 4]}
    >>> scores = {1: 1, 2: 2, 3: 1, 6: 2}
    >>> pair_swiss_round([1, 2, 3, 4, 5, 6], scores, met)
    ([(2, 6), (1, 3), (4, 5)], None)
    >>> pair_swiss_round([1, 2, 3, 4, 5, 6], scores, met, rounds_after=1)
    ([(2, 6), (1, 5), (3, 4)], None)
    """
    order = sorted(players, key=lambda player: -scores.get(player, 0))
    bye_candidates = _bye_candidates(order, had_bye)
    if rounds_after:
        later = _LaterRounds(order, opponents, had_bye, _Steps(LOOKAHEAD_STEPS))
        chosen = later.first_pairing_they_follow(bye_candidates, scores, rounds_after)
        if chosen is not None:
            return chosen
    for repeats in range(len(order) // 2 + 1):
        for bye in bye_candidates:
            rest = tuple(player for player in order if player != bye)
            pairs = next(_score_group_pairings(rest, scores, opponents, repeats), None)
            if pairs is not None:
                return pairs, bye
    raise AssertionError("unreachable: with every pair allowed to repeat, any pairing will do")


def _bye_candidates(order: Sequence[int], had_bye: Collection[int]) -> list[int | None]:
    """Who may have the bye of a round of ``order`` (in pairing order), first choice first:
    nobody with an even count; else the players who have had no bye, lowest-ranked first,
    then those who have, lowest-ranked first.

    A second bye is no rematch: it is given rather than a pairing repeated (or the
    tournament ended) for want of trying, but only when no bye to a player without one
    avoids the rematch, as the search tries the candidates in this order.
    """
    if len(order) % 2 == 0:
        return [None]
    lowest_first = list(reversed(order))
    return [
        *(player for player in lowest_first if player not in had_bye),
        *(player for player in lowest_first if player in had_bye),
    ]


def can_pair_swiss_round(
    players: Sequence[int],
    opponents: Mapping[int, Collection[int]],
    had_bye: Collection[int] = (),
) -> bool:
    """Whether :func:`pair_swiss_round` can pair ``players`` without a rematch, with the bye
    (if any) given as it gives it. Scores change only the order of preference, not whether
    there is such a pairing, so they do not come into it.

    >>> can_pair_swiss_round([1, 2, 3, 4], {1: [2], 2: [1]})
    True
    >>> can_pair_swiss_round([1, 2, 3, 4], {1: [2, 3, 4], 2: [1], 3: [1], 4: [1]})
    False
    """
    order = tuple(players)
    # Asked on every Swiss loss on time and deadline reminder, twice: when there is no
    # pairing, the search below exhausts every bye candidate, each of them in a large field.
    if _surely_pairable(_unmet(order, opponents), 1):
        return True
    for bye in _bye_candidates(order, had_bye):
        rest = tuple(player for player in order if player != bye)
        if next(_score_group_pairings(rest, {}, opponents, 0), None) is not None:
            return True
    return False


class _OutOfSteps(Exception):
    """A search has taken all the steps it may."""


@dataclass
class _Steps:
    """What is left of a search's allowance of steps."""

    left: int

    def take(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfSteps


def _score_group_pairings(
    order: tuple[int, ...],
    scores: Mapping[int, int],
    opponents: Mapping[int, Collection[int]],
    repeats: int,
    steps: _Steps | None = None,
) -> Iterator[list[tuple[int, int]]]:
    """Depth-first, best first, the pairings of ``order`` with at most ``repeats`` rematches.

    The candidates depend only on who is left, so a dead end (players left whom no pairing
    fits) is remembered and never searched again.
    """
    dead_ends: set[tuple[tuple[int, ...], int]] = set()

    def search(remaining: tuple[int, ...], allowed: int) -> Iterator[list[tuple[int, int]]]:
        if not remaining:
            yield []
            return
        if (remaining, allowed) in dead_ends:
            return
        if steps is not None:
            steps.take()
        first, found = remaining[0], False
        for partner in _partners_by_preference(remaining, scores):
            cost = int(partner in opponents.get(first, ()))
            if cost > allowed:
                continue
            rest = tuple(player for player in remaining if player not in (first, partner))
            for pairs in search(rest, allowed - cost):
                found = True
                yield [(first, partner), *pairs]
        if not found:
            dead_ends.add((remaining, allowed))

    return search(order, repeats)


#: For each player, in pairing order, the players they have not met.
_Unmet = dict[int, frozenset[int]]


def _unmet(players: Sequence[int], opponents: Mapping[int, Collection[int]]) -> _Unmet:
    """Each of ``players`` with those of them they have not met."""
    everyone = frozenset(players)
    return {player: everyone.difference((player,), opponents.get(player, ())) for player in players}


class _LaterRounds:
    """The look-ahead of :func:`pair_swiss_round`: can the rounds after this one be paired
    without a rematch? Their results are not known, so scores do not come into it: this is
    a search for successive rematch-free pairings of the same players, each with a bye if
    the count is odd, to a player who has had none while there is one; failing that, to
    any player (a second bye), those without one tried first.
    """

    def __init__(
        self,
        players: Sequence[int],
        opponents: Mapping[int, Collection[int]],
        had_bye: Collection[int],
        steps: _Steps,
    ) -> None:
        self.players = tuple(players)
        self.opponents = opponents
        self.steps = steps
        self.second_byes = False
        self.unmet = _unmet(self.players, opponents)
        self.byeless = frozenset(player for player in players if player not in had_bye)
        # Positions already searched: the rounds after the next candidate often reach them.
        self.known: dict[tuple[tuple[frozenset[int], ...], frozenset[int], int], bool] = {}

    def first_pairing_they_follow(
        self, bye_candidates: Sequence[int | None], scores: Mapping[int, int], rounds: int
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        """The first rematch-free pairing, in order of preference, after which ``rounds``
        more rounds can be paired. ``None`` if there is none, or if any rematch-free pairing
        will do (as in most large fields).

        Should the steps run out, what was not searched is unknown, not a dead end: the
        pairing being looked at is taken, or, if they ran out while the next pairing was
        being found, the first rematch-free pairing not ruled out already.
        """
        if _surely_pairable(self.unmet, rounds + 1):
            return None
        # A plan keeping later byes for players without one first, then one with a second
        # bye in a later round (which that round's own pairing gives rather than a
        # rematch): better than pairing this round as the last, and a rematch later. Both
        # searches take from the one allowance of steps.
        for second_byes in (False, True):
            self.second_byes = second_byes
            self.known.clear()  # verdicts under the other rule of byes
            chosen = self._first_followed(bye_candidates, scores, rounds)
            if chosen is not None:
                return chosen
        return None

    def _first_followed(
        self, bye_candidates: Sequence[int | None], scores: Mapping[int, int], rounds: int
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        ruled_out: set[tuple[tuple[tuple[int, int], ...], int | None]] = set()
        try:
            for bye in bye_candidates:
                rest = tuple(player for player in self.players if player != bye)
                for pairs in _score_group_pairings(rest, scores, self.opponents, 0, self.steps):
                    if self._can_follow(pairs, bye, rounds):
                        return pairs, bye
                    ruled_out.add((tuple(pairs), bye))
        except _OutOfSteps:
            return self._first_not_ruled_out(bye_candidates, scores, ruled_out)
        return None

    def _first_not_ruled_out(
        self,
        bye_candidates: Sequence[int | None],
        scores: Mapping[int, int],
        ruled_out: Collection[tuple[tuple[tuple[int, int], ...], int | None]],
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        """The first rematch-free pairing in order of preference that is not in
        ``ruled_out``, found without a limit of steps (as the last round is paired): one
        more than those ruled out, which the steps allowed, at most."""
        for bye in bye_candidates:
            rest = tuple(player for player in self.players if player != bye)
            for pairs in _score_group_pairings(rest, scores, self.opponents, 0):
                if (tuple(pairs), bye) not in ruled_out:
                    return pairs, bye
        return None

    def _can_follow(self, pairs: list[tuple[int, int]], bye: int | None, rounds: int) -> bool:
        unmet, byeless = _after_round(self.unmet, self.byeless, pairs, bye)
        try:
            return self._can_pair(unmet, byeless, rounds)
        except _OutOfSteps:
            return True  # no time to look further: take this pairing

    def _can_pair(self, unmet: _Unmet, byeless: frozenset[int], rounds: int) -> bool:
        if rounds == 0 or _surely_pairable(unmet, rounds):
            return True
        key = (tuple(unmet.values()), byeless, rounds)
        if key not in self.known:
            self.known[key] = any(
                self._can_pair(*_after_round(unmet, byeless, pairs, bye), rounds - 1)
                for pairs, bye in self._rematch_free_rounds(unmet, byeless)
            )
        return self.known[key]

    def _rematch_free_rounds(
        self, unmet: _Unmet, byeless: frozenset[int]
    ) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
        byes: Sequence[int | None] = [None]
        if len(unmet) % 2:
            first = [player for player in unmet if player in byeless]
            again = [player for player in unmet if player not in byeless]
            byes = [*first, *again] if self.second_byes else first or again
        for bye in byes:
            for pairs in self._matchings(frozenset(unmet) - {bye}, unmet):
                yield pairs, bye

    def _matchings(self, left: frozenset[int], unmet: _Unmet) -> Iterator[list[tuple[int, int]]]:
        if not left:
            yield []
            return
        self.steps.take()
        # The player with the fewest partners left first, so that a dead end shows soonest.
        first = min((p for p in self.players if p in left), key=lambda p: len(unmet[p] & left))
        partners = unmet[first] & left
        for partner in (p for p in self.players if p in partners):
            for pairs in self._matchings(left - {first, partner}, unmet):
                yield [(first, partner), *pairs]


def _after_round(
    unmet: _Unmet, byeless: frozenset[int], pairs: list[tuple[int, int]], bye: int | None
) -> tuple[_Unmet, frozenset[int]]:
    after = dict(unmet)
    for first, second in pairs:
        after[first] -= {second}
        after[second] -= {first}
    return after, byeless - {bye}


def _surely_pairable(unmet: _Unmet, rounds: int) -> bool:
    """A quick sufficient condition for ``rounds`` rounds to be pairable without a rematch.

    If each of 2m players has m partners or more, they can all be paired (Dirac: there is a
    Hamiltonian cycle even). A round takes at most one partner from each player, and with
    an odd count the bye takes at most one more: so if the fewest partners anyone has, less
    a partner a round, less one for the bye, still leave half the rest, every round pairs.
    """
    count = len(unmet)
    fewest = min((len(partners) for partners in unmet.values()), default=0)
    return fewest - (rounds - 1) - count % 2 >= count // 2


def _partners_by_preference(remaining: tuple[int, ...], scores: Mapping[int, int]) -> list[int]:
    """Partners for ``remaining[0]``, best first: its score group's bottom half, the rest of
    the group, then lower groups. A lone player (one who floated down) joins the next group.
    """
    first = remaining[0]
    group = [player for player in remaining if scores.get(player, 0) == scores.get(first, 0)]
    if len(group) == 1 and len(remaining) > 1:
        below = scores.get(remaining[1], 0)
        group = [first, *(p for p in remaining[1:] if scores.get(p, 0) == below)]
    half = len(group) // 2
    in_group = set(group)
    return [*group[half:], *group[1:half][::-1], *(p for p in remaining if p not in in_group)]


@dataclass
class _Record:
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    opponents: list[int] = field(default_factory=list)


class Tournament(ABC):
    """The interface shared by every format. Create one with :meth:`create` (or a format's
    class), restore one with :meth:`from_dict`.
    """

    format: ClassVar[Format]
    option_names: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, players: Iterable[int]) -> None:
        self.players: tuple[int, ...] = _checked_players(players)
        self._seed = {player: index for index, player in enumerate(self.players)}
        self._withdrawn: list[int] = []
        self._slots: dict[str, MatchSlot] = {}
        self._feeds: dict[str, Feed] = {}

    @staticmethod
    def create(format: Format | str, players: Iterable[int], **options: Any) -> Tournament:
        """A new tournament of ``format`` for ``players`` in seed order (best first).

        Options: Swiss takes ``rounds`` (default :func:`default_swiss_rounds`).
        """
        kind = _format_class(format)
        unknown = set(options) - kind.option_names
        if unknown:
            raise TournamentError(f"{kind.format} takes no option {', '.join(sorted(unknown))}")
        return kind(players, **options)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {len(self.players)} players>"

    # Queries

    @property
    def withdrawn(self) -> tuple[int, ...]:
        """Withdrawn players, in the order they withdrew."""
        return tuple(self._withdrawn)

    @property
    @abstractmethod
    def is_finished(self) -> bool:
        """Every match is decided and nothing more will be laid out."""

    def in_contention(self, player: int) -> bool:
        """``player`` is still in: not withdrawn, and with a match to play, now or to come.
        Out are withdrawn players, players knocked out of an elimination draw, and everyone
        once the tournament is over.

        >>> t = Tournament.create("single_elimination", [1, 2, 3, 4])
        >>> _ = t.report("W1-1", 1)  # 4 is out; 1 waits for the winner of W1-2
        >>> [t.in_contention(player) for player in (1, 2, 3, 4)]
        [True, True, True, False]
        """
        if player not in self._seed or not _is_player(player):
            raise TournamentError(f"{player!r} is not playing in this tournament")
        return player not in self._withdrawn and self._has_match_left(player)

    @property
    @abstractmethod
    def champion(self) -> int | None:
        """The winner once the tournament is finished, else ``None``."""

    @abstractmethod
    def standings(self) -> list[Standing]:
        """Everyone, best first (see the format's class for the order)."""

    def match(self, slot_id: str) -> MatchSlot:
        """The match in ``slot_id``."""
        try:
            return self._slots[slot_id]
        except KeyError:
            raise TournamentError(f"there is no match {slot_id!r} in this tournament") from None

    def matches(self) -> list[MatchSlot]:
        """Every match of the draw so far, in the order they were laid out."""
        return list(self._slots.values())

    def pending_matches(self) -> list[MatchSlot]:
        """Matches whose two players are known and that await a result: start these."""
        return [slot for slot in self._open_slots() if slot.is_ready]

    def byes(self) -> list[MatchSlot]:
        """The byes given so far: decided matches in which a player (the ``winner``) had no
        opponent. A round robin's byes of rounds not yet reached are not given yet.

        >>> t = Tournament.create("round_robin", [1, 2, 3])
        >>> [(slot.slot_id, slot.winner) for slot in t.byes()]
        [('R1-2', 1)]
        >>> _ = t.report("R1-1", 2)  # round 1 is complete: round 2 opens, with its bye
        >>> [(slot.slot_id, slot.winner) for slot in t.byes()]
        [('R1-2', 1), ('R2-2', 2)]
        """
        return [slot for slot in self._slots.values() if slot.is_bye and _is_player(slot.winner)]

    def walkovers(self) -> list[MatchSlot]:
        """The walkovers given so far: matches a player (the ``winner``) won because their
        opponent had withdrawn. A double walkover, both players withdrawn, has no winner and
        is not listed.

        >>> t = Tournament.create("single_elimination", [1, 2, 3, 4])
        >>> _ = t.report("W1-1", 1)
        >>> _ = t.withdraw(1)  # 1 was to play the winner of W1-2 in the final
        >>> t.walkovers()
        []
        >>> _ = t.report("W1-2", 3)
        >>> [(slot.slot_id, slot.winner) for slot in t.walkovers()]
        [('W2-1', 3)]
        """
        return [slot for slot in self._slots.values() if slot.walkover and _is_player(slot.winner)]

    def rounds(self, bracket: Bracket | None = None) -> list[Round]:
        """The draw round by round (of one ``bracket`` only, if given), for drawing it."""
        grouped: dict[tuple[Bracket, int], list[MatchSlot]] = {}
        for slot in self._slots.values():
            if bracket is None or slot.bracket == bracket:
                grouped.setdefault((slot.bracket, slot.round), []).append(slot)
        return [Round(part, number, tuple(slots)) for (part, number), slots in grouped.items()]

    # Events

    def report(
        self,
        slot_id: str,
        winner: int,
        *,
        points: tuple[int, int] | None = None,
        loser_withdraws: bool = False,
    ) -> list[MatchSlot]:
        """Record that ``winner`` won the match in ``slot_id``; ``points`` are in the order of
        the match's players (not checked against the winner: a match can end by resignation
        or timeout). Returns the matches this made pending.

        ``loser_withdraws``: the loser leaves with this result (they resigned to withdraw, or
        lost on time). They are withdrawn before the draw settles, so the round this result
        completes is followed by one paired without them, and the match it sends them to is
        lost by walkover: reported first and withdrawn after, they would be paired, given a
        bye, or win a walkover against another withdrawn player. Not if this result ends
        the tournament (nobody withdraws from a tournament that is over).

        >>> t = Tournament.create("round_robin", [1, 2, 3, 4])
        >>> _ = t.report("R1-1", 4, loser_withdraws=True)
        >>> _ = t.report("R1-2", 2, loser_withdraws=True)  # round 2 opens: 1 v 3, 4 v 2
        >>> t.withdrawn, t.match("R2-1").winner, [m.slot_id for m in t.pending_matches()]
        ((1, 3), 'bye', ['R2-2'])
        """
        slot = self._reportable(slot_id)
        if not _is_player(winner) or winner not in slot.players:
            raise TournamentError(f"{winner!r} is not playing in match {slot_id}")
        before = self._pending_ids()
        self._slots[slot_id] = replace(slot, winner=winner, points=_checked_points(points))
        if loser_withdraws and not self.is_finished:
            self._withdrawn.append(_loser(self._slots[slot_id]))  # type: ignore[arg-type]
        self._settle()
        return self._pending_since(before)

    def withdraw(self, player: int) -> list[MatchSlot]:
        """Withdraw ``player``: they lose their pending and future matches by walkover.
        Returns the matches this made pending. Refused for a player knocked out of an
        elimination draw: they have nothing left to withdraw from, and marking them
        withdrawn would only rewrite how they went out.
        """
        if player not in self._seed or not _is_player(player):
            raise TournamentError(f"{player!r} is not playing in this tournament")
        if player in self._withdrawn:
            raise TournamentError(f"player {player} has already withdrawn")
        # With one player left in contention every match left is a bye or a walkover, so
        # the tournament finishes: nobody can withdraw from a tournament without a winner.
        if self.is_finished:
            raise TournamentError("the tournament is over")
        if not self.in_contention(player):
            raise TournamentError(f"player {player} is out of the tournament already")
        before = self._pending_ids()
        self._withdrawn.append(player)
        self._settle()
        return self._pending_since(before)

    # State

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; :meth:`from_dict` restores it exactly."""
        return {
            "format": self.format.value,
            "version": STATE_VERSION,
            "players": list(self.players),
            "options": self._options(),
            "withdrawn": list(self._withdrawn),
            "slots": [
                _slot_to_dict(slot, self._feeds.get(slot.slot_id, (None, None)))
                for slot in self._slots.values()
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        """Restore a tournament saved by :meth:`to_dict`."""
        try:
            kind = _format_class(data["format"])
            if not issubclass(kind, cls):
                raise TournamentError(f"this state is of a {kind.format} tournament")
            if data["version"] != STATE_VERSION:
                raise TournamentError(f"unknown state version {data['version']!r}")
            tournament = kind.__new__(kind)
            Tournament.__init__(tournament, data["players"])
            tournament._restore_options(data["options"])
            tournament._restore_matches(data["withdrawn"], data["slots"])
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            if isinstance(error, TournamentError):
                raise
            raise TournamentError(f"malformed tournament state: {error!r}") from error
        return tournament

    # Hooks for the formats

    @abstractmethod
    def _settle(self) -> None:
        """Fill in what results so far decide: players of later matches, byes, walkovers."""

    def _open_slots(self) -> Iterable[MatchSlot]:
        """The matches that may be played now (rather than in a later round)."""
        return self._slots.values()

    def _has_match_left(self, player: int) -> bool:
        """``player`` (not withdrawn) has a match to play, now or to come. Round by round,
        everyone plays (or sits out) every round until the last."""
        return not self.is_finished

    def _options(self) -> dict[str, Any]:
        return {}

    def _restore_options(self, options: Mapping[str, Any]) -> None:
        if options != {}:
            raise TournamentError(f"{self.format} takes no options")

    # Shared machinery

    def _add_slot(
        self,
        slot_id: str,
        bracket: Bracket,
        number: int,
        players: tuple[Side, Side] = (None, None),
        feeds: Feed = (None, None),
    ) -> None:
        self._slots[slot_id] = MatchSlot(slot_id, bracket, number, players)
        if feeds != (None, None):
            self._feeds[slot_id] = feeds

    def _reportable(self, slot_id: str) -> MatchSlot:
        slot = self.match(slot_id)
        if slot.is_bye:
            raise TournamentError(f"{slot_id} is a bye, not a match")
        if slot.walkover:
            raise TournamentError(f"{slot_id} was already decided by walkover")
        if slot.is_decided:
            raise TournamentError(f"{slot_id} already has a result")
        if not slot.is_ready:
            raise TournamentError(f"{slot_id} cannot be played yet: its players are not known")
        if slot not in self._open_slots():
            raise TournamentError(f"{slot_id} is in a later round than the one being played")
        return slot

    def _decided_automatically(self, slot: MatchSlot) -> MatchSlot:
        """A bye or a withdrawal decides a match without play."""
        first, second = slot.players
        if slot.is_decided or first is None or second is None:
            return slot
        if BYE in slot.players:
            # A withdrawn player does not go through on a bye: the bye goes on in their
            # place (as a double walkover's does), so the next opponent has the bye rather
            # than a walkover over a player who has left. It is no walkover: nobody won.
            side = second if first == BYE else first
            return replace(slot, winner=BYE if side in self._withdrawn else side)
        absent = [player for player in slot.players if player in self._withdrawn]
        if len(absent) == 2:
            return replace(slot, winner=BYE, walkover=True)
        if absent:
            return replace(slot, winner=second if first in absent else first, walkover=True)
        return slot

    def _decide_open_matches(self) -> None:
        for slot in list(self._open_slots()):
            self._slots[slot.slot_id] = self._decided_automatically(slot)

    def _records(self, *, leaving_out: Collection[int] = ()) -> dict[int, _Record]:
        """Each player's record of the decided matches, those against ``leaving_out``
        left out."""
        records = {player: _Record() for player in self.players}
        for slot in self._slots.values():
            first, second = slot.players
            if not slot.is_decided or first in leaving_out or second in leaving_out:
                continue
            if not (_is_player(first) and _is_player(second)):  # a bye: nobody played
                # Only to the player it carried on: not to a withdrawn one who met it.
                if _is_player(slot.winner):
                    records[slot.winner].byes += 1
                continue
            points = slot.points or (0, 0)
            _count_match(records[first], second, won=slot.winner == first, points=points)
            _count_match(records[second], first, won=slot.winner == second, points=points[::-1])
        return records

    def _standing(self, rank: int, player: int, record: _Record, **extra: Any) -> Standing:
        values: dict[str, Any] = {"score": record.wins, "buchholz": None, **extra}
        return Standing(
            rank=rank,
            player=player,
            played=record.played,
            wins=record.wins,
            losses=record.losses,
            byes=record.byes,
            points_for=record.points_for,
            points_against=record.points_against,
            withdrawn=player in self._withdrawn,
            **values,
        )

    def _pending_ids(self) -> set[str]:
        return {slot.slot_id for slot in self.pending_matches()}

    def _pending_since(self, before: set[str]) -> list[MatchSlot]:
        return [slot for slot in self.pending_matches() if slot.slot_id not in before]

    def _restore_matches(
        self, withdrawn: Iterable[Any], slots: Iterable[Mapping[str, Any]]
    ) -> None:
        for player in withdrawn:
            if player not in self._seed or player in self._withdrawn or not _is_player(player):
                raise TournamentError(f"withdrawn player {player!r} is not in the tournament")
            self._withdrawn.append(player)
        for data in slots:
            slot, feeds = _slot_from_dict(data, self._seed)
            if slot.slot_id in self._slots:
                raise TournamentError(f"match {slot.slot_id} appears twice")
            for feed in feeds:
                if feed is not None and _parse_feed(feed)[1] not in self._slots:
                    raise TournamentError(f"match {slot.slot_id} is fed by an unknown match")
            self._slots[slot.slot_id] = slot
            if feeds != (None, None):
                self._feeds[slot.slot_id] = feeds


class _Elimination(Tournament):
    """A draw laid out in full at the start: each match is fed by the winner or loser of
    earlier ones. Matches are laid out in an order where feeders come first.
    """

    def __init__(self, players: Iterable[int]) -> None:
        super().__init__(players)
        self._lay_out()
        self._settle()

    @property
    def is_finished(self) -> bool:
        final = self._final()
        return final.is_decided and not self._needs_reset()

    @property
    def champion(self) -> int | None:
        if not self.is_finished:
            return None
        winner = self._final().winner
        return winner if _is_player(winner) else None

    def standings(self) -> list[Standing]:
        """Champion first, then players still in, then the others by how far they got;
        players who went out at the same stage share a rank. Ties are listed by seed.
        Players who withdrew come below all the others (by how far they got among
        themselves), as in a Swiss or a round robin, and as the emails warning of a loss
        on time say: one who withdrew at once, a bye and then a walkover behind them,
        shared the place of a semi-finalist beaten at the board, above those out before.
        """
        records = self._records()
        champion = self.champion
        still_in = {
            side
            for slot in self._slots.values()
            if not slot.is_decided
            for side in slot.players
            if _is_player(side)
        }
        last_match = {
            side: slot for slot in self._slots.values() for side in slot.players if _is_player(side)
        }

        def progress(player: int) -> tuple[int, int, int]:
            stayed = int(player not in self._withdrawn)
            if player == champion:
                return (stayed, 2, 0)
            if player in still_in:
                return (stayed, 1, 0)
            return (stayed, 0, self._stage(last_match[player]))

        order = sorted(self.players, key=progress, reverse=True)  # stable: seeds stay in order
        standings = []
        rank = 0
        for index, player in enumerate(order):
            if index == 0 or progress(player) != progress(order[index - 1]):
                rank = index + 1
            standings.append(self._standing(rank, player, records[player]))
        return standings

    @abstractmethod
    def _lay_out(self) -> None:
        """Add every match of the draw, feeders before the matches they feed."""

    @abstractmethod
    def _final(self) -> MatchSlot:
        """The match that decides the champion, as far as is known."""

    def _needs_reset(self) -> bool:
        return False

    def _has_match_left(self, player: int) -> bool:
        # Whoever is still in is a side of an undecided match: their current one, or the
        # next, waiting for its other player (results fill in the next match at once).
        return any(not slot.is_decided and player in slot.players for slot in self._slots.values())

    @abstractmethod
    def _stage(self, slot: MatchSlot) -> int:
        """How far a player whose last match was ``slot`` got; higher is further."""

    def _settle(self) -> None:
        for slot_id in self._slots:
            slot = self._slots[slot_id]
            if not slot.is_decided:
                self._slots[slot_id] = self._decided_automatically(self._filled(slot))

    def _filled(self, slot: MatchSlot) -> MatchSlot:
        feeds = self._feeds.get(slot.slot_id, (None, None))
        sides = list(slot.players)
        for index, feed in enumerate(feeds):
            if feed is None or sides[index] is not None:
                continue
            outcome, source_id = _parse_feed(feed)
            source = self._slots[source_id]
            if source.is_decided:
                sides[index] = source.winner if outcome == "winner" else _loser(source)
        if tuple(sides) == slot.players:
            return slot
        return replace(slot, players=(sides[0], sides[1]))

    def _lay_out_winners(self) -> int:
        """The winners bracket, with byes to the top seeds; returns its number of rounds."""
        size = bracket_size(len(self.players))
        sides: list[Side] = [
            self.players[seed - 1] if seed <= len(self.players) else BYE
            for seed in seeding_order(size)
        ]
        for index in range(size // 2):
            self._add_slot(
                f"W1-{index + 1}", Bracket.WINNERS, 1, (sides[2 * index], sides[2 * index + 1])
            )
        rounds = size.bit_length() - 1
        for number in range(2, rounds + 1):
            for index in range(size >> number):
                self._add_slot(
                    f"W{number}-{index + 1}",
                    Bracket.WINNERS,
                    number,
                    feeds=(
                        f"winner:W{number - 1}-{2 * index + 1}",
                        f"winner:W{number - 1}-{2 * index + 2}",
                    ),
                )
        return rounds


class SingleElimination(_Elimination):
    """Knock-out: one loss and you are out."""

    format = Format.SINGLE_ELIMINATION

    def _lay_out(self) -> None:
        self._lay_out_winners()

    def _final(self) -> MatchSlot:
        return next(reversed(self._slots.values()))

    def _stage(self, slot: MatchSlot) -> int:
        return slot.round


class DoubleElimination(_Elimination):
    """Two losses and you are out. The losers-bracket champion meets the winners-bracket
    champion in ``GF1``; if the losers-bracket champion wins it, ``GF2`` decides.

    Losers bracket: round 1 pairs the losers of winners round 1; each even round ``2k``
    takes the losers of winners round ``k + 1`` (placed by :func:`drop_order`) against the
    survivors; each later odd round pairs the survivors among themselves.
    """

    format = Format.DOUBLE_ELIMINATION

    def _lay_out(self) -> None:
        winners_rounds = self._lay_out_winners()
        size = bracket_size(len(self.players))
        champion_of_losers = "loser:W1-1"
        if winners_rounds >= 2:
            for index in range(size // 4):
                self._add_slot(
                    f"L1-{index + 1}",
                    Bracket.LOSERS,
                    1,
                    feeds=(f"loser:W1-{2 * index + 1}", f"loser:W1-{2 * index + 2}"),
                )
            for k in range(1, winners_rounds):
                self._lay_out_losers_rounds(k, size >> (k + 1), last=k == winners_rounds - 1)
            champion_of_losers = f"winner:L{2 * winners_rounds - 2}-1"
        self._add_slot(
            "GF1",
            Bracket.GRAND_FINAL,
            1,
            feeds=(f"winner:W{winners_rounds}-1", champion_of_losers),
        )

    def _lay_out_losers_rounds(self, k: int, matches: int, *, last: bool) -> None:
        """Losers round 2k (the drop from winners round k + 1) and, unless last, round 2k + 1."""
        dropping = 2 * k
        for index, source in enumerate(drop_order(dropping, matches)):
            self._add_slot(
                f"L{dropping}-{index + 1}",
                Bracket.LOSERS,
                dropping,
                feeds=(f"loser:W{k + 1}-{source + 1}", f"winner:L{dropping - 1}-{index + 1}"),
            )
        if last:
            return
        for index in range(matches // 2):
            self._add_slot(
                f"L{dropping + 1}-{index + 1}",
                Bracket.LOSERS,
                dropping + 1,
                feeds=(
                    f"winner:L{dropping}-{2 * index + 1}",
                    f"winner:L{dropping}-{2 * index + 2}",
                ),
            )

    def _final(self) -> MatchSlot:
        return self._slots.get("GF2") or self._slots["GF1"]

    def _needs_reset(self) -> bool:
        """The losers-bracket champion beat the winners-bracket champion (not a bye) in GF1.

        Not after a walkover: a winners-bracket champion who withdrew cannot play the
        reset either, so it would only be a second walkover for the same title.
        """
        first = self._slots["GF1"]
        return (
            "GF2" not in self._slots
            and first.is_decided
            and not first.walkover
            and not first.is_bye
            and first.winner == first.players[1]
        )

    def _settle(self) -> None:
        super()._settle()
        if self._needs_reset():
            self._add_slot("GF2", Bracket.GRAND_FINAL, 2, self._slots["GF1"].players)
            super()._settle()

    def _stage(self, slot: MatchSlot) -> int:
        if slot.bracket == Bracket.WINNERS:
            # Only withdrawn players go out in the winners bracket: two meeting there, or
            # one meeting a bye.
            return 0
        if slot.bracket == Bracket.LOSERS:
            return slot.round
        return len(self._slots)  # the grand final: beyond every losers round


class _RoundBased(Tournament):
    """Formats played round by round: a round opens when the previous one is complete."""

    # Slots are laid out round by round, and a decided slot stays decided, so everything
    # before the first undecided slot stays decided: remember where it is.
    _decided_prefix = 0

    def _current_round(self) -> int | None:
        later = islice(self._slots.values(), self._decided_prefix, None)
        for index, slot in enumerate(later, self._decided_prefix):
            if slot.winner is None:
                self._decided_prefix = index
                return slot.round
        self._decided_prefix = len(self._slots)
        return None

    def _open_slots(self) -> list[MatchSlot]:
        """The current round's slots from its first undecided one on."""
        current = self._current_round()
        later = islice(self._slots.values(), self._decided_prefix, None)
        return list(takewhile(lambda slot: slot.round == current, later))

    def _settle(self) -> None:
        while True:
            current = self._current_round()
            self._decide_open_matches()
            if self._current_round() == current and not self._open_next_round():
                return

    def _open_next_round(self) -> bool:
        """Lay out the next round if it is not laid out in advance; was one added?"""
        return False

    @property
    def is_finished(self) -> bool:
        return self._current_round() is None

    @property
    def champion(self) -> int | None:
        """The top of the standings once the last round is complete."""
        return self.standings()[0].player if self.is_finished else None


class RoundRobin(_RoundBased):
    """Everyone plays everyone once, in circle-method rounds (one bye a round if odd).

    Standings: wins; then head-to-head wins among the players level on wins; then points
    difference over all matches; then points for; then seed. A withdrawn player's later
    matches are walkovers, and withdrawn players are ranked after everyone who played on
    (in the same order among themselves), so the champion is never a withdrawn player.
    """

    format = Format.ROUND_ROBIN

    def __init__(self, players: Iterable[int]) -> None:
        super().__init__(players)
        for number, pairs in enumerate(round_robin_schedule(self.players), 1):
            for index, pair in enumerate(pairs, 1):
                self._add_slot(f"R{number}-{index}", Bracket.ROUNDS, number, pair)
        self._settle()

    def standings(self) -> list[Standing]:
        records = self._records()
        # Wins over the players level on wins: not over one who withdrew, who is ranked
        # after everyone (a walkover over them would level a head-to-head lost in play).
        head_to_head = dict.fromkeys(self.players, 0)
        for slot in self._slots.values():
            if not slot.is_decided:
                continue
            winner, loser = slot.winner, _loser(slot)
            played = _is_player(winner) and _is_player(loser)
            if not played or {winner, loser} & set(self._withdrawn):
                continue
            if records[winner].wins == records[loser].wins:  # type: ignore[index]
                head_to_head[winner] += 1  # type: ignore[index]

        # Points break ties only as counted in the matches between players who did not
        # withdraw: a player who withdrew gave some opponents a walkover (0-0) and the one
        # who beat them on time the game's points (15-0, R9, when they never moved), and
        # the order of the rounds, not the play, decided which got which.
        among_stayers = self._records(leaving_out=set(self._withdrawn))

        def key(player: int) -> tuple[int, ...]:
            points = among_stayers[player]
            return (
                player in self._withdrawn,
                -records[player].wins,
                -head_to_head[player],
                points.points_against - points.points_for,
                -points.points_for,
                self._seed[player],
            )

        order = sorted(self.players, key=key)
        return [
            self._standing(rank, player, records[player]) for rank, player in enumerate(order, 1)
        ]


class Swiss(_RoundBased):
    """Rounds paired by :func:`pair_swiss_round`, as many as planned; a bye scores a win.

    Nobody meets the same opponent twice, and each round is paired looking ahead to the last
    one planned, so that they can all be played. Should every pairing of the next round
    still repeat one, the tournament ends after the rounds played: :attr:`total_rounds`
    drops to their number, and :attr:`planned_rounds` keeps the plan. Withdrawals can leave
    too few players for the rounds planned. Without any, the look-ahead sees to it that this
    does not happen, unless the rounds are more than it can follow to the end (see
    :data:`LOOKAHEAD_STEPS`); random play-outs of fields of 16 to 128 players with
    :data:`MAX_SWISS_ROUNDS` rounds have found none that did.

    >>> t = Swiss([1, 2, 3, 4, 5], rounds=4)  # 1 v 3, 2 v 4, and 5 has the bye
    >>> _ = t.report("R1-1", 1, loser_withdraws=True)
    >>> for slot_id, winner in [("R1-2", 2), ("R2-1", 1), ("R2-2", 5), ("R3-1", 1), ("R3-2", 5)]:
    ...     _ = t.report(slot_id, winner)
    >>> [m.players for m in t.matches() if m.round > 1]
    [(1, 2), (5, 4), (1, 4), (5, 2)]
    >>> # Round 4 would be 1 v 5 and 2 v 4 again: none.
    >>> t.is_finished, t.total_rounds, t.planned_rounds, t.ended_early
    (True, 3, 4, True)

    Standings: score (wins and byes), then Buchholz (the sum of the scores of the opponents
    played, byes adding nothing), then seed. Withdrawn players are not paired again, and
    are ranked after everyone who played on (in the same order among themselves).
    """

    format = Format.SWISS
    option_names = frozenset({"rounds"})

    def __init__(self, players: Iterable[int], *, rounds: int | None = None) -> None:
        super().__init__(players)
        #: The rounds set at the start.
        self.planned_rounds = _checked_rounds(rounds, len(self.players), most=MAX_SWISS_ROUNDS)
        #: The rounds it has: those planned, or those played if it ended early.
        self.total_rounds = self.planned_rounds
        self._settle()

    @property
    def ended_early(self) -> bool:
        """It ended before the rounds planned: no next round could be paired without a
        rematch."""
        return self.total_rounds < self.planned_rounds

    @property
    def is_finished(self) -> bool:
        return self._current_round() is None and self._rounds_paired() == self.total_rounds

    def standings(self) -> list[Standing]:
        records = self._records()
        scores = self._scores(records)
        buchholz = {
            player: sum(scores[opponent] for opponent in records[player].opponents)
            for player in self.players
        }
        order = sorted(
            self.players,
            key=lambda p: (p in self._withdrawn, -scores[p], -buchholz[p], self._seed[p]),
        )
        return [
            self._standing(
                rank, player, records[player], score=scores[player], buchholz=buchholz[player]
            )
            for rank, player in enumerate(order, 1)
        ]

    def _scores(self, records: dict[int, _Record]) -> dict[int, int]:
        return {player: record.wins + record.byes for player, record in records.items()}

    def _rounds_paired(self) -> int:
        return max((slot.round for slot in self._slots.values()), default=0)

    def can_pair_next_round(self, *, without: int | None = None) -> bool:
        """Whether the round after those paired so far can be paired without a rematch
        (else the tournament ends after them), among the players who have not withdrawn,
        less ``without`` if given: can a player who is about to lose be withdrawn and the
        tournament go on? The pairings of the round being played count as played, whatever
        their results. False once the rounds planned are all paired.

        >>> t = Swiss([1, 2, 3, 4], rounds=3)  # 1 v 3, 2 v 4
        >>> t.can_pair_next_round(), t.can_pair_next_round(without=4)
        (True, True)
        """
        if self._rounds_paired() >= self.total_rounds:
            return False
        opponents: dict[int, set[int]] = {player: set() for player in self.players}
        had_bye = set()
        for slot in self._slots.values():
            first, second = slot.players
            if _is_player(first) and _is_player(second):
                opponents[first].add(second)
                opponents[second].add(first)
            elif _is_player(slot.winner):
                had_bye.add(slot.winner)
        left = [p for p in self.players if p not in self._withdrawn and p != without]
        return can_pair_swiss_round(left, opponents, had_bye)

    def _open_next_round(self) -> bool:
        number = self._rounds_paired() + 1
        if self._current_round() is not None or number > self.total_rounds:
            return False
        records = self._records()
        opponents = {player: set(record.opponents) for player, record in records.items()}
        had_bye = {player for player, record in records.items() if record.byes}
        active = [player for player in self.players if player not in self._withdrawn]
        pairs, bye = pair_swiss_round(
            active,
            self._scores(records),
            opponents,
            had_bye,
            rounds_after=self.total_rounds - number,
        )
        if any(second in opponents[first] for first, second in pairs):
            # pair_swiss_round repeats a pairing only when every pairing would: this field
            # cannot play another round without a rematch, so the rounds played are all.
            self.total_rounds = number - 1
            return False
        for index, pair in enumerate(pairs, 1):
            self._add_slot(f"R{number}-{index}", Bracket.ROUNDS, number, pair)
        if bye is not None:
            self._add_slot(f"R{number}-{len(pairs) + 1}", Bracket.ROUNDS, number, (bye, BYE))
        return True

    def _options(self) -> dict[str, Any]:
        if self.ended_early:
            return {"rounds": self.planned_rounds, "ended_after": self.total_rounds}
        return {"rounds": self.planned_rounds}

    def _restore_options(self, options: Mapping[str, Any]) -> None:
        if set(options) not in ({"rounds"}, {"rounds", "ended_after"}):
            raise TournamentError(
                "a Swiss tournament's options are {'rounds': n}, and 'ended_after' if it ended"
                " early"
            )
        self.planned_rounds = self.total_rounds = _checked_rounds(
            options["rounds"], len(self.players)
        )
        if "ended_after" in options:
            ended_after = options["ended_after"]
            # Round 1 never repeats a pairing, so one that ended early played at least that.
            if not _is_player(ended_after) or not 1 <= ended_after < self.planned_rounds:
                raise TournamentError(
                    f"a Swiss of {self.planned_rounds} rounds cannot end early after"
                    f" {ended_after!r}"
                )
            self.total_rounds = ended_after


_FORMAT_CLASSES: dict[Format, type[Tournament]] = {
    kind.format: kind for kind in (SingleElimination, DoubleElimination, RoundRobin, Swiss)
}


def _format_class(format: Any) -> type[Tournament]:
    try:
        return _FORMAT_CLASSES[Format(format)]
    except ValueError:
        known = ", ".join(kind.value for kind in Format)
        raise TournamentError(f"unknown format {format!r} (known: {known})") from None


def _is_player(side: object) -> TypeIs[int]:
    return type(side) is int or (isinstance(side, int) and not isinstance(side, bool))


def _count_match(record: _Record, opponent: int, *, won: bool, points: Sequence[int]) -> None:
    record.played += 1
    record.opponents.append(opponent)
    if won:
        record.wins += 1
    else:
        record.losses += 1
    record.points_for += points[0]
    record.points_against += points[1]


def _loser(slot: MatchSlot) -> Side:
    """The side that lost a decided match; a double walkover or bye-against-bye loses a bye."""
    if slot.winner == BYE:
        return BYE
    first, second = slot.players
    return second if slot.winner == first else first


def _parse_feed(feed: str) -> tuple[str, str]:
    outcome, _, source = feed.partition(":")
    if outcome not in ("winner", "loser") or not source:
        raise TournamentError(f"malformed feed {feed!r}")
    return outcome, source


def _checked_players(players: Iterable[int]) -> tuple[int, ...]:
    checked = tuple(players) if isinstance(players, Iterable) else (players,)
    if not all(_is_player(player) for player in checked):
        raise TournamentError("players are given by their integer ids")
    if len(set(checked)) != len(checked):
        raise TournamentError("a player is listed twice")
    if len(checked) < 2:
        raise TournamentError("a tournament needs at least 2 players")
    return checked


def _checked_rounds(rounds: Any, players: int, *, most: int | None = None) -> int:
    """The rounds of a Swiss of ``players``: 1 to ``players - 1``, and no more than ``most``
    if given. A new draw gives :data:`MAX_SWISS_ROUNDS`; a saved one is restored without
    it, so that a Swiss started with more rounds before there was a limit still loads."""
    if rounds is None:
        return default_swiss_rounds(players)
    highest = players - 1 if most is None else min(players - 1, most)
    if not _is_player(rounds) or not 1 <= rounds <= highest:
        raise TournamentError(f"a Swiss of {players} players has 1 to {highest} rounds")
    return rounds


def _checked_points(points: Any) -> tuple[int, int] | None:
    if points is None:
        return None
    if not isinstance(points, Sequence) or len(points) != 2:
        raise TournamentError("points are two whole numbers, 0 or more, one per player")
    if not all(_is_player(value) and value >= 0 for value in points):
        raise TournamentError("points are two whole numbers, 0 or more, one per player")
    return (points[0], points[1])


def _slot_to_dict(slot: MatchSlot, feeds: Feed) -> dict[str, Any]:
    return {
        "id": slot.slot_id,
        "bracket": slot.bracket.value,
        "round": slot.round,
        "players": list(slot.players),
        "feeds": list(feeds),
        "winner": slot.winner,
        "points": list(slot.points) if slot.points is not None else None,
        "walkover": slot.walkover,
    }


def _slot_from_dict(data: Mapping[str, Any], seeds: Mapping[int, int]) -> tuple[MatchSlot, Feed]:
    slot_id, number = data["id"], data["round"]
    if not isinstance(slot_id, str) or not _is_player(number):
        raise TournamentError("a match needs a string id and a round number")
    first, second = data["players"]
    players = (_side(first, seeds), _side(second, seeds))
    winner = _side(data["winner"], seeds)
    if _is_player(winner) and winner not in players:
        raise TournamentError(f"the winner of {slot_id} did not play in it")
    feed_first, feed_second = data["feeds"]
    for feed in (feed_first, feed_second):
        if feed is not None:
            _parse_feed(feed)
    points = _checked_points(data["points"])
    walkover = data["walkover"] is True
    slot = MatchSlot(slot_id, Bracket(data["bracket"]), number, players, winner, points, walkover)
    return slot, (feed_first, feed_second)


def _side(value: Any, seeds: Mapping[int, int]) -> Side:
    if value is None or value == BYE or (_is_player(value) and value in seeds):
        return value
    raise TournamentError(f"{value!r} is not a player of this tournament")
