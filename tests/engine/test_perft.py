"""Perft-style oracle: legal play counts per roll for fixed positions (data/perft.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import Position, legal_plays

TABLE = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def test_perft_table_covers_both_variants_and_every_phase():
    names = " ".join(row["name"] for row in TABLE)

    for word in ("american", "greek", "entry", "contact", "bar", "bear-off", "named blot"):
        assert word in names
    assert all(len(row["plays"]) == 21 for row in TABLE)


@pytest.mark.parametrize("row", TABLE, ids=[row["name"] for row in TABLE])
def test_perft_counts_match(row):
    position = Position.from_dict(row["position"])

    counts = {
        roll: len(legal_plays(position, tuple(int(d) for d in roll.split("-"))))
        for roll in row["plays"]
    }

    assert counts == row["plays"]
