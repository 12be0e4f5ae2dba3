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
