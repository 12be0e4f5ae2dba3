"""Swiss: score-group pairing without rematches, byes and Buchholz, worked by hand."""

import random

import pytest

from games.tournaments import brackets
from games.tournaments.brackets import (
    BYE,
    MAX_SWISS_ROUNDS,
    Swiss,
    Tournament,
    TournamentError,
    default_swiss_rounds,
    pair_swiss_round,
)


def pairs(tournament: Tournament) -> list[tuple]:
    return [m.players for m in tournament.pending_matches()]


def test_six_players_three_rounds_worked_by_hand():
    tournament = Tournament.create("swiss", [1, 2, 3, 4, 5, 6], rounds=3)
    # Round 1: top half against bottom half.
    assert pairs(tournament) == [(1, 4), (2, 5), (3, 6)]
    tournament.report("R1-1", 1)
    tournament.report("R1-2", 2)
    tournament.report("R1-3", 6)

    # Scores 1 2 6 | 3 4 5. Group {1, 2, 6}: 1 v 2 and 6 floats down into {6, 3, 4, 5},
    # where 6 meets 4 (top half against bottom half; 6 v 3 would be a rematch anyway).
    assert pairs(tournament) == [(1, 2), (6, 4), (3, 5)]
    tournament.report("R2-1", 1)
    tournament.report("R2-2", 4)
    tournament.report("R2-3", 5)

    # Scores 1: 2, then 2 4 5 6: 1, then 3: 0. {1, 2, 4, 5, 6}: 1 v 4 is a rematch, so 1 v 5;
    # 2 v 4 would leave 6 v 3, a rematch, so 2 v 6 and 4 v 3.
    assert pairs(tournament) == [(1, 5), (2, 6), (4, 3)]
    tournament.report("R3-1", 1)
    tournament.report("R3-2", 6)
    tournament.report("R3-3", 3)

    assert tournament.is_finished
    assert tournament.champion == 1
    # Scores: 1: 3, 6: 2, everyone else 1. Buchholz: 1 (4, 2, 5) = 3; 2 (5, 1, 6) = 6;
    # 3 (6, 5, 4) = 4; 4 (1, 6, 3) = 6; 5 (2, 3, 1) = 5; 6 (3, 4, 2) = 3.
    assert [(s.rank, s.player, s.score, s.buchholz) for s in tournament.standings()] == [
        (1, 1, 3, 3),
        (2, 6, 2, 3),
        (3, 2, 1, 6),  # level with 4 on Buchholz too: seed decides
        (4, 4, 1, 6),
        (5, 5, 1, 5),
        (6, 3, 1, 4),
    ]


def test_the_next_round_is_paired_only_when_the_round_is_complete():
    tournament = Swiss([1, 2, 3, 4])

    assert tournament.report("R1-1", 1) == []
    assert [m.slot_id for m in tournament.matches()] == ["R1-1", "R1-2"]
    started = tournament.report("R1-2", 2)

    assert [m.slot_id for m in started] == ["R2-1", "R2-2"]


def test_with_an_odd_count_the_bye_goes_to_the_lowest_ranked_player_without_one():
    tournament = Swiss([1, 2, 3, 4, 5], rounds=3)
    assert tournament.match("R1-3").players == (5, BYE)
    assert tournament.match("R1-3").winner == 5
    tournament.report("R1-1", 1)  # 1 v 3
    tournament.report("R1-2", 2)  # 2 v 4

    # Scores 1 2 5 | 3 4: 4 is lowest and has had no bye.
    assert tournament.match("R2-3").players == (4, BYE)
    tournament.report("R2-1", 1)  # 1 v 2
    tournament.report("R2-2", 5)  # 5 v 3

    # Scores 1: 2, 5: 2, 2: 1, 4: 1, 3: 0. 3 is lowest and has had no bye.
    assert tournament.match("R3-3").players == (3, BYE)


