"""Bot benchmark (not a test): every level against every other, in full games.

    .venv/bin/python -m bench.bots [--games 1000] [--expert-games N] [--seed 1] [--workers 2]
    .venv/bin/python -m bench.bots --quick          # about 50 games per pairing

For every pair among ``random`` (uniformly random legal choices), ``beginner``,
``heuristic`` and ``expert`` it plays N single games (a 1-point match each: american
scores 1-15 a game, greek 1), half american and half greek, with seeded bots, spread over
a multiprocessing pool. It prints per pairing the games played, the points per game of
each side, the stronger side's win rate with a 95% Wilson interval, its share of all
points with a 95% bootstrap interval and its net points per game with a 95%
normal-approximation interval (overall and per variant), then the median, p95 and maximum
decision time per level: the bot's thinking for one segment with a choice (a play with
more than one legal option, with any blot naming, or a double to name), measured inside
the worker processes.

Duplicate dice: games come in twins with the same dice and the colours swapped. Each
colour rolls from its own seeded stream (the opening roll from a third), so whatever luck
one bot had in the first game of a twin the other bot has in the second, however the two
games diverge: dice luck largely cancels within a twin, and the intervals narrow for the
same number of games. Twin ``k`` of every pairing uses the same dice. As the two games of
a twin are not independent, the points intervals average or resample whole twins; the
Wilson interval of the win rate treats games as independent, which can only make it wider
than need be (the twins' results are negatively correlated).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from multiprocessing import Pool

from games.bots import Bot, RandomBot, make_bot, play_turn_segment
from games.engine import Color, Play, Position
from games.engine.game import Game, GameState, Phase

LEVELS = ("random", "beginner", "heuristic", "expert")  # weakest first
VARIANTS = ("american", "greek")
MAX_SEGMENTS = 5000


class SeatDice:
    """Dice with one seeded stream per colour and one for the opening roll.

    :class:`SeatGame` says whose roll comes next; until then (the opening) the opening
    stream is used.
    """

    def __init__(self, seed: int) -> None:
        self.streams: dict[Color | None, random.Random] = {
            None: random.Random(seed * 3),
            "white": random.Random(seed * 3 + 1),
            "black": random.Random(seed * 3 + 2),
        }
        self.seat: Color | None = None

    def roll_die(self) -> int:
        return self.streams[self.seat].randint(1, 6)


class SeatGame(Game):
    """A game that tells its :class:`SeatDice` which colour is about to roll."""

    dice_source: SeatDice

    def _roll(self, position: Position) -> GameState:
        # Every roll after the opening goes through _roll, for the side on turn.
        self.dice_source.seat = position.turn
        return super()._roll(position)


class Timed(Bot):
    """Forwards to a bot and records how long each decision with a choice took."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []
        self._pending = 0.0

    def choose_play(
        self, position: Position, dice: tuple[int, int], *, named_double: bool, plays: list[Play]
    ) -> Play:
        start = time.perf_counter()
        play = self.inner.choose_play(position, dice, named_double=named_double, plays=plays)
        elapsed = time.perf_counter() - start
        if len(plays) > 1:
            self.times.append(elapsed)
        else:
            self._pending = elapsed  # a forced play: counted only if a blot is then named
        return play

    def choose_double(self, position: Position, allowed: list[int]) -> int:
        start = time.perf_counter()
        value = self.inner.choose_double(position, allowed)
        self.times.append(time.perf_counter() - start)
        return value

    def choose_blot(self, position_after: Position, mover: Color) -> int | None:
        start = time.perf_counter()
        blot = self.inner.choose_blot(position_after, mover)
        elapsed = time.perf_counter() - start
        if self._pending:
            self.times.append(self._pending + elapsed)
        elif self.times:
            self.times[-1] += elapsed  # part of the play just chosen
        self._pending = 0.0
        return blot


