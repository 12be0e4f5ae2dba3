"""POST /api/v1/matches/<id>/turn/: plays, named doubles, named blots, and refusals."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Segment
from tests.matches import set_position

from .conftest import post_json, start

pytestmark = pytest.mark.django_db


def _turn(client, match: Match, data):
    return post_json(client, reverse("api_match_turn", args=[match.pk]), data)


def _assert_unchanged(match: Match) -> None:
    before = (match.segment_count, match.position)
    match.refresh_from_db()
    assert (match.segment_count, match.position) == before
    assert Segment.objects.filter(match=match).count() == match.segment_count


def test_it_plays_a_segment_and_answers_with_the_new_state(alice_api, match):
    response = _turn(alice_api, match, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 200
    state = response.json()
    match.refresh_from_db()
    assert state["segment"] == match.segment_count >= 2
    assert state["history"][1]["play"] == "in/22 in/19"
    assert state["position"]["waiting"]["white"] == 13
    assert state["to_move"] == "bob"  # the turn passed; Bob's dice are random
    assert set(state) >= {"dice", "legal_plays", "phase", "deadline"}


def test_it_reads_notation_the_way_players_write_it(alice_api, match):
    response = _turn(alice_api, match, {"segment": 1, "play": "IN/16"})

    assert response.status_code == 200
    assert response.json()["history"][1]["play"] == "in/19 19/16"


def test_the_same_turn_sent_again_is_played_once_and_the_client_told_so(alice_api, match):
    # Sent again as a client does when the first answer is lost, and written another way.
    first = _turn(alice_api, match, {"segment": 1, "play": "in/22 in/19"})
    match.refresh_from_db()

    again = _turn(alice_api, match, {"segment": 1, "play": "IN/19 in/22"})

    assert first.status_code == 200
    assert again.status_code == 409
    assert again.json() == {
        "error": "this turn was played already (sent with segment 1): it counts once",
        "segment": first.json()["segment"],
        "already_played": True,
        "status": "active",
    }
    _assert_unchanged(match)
    assert Segment.objects.filter(match=match, player="white").count() == 1


def test_another_play_for_a_segment_already_played_is_stale(alice_api, match):
    _turn(alice_api, match, {"segment": 1, "play": "in/22 in/19"})
    match.refresh_from_db()

    other = _turn(alice_api, match, {"segment": 1, "play": "in/19 19/16"})

    assert other.status_code == 409
    assert "reload" in other.json()["error"]
    assert other.json()["segment"] == match.segment_count  # the number to send now
    assert other.json()["already_played"] is False
    _assert_unchanged(match)


def test_the_opponent_sending_the_played_turn_is_refused(alice_api, bob_api, match):
    _turn(alice_api, match, {"segment": 1, "play": "in/22 in/19"})
    match.refresh_from_db()

    response = _turn(bob_api, match, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 409
    assert response.json()["already_played"] is False
    _assert_unchanged(match)


@pytest.mark.parametrize(
    ("play", "reason"),
    [
        ("in/22 22/19", "3 pips"),
        ("13/7", "13"),
        ("in/22 in/19 in/18", ""),
        ("hello", "cannot read"),
        ("in/22* in/19", "in/22*: there is no blot on your 22-point to hit"),
        ("", ""),
    ],
)
def test_it_explains_an_illegal_play(alice_api, match, play, reason):
    response = _turn(alice_api, match, {"segment": 1, "play": play})

    assert response.status_code == 400
    assert reason in response.json()["error"]
    _assert_unchanged(match)


def test_it_refuses_a_player_whose_turn_it_is_not(bob_api, match):
    response = _turn(bob_api, match, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 403
    assert "not your turn" in response.json()["error"]
    _assert_unchanged(match)


def test_it_refuses_someone_not_playing(charlie_api, match):
    response = _turn(charlie_api, match, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 403
    _assert_unchanged(match)


def test_it_refuses_a_stale_segment_number(alice_api, match):
    response = _turn(alice_api, match, {"segment": 0, "play": "in/22 in/19"})

    assert response.status_code == 409
    _assert_unchanged(match)


def test_it_answers_404_for_an_unknown_match(alice_api):
    response = post_json(alice_api, "/api/v1/matches/999/turn/", {"segment": 1, "play": "-"})

    assert response.status_code == 404
    assert "no match" in response.json()["error"]


def test_it_names_a_double_after_an_acey_deucey(alice, bob, alice_api):
    match = start(alice, bob, [5, 2, 1, 2])
    _turn(alice_api, match, {"segment": 1, "play": "in/24 in/23"})
    match.refresh_from_db()
    assert match.phase == "name_double"

    play_instead = _turn(alice_api, match, {"segment": match.segment_count, "play": "24/18"})
    named = _turn(alice_api, match, {"segment": match.segment_count, "double": 6})

    assert play_instead.status_code == 400
    assert "double" in play_instead.json()["error"]
    assert named.status_code == 200
    double = named.json()["history"][2]
    assert (double["kind"], double["player"], double["dice"]) == ("double", "white", [6, 6])
    # Sent again: played once; another double for that segment is stale.
    again = _turn(alice_api, match, {"segment": match.segment_count, "double": 6})
    other = _turn(alice_api, match, {"segment": match.segment_count, "double": 5})
    assert again.json()["already_played"] is True
    assert again.json()["segment"] == named.json()["segment"]
    assert other.json()["already_played"] is False
    assert Segment.objects.filter(match=match, kind="double").count() == 1


def test_it_refuses_a_double_outside_an_acey_deucey(alice_api, match):
    response = _turn(alice_api, match, {"segment": 1, "double": 6})

    assert response.status_code == 400
    assert "1-2" in response.json()["error"]
    _assert_unchanged(match)


def test_it_names_a_blot_in_greek(alice, bob, alice_api):
    # Greek: Alice's 15 checkers start on her 24-point; she opens with 6-3.
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")

    response = _turn(alice_api, match, {"segment": 1, "play": "24/18 24/21", "name_blot": 18})

    assert response.status_code == 200
    state = response.json()
    assert state["history"][1]["named_blot"] == 18
    assert state["history"][1]["play"] == "24/21 24/18"
    # Sent again, it was played once; naming another blot is another turn, and stale.
    again = _turn(alice_api, match, {"segment": 1, "play": "24/18 24/21", "name_blot": 18})
    other = _turn(alice_api, match, {"segment": 1, "play": "24/18 24/21", "name_blot": 21})
    assert again.status_code == other.status_code == 409
    assert again.json()["already_played"] is True and again.json()["segment"] == state["segment"]
    assert other.json()["already_played"] is False


def test_a_greek_dance_with_a_blot_is_left_to_the_player_who_sends_an_empty_play(
    alice, bob, alice_api
):
    # Alice, on the bar, rolls 6-5 against Bob's six points in her entry quarter: she
    # cannot move, but she has a blot on her 8-point she may name, so the site does not
    # play the dance for her (games.services._play_forced).
    match = start(alice, bob, [5, 2, 6, 5], variant="greek")
    points = [0] * 24
    points[18:24] = [-2] * 6
    points[11], points[7], points[5] = -3, 1, 13
    match = set_position(match, "white", points, variant="greek", bar={"white": 1, "black": 0})

    state = alice_api.get(reverse("api_match", args=[match.pk])).json()
    response = _turn(alice_api, match, {"segment": 1, "play": "", "name_blot": 8})

    assert (state["to_move"], state["phase"], state["dice"]) == ("alice", "play", [6, 5])
    assert state["legal_plays"] == [""]
    assert response.status_code == 200
    played = response.json()["history"][1]
    assert (played["player"], played["play"], played["named_blot"]) == ("white", "", 8)
    assert response.json()["to_move"] == "bob"


def test_it_refuses_to_name_a_point_that_is_not_a_blot(alice, bob, alice_api):
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")

    response = _turn(alice_api, match, {"segment": 1, "play": "24/18 24/21", "name_blot": 5})

    assert response.status_code == 400
    assert "blot" in response.json()["error"]
    _assert_unchanged(match)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"play": "in/22 in/19"}, "segment is required"),
        ({"segment": "1", "play": "in/22 in/19"}, "segment must be a whole number"),
        ({"segment": 1.0, "play": "in/22 in/19"}, "segment must be a whole number"),
        ({"segment": True, "play": "in/22 in/19"}, "segment must be a whole number"),
        ({"segment": 10**30, "play": "in/22 in/19"}, "segment must be a whole number"),
        ({"segment": -1, "play": "in/22 in/19"}, "segment must be a whole number"),
        ({"segment": 1}, "either a play"),
        ({"segment": 1, "play": "in/22 in/19", "double": 6}, "either a play"),
        ({"segment": 1, "double": True}, "double must be"),
        ({"segment": 1, "double": 7}, "double must be"),
        ({"segment": 1, "double": 10**100}, "double must be"),
        ({"segment": 1, "play": ["in/22", "in/19"]}, "play must be a string"),
        ({"segment": 1, "play": "in/22 " * 100}, "too long"),
        ({"segment": 1, "play": "in/22 in/19", "name_blot": "19"}, "name_blot"),
        ({"segment": 1, "play": "in/22 in/19", "steps": [[25, 22]]}, "unknown field"),
        ([1, "in/22 in/19"], "JSON object"),
        ("in/22 in/19", "JSON object"),
        (None, "JSON object"),
    ],
)
def test_it_explains_a_malformed_body(alice_api, match, body, reason):
    response = alice_api.post(
        reverse("api_match_turn", args=[match.pk]),
        json.dumps(body),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert reason in response.json()["error"]
    _assert_unchanged(match)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ('{"segment": 1, "play": "in/22 in/19", "segment": 2}', '"segment"'),
        ('{"segment": 1, "play": "in/22 in/19", "play": "in/21 in/20"}', '"play"'),
        ('{"segment": 1, "play": "in/22 in/19", "x": {"a": 1, "a": 2}}', '"a"'),
    ],
)
def test_it_refuses_a_field_sent_twice(alice_api, match, raw, field):
    response = alice_api.post(
        reverse("api_match_turn", args=[match.pk]), raw, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"] == f"the field {field} is sent twice"
    _assert_unchanged(match)


def test_since_limits_the_answers_history_to_the_new_segments(alice_api, match):
    url = reverse("api_match_turn", args=[match.pk]) + "?since=1"
    response = post_json(alice_api, url, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 200
    state = response.json()
    match.refresh_from_db()
    assert [s["number"] for s in state["history"]] == list(range(2, match.segment_count + 1))
    assert state["history"][0]["play"] == "in/22 in/19"


def test_a_malformed_since_refuses_the_turn_and_changes_nothing(alice_api, match):
    url = reverse("api_match_turn", args=[match.pk]) + "?since=-3"
    response = post_json(alice_api, url, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 400
    assert "since" in response.json()["error"]
    _assert_unchanged(match)


def test_a_turn_for_a_finished_match_says_the_match_is_over(alice_api, bob_api, match):
    post_json(bob_api, reverse("api_match_resign", args=[match.pk]), {})

    response = _turn(alice_api, match, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 409
    assert response.json()["status"] == "finished"  # not a number to send again
    assert "over" in response.json()["error"]


def test_r9_a_turn_sent_after_its_deadline_loses_on_time(alice_api, match):
    past = timezone.now() - timedelta(minutes=1)  # the sweep has not come to it yet
    Match.objects.filter(pk=match.pk).update(deadline=past)

    response = _turn(alice_api, match, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 409
    assert response.json() == {
        "error": "your time for this move had run out: you lost the match on time (R9)",
        "segment": 1,
        "already_played": False,
        "status": "finished",
    }
    match.refresh_from_db()
    assert (match.ending, match.winner.username) == ("timeout", "bob")