def test_a_bye_scores_a_win_but_is_not_a_played_match():
    tournament = Swiss([1, 2, 3], rounds=2)
    tournament.report("R1-1", 1)  # 3 has the bye

    standing = {s.player: s for s in tournament.standings()}[3]

    assert (standing.played, standing.wins, standing.byes, standing.score) == (0, 0, 1, 1)


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 1), (3, 2), (4, 3), (5, 4), (8, 4), (16, 5), (17, 6), (33, 7)]
)
def test_default_rounds_are_ceil_log2_plus_one_capped_at_n_minus_one(players, rounds):
    assert default_swiss_rounds(players) == rounds
    assert Swiss(list(range(players))).total_rounds == rounds


def test_rounds_beyond_n_minus_one_are_refused():
    with pytest.raises(TournamentError, match="1 to 3 rounds"):
        Swiss([1, 2, 3, 4], rounds=4)


def test_a_new_swiss_has_at_most_fifteen_rounds():
    with pytest.raises(TournamentError, match="a Swiss of 40 players has 1 to 15 rounds"):
        Swiss(list(range(1, 41)), rounds=MAX_SWISS_ROUNDS + 1)


def test_a_saved_swiss_of_more_rounds_than_new_ones_may_have_still_loads():
    # Started before there was a limit: it plays on with the rounds it was planned with.
    data = Swiss(list(range(1, 41)), rounds=MAX_SWISS_ROUNDS).to_dict()
    data["options"] = {"rounds": 31}

    restored = Tournament.from_dict(data)

    assert (restored.planned_rounds, restored.total_rounds) == (31, 31)
    assert restored.to_dict() == data


@pytest.mark.parametrize("count", [24, 47, 128])
def test_a_large_swiss_of_the_most_rounds_pairs_every_round_without_a_rematch(count):
    # Pairing nearly as many rounds as players in a field of dozens took minutes a round;
    # with at most MAX_SWISS_ROUNDS it takes milliseconds, so this plays out at once.
    rng = random.Random(f"largest {count}")
    tournament = Swiss(list(range(1, count + 1)), rounds=MAX_SWISS_ROUNDS)
    while not tournament.is_finished:
        for slot in tournament.pending_matches():
            tournament.report(slot.slot_id, rng.choice(slot.players))

    met = [frozenset(m.players) for m in tournament.matches() if BYE not in m.players]
    assert (tournament.total_rounds, len(tournament.rounds())) == (MAX_SWISS_ROUNDS,) * 2
    assert len(met) == len(set(met)) == count // 2 * MAX_SWISS_ROUNDS


def test_a_repeat_is_allowed_only_when_every_pairing_repeats_one():
    # Everyone has met everyone of the other trio ({1, 2, 3} and {4, 5, 6}): pairing within
    # the trios leaves one player over in each, so one rematch is unavoidable, and enough.
    across = {player: {4, 5, 6} for player in (1, 2, 3)}
    across.update({player: {1, 2, 3} for player in (4, 5, 6)})

    found, bye = pair_swiss_round([1, 2, 3, 4, 5, 6], {}, across)

    repeats = [pair for pair in found if pair[1] in across[pair[0]]]
    assert bye is None
    assert len(repeats) == 1


def test_the_bye_is_moved_up_if_that_avoids_a_rematch():
    # 3 is lowest and byeless, but then 1 v 2 would be a rematch: 2 takes the bye instead.
    found, bye = pair_swiss_round([1, 2, 3], {}, {1: [2], 2: [1]})

    assert (found, bye) == ([(1, 3)], 2)


def test_a_withdrawn_player_forfeits_the_current_round_and_is_not_paired_again():
    tournament = Swiss([1, 2, 3, 4, 5, 6], rounds=3)
    tournament.report("R1-1", 1)

    tournament.withdraw(5)  # was playing 2 in R1-2

    assert tournament.match("R1-2").winner == 2
    assert tournament.match("R1-2").walkover
    tournament.report("R1-3", 3)
    assert all(5 not in m.players for m in tournament.rounds()[1].matches)
    assert tournament.match("R2-3").players[1] == BYE


def test_a_loser_withdrawing_with_the_last_result_of_a_round_is_not_paired_in_the_next():
    tournament = Swiss([1, 2, 3, 4, 5], rounds=3)  # 1 v 3, 2 v 4, and 5 has the bye
    tournament.report("R1-1", 1)

    tournament.report("R1-2", 2, loser_withdraws=True)

    assert tournament.withdrawn == (4,)
    round_two = tournament.rounds()[1].matches
    assert all(4 not in m.players and not m.is_bye for m in round_two)  # four left: no bye
    standing = {s.player: s for s in tournament.standings()}[4]
    assert (standing.played, standing.byes, standing.score) == (1, 0, 0)


