"""Player ratings: the Glicko-2 system, pure Python and free of Django.

>>> from games.ratings import Rating, rate_match
>>> winner, loser = rate_match(Rating(), Rating(), a_won=True)
>>> round(winner.rating), round(loser.rating)
(1662, 1338)
"""

from .glicko2 import (
    MAX_RD,
    PROVISIONAL_RD,
    Rating,
    Result,
    expected_score,
    inflate_for_inactivity,
    is_provisional,
    match_weight,
    rate_match,
    update,
)

__all__ = [
    "MAX_RD",
    "PROVISIONAL_RD",
    "Rating",
    "Result",
    "expected_score",
    "inflate_for_inactivity",
    "is_provisional",
    "match_weight",
    "rate_match",
    "update",
]
