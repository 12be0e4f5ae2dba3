"""Every format, 2 to 33 players, seeded random results: the invariants of each format hold.

The state goes through JSON (to_dict / from_dict) after every step of every playthrough,
except in round robins of more than 12 players: their state holds the whole schedule, so
there it goes through JSON about once a round (and at the end) to keep the suite fast.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Set

import pytest

from games.tournaments.brackets import (
    BYE,
    Bracket,
    Format,
    MatchSlot,
    Standing,
    Swiss,
    Tournament,
    bracket_size,
)

from .helpers import Playthrough, play_out, seeds

COUNTS = range(2, 34)
LOSSES_TO_GO_OUT = {Format.SINGLE_ELIMINATION: 1, Format.DOUBLE_ELIMINATION: 2}


def by_player(tournament: Tournament) -> dict[int, Standing]:
    return {standing.player: standing for standing in tournament.standings()}


def played_matches(tournament: Tournament) -> list[MatchSlot]:
    return [slot for slot in tournament.matches() if slot.is_decided and not slot.is_bye]


def still_in(tournament: Tournament) -> set[int]:
    return {side for slot in tournament.matches() if not slot.is_decided for side in slot.players}


def check_nobody_out_too_soon(tournament: Tournament) -> None:
    """Everyone out of an elimination draw (withdrawn players aside) has lost enough."""
    limit = LOSSES_TO_GO_OUT[tournament.format]
    present = still_in(tournament) | {tournament.champion}
    for standing in tournament.standings():
        if standing.withdrawn:
            assert standing.losses <= limit
        elif standing.player in present:
            assert standing.losses < limit
        else:
            assert standing.losses == limit


def check_champion(tournament: Tournament) -> None:
    standings = tournament.standings()
    assert tournament.is_finished
    assert tournament.pending_matches() == []
    assert tournament.champion in tournament.players
    assert tournament.champion not in tournament.withdrawn
    assert [s.rank for s in standings].count(1) == 1
    assert standings[0].player == tournament.champion
    for standing in standings:
        assert standing.played == standing.wins + standing.losses


def check_single_elimination(tournament: Tournament) -> None:
    count = len(tournament.players)
    for player, standing in by_player(tournament).items():
        results = [
            slot.winner == player for slot in played_matches(tournament) if player in slot.players
        ]
        if player == tournament.champion:
            assert standing.losses == 0
        else:  # played on until the first loss
            assert results == [True] * (len(results) - 1) + [False]
    assert len(played_matches(tournament)) == count - 1
    assert sum(s.byes for s in tournament.standings()) == bracket_size(count) - count


def check_double_elimination(tournament: Tournament) -> None:
    count = len(tournament.players)
    first_final = tournament.match("GF1")
    reset = first_final.winner == first_final.players[1]
    assert ("GF2" in [slot.slot_id for slot in tournament.matches()]) == reset
    for player, standing in by_player(tournament).items():
        if player == tournament.champion:
            assert standing.losses == (1 if reset else 0)
        else:
            assert standing.losses == 2
    assert len(played_matches(tournament)) == 2 * (count - 1) + reset


def check_round_robin(tournament: Tournament) -> None:
    count = len(tournament.players)
    pairs = Counter(frozenset(slot.players) for slot in played_matches(tournament))
    assert len(pairs) == count * (count - 1) // 2
    assert set(pairs.values()) == {1}
    assert len(tournament.rounds()) == count - 1 + count % 2
    for standing in tournament.standings():
        assert standing.played == count - 1
        assert standing.byes == count % 2


def check_swiss(tournament: Tournament) -> None:
    assert isinstance(tournament, Swiss)
    rounds = tournament.total_rounds
    standings = by_player(tournament)
    for standing in standings.values():
        assert standing.played + standing.byes == rounds
        assert standing.byes <= 1
        assert standing.score == standing.wins + standing.byes
        opponents = [
            side
            for slot in played_matches(tournament)
            if standing.player in slot.players
            for side in slot.players
            if side != standing.player
        ]
        assert standing.buchholz == sum(standings[o].score for o in opponents)
    check_swiss_repeats(tournament)


def check_swiss_repeats(tournament: Tournament) -> None:
    """No pairing repeats. A Swiss that ended early could not pair its next round without
    one, whoever had the bye (a second bye is given rather than a rematch); nor could it
    have played the rounds planned from the round in which its last player withdrew (or from
    the start, if nobody did), byes going to players without one while there were any: from
    then on the players were the same, and each round was paired looking ahead to the last,
    which looks for later rounds with byes given that way. Brute force for up to 10 players
    left; with more, at most n - 1 rounds always leave a pairing without a rematch.
    """
    assert isinstance(tournament, Swiss)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    after_round = [(frozenset(met), frozenset(had_bye))]
    for round_ in tournament.rounds():
        pairs = [frozenset(slot.players) for slot in round_.matches if not slot.is_bye]
        assert not any(pair in met for pair in pairs), f"round {round_.number} repeats a pairing"
        met.update(pairs)
        had_bye.update(slot.winner for slot in round_.matches if slot.is_bye)
        after_round.append((frozenset(met), frozenset(had_bye)))
    assert len(tournament.rounds()) == tournament.total_rounds
    if tournament.ended_early:
        present = [p for p in tournament.players if p not in tournament.withdrawn]
        assert len(present) <= 10
        assert not can_pair_without_repeats(present, met, had_bye, any_bye=True)
        rounds_of = rounds_in(tournament)
        last_withdrawal = max((rounds_of[p] for p in tournament.withdrawn), default=0)
        met_then, had_bye_then = after_round[last_withdrawal]
        rounds_left = tournament.planned_rounds - last_withdrawal
        assert not can_pair_without_repeats(present, met_then, had_bye_then, rounds_left)


def rounds_in(tournament: Tournament) -> Counter[int]:
    """How many rounds each player was in: a player who withdrew, those up to the one in
    which they withdrew."""
    return Counter(
        side
        for round_ in tournament.rounds()
        for side in {side for slot in round_.matches for side in slot.players}
    )


def can_pair_without_repeats(
    players: list[int],
    met: Set[frozenset[int]],
    had_bye: Set[int],
    rounds: int = 1,
    *,
    any_bye: bool = False,
) -> bool:
    """Whether ``rounds`` more rounds can be paired without a rematch, byes going to players
    without one while there are any (as the look-ahead of pair_swiss_round gives them), or,
    with ``any_bye``, to anyone (as pair_swiss_round gives the bye of the round it pairs:
    a second bye rather than a rematch)."""
    if rounds == 0:
        return True
    return any(
        can_pair_without_repeats(
            players, met | set(pairs), had_bye | set(bye), rounds - 1, any_bye=any_bye
        )
        for pairs, bye in rematch_free_rounds(players, met, had_bye, any_bye=any_bye)
    )


def rematch_free_rounds(
    players: list[int], met: Set[frozenset[int]], had_bye: Set[int], *, any_bye: bool = False
) -> Iterator[tuple[list[frozenset[int]], list[int]]]:
    if len(players) % 2 == 0:
        for pairs in rematch_free_pairings(players, met):
            yield pairs, []
        return
    byeless = [p for p in players if p not in had_bye]
    for bye in players if any_bye or not byeless else byeless:
        for pairs in rematch_free_pairings([p for p in players if p != bye], met):
            yield pairs, [bye]


def rematch_free_pairings(
    players: list[int], met: Set[frozenset[int]]
) -> Iterator[list[frozenset[int]]]:
    if not players:
        yield []
        return
    first, *rest = players
    for partner in rest:
        pair = frozenset((first, partner))
        if pair not in met:
            for pairs in rematch_free_pairings([p for p in rest if p != partner], met):
                yield [pair, *pairs]


CHECKS = {
    Format.SINGLE_ELIMINATION: check_single_elimination,
    Format.DOUBLE_ELIMINATION: check_double_elimination,
    Format.ROUND_ROBIN: check_round_robin,
    Format.SWISS: check_swiss,
}


def reload_every(format: Format, count: int) -> int:
    return count // 2 if format == Format.ROUND_ROBIN and count > 12 else 1


def check_each_step(tournament: Tournament) -> None:
    if tournament.format in LOSSES_TO_GO_OUT:
        check_nobody_out_too_soon(tournament)


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("format", list(Format))
def test_random_results_always_finish_with_one_champion(format, count):
    rng = random.Random(f"{format}/{count}")
    tournament = Tournament.create(format, seeds(count))

    tournament = play_out(
        tournament, rng, reload_every=reload_every(format, count), after_each_step=check_each_step
    ).tournament

    check_champion(tournament)
    CHECKS[format](tournament)


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("format", list(Format))
def test_withdrawals_still_finish_with_a_champion_and_walkovers(format, count):
    rng = random.Random(f"withdrawals {format}/{count}")
    tournament = Tournament.create(format, seeds(count))

    playthrough = play_out(
        tournament,
        rng,
        withdrawal_chance=0.1,
        reload_every=reload_every(format, count),
        after_each_step=check_each_step,
    )

    check_champion(playthrough.tournament)
    check_walkovers(playthrough)


def check_walkovers(playthrough: Playthrough) -> None:
    tournament = playthrough.tournament
    standings = by_player(tournament)
    for player, decided_before in playthrough.decided_before_withdrawal.items():
        later = [
            slot
            for slot in played_matches(tournament)
            if player in slot.players and slot.slot_id not in decided_before
        ]
        assert all(slot.walkover and slot.winner != player for slot in later)
        # Nor does a bye carry them on: they go out where they meet one.
        later_byes = [slot for slot in tournament.byes() if slot.slot_id not in decided_before]
        assert all(slot.winner != player for slot in later_byes)
        assert standings[player].withdrawn
    for slot in played_matches(tournament):
        if slot.walkover:  # whoever lost it has withdrawn
            losers = (
                slot.players
                if slot.winner == BYE
                else [p for p in slot.players if p != slot.winner]
            )
            assert all(loser in tournament.withdrawn for loser in losers)
    if tournament.format == Format.ROUND_ROBIN:
        assert {s.played for s in standings.values()} == {len(tournament.players) - 1}
    if tournament.format == Format.SWISS:
        rounds = tournament.total_rounds  # type: ignore[attr-defined]
        for standing in standings.values():
            assert standing.played + standing.byes == rounds or standing.withdrawn
    if tournament.format == Format.DOUBLE_ELIMINATION:
        final_rounds = [r.number for r in tournament.rounds(Bracket.GRAND_FINAL)]
        assert final_rounds in ([1], [1, 2])
        if tournament.match("GF1").walkover:
            assert final_rounds == [1]  # no reset against a player who withdrew


def test_random_playthroughs_visit_resets_and_walkovers():
    """The simulations above do reach the rare cases they are meant to cover."""
    resets = walkovers = 0
    for count in (2, 3, 4, 7, 8):
        for seed in range(10):
            rng = random.Random(seed)
            tournament = play_out(
                Tournament.create("double_elimination", seeds(count)), rng, withdrawal_chance=0.05
            ).tournament
            resets += "GF2" in [slot.slot_id for slot in tournament.matches()]
            walkovers += sum(slot.walkover for slot in tournament.matches())

    assert resets > 5
    assert walkovers > 5


def test_swiss_ends_early_only_when_no_pairing_avoids_a_rematch():
    ended_early = 0
    for count in range(4, 11):
        for seed in range(15):
            rng = random.Random(f"repeats {count}/{seed}")
            tournament = play_out(
                Tournament.create("swiss", seeds(count)), rng, withdrawal_chance=seed % 3 / 10
            ).tournament

            check_swiss_repeats(tournament)
            ended_early += tournament.ended_early  # type: ignore[attr-defined]

    assert ended_early > 0, "no playthrough ended early: the brute-force check never ran"


@pytest.mark.parametrize("count", range(3, 13))
def test_swiss_without_withdrawals_plays_every_round_planned(count):
    # Paired by score alone, about one 5- or 6-player Swiss in seven would paint its last
    # round into a corner; each round is paired looking ahead, so none does.
    for seed in range(20):
        rng = random.Random(f"rounds planned {count}/{seed}")
        tournament = play_out(Tournament.create("swiss", seeds(count)), rng).tournament

        check_swiss_repeats(tournament)
        assert tournament.total_rounds == tournament.planned_rounds  # type: ignore[attr-defined]