def test_it_ends_after_the_rounds_played_when_the_next_would_repeat_a_pairing():
    # Five players, four rounds; 3 loses round 1 on time and is withdrawn. The four left
    # have then met 1 v 2, 5 v 4, 1 v 4 and 5 v 2 besides round 1's 2 v 4: a fourth
    # round could only be 1 v 5 and 2 v 4 again.
    tournament = Swiss([1, 2, 3, 4, 5], rounds=4)  # 1 v 3, 2 v 4, and 5 has the bye
    tournament.report("R1-1", 1, loser_withdraws=True)
    for slot_id, winner in [("R1-2", 2), ("R2-1", 1), ("R2-2", 5), ("R3-1", 1)]:
        tournament.report(slot_id, winner)

    assert tournament.report("R3-2", 5) == []

    assert tournament.is_finished
    assert (tournament.total_rounds, tournament.planned_rounds) == (3, 4)
    assert tournament.ended_early
    assert [m.round for m in tournament.matches()][-1] == 3
    assert tournament.champion == 1
    assert not any(tournament.in_contention(player) for player in tournament.players)
    with pytest.raises(TournamentError, match="the tournament is over"):
        tournament.withdraw(2)


def test_it_tells_whether_the_next_round_can_be_paired_without_a_player():
    tournament = Swiss([1, 2, 3, 4], rounds=3)  # 1 v 3, 2 v 4
    tournament.report("R1-1", 1)
    tournament.report("R1-2", 4)
    tournament.report("R2-1", 4, loser_withdraws=True)  # 1 v 4; 2 v 3 still to play

    # Without 3, only 2 and 4 are left, and they have met; with 3, it is 3 v 4 and 2's bye.
    assert tournament.can_pair_next_round()
    assert tournament.can_pair_next_round(without=3) is False
    # Without 2 it is 3 v 4; without 4, 2 and 3, who are playing now, are left.
    assert tournament.can_pair_next_round(without=2)
    assert tournament.can_pair_next_round(without=4) is False


def test_no_round_can_be_paired_after_the_last_one_planned():
    tournament = Swiss([1, 2, 3, 4], rounds=1)

    assert tournament.can_pair_next_round() is False


def test_a_swiss_that_ended_early_says_so_after_a_trip_through_its_state():
    tournament = Swiss([1, 2, 3, 4, 5], rounds=4)
    tournament.report("R1-1", 1, loser_withdraws=True)
    for slot_id, winner in [("R1-2", 2), ("R2-1", 1), ("R2-2", 5), ("R3-1", 1), ("R3-2", 5)]:
        tournament.report(slot_id, winner)

    data = tournament.to_dict()
    restored = Tournament.from_dict(data)

    assert data["options"] == {"rounds": 4, "ended_after": 3}
    assert isinstance(restored, Swiss)
    assert (restored.is_finished, restored.total_rounds, restored.planned_rounds) == (True, 3, 4)
    assert restored.to_dict() == data


@pytest.mark.parametrize("ended_after", [0, 4, 5, "3", None])
def test_a_state_that_ends_a_swiss_after_impossible_rounds_is_refused(ended_after):
    data = Swiss([1, 2, 3, 4, 5], rounds=4).to_dict()
    data["options"]["ended_after"] = ended_after

    with pytest.raises(TournamentError, match="cannot end early after"):
        Tournament.from_dict(data)


def test_a_swiss_that_plays_all_its_rounds_has_not_ended_early():
    tournament = Swiss([1, 2, 3, 4], rounds=3)
    while not tournament.is_finished:
        slot = tournament.pending_matches()[0]
        tournament.report(slot.slot_id, slot.players[0])

    assert (tournament.total_rounds, tournament.planned_rounds) == (3, 3)
    assert not tournament.ended_early
    assert tournament.to_dict()["options"] == {"rounds": 3}


