"""Position.diagram, the text board of the turn emails: each player's checkers where they
stand, seen from the reader's side."""

from __future__ import annotations

import pytest

from games.engine.position import Pair, Position, variant_named


def _position() -> Position:
    """White on absolute 19, 20 and 22 (two there); Black on absolute 3 and 5 (two there),
    which are its own 22 and 20."""
    points = [0] * 24
    points[19 - 1], points[20 - 1], points[22 - 1] = 1, 1, 2
    points[3 - 1], points[5 - 1] = -1, -2
    waiting = Pair(11, 12)
    return Position(
        variant_named("american"), "black", tuple(points), Pair(0, 0), Pair(0, 0), waiting, None
    )


def _rows(diagram: str) -> tuple[dict[int, str], dict[int, str]]:
    """{point: cell} for the top and bottom rows, by the numbers printed above/below them."""
    top_numbers, top_cells, bottom_cells, bottom_numbers = diagram.splitlines()[:4]

    def row(numbers: str, cells: str) -> dict[int, str]:
        return {
            int(numbers[i : i + 3]): cells[i : i + 3].strip() for i in range(0, len(numbers), 3)
        }

    return row(top_numbers, top_cells), row(bottom_numbers, bottom_cells)


@pytest.mark.parametrize(
    ("viewer", "expected"),
    [
        # White reads its own numbers, which are the absolute ones.
        ("white", {19: "1X", 20: "1X", 22: "2X", 3: "1O", 5: "2O"}),
        # Black's own point p is absolute 25 - p: White's 19, 20, 22 are Black's 6, 5, 3.
        ("black", {22: "1X", 20: "2X", 6: "1O", 5: "1O", 3: "2O"}),
    ],
)
def test_each_side_is_drawn_where_it_stands_from_the_readers_side(viewer, expected):
    top, bottom = _rows(_position().diagram(viewer))
    drawn = {point: cell for point, cell in (top | bottom).items() if cell != "."}

    assert drawn == expected