def make_level(level: str, seed: int) -> Bot:
    return RandomBot(seed) if level == "random" else make_bot(level, seed)


@dataclass(frozen=True)
class Job:
    weaker: str
    stronger: str
    index: int
    seed: int

    @property
    def twin(self) -> int:
        """Games ``2k`` and ``2k + 1`` are twins: the same dice, the colours swapped."""
        return self.index // 2

    @property
    def variant(self) -> str:
        return VARIANTS[self.twin % 2]

    @property
    def stronger_color(self) -> Color:
        return "white" if self.index % 2 == 0 else "black"


@dataclass
class Outcome:
    job: Job
    stronger_won: bool
    points: int
    segments: int
    times: dict[str, list[float]]


def play_one(job: Job) -> Outcome:
    dice_seed = job.seed * 1_000_003 + job.twin
    bot_seed = job.seed * 1_000_003 + job.index
    stronger = Timed(make_level(job.stronger, bot_seed * 2 + 1))
    weaker = Timed(make_level(job.weaker, bot_seed * 2))
    game = SeatGame(job.variant, SeatDice(dice_seed))
    bots = {job.stronger_color: stronger}
    bots["black" if job.stronger_color == "white" else "white"] = weaker
    segments = 0
    while game.phase is not Phase.FINISHED:
        if segments >= MAX_SEGMENTS:
            raise RuntimeError(f"game {job} did not finish in {MAX_SEGMENTS} segments")
        play_turn_segment(game, bots[game.to_move])
        segments += 1
    return Outcome(
        job,
        game.winner == job.stronger_color,
        game.points,
        segments,
        {job.stronger: stronger.times, job.weaker: weaker.times},
    )


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (centre - half, centre + half)


