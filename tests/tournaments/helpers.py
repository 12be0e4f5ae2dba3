"""Playing tournaments out with seeded random results, checking state round-trips on the way."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from games.tournaments.brackets import MatchSlot, Tournament


def seeds(count: int) -> list[int]:
    """Player ids that differ from seed numbers, so a mix-up of the two shows."""
    return [100 + seed for seed in range(1, count + 1)]


def reloaded(tournament: Tournament) -> Tournament:
    """The tournament after a trip through JSON, checked to be the same tournament."""
    data = tournament.to_dict()
    restored = Tournament.from_dict(json.loads(json.dumps(data)))
    assert restored.to_dict() == data
    assert restored.pending_matches() == tournament.pending_matches()
    assert restored.is_finished == tournament.is_finished
    assert restored.champion == tournament.champion
    return restored


def random_points(rng: random.Random, slot: MatchSlot, winner: int) -> tuple[int, int]:
    won, lost = rng.randint(3, 7), 0
    lost = rng.randint(0, won - 1)
    return (won, lost) if slot.players[0] == winner else (lost, won)


@dataclass
class Playthrough:
    tournament: Tournament
    #: For each withdrawn player, the slot ids already decided when they withdrew.
    decided_before_withdrawal: dict[int, set[str]] = field(default_factory=dict)


def play_out(
    tournament: Tournament,
    rng: random.Random,
    *,
    withdrawal_chance: float = 0.0,
    reload_every: int = 1,
    after_each_step: Callable[[Tournament], None] | None = None,
) -> Playthrough:
    """Report random results (and perhaps withdraw players) until the tournament is over,
    reloading it from JSON after every ``reload_every`` steps and at the end.
    """
    playthrough = Playthrough(tournament)
    steps = 0
    while not tournament.is_finished:
        steps += 1
        if rng.random() < withdrawal_chance:
            withdraw_someone(playthrough, rng)
        else:
            pending = tournament.pending_matches()
            assert pending, "an unfinished tournament must have a match to play"
            slot = rng.choice(pending)
            winner = rng.choice(slot.players)
            assert isinstance(winner, int)
            tournament.report(slot.slot_id, winner, points=random_points(rng, slot, winner))
        if steps % reload_every == 0 or tournament.is_finished:
            tournament = reloaded(tournament)
        playthrough.tournament = tournament
        if after_each_step is not None:
            after_each_step(tournament)
    return playthrough


def withdraw_someone(playthrough: Playthrough, rng: random.Random) -> None:
    """Withdraw a random player who still has a match to play (one knocked out of an
    elimination draw has nothing to withdraw from, and is refused)."""
    tournament = playthrough.tournament
    present = [p for p in tournament.players if tournament.in_contention(p)]
    player = rng.choice(present)
    decided = {slot.slot_id for slot in tournament.matches() if slot.is_decided}
    tournament.withdraw(player)
    playthrough.decided_before_withdrawal[player] = decided
