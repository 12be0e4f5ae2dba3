"""Verifiable dice: every roll of a match is derived from a secret seed fixed at its start.

When a match starts the server draws a 32-byte seed with ``secrets`` and shows its SHA-256
on the match page; the seed itself is revealed when the match ends, so anyone can then
recompute every roll (the formula is on the match's dice page and below). Knowing the
hash in advance proves the server did not pick rolls as the match went.

Roll ``r`` (1, 2, ... numbered in the order the rolls were made, across the games of the
match: opening rolls, tied ones included, and the segments' rolls alike, the last one too
if the match ended before it was played; a named double is chosen, not rolled, and has no
number) is ``(die(r, 1), die(r, 2))`` where, with ``seed`` as bytes::

    die(r, k): for attempt = 0, 1, ...:
                   digest = HMAC-SHA256(key=seed, message=f"{r}:{k}:{attempt}")
                   for each byte b of digest: if b < 252: return b % 6 + 1

(bytes 252-255 are skipped so that each face is exactly equally likely).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator

from games.engine.game import OpeningRoll, SegmentKind
from games.engine.record import MatchRecord, RecordError, SegmentRecord


def new_seed() -> str:
    """A fresh secret seed, as 64 hex digits."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """The SHA-256 commitment shown before the seed is revealed."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def die(seed: str, roll: int, index: int) -> int:
    """Die ``index`` (1 or 2) of roll number ``roll`` of the match with this seed."""
    key = bytes.fromhex(seed)
    attempt = 0
    while True:
        digest = hmac.new(key, f"{roll}:{index}:{attempt}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                return byte % 6 + 1
        attempt += 1


def roll_pair(seed: str, roll: int) -> tuple[int, int]:
    """Roll number ``roll`` of the match (1-based)."""
    return die(seed, roll, 1), die(seed, roll, 2)


class SeededDice:
    """The engine's dice source for a match: rolls ``rolls + 1``, ``rolls + 2``, ...

    The engine always rolls dice in pairs (an opening roll is White's die then Black's),
    so die ``k`` of roll ``r`` is the ``2(r - 1) + k``-th die asked for.
    """

    def __init__(self, seed: str, rolls: int = 0) -> None:
        self.seed = seed
        self.rolls = rolls
        self._pending: list[int] = []

    def roll_die(self) -> int:
        if not self._pending:
            self.rolls += 1
            self._pending = list(roll_pair(self.seed, self.rolls))
        return self._pending.pop(0)


def record_rolls(record: MatchRecord) -> Iterator[tuple[int, str, tuple[int, int]]]:
    """Every roll of ``record`` in the order made, numbered as above, as (roll number,
    where it is in words, dice): an opening roll's dice are White's die then Black's; a
    segment's, in the order rolled; a named double is not a roll."""
    roll = 0
    for number, game in enumerate(record.games, start=1):
        for event in game.events:
            if isinstance(event, OpeningRoll):
                roll += 1
                yield roll, f"game {number}'s opening roll", (event.white, event.black)
            elif isinstance(event, SegmentRecord) and event.kind != SegmentKind.NAMED_DOUBLE:
                roll += 1
                where = f"game {number}, {event.player}'s {event.dice[0]}-{event.dice[1]}"
                yield roll, where, event.dice


def check_record_rolls(record: MatchRecord) -> int:
    """Check every roll of ``record`` (a match record of this site's, its export) against
    the seed it reveals, with the formula above; return how many were checked. The
    engine's import (games.engine.record) replays the plays with the recorded dice but
    leaves the dice to the site that rolled them: this is that site's check. Raises
    RecordError for a record without its seed (a match in progress, or a record of
    another site's), a seed that is not the one committed to, or the first roll that is
    not the seed's."""
    if record.seed is None:
        raise RecordError("the record reveals no seed: its rolls cannot be checked yet")
    if record.seed_sha256 is not None and seed_hash(record.seed) != record.seed_sha256:
        raise RecordError("the seed's SHA-256 is not the commitment the record gives")
    checked = 0
    for roll, where, dice in record_rolls(record):
        expected = roll_pair(record.seed, roll)
        if dice != expected:
            raise RecordError(
                f"roll {roll} ({where}) is {dice[0]}-{dice[1]}, but the seed gives"
                f" {expected[0]}-{expected[1]}"
            )
        checked += 1
    return checked
