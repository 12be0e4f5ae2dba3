"""Rebuild tests/engine/data/perft.json: legal play counts per roll for fixed positions.

    .venv/bin/python -m tests.engine.build_perft

Each count is computed twice, by the engine and by the independent reference in
reference.py, and the script stops if they differ. The committed table then guards the
engine against regressions (test_perft.py), perft-style.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from games.engine import Position, legal_plays
from games.engine.game import Game

from .helpers import SeededDice, make, play_random_game
from .reference import reference_states

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
TABLE = Path(__file__).parent / "data" / "perft.json"


def fixed_positions() -> dict[str, Position]:
    named = {
        "american start": Position.initial("american"),
        "greek start": Position.initial("greek"),
        "american entry, mixed": make(
            white={22: 2, 19: 1, 16: 1}, black={6: 2, 3: 1}, waiting=(11, 12)
        ),
        "american contact": make(
            white={20: 2, 13: 3, 8: 2, 6: 4, 5: 1},
            black={3: 2, 10: 1, 12: 3, 17: 2, 19: 4},
            waiting=(3, 3),
        ),
        "american bar": make(
            white={13: 4, 8: 3, 6: 4},
            black={19: 2, 21: 2, 22: 1, 12: 5},
            bar=(2, 1),
            waiting=(2, 4),
        ),
        "american bear-off": make(white={6: 3, 5: 3, 4: 2, 3: 2, 1: 1}, black={20: 4, 22: 5}),
        "greek contact": make(
            "greek", white={24: 6, 13: 4, 7: 3, 6: 2}, black={1: 5, 12: 4, 17: 4, 20: 2}
        ),
        "greek named blot": make(
            "greek",
            white={20: 3, 13: 4, 8: 3, 6: 4},
            black={1: 4, 9: 1, 11: 3, 17: 3, 19: 4},
            named_blot=9,
        ),
        "greek named blot out of reach of the 1-2": make(
            "greek", white={20: 1, 6: 5, 5: 5, 4: 4}, black={10: 1, 1: 14}, named_blot=10
        ),
        "greek bar": make(
            "greek", white={24: 2, 13: 5, 6: 5}, black={1: 3, 19: 2, 20: 2, 22: 1}, bar=(3, 0)
        ),
        "greek bear-off": make("greek", white={6: 4, 4: 3, 2: 2}, black={1: 2, 19: 5}),
    }
    rng = random.Random(20261130)
    for variant in ("american", "greek"):
        seen = play_random_game(Game(variant, SeededDice(rng.randrange(10**6))), rng)
        for index in range(5):
            position = seen[(index + 1) * len(seen) // 7]
            if not position.is_game_over:
                named[f"{variant} random game, position {index + 1}"] = position
    return named


def main() -> None:
    rows = []
    for name, position in fixed_positions().items():
        counts = {}
        for dice in ROLLS:
            plays = legal_plays(position, dice)
            expected = len(reference_states(position, dice))
            if len(plays) != expected:
                raise SystemExit(f"{name} {dice}: engine {len(plays)}, reference {expected}")
            counts[f"{dice[0]}-{dice[1]}"] = len(plays)
        rows.append({"name": name, "position": position.to_dict(), "plays": counts})
    # One position per line keeps the table readable and its diffs small.
    TABLE.write_text("[\n" + ",\n".join(json.dumps(row) for row in rows) + "\n]\n")
    print(f"wrote {len(rows)} positions to {TABLE}")


if __name__ == "__main__":
    main()
