"""Double elimination, worked by hand."""

import random

from games.tournaments.brackets import BYE, Bracket, DoubleElimination, Tournament


def players_of(tournament: Tournament, slot_id: str) -> tuple:
    return tournament.match(slot_id).players


def test_four_players_with_a_bracket_reset():
    tournament = Tournament.create("double_elimination", [1, 2, 3, 4])
    assert [m.players for m in tournament.pending_matches()] == [(1, 4), (2, 3)]

    tournament.report("W1-1", 1)
    tournament.report("W1-2", 3)
    # Winners round 2 and losers round 1 both start at once.
    assert [(m.slot_id, m.players) for m in tournament.pending_matches()] == [
        ("W2-1", (1, 3)),
        ("L1-1", (4, 2)),
    ]
    tournament.report("W2-1", 1)
    tournament.report("L1-1", 2)
    # The losers final: the loser of the winners final against the losers-bracket survivor.
    assert players_of(tournament, "L2-1") == (3, 2)
    tournament.report("L2-1", 2)
    assert players_of(tournament, "GF1") == (1, 2)
    started = tournament.report("GF1", 2)

    # The losers-bracket champion won the first final: both now have one loss, so again.
    assert [(m.slot_id, m.players) for m in started] == [("GF2", (1, 2))]
    assert not tournament.is_finished
    assert tournament.champion is None

    tournament.report("GF2", 1)

    assert tournament.is_finished
    assert tournament.champion == 1
    assert [(s.rank, s.player, s.wins, s.losses) for s in tournament.standings()] == [
        (1, 1, 3, 1),
        (2, 2, 3, 2),
        (3, 3, 1, 2),
        (4, 4, 0, 2),
    ]


def test_four_players_without_a_reset_when_the_winners_champion_takes_the_first_final():
    tournament = DoubleElimination([1, 2, 3, 4])
    for slot_id, winner in [("W1-1", 1), ("W1-2", 2), ("W2-1", 1), ("L1-1", 3), ("L2-1", 3)]:
        tournament.report(slot_id, winner)

    tournament.report("GF1", 1)

    assert tournament.is_finished
    assert tournament.champion == 1
    assert [r.number for r in tournament.rounds(Bracket.GRAND_FINAL)] == [1]


def test_six_players_with_byes():
    tournament = DoubleElimination([1, 2, 3, 4, 5, 6])
    assert [(m.players, m.winner) for m in tournament.rounds(Bracket.WINNERS)[0].matches] == [
        ((1, BYE), 1),
        ((4, 5), None),
        ((2, BYE), 2),
        ((3, 6), None),
    ]

    tournament.report("W1-2", 5)
    tournament.report("W1-4", 3)
    # Losers round 1 pairs the losers of W1-1/W1-2 and W1-3/W1-4: both have a bye.
    assert [(m.players, m.winner) for m in tournament.rounds(Bracket.LOSERS)[0].matches] == [
        ((BYE, 4), 4),
        ((BYE, 6), 6),
    ]
    assert [m.players for m in tournament.pending_matches()] == [(1, 5), (2, 3)]

    tournament.report("W2-1", 1)
    tournament.report("W2-2", 3)
    # The losers of winners round 2 drop in crosswise: 5 already beat 4, so 5 meets 6.
    assert players_of(tournament, "L2-1") == (2, 4)
    assert players_of(tournament, "L2-2") == (5, 6)

    tournament.report("L2-1", 2)
    tournament.report("L2-2", 6)
    assert players_of(tournament, "L3-1") == (2, 6)
    tournament.report("L3-1", 2)
    tournament.report("W3-1", 3)
    assert players_of(tournament, "L4-1") == (1, 2)
    tournament.report("L4-1", 1)
    assert players_of(tournament, "GF1") == (3, 1)
    tournament.report("GF1", 3)

    assert tournament.champion == 3
    assert "GF2" not in [m.slot_id for m in tournament.matches()]
    assert [(s.rank, s.player, s.played, s.losses, s.byes) for s in tournament.standings()] == [
        (1, 3, 4, 0, 0),
        (2, 1, 4, 2, 1),
        (3, 2, 4, 2, 1),
        (4, 6, 3, 2, 1),
        (5, 4, 2, 2, 1),
        (5, 5, 3, 2, 0),
    ]


