"""Single elimination, worked by hand."""

from games.tournaments.brackets import BYE, Bracket, SingleElimination, Tournament


def pairings(tournament: Tournament) -> list[tuple[str, tuple]]:
    return [(slot.slot_id, slot.players) for slot in tournament.pending_matches()]


def test_eight_players_open_one_v_eight_four_v_five_two_v_seven_three_v_six():
    tournament = Tournament.create("single_elimination", [1, 2, 3, 4, 5, 6, 7, 8])

    assert pairings(tournament) == [
        ("W1-1", (1, 8)),
        ("W1-2", (4, 5)),
        ("W1-3", (2, 7)),
        ("W1-4", (3, 6)),
    ]


def test_seeds_one_and_two_meet_only_in_the_final():
    tournament = SingleElimination([1, 2, 3, 4, 5, 6, 7, 8])

    while pairings(tournament):
        slot = tournament.pending_matches()[0]
        tournament.report(slot.slot_id, min(slot.players))

    assert [(r.number, [m.players for m in r.matches]) for r in tournament.rounds()] == [
        (1, [(1, 8), (4, 5), (2, 7), (3, 6)]),
        (2, [(1, 4), (2, 3)]),
        (3, [(1, 2)]),
    ]
    assert tournament.champion == 1


def test_five_players_byes_go_to_the_top_three_seeds():
    tournament = SingleElimination([11, 12, 13, 14, 15])

    first_round = tournament.rounds()[0].matches

    assert [(m.players, m.winner) for m in first_round] == [
        ((11, BYE), 11),
        ((14, 15), None),
        ((12, BYE), 12),
        ((13, BYE), 13),
    ]
    # Seeds 2 and 3 are both through already, so their match starts at once.
    assert pairings(tournament) == [("W1-2", (14, 15)), ("W2-2", (12, 13))]


def test_a_bye_is_not_a_played_match():
    tournament = SingleElimination([11, 12, 13, 14, 15])

    standing = next(s for s in tournament.standings() if s.player == 11)

    assert (standing.played, standing.wins, standing.byes) == (0, 0, 1)


def test_the_next_match_starts_as_soon_as_both_players_are_known():
    tournament = SingleElimination([1, 2, 3, 4, 5, 6, 7, 8])

    tournament.report("W1-1", 1)
    started = tournament.report("W1-2", 5, points=(2, 7))

    assert [(m.slot_id, m.bracket, m.players) for m in started] == [
        ("W2-1", Bracket.WINNERS, (1, 5))
    ]
    assert "W1-3" in [m.slot_id for m in tournament.pending_matches()]
    assert tournament.match("W1-2").points == (2, 7)


def test_standings_rank_by_how_far_players_got():
    tournament = SingleElimination([1, 2, 3, 4, 5, 6, 7, 8])
    for slot_id, winner in [
        ("W1-1", 1),
        ("W1-2", 5),
        ("W1-3", 2),
        ("W1-4", 3),
        ("W2-1", 5),
        ("W2-2", 3),
        ("W3-1", 3),
    ]:
        tournament.report(slot_id, winner)

    standings = tournament.standings()

    assert [(s.rank, s.player) for s in standings] == [
        (1, 3),
        (2, 5),
        (3, 1),
        (3, 2),
        (5, 4),
        (5, 6),
        (5, 7),
        (5, 8),
    ]
    assert (standings[0].wins, standings[0].losses, standings[0].played) == (3, 0, 3)


def test_a_player_who_withdrew_is_placed_below_all_who_did_not():
    # Five players: 1, 2 and 3 have byes, 4 and 5 play. 1 withdraws at once: their
    # semi-final is a walkover, which put them level with 2's opponent, beaten at the
    # board, and above 4, out in round 1.
    tournament = SingleElimination([1, 2, 3, 4, 5])
    tournament.withdraw(1)
    for slot_id, winner in [("W1-2", 4), ("W2-2", 2), ("W3-1", 2)]:
        tournament.report(slot_id, winner)

    standings = tournament.standings()

    assert [(s.rank, s.player, s.withdrawn) for s in standings] == [
        (1, 2, False),
        (2, 4, False),
        (3, 3, False),
        (4, 5, False),
        (5, 1, True),
    ]


def test_standings_before_the_end_put_players_still_in_first():
    tournament = SingleElimination([1, 2, 3, 4])

    tournament.report("W1-2", 3)

    assert [(s.rank, s.player) for s in tournament.standings()] == [(1, 1), (1, 3), (1, 4), (4, 2)]
    assert tournament.champion is None


def test_two_players_play_a_single_final():
    tournament = SingleElimination([7, 9])

    tournament.report("W1-1", 9)

    assert tournament.is_finished
    assert tournament.champion == 9
