"""Each player's dice, counted as they are rolled: a player's dice page reads one row
(:class:`~games.models.DiceTally`) instead of summing every segment they have played,
which for a player of thousands of matches took a second of SQL.

The services count the rolls of the segments a transaction stores, in that transaction
(:func:`count_rolls`), so a tally never counts a roll that was not stored nor misses one
that was. Two matches of one player may store rolls at once: each adds with one UPDATE
(``F() + n``), never read-then-write, and takes the tallies it changes once, after all
its segments, in one order, by player id, so that two turns never each hold a tally the
other waits for. A transaction that stores several matches' segments (a tournament's round
starting, each match's forced opening played) counts them :func:`together`, at its end:
match by match, it would take the tallies of one match's players, then of the next's, in
no one order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Count

from aceysite.sql import execute, table_and_columns

from .models import FACE_FIELDS, DiceTally, Match, Segment

if TYPE_CHECKING:
    from accounts.models import User

#: The segments whose dice count: a player's own rolls (the page's "rolls other than the
#: opening rolls"; a named double is chosen, not rolled).
COUNTED = (Segment.Kind.ROLL, Segment.Kind.ACEY_DEUCEY)
#: What a tally counts.
FIELDS = ("rolls", *FACE_FIELDS, "doubles", "acey_deuceys")


#: The rolls counted inside :func:`together`, not yet added to the tallies.
_waiting: ContextVar[dict[int, Counter[str]] | None] = ContextVar("tally_waiting", default=None)


def count_rolls(match: Match, segments: Iterable[Segment]) -> None:
    """Add the rolls of ``segments``, just stored for ``match`` in the caller's
    transaction, to their players' tallies (inside :func:`together`, as it ends)."""
    waiting = _waiting.get()
    counts: dict[int, Counter[str]] = {} if waiting is None else waiting
    for segment in segments:
        if segment.kind in COUNTED:
            player = match.white_id if segment.player == "white" else match.black_id
            counts.setdefault(player, Counter()).update(tally_of(segment.dice))
    if waiting is None:
        _add_all(counts)


@contextmanager
def together() -> Iterator[None]:
    """Count the rolls stored inside at the end, each tally taken once and all of them in
    player id order, as one turn takes its players': for a transaction that stores the
    segments of several matches. Nothing is counted if it ends in an exception (the
    transaction it is in then stores nothing either). Inside another, the outer counts."""
    if _waiting.get() is not None:
        yield
        return
    counts: dict[int, Counter[str]] = {}
    token = _waiting.set(counts)
    try:
        yield
    finally:
        _waiting.reset(token)
    _add_all(counts)


def _add_all(counts: dict[int, Counter[str]]) -> None:
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
    increments = {field: n for field, n in counts.items() if n}
    if _increment(player, increments):
        return
    # The player's first roll: their tally is made now, once (not as each match starts),
    # by an INSERT that leaves alone one another transaction has just made.
    DiceTally.objects.bulk_create([DiceTally(user_id=player)], ignore_conflicts=True)
    _increment(player, increments)


def _increment(player: int, increments: dict[str, int]) -> int:
    """Add ``increments`` to ``player``'s tally, if they have one: how many rows changed.

    ``DiceTally.objects.filter(user_id=player).update(**{f: F(f) + n})`` in SQL written
    by hand (aceysite.sql; every turn does it, and the ORM's query cost 0.8 ms of CPU).
    """
    table, user, *columns = table_and_columns(DiceTally, "user", *increments)
    sql = (
        f"UPDATE {table} SET {', '.join(f'{column} = {column} + %s' for column in columns)}"
        f" WHERE {user} = %s"
    )
    return execute(sql, [*increments.values(), player])


def recount(player: User) -> bool:
    """Count ``player``'s tally afresh from the rolls stored in their matches, and store
    it if it says otherwise (``manage.py recount_dice_tallies``): whether it did.

    In a transaction of its own, the tally locked before the rolls are counted: a turn
    storing rolls meanwhile either committed first and is counted here, or adds its
    rolls to the count once this commits. Nothing else is locked while it counts, so no
    turn waits on it in a cycle.
    """
    with transaction.atomic():
        DiceTally.objects.bulk_create([DiceTally(user=player)], ignore_conflicts=True)
        tally = DiceTally.objects.select_for_update().get(user=player)
        counted = rolls_of(player)
        if all(getattr(tally, field) == counted[field] for field in FIELDS):
            return False
        for field in FIELDS:
            setattr(tally, field, counted[field])
        tally.save(update_fields=FIELDS)
        return True


def rolls_of(player: User) -> dict[str, int]:
    """``player``'s tally as their stored segments make it, each field's figure: counted
    by the database, each pair of dice they rolled as white and as black (at most 36 rows
    each), by the rule of :func:`count_rolls`."""
    counted: Counter[str] = Counter()
    for colour in ("white", "black"):
        pairs = (
            Segment.objects.filter(player=colour, kind__in=COUNTED, **{f"match__{colour}": player})
            .values_list("dice")
            .annotate(times=Count("pk"))
            .order_by()
        )
        for dice, times in pairs:
            for field, n in tally_of(dice).items():
                counted[field] += n * times
    return {field: counted[field] for field in FIELDS}
