"""Swiss pairing benchmark (not a test): how long reporting a result takes when it
completes a round, and the next one is paired, for a few field sizes.

    .venv/bin/python -m bench.swiss [--seeds 3] [--fields 16x15,32x15,48x15,64x15,128x15]

Each field (players x rounds) is played out with random results, several times with
different seeds; ``Swiss.report`` pairs the next round when a result completes one, which
the site does inside the request that reports it, under the tournament's lock. Prints,
per field, the worst and the median time of the reports that paired a round, and the
worst report overall. The rounds are at most ``MAX_SWISS_ROUNDS``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from games.tournaments.brackets import MAX_SWISS_ROUNDS, Swiss

FIELDS = "16x15,24x15,32x15,40x15,48x15,64x15,128x15,128x8"


def play_out(players: int, rounds: int, seed: int) -> list[float]:
    """The time of each report that paired a round, in seconds, for one seeded play-out."""
    rng = random.Random(seed)
    draw = Swiss(range(1, players + 1), rounds=rounds)
    pairing_reports = []
    while not draw.is_finished:
        for slot in draw.pending_matches():
            started = time.perf_counter()
            opened = draw.report(slot.slot_id, rng.choice(slot.players))  # type: ignore[arg-type]
            took = time.perf_counter() - started
            if opened or draw.is_finished:
                pairing_reports.append(took)
    return pairing_reports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--fields", default=FIELDS, help="players x rounds, comma-separated")
    options = parser.parse_args()
    print(
        f"Swiss.report pairing the next round, {options.seeds} seeded random play-outs a field,"
        f" at most {MAX_SWISS_ROUNDS} rounds; Python {platform.python_version()}"
    )
    print(f"{'field':>8} {'reports':>8} {'median ms':>10} {'worst ms':>10}")
    for field in options.fields.split(","):
        players, rounds = (int(part) for part in field.split("x"))
        times = [took for seed in range(options.seeds) for took in play_out(players, rounds, seed)]
        median, worst = statistics.median(times) * 1000, max(times) * 1000
        print(f"{field:>8} {len(times):>8} {median:>10.2f} {worst:>10.2f}")


if __name__ == "__main__":
    main()
