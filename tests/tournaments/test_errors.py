"""Bad input is refused with a TournamentError (a ValueError) a person can read."""

import pytest

from games.tournaments.brackets import (
    DoubleElimination,
    RoundRobin,
    SingleElimination,
    Swiss,
    Tournament,
    TournamentError,
)


def test_tournament_error_is_a_value_error():
    assert issubclass(TournamentError, ValueError)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([1], "at least 2"),
        ([1, 2, 1], "listed twice"),
        ([1, "2"], "integer ids"),
        ([True, 2], "integer ids"),
    ],
)
def test_bad_player_lists_are_refused(players, message):
    with pytest.raises(TournamentError, match=message):
        SingleElimination(players)


def test_unknown_format_and_options_are_refused():
    with pytest.raises(TournamentError, match="unknown format 'ladder'"):
        Tournament.create("ladder", [1, 2])
    with pytest.raises(TournamentError, match="takes no option rounds"):
        Tournament.create("round_robin", [1, 2], rounds=1)


def test_reporting_an_unknown_slot():
    tournament = SingleElimination([1, 2, 3, 4])

    with pytest.raises(TournamentError, match="no match 'W9-1'"):
        tournament.report("W9-1", 1)


def test_reporting_a_winner_who_is_not_in_the_match():
    tournament = SingleElimination([1, 2, 3, 4])

    with pytest.raises(TournamentError, match="3 is not playing in match W1-1"):
        tournament.report("W1-1", 3)


def test_reporting_twice():
    tournament = SingleElimination([1, 2, 3, 4])
    tournament.report("W1-1", 1)

    with pytest.raises(TournamentError, match="already has a result"):
        tournament.report("W1-1", 1)


def test_reporting_a_match_whose_players_are_not_known_yet():
    tournament = SingleElimination([1, 2, 3, 4])

    with pytest.raises(TournamentError, match="its players are not known"):
        tournament.report("W2-1", 1)


def test_reporting_a_bye():
    tournament = SingleElimination([1, 2, 3])

    with pytest.raises(TournamentError, match="W1-1 is a bye"):
        tournament.report("W1-1", 1)


def test_reporting_a_walkover():
    tournament = DoubleElimination([1, 2, 3, 4])
    tournament.withdraw(4)

    with pytest.raises(TournamentError, match="decided by walkover"):
        tournament.report("W1-1", 1)


@pytest.mark.parametrize("points", [(1, 2, 3), (-1, 5), (1.5, 2), "55", 5, {1, 2}])
def test_bad_points(points):
    tournament = RoundRobin([1, 2])

    with pytest.raises(TournamentError, match="points are two whole numbers"):
        tournament.report("R1-1", 1, points=points)


def test_withdrawing_someone_unknown_or_twice():
    tournament = Swiss([1, 2, 3, 4])
    tournament.withdraw(2)

    with pytest.raises(TournamentError, match="9 is not playing"):
        tournament.withdraw(9)
    with pytest.raises(TournamentError, match="already withdrawn"):
        tournament.withdraw(2)


def test_nobody_can_withdraw_once_the_tournament_is_over():
    tournament = SingleElimination([1, 2, 3, 4])
    tournament.report("W1-1", 1)
    tournament.report("W1-2", 2)
    tournament.withdraw(1)  # 2 wins the final by walkover

    assert tournament.champion == 2
    with pytest.raises(TournamentError, match="the tournament is over"):
        tournament.withdraw(2)


@pytest.mark.parametrize("format", ["single_elimination", "double_elimination", "swiss"])
def test_when_all_but_one_withdraw_the_last_one_wins_at_once(format):
    tournament = Tournament.create(format, [1, 2, 3, 4, 5])

    for player in (1, 2, 3, 5):
        tournament.withdraw(player)

    assert tournament.is_finished
    assert tournament.champion == 4


def test_when_all_but_one_withdraw_from_a_round_robin_the_last_one_wins_at_once():
    tournament = RoundRobin([1, 2, 3])
    tournament.report("R1-1", 2)  # 1 sits out round 1

    tournament.withdraw(2)
    tournament.withdraw(1)

    # 3 beat 1 by walkover; 1 and 2 both lost their match to each other by walkover.
    assert tournament.is_finished
    assert tournament.champion == 3
    assert [(s.player, s.wins, s.losses, s.withdrawn) for s in tournament.standings()] == [
        (3, 1, 1, False),
        (2, 1, 1, True),  # level with 3 and beat 3, but withdrew
        (1, 0, 2, True),
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "malformed tournament state"),
        ({"format": "chess", "version": 1}, "unknown format"),
        ({"format": "swiss", "version": 99}, "unknown state version"),
    ],
)
def test_malformed_state_is_refused(data, message):
    with pytest.raises(TournamentError, match=message):
        Tournament.from_dict(data)


def test_state_that_names_a_stranger_is_refused():
    data = SingleElimination([1, 2]).to_dict()
    data["slots"][0]["players"] = [1, 3]

    with pytest.raises(TournamentError, match="3 is not a player"):
        Tournament.from_dict(data)


def test_a_format_class_restores_only_its_own_format():
    data = SingleElimination([1, 2]).to_dict()

    with pytest.raises(TournamentError, match="of a single_elimination tournament"):
        Swiss.from_dict(data)
    assert isinstance(SingleElimination.from_dict(data), SingleElimination)


def test_players_may_come_from_any_iterable_of_ids():
    tournament = RoundRobin(player for player in (3, 1, 2))

    assert tournament.players == (3, 1, 2)


@pytest.mark.parametrize(
    ("format", "results"),
    [
        ("single_elimination", [("W1-1", 1)]),
        ("double_elimination", [("W1-1", 1), ("W1-2", 2), ("L1-1", 3)]),
    ],
)
def test_a_player_knocked_out_cannot_withdraw(format, results):
    tournament = Tournament.create(format, [1, 2, 3, 4])
    for slot_id, winner in results:
        tournament.report(slot_id, winner)  # 4 loses (twice, in double elimination)
    state = tournament.to_dict()

    assert not tournament.in_contention(4)
    with pytest.raises(TournamentError, match="player 4 is out of the tournament already"):
        tournament.withdraw(4)
    assert tournament.to_dict() == state


def test_who_is_in_contention():
    tournament = DoubleElimination([1, 2, 3, 4])
    tournament.report("W1-1", 1)

    # 4 lost once and waits in the losers bracket; 1 waits for the winner of W1-2.
    assert [tournament.in_contention(p) for p in (1, 2, 3, 4)] == [True] * 4
    tournament.withdraw(3)
    assert [tournament.in_contention(p) for p in (1, 2, 3, 4)] == [True, True, False, True]
    with pytest.raises(TournamentError, match="9 is not playing"):
        tournament.in_contention(9)


def test_everyone_not_withdrawn_is_in_contention_until_a_round_based_tournament_ends():
    tournament = RoundRobin([1, 2])
    assert tournament.in_contention(1) and tournament.in_contention(2)

    tournament.report("R1-1", 1)

    assert not tournament.in_contention(1) and not tournament.in_contention(2)