def test_eight_players_losers_of_winners_round_two_drop_in_reverse_order():
    tournament = DoubleElimination([1, 2, 3, 4, 5, 6, 7, 8])
    for slot_id in ["W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "L1-1", "L1-2"]:
        slot = tournament.match(slot_id)
        tournament.report(slot_id, min(slot.players))

    assert players_of(tournament, "L1-1") == (8, 5)
    assert players_of(tournament, "L1-2") == (7, 6)
    # The loser from the bottom half (3) meets the survivor from the top half (5) and vice
    # versa, so nobody meets again a player they beat in round 1.
    assert players_of(tournament, "L2-1") == (3, 5)
    assert players_of(tournament, "L2-2") == (4, 6)


def test_no_rematch_before_the_last_four_losers_rounds_of_a_64_player_draw():
    rematch_rounds = set()
    for seed in range(20):
        rng = random.Random(seed)
        tournament = DoubleElimination(list(range(1, 65)))
        met = set()
        while not tournament.is_finished:
            slot = rng.choice(tournament.pending_matches())
            pair = frozenset(slot.players)
            if pair in met:
                rematch_rounds.add((slot.bracket, slot.round))
            met.add(pair)
            tournament.report(slot.slot_id, rng.choice(slot.players))

    # Losers rounds 1-10; from round 7 on there are too few matches left to keep apart
    # everyone who has met. The grand final is a rematch by design.
    early = {(bracket, number) for bracket, number in rematch_rounds if number < 7}
    assert early <= {(Bracket.GRAND_FINAL, 1), (Bracket.GRAND_FINAL, 2)}


def test_no_bracket_reset_when_the_winners_champion_withdrew_before_the_final():
    tournament = DoubleElimination([1, 2, 3, 4])
    for slot_id, winner in [("W1-1", 1), ("W1-2", 2), ("W2-1", 1), ("L1-1", 3), ("L2-1", 3)]:
        tournament.report(slot_id, winner)

    tournament.withdraw(1)  # unbeaten, out before the first final is played

    final = tournament.match("GF1")
    assert final.walkover and final.winner == 3
    # A reset would only be a second walkover against the same withdrawn player.
    assert "GF2" not in [m.slot_id for m in tournament.matches()]
    assert tournament.is_finished and tournament.champion == 3


def test_a_withdrawn_player_who_drops_onto_a_losers_bracket_bye_goes_out_there():
    # Five players: seeds 1, 2 and 3 have first-round byes, so L1-2 is bye against bye and
    # the loser of W2-1 meets nobody in L2-2.
    tournament = DoubleElimination([1, 2, 3, 4, 5])
    tournament.withdraw(1)  # waiting for the winner of W1-2
    tournament.report("W1-2", 4)  # 4 wins W2-1 by walkover; 1 drops into L2-2

    dropped = tournament.match("L2-2")
    assert dropped.players == (1, BYE)
    # Out there: no bye for a player who has left, and no walkover either (nobody beat 1).
    assert (dropped.winner, dropped.walkover) == (BYE, False)
    assert [slot.slot_id for slot in tournament.byes() if slot.winner == 1] == ["W1-1"]
    assert all(slot.winner != 1 for slot in tournament.walkovers())
    # The draw goes on as if 1 were gone: their next opponent has the bye instead.
    assert players_of(tournament, "L3-1") == (None, BYE)
    tournament.report("W2-2", 2)
    tournament.report("L2-1", 5)  # 5 beats 3, who lost W2-2
    assert tournament.match("L3-1").winner == 5
    tournament.report("W3-1", 4)
    assert players_of(tournament, "L4-1") == (2, 5)
    standing = next(s for s in tournament.standings() if s.player == 1)
    assert (standing.played, standing.losses, standing.byes) == (1, 1, 1)  # W1's bye only


def test_a_player_who_leaves_with_the_loss_that_drops_them_onto_a_bye_goes_out_there():
    # Six players: seeds 1 and 2 have first-round byes, so whoever loses W1-2 (4 v 5) meets
    # nobody in L1-1.
    tournament = DoubleElimination([1, 2, 3, 4, 5, 6])

    tournament.report("W1-2", 5, loser_withdraws=True)  # 4 resigned to withdraw

    assert tournament.withdrawn == (4,)
    dropped = tournament.match("L1-1")
    assert dropped.players == (BYE, 4)
    assert (dropped.winner, dropped.walkover) == (BYE, False)
    # L2-1 takes the loser of W2-2 against the winner of L1-1: a bye, not a walkover over 4.
    tournament.report("W1-4", 3)
    tournament.report("W2-2", 2)
    assert tournament.match("L2-1").players == (3, BYE)
    assert tournament.match("L2-1").winner == 3
    assert tournament.walkovers() == []
    standing = next(s for s in tournament.standings() if s.player == 4)
    assert (standing.played, standing.losses, standing.byes) == (1, 1, 0)


def test_a_losers_bracket_emptied_by_withdrawals_leaves_the_final_to_the_winners_champion():
    # Three players: seed 1 has a bye; the loser of W1-2 meets nobody in L1-1.
    tournament = DoubleElimination([1, 2, 3])
    tournament.report("W1-2", 2, loser_withdraws=True)  # 3 leaves: L1-1 goes to nobody
    tournament.withdraw(1)  # 2 wins W2-1 by walkover; 1 drops onto the bye in L2-1

    assert tournament.match("L1-1").winner == BYE
    assert tournament.match("L2-1").players == (1, BYE)
    assert tournament.match("L2-1").winner == BYE
    assert tournament.match("GF1").players == (2, BYE)
    assert tournament.is_finished and tournament.champion == 2
    assert "GF2" not in [slot.slot_id for slot in tournament.matches()]
