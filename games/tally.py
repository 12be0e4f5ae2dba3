"""Each player's dice, counted as they are rolled: a player's dice page reads one row
(:class:`~games.models.DiceTally`) instead of summing every segment they have played,
which for a player of thousands of matches took a second of SQL.

The services count the rolls of the segments a transaction stores, in that transaction
(:func:`count_rolls`), so a tally never counts a roll that was not stored nor misses one
that was. Two matches of one player may store rolls at once: each adds with one UPDATE
(``F() + n``), never read-then-write, and takes the tallies it changes once, after all
its segments, in one order, by player id, so that two turns never each hold a tally the
other waits for. (A transaction that starts several matches, a tournament's round, takes
them match by match; PostgreSQL would end a cycle it met there by failing one of them.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from django.db.models import F

from .models import FACE_FIELDS, DiceTally, Match, Segment

if TYPE_CHECKING:
    from accounts.models import User

#: The segments whose dice count: a player's own rolls (the page's "rolls other than the
#: opening rolls"; a named double is chosen, not rolled).
COUNTED = (Segment.Kind.ROLL, Segment.Kind.ACEY_DEUCEY)


def open_tallies(*players: User) -> None:
    """Make sure each of ``players`` has a tally (a match is starting), so that counting
    their rolls later is one UPDATE. One INSERT that leaves existing tallies alone."""
    DiceTally.objects.bulk_create([DiceTally(user=p) for p in players], ignore_conflicts=True)


def count_rolls(match: Match, segments: Iterable[Segment]) -> None:
    """Add the rolls of ``segments``, just stored for ``match`` in the caller's
    transaction, to their players' tallies."""
    counts: dict[int, Counter[str]] = {}
    for segment in segments:
        if segment.kind in COUNTED:
            player = match.white_id if segment.player == "white" else match.black_id
            counts.setdefault(player, Counter()).update(tally_of(segment.dice))
    for player in sorted(counts):
        _add(player, counts[player])


def tally_of(dice: Sequence[int]) -> Counter[str]:
    """What one roll adds to a tally, by field."""
    first, second = dice
    added = Counter({"rolls": 1})
    added[FACE_FIELDS[first - 1]] += 1
    added[FACE_FIELDS[second - 1]] += 1
    added["doubles"] += first == second
    added["acey_deuceys"] += {first, second} == {1, 2}
    return added


def _add(player: int, counts: Counter[str]) -> None:
    increments = {field: F(field) + n for field, n in counts.items() if n}
    if DiceTally.objects.filter(user_id=player).update(**increments):
        return
    # A player whose matches all began before tallies were kept and who rolled nothing
    # then (the migration made a tally for each player with rolls).
    DiceTally.objects.bulk_create([DiceTally(user_id=player)], ignore_conflicts=True)
    DiceTally.objects.filter(user_id=player).update(**increments)
