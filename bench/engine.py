"""Engine benchmark (not a test): how long ``legal_plays`` and a whole game take.

    .venv/bin/python -m bench.engine [--positions 1000] [--games 200] [--seed 1]

Collects a fixed, seeded set of positions from random games of both variants (entry,
contact, bar and bear-off positions all occur), then times ``legal_plays`` on each of
them for all 21 rolls and prints the median and p95 in microseconds, per variant and for
doubles / non-doubles, and the median time to play a full random game.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from games.engine import Position, legal_plays
from games.engine.game import Game, Phase

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll_die(self) -> int:
        return self.random.randint(1, 6)


def random_game(variant: str, seed: int) -> tuple[Game, list[Position]]:
    """Play one game with uniformly random legal choices; return it and its positions."""
    rng = random.Random(seed)
    game = Game(variant, SeededDice(seed))
    seen = []
    while game.phase is not Phase.FINISHED:
        if game.phase is Phase.NAME_DOUBLE:
            game.name_double(rng.choice(game.allowed_doubles()))
            continue
        seen.append(game.position)
        play = rng.choice(game.legal_plays())
        named = None
        if game.may_name_blot and not play.result.is_game_over and rng.random() < 0.3:
            blots = play.result.blots(game.position.turn)
            if blots:
                absolute = rng.choice(blots)
                named = absolute if game.position.turn == "white" else 25 - absolute
        game.play(play, name_blot=named)
    return game, seen


def sample_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    pool: list[Position] = []
    game_seed = seed * 1000
    while len(pool) < count:
        for variant in ("american", "greek"):
            _, seen = random_game(variant, game_seed)
            game_seed += 1
            pool.extend(rng.sample(seen, min(len(seen), 25)))
    rng.shuffle(pool)
    return pool[:count]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    positions = sample_positions(args.positions, args.seed)
    timings: dict[str, list[float]] = {
        "all": [],
        "american": [],
        "greek": [],
        "doubles": [],
        "non-doubles": [],
    }
    plays = 0
    for position in positions:
        for dice in ROLLS:
            start = time.perf_counter_ns()
            result = legal_plays(position, dice)
            micros = (time.perf_counter_ns() - start) / 1000
            plays += len(result)
            for key in (
                "all",
                position.variant.name,
                "doubles" if dice[0] == dice[1] else "non-doubles",
            ):
                timings[key].append(micros)

    # Play.result is built lazily; callers that need every resulting position pay this.
    with_results = []
    for position in positions:
        for dice in ROLLS:
            start = time.perf_counter_ns()
            for play in legal_plays(position, dice):
                play.result  # noqa: B018 - building it is what is timed
            with_results.append((time.perf_counter_ns() - start) / 1000)
    timings["all, results built"] = with_results

    print(
        f"legal_plays on {len(positions)} positions x {len(ROLLS)} rolls "
        f"= {len(timings['all'])} calls ({plays} plays), Python {platform.python_version()}"
    )
    print(f"{'set':<20} {'calls':>7} {'median us':>10} {'p95 us':>9} {'max us':>9}")
    for key, values in timings.items():
        print(
            f"{key:<20} {len(values):>7} {statistics.median(values):>10.1f} "
            f"{percentile(values, 0.95):>9.1f} {max(values):>9.1f}"
        )

    for variant in ("american", "greek"):
        durations = []
        segments = []
        for n in range(args.games):
            start = time.perf_counter()
            _, seen = random_game(variant, 10_000 + n)
            durations.append((time.perf_counter() - start) * 1000)
            segments.append(len(seen))
        print(
            f"full random {variant} game: median {statistics.median(durations):.1f} ms "
            f"({statistics.median(segments):.0f} segments, {args.games} games)"
        )


if __name__ == "__main__":
    main()