def test_when_everyone_has_had_a_bye_the_second_one_goes_where_it_avoids_a_rematch():
    # 1, 2 and 3 have all had a bye. 3 is lowest, but then 1 v 2 would be a rematch.
    found, bye = pair_swiss_round([1, 2, 3], {}, {1: [2], 2: [1]}, [1, 2, 3])

    assert (found, bye) == ([(1, 3)], 2)


def test_a_second_bye_is_given_rather_than_a_rematch():
    # 1 and 2 have had a bye and have met: the bye to 3, who has had none, would repeat
    # 1 v 2.
    found, bye = pair_swiss_round([1, 2, 3], {}, {1: [2], 2: [1]}, [1, 2])

    assert (found, bye) == ([(1, 3)], 2)


def test_a_second_bye_lets_a_swiss_play_the_rounds_planned():
    tournament = Swiss([1, 2, 3, 4, 5], rounds=4)  # 1 v 3, 2 v 4, and 5 has the bye
    tournament.report("R1-2", 4)
    tournament.report("R1-1", 3, loser_withdraws=True)
    tournament.report("R2-2", 2)  # 5 v 2
    tournament.report("R2-1", 3, loser_withdraws=True)  # 3 v 4

    # 2, 3 and 5 are left, and 2 and 5 have met. With round 3's bye to 2 (3 v 5), round 4's
    # would go to 3, the one left without one, and 2 and 5 would meet again: which used to
    # end the tournament after round 3. 5 has a second bye now instead, and round 4 is 3 v 5
    # with 2's first.
    assert [m.players for m in tournament.rounds()[2].matches] == [(3, 2), (5, BYE)]
    tournament.report("R3-1", 2)

    assert [m.players for m in tournament.rounds()[3].matches] == [(3, 5), (2, BYE)]
    assert not tournament.ended_early


def test_the_look_ahead_plans_a_second_bye_when_the_rounds_left_need_one():
    tournament = Swiss(list(range(1, 10)), rounds=8)
    results = [("R1-1", 5), ("R1-2", 2), ("R1-3", 7), ("R1-4", 8)]
    results += [("R2-1", 7), ("R2-2", 8), ("R2-3", 9), ("R2-4", 4)]
    results += [("R3-1", 8), ("R3-2", 9), ("R3-3", 2), ("R3-4", 6)]
    for slot_id, winner in results:
        tournament.report(slot_id, winner, loser_withdraws=slot_id in ("R3-2", "R3-3"))
    assert [m.players for m in tournament.rounds()[2].matches] == [
        *[(7, 8), (9, 4), (2, 5), (6, 1)],
        (3, BYE),
    ]

    # Seven are left for five rounds, and 7 has met 2, 3 and 8 of them: they can play only
    # 1, 6 and 9, and need two byes. A look-ahead that kept later byes for players without
    # one found no plan, paired round 4 as the last (7 v 6, 1 the bye), and the tournament
    # ended after round 7. 7 has a bye now and a second one in round 8.
    assert [m.players for m in tournament.rounds()[3].matches] == [(8, 9), (2, 1), (6, 3), (7, BYE)]
    while not tournament.is_finished:
        for slot in tournament.pending_matches():
            tournament.report(slot.slot_id, slot.players[0])

    assert (tournament.total_rounds, tournament.ended_early) == (8, False)
    assert [m.players for m in tournament.rounds()[7].matches][-1] == (7, BYE)
    played = [frozenset(m.players) for m in tournament.matches() if BYE not in m.players]
    assert len(played) == len(set(played))  # no rematch


# Round 3 of 4 of pair_swiss_round's example: by score 2 v 6, 1 v 3, 4 v 5, after which no
# round 4 can be paired; looking ahead, 2 v 6, 1 v 5, 3 v 4.
_MET = {1: [4, 2], 2: [5, 1], 3: [6, 5], 4: [1, 6], 5: [2, 3], 6: [3, 4]}
_SCORES = {1: 1, 2: 2, 3: 1, 6: 2}
_BY_SCORE = [(2, 6), (1, 3), (4, 5)]
_LOOKING_AHEAD = [(2, 6), (1, 5), (3, 4)]