def share_ci(
    strata: list[list[tuple[int, int]]], resamples: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """The stronger side's share of all points scored, with a 95% bootstrap interval.

    Each stratum (a variant) holds (stronger's points, weaker's points) per twin of
    games; whole twins are resampled with replacement within their stratum (seeded), as
    the two games of a twin share dice and the design fixes how many games each variant
    gets.
    """
    strong = sum(s for twins in strata for s, _ in twins)
    weak = sum(w for twins in strata for _, w in twins)
    share = strong / (strong + weak) if strong + weak else 0.5
    rng = random.Random(seed)
    shares = []
    for _ in range(resamples):
        s = w = 0
        for twins in strata:
            for _ in twins:
                pick = twins[rng.randrange(len(twins))]
                s += pick[0]
                w += pick[1]
        shares.append(s / (s + w) if s + w else 0.5)
    shares.sort()
    return share, shares[int(0.025 * resamples)], shares[int(0.975 * resamples) - 1]


def stratified_mean_ci(strata: list[list[float]], z: float = 1.96) -> tuple[float, float, float]:
    """The mean over equally weighted strata with a normal-approximation 95% interval
    (the variance is the sum of each stratum mean's variance, over the strata squared)."""
    strata = [values for values in strata if values]
    k = len(strata)
    mean = statistics.fmean(statistics.fmean(values) for values in strata)
    variance = sum(
        (statistics.variance(values) if len(values) > 1 else 0.0) / len(values) for values in strata
    ) / (k * k)
    half = z * math.sqrt(variance)
    return mean, mean - half, mean + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Tally:
    outcomes: list[Outcome] = field(default_factory=list)

    def row(self, label: str) -> str:
        n = len(self.outcomes)
        wins = sum(o.stronger_won for o in self.outcomes)
        strong = [o.points if o.stronger_won else 0 for o in self.outcomes]
        weak = [0 if o.stronger_won else o.points for o in self.outcomes]
        # Points per twin (a twin cut short by --games counts as a twin of one game),
        # grouped by variant: each variant is a stratum of the design.
        twins: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
        for outcome, s, w in zip(self.outcomes, strong, weak, strict=True):
            twin = twins[outcome.job.twin]
            twin[0] += s
            twin[1] += w
            twin[2] += 1
        strata = [
            [twins[t] for t in sorted(twins) if VARIANTS[t % 2] == variant] for variant in VARIANTS
        ]
        strata = [stratum for stratum in strata if stratum]
        low, high = wilson(wins, n)
        # Net points per game, averaged within each twin first.
        net, net_low, net_high = stratified_mean_ci(
            [[(s - w) / k for s, w, k in stratum] for stratum in strata]
        )
        share, share_low, share_high = share_ci([[(s, w) for s, w, _ in st] for st in strata])
        return (
            f"| {label:<22} | {n:>5} | {statistics.fmean(strong):>5.2f} | "
            f"{statistics.fmean(weak):>5.2f} | "
            f"{wins / n:>6.1%} [{low:.1%}, {high:.1%}] | "
            f"{share:>6.1%} [{share_low:.1%}, {share_high:.1%}] | "
            f"{net:+6.2f} [{net_low:+.2f}, {net_high:+.2f}] |"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument(
        "--expert-games", type=int, default=None, help="games per pairing with the expert"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--quick", action="store_true", help="about 50 games per pairing")
    parser.add_argument(
        "--levels", default=",".join(LEVELS), help="comma-separated subset of " + ",".join(LEVELS)
    )
    args = parser.parse_args(argv)
    games = 50 if args.quick else args.games
    expert_games = games if args.expert_games is None else args.expert_games
    levels = [lv for lv in LEVELS if lv in args.levels.split(",")]

    jobs = []
    pairings = list(itertools.combinations(levels, 2))  # (weaker, stronger)
    for weaker, stronger in pairings:
        n = expert_games if "expert" in (weaker, stronger) else games
        jobs += [Job(weaker, stronger, i, args.seed) for i in range(n)]
    # The slow pairings first, so the pool's last chunks are short.
    jobs.sort(key=lambda j: (j.stronger != "expert", j.index))

    started = time.perf_counter()
    results: dict[tuple[str, str], dict[str, Tally]] = defaultdict(lambda: defaultdict(Tally))
    times: dict[str, list[float]] = defaultdict(list)
    segments: list[int] = []
    with Pool(args.workers) as pool:
        for done, outcome in enumerate(pool.imap_unordered(play_one, jobs), 1):
            pair = (outcome.job.weaker, outcome.job.stronger)
            results[pair]["all"].outcomes.append(outcome)
            results[pair][outcome.job.variant].outcomes.append(outcome)
            for level, values in outcome.times.items():
                times[level] += values
            segments.append(outcome.segments)
            if done % 50 == 0 or done == len(jobs):
                print(
                    f"  {done}/{len(jobs)} games, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    elapsed = time.perf_counter() - started

    print(
        f"bench.bots: seed {args.seed}, {games} games per pairing"
        + (f" ({expert_games} with the expert)" if expert_games != games else "")
        + f", {args.workers} workers, {elapsed / 60:.1f} min, "
        f"median {statistics.median(segments):.0f} segments a game"
    )
    print()
    print(
        "| stronger vs weaker     | games | pts/game stronger | pts/game weaker "
        "| stronger win rate [95% Wilson] | stronger share of points [95% bootstrap] "
        "| net pts/game [95% normal] |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for weaker, stronger in reversed(pairings):
        tallies = results[(weaker, stronger)]
        print(tallies["all"].row(f"{stronger} vs {weaker}"))
        for variant in VARIANTS:
            if tallies[variant].outcomes:
                print(tallies[variant].row(f"  {variant}"))
    print()
    print("| level | decisions timed | median ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for level in levels:
        values = times[level]
        if values:
            print(
                f"| {level} | {len(values)} | {statistics.median(values) * 1000:.2f} | "
                f"{percentile(values, 0.95) * 1000:.2f} | {max(values) * 1000:.1f} |"
            )


if __name__ == "__main__":
    main()
