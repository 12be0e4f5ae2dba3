"""to_dict / from_dict: JSON-ready state that restores the same tournament."""

import json

from games.tournaments.brackets import Bracket, DoubleElimination, Swiss, Tournament


def test_state_is_plain_json_and_round_trips_exactly():
    tournament = DoubleElimination([5, 6, 7, 8, 9])
    tournament.report("W1-2", 8, points=(3, 7))
    tournament.withdraw(6)

    data = tournament.to_dict()
    restored = Tournament.from_dict(json.loads(json.dumps(data)))

    assert restored.to_dict() == data
    assert restored.matches() == tournament.matches()
    assert restored.standings() == tournament.standings()
    assert restored.withdrawn == (6,)


def test_state_lists_every_match_with_its_feeds():
    data = DoubleElimination([1, 2, 3, 4]).to_dict()

    assert data["format"] == "double_elimination"
    assert data["players"] == [1, 2, 3, 4]
    assert data["slots"][2] == {
        "id": "W2-1",
        "bracket": "winners",
        "round": 2,
        "players": [None, None],
        "feeds": ["winner:W1-1", "winner:W1-2"],
        "winner": None,
        "points": None,
        "walkover": False,
    }


def test_a_restored_tournament_plays_on_like_the_original():
    original = Swiss([1, 2, 3, 4, 5, 6, 7], rounds=3)
    restored = Tournament.from_dict(original.to_dict())

    for tournament in (original, restored):
        while not tournament.is_finished:
            slot = tournament.pending_matches()[-1]
            tournament.report(slot.slot_id, slot.players[1])

    assert restored.to_dict() == original.to_dict()
    assert restored.standings() == original.standings()


def test_the_state_does_not_share_lists_with_the_tournament():
    tournament = Swiss([1, 2, 3, 4])

    tournament.to_dict()["slots"][0]["players"][0] = 99
    tournament.to_dict()["withdrawn"].append(1)

    assert tournament.match("R1-1").players == (1, 3)
    assert tournament.withdrawn == ()
    assert tournament.rounds(Bracket.ROUNDS)[0].number == 1