@pytest.mark.parametrize("steps", range(60))
def test_whatever_the_look_ahead_has_time_for_the_round_is_paired_without_a_rematch(
    monkeypatch, steps
):
    monkeypatch.setattr(brackets, "LOOKAHEAD_STEPS", steps)

    found, bye = pair_swiss_round([1, 2, 3, 4, 5, 6], _SCORES, _MET, rounds_after=1)

    assert bye is None
    assert found in (_BY_SCORE, _LOOKING_AHEAD)
    assert not any(second in _MET[first] for first, second in found)


def test_more_steps_for_the_look_ahead_never_take_a_pairing_it_could_rule_out(monkeypatch):
    found = []
    for steps in range(60):
        monkeypatch.setattr(brackets, "LOOKAHEAD_STEPS", steps)
        found.append(pair_swiss_round([1, 2, 3, 4, 5, 6], _SCORES, _MET, rounds_after=1)[0])

    # By score while it has no time to rule that out; from then on, looking ahead.
    switch = found.index(_LOOKING_AHEAD)
    assert switch > 0
    assert found == [_BY_SCORE] * switch + [_LOOKING_AHEAD] * (60 - switch)


def test_a_look_ahead_that_runs_out_does_not_fall_back_on_a_pairing_it_ruled_out(monkeypatch):
    # Six steps: enough to find 2 v 6, 1 v 3, 4 v 5 and to see that round 4 cannot follow
    # it, not enough to see whether it can follow the next pairing. That one is not known
    # to be a dead end, and the first one is: the next one is taken.
    monkeypatch.setattr(brackets, "LOOKAHEAD_STEPS", 6)

    found, _ = pair_swiss_round([1, 2, 3, 4, 5, 6], _SCORES, _MET, rounds_after=1)

    assert found == _LOOKING_AHEAD


def test_a_round_is_paired_so_that_the_rounds_planned_can_all_be_played():
    tournament = Swiss([1, 2, 3, 4, 5, 6])  # four rounds
    assert pairs(tournament) == [(1, 4), (2, 5), (3, 6)]
    for slot_id, winner in [("R1-1", 1), ("R1-2", 2), ("R1-3", 6)]:
        tournament.report(slot_id, winner)
    assert pairs(tournament) == [(1, 2), (6, 4), (3, 5)]
    for slot_id, winner in [("R2-1", 2), ("R2-2", 6), ("R2-3", 3)]:
        tournament.report(slot_id, winner)

    # By score it would be 2 v 6, 1 v 3 and 4 v 5: then 1, 5 and 6 would have met all but
    # each other, as would 2, 3 and 4, and no round 4 could be paired.
    assert pairs(tournament) == [(2, 6), (1, 5), (3, 4)]
    for slot in tournament.pending_matches():
        tournament.report(slot.slot_id, slot.players[0])

    assert pairs(tournament) == [(2, 3), (1, 6), (4, 5)]
    assert tournament.total_rounds == 4


def test_the_look_ahead_keeps_a_bye_for_the_last_round():
    tournament = Swiss([1, 2, 3, 4, 5])  # four rounds
    for slot_id, winner in [("R1-1", 3), ("R1-2", 2), ("R2-1", 2), ("R2-2", 1)]:
        tournament.report(slot_id, winner)
    assert [m.players for m in tournament.rounds()[1].matches] == [(2, 3), (5, 1), (4, BYE)]

    # By score it would be 2 v 5 and 1 v 4, and 3 the bye: then round 4's bye would have to
    # go to 1 or 2 (the only ones without one), and the other has met 3, 4 and 5.
    assert [m.players for m in tournament.rounds()[2].matches] == [(2, 1), (4, 5), (3, BYE)]
    for slot in tournament.pending_matches():
        tournament.report(slot.slot_id, slot.players[0])

    assert [m.players for m in tournament.rounds()[3].matches] == [(2, 5), (3, 4), (1, BYE)]
    assert not tournament.ended_early


def test_if_no_pairing_leaves_the_later_rounds_pairable_it_pairs_as_for_a_last_round():
    # 1 v 2 and 3 v 4 are played: four players have only two rounds left to play, not three.
    met = {1: [2], 2: [1], 3: [4], 4: [3]}

    found = pair_swiss_round([1, 2, 3, 4], {}, met, rounds_after=2)

    assert found == pair_swiss_round([1, 2, 3, 4], {}, met) == ([(1, 3), (2, 4)], None)
