"""Round robin: circle-method rounds and the tie-break order."""

from itertools import combinations

import pytest

from games.tournaments.brackets import BYE, RoundRobin, Tournament, TournamentError


def play_round(tournament: Tournament, winners: dict[str, tuple[int, tuple[int, int]]]) -> None:
    for slot_id, (winner, points) in winners.items():
        tournament.report(slot_id, winner, points=points)


def test_five_players_play_five_rounds_of_two_matches_each_sitting_out_once():
    tournament = RoundRobin([1, 2, 3, 4, 5])

    rounds = tournament.rounds()
    matches = [m for r in rounds for m in r.matches if not m.is_bye]
    sitting_out = [m.players[0] for r in rounds for m in r.matches if m.is_bye]

    assert len(rounds) == 5
    assert [len(r.matches) for r in rounds] == [3] * 5  # two matches and a bye
    assert len(matches) == 10
    assert sorted(tuple(sorted(m.players)) for m in matches) == list(
        combinations([1, 2, 3, 4, 5], 2)
    )
    assert sorted(sitting_out) == [1, 2, 3, 4, 5]
    assert all(m.players[1] == BYE for r in rounds for m in r.matches if m.is_bye)


def test_only_the_current_round_is_pending_until_it_is_complete():
    tournament = RoundRobin([1, 2, 3, 4])
    assert [m.slot_id for m in tournament.pending_matches()] == ["R1-1", "R1-2"]

    assert tournament.report("R1-1", 1) == []
    with pytest.raises(TournamentError, match="later round"):
        tournament.report("R2-1", 1)
    started = tournament.report("R1-2", 3)

    assert [(m.slot_id, m.players) for m in started] == [("R2-1", (1, 3)), ("R2-2", (4, 2))]


def test_head_to_head_breaks_a_tie_on_wins_before_points_difference():
    tournament = RoundRobin([1, 2, 3, 4])
    # Rounds: 1v4 2v3 / 1v3 4v2 / 1v2 3v4.
    play_round(tournament, {"R1-1": (1, (5, 0)), "R1-2": (3, (4, 5))})
    play_round(tournament, {"R2-1": (1, (5, 1)), "R2-2": (2, (2, 5))})
    play_round(tournament, {"R3-1": (2, (3, 5)), "R3-2": (4, (0, 5))})

    standings = tournament.standings()

    # 1 and 2 have two wins; 1 has the better points difference (+7 to +4), but 2 beat 1.
    assert [(s.player, s.wins, s.points_for - s.points_against) for s in standings] == [
        (2, 2, 4),
        (1, 2, 7),
        (4, 1, -3),
        (3, 1, -8),
    ]
    assert [s.rank for s in standings] == [1, 2, 3, 4]
    assert tournament.champion == 2


def test_points_difference_breaks_a_circular_tie():
    tournament = RoundRobin([1, 2, 3])
    # Rounds: 2v3 (1 sits out) / 1v3 / 1v2.
    play_round(tournament, {"R1-1": (2, (5, 4))})
    play_round(tournament, {"R2-1": (3, (3, 5))})
    play_round(tournament, {"R3-1": (1, (5, 0))})

    standings = tournament.standings()

    # One win each and one head-to-head win each: points difference +3, +1, -4.
    assert [(s.player, s.points_for, s.points_against) for s in standings] == [
        (1, 8, 5),
        (3, 9, 8),
        (2, 5, 9),
    ]
    assert [(s.played, s.byes) for s in standings] == [(2, 1), (2, 1), (2, 1)]


def test_points_against_a_player_who_withdrew_break_no_tie():
    tournament = RoundRobin([1, 2, 3, 4])
    # Rounds: 1v4 2v3 / 1v3 4v2 / 1v2 3v4. 3 loses to 2 on time, never having moved
    # (15-0), and withdraws: 1 and 4 then beat 3 by walkover (0-0).
    tournament.report("R1-1", 1, points=(5, 3))
    tournament.report("R1-2", 2, points=(15, 0), loser_withdraws=True)
    play_round(tournament, {"R2-2": (4, (5, 4))})
    play_round(tournament, {"R3-1": (2, (4, 5))})

    standings = tournament.standings()

    # 1, 2 and 4 won two each, and one each of the matches between them. Counting the 15-0,
    # 2 would be first; between the three alone, 1 is (+1 to 0 and -1).
    assert [(s.player, s.wins) for s in standings] == [(1, 2), (2, 2), (4, 2), (3, 0)]
    assert tournament.champion == 1
    assert (standings[1].points_for, standings[1].points_against) == (24, 9)  # all shown


def test_a_walkover_over_a_withdrawn_player_is_no_head_to_head_win():
    # 1 and 2 end level on wins among those who stayed, and 2 beat 1; 1's walkover over
    # 3 (who withdrew on 2 wins, level with them) leveled the head-to-head, and points
    # difference put 1 first.
    t = Tournament.create("round_robin", [1, 2, 3, 4, 5])
    t.report("R1-1", 2, points=(1, 0))
    t.report("R1-2", 3, points=(1, 0))
    t.report("R2-1", 1, points=(15, 0))
    t.report("R2-2", 3, points=(0, 1))
    t.report("R3-1", 4, points=(0, 1))
    t.report("R3-2", 5, points=(1, 0), loser_withdraws=True)
    t.report("R4-2", 4, points=(15, 0))
    t.report("R5-1", 2, points=(0, 1))
    t.report("R5-2", 4, points=(1, 0))
    standings = {s.player: s for s in t.standings()}
    assert standings[1].wins == standings[2].wins  # level, and 2 beat 1 in round 1
    assert 3 in t.withdrawn

    order = [s.player for s in t.standings()]

    assert order.index(2) < order.index(1), order
    assert order[-1] == 3


def test_a_withdrawn_players_later_matches_are_walkovers_as_their_rounds_open():
    tournament = RoundRobin([1, 2, 3, 4])
    tournament.report("R1-1", 1)

    tournament.withdraw(3)

    assert tournament.match("R1-2").winner == 2
    assert tournament.match("R1-2").walkover
    assert [m.slot_id for m in tournament.pending_matches()] == ["R2-2"]  # R2-1: 1 v 3
    assert tournament.match("R2-1").winner == 1
    assert tournament.match("R3-2").winner is None  # its round has not opened yet


def test_the_loser_of_the_last_match_is_not_withdrawn_from_a_tournament_it_ends():
    tournament = RoundRobin([1, 2])

    tournament.report("R1-1", 1, loser_withdraws=True)

    assert tournament.is_finished and tournament.champion == 1
    assert tournament.withdrawn == ()
    assert not any(s.withdrawn for s in tournament.standings())


def test_a_withdrawn_player_is_given_no_bye_in_a_later_round():
    # Three players: 3 sits out round 3 (1 v 2).
    tournament = RoundRobin([1, 2, 3])
    tournament.report("R1-1", 2)  # 2 v 3; 1 sits out round 1

    tournament.withdraw(3)  # round 2 (1 v 3, 2 sits out) is over at once: round 3 opens

    sat_out = tournament.match("R3-2")
    assert sat_out.players == (3, BYE)
    assert (sat_out.winner, sat_out.walkover) == (BYE, False)
    assert [slot.slot_id for slot in tournament.byes()] == ["R1-2", "R2-2"]
    standing = next(s for s in tournament.standings() if s.player == 3)
    assert (standing.played, standing.losses, standing.byes, standing.withdrawn) == (2, 2, 0, True)
