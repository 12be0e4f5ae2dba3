"""Matches with scripted dice, as many tests start them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.engine.game import ScriptedDice

if TYPE_CHECKING:
    from games.models import Match

#: An opening roll white wins (5 against 2), then white's first roll, 6-3.
WHITE_OPENS = (5, 2, 6, 3)


def opened_by_white(white, black, *, dice=WHITE_OPENS, **options) -> Match:
    """A 1-point american match (``options`` may say otherwise) in which white wins the
    opening roll and is to play the last two ``dice`` (6-3 by default)."""
    settings = {"variant": "american", "points": 1, "days_per_move": 2, **options}
    return services.start_match(white=white, black=black, dice=ScriptedDice(list(dice)), **settings)
