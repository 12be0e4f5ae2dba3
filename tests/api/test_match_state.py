"""GET /api/v1/matches/<id>/: the state a client shows and plays from."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match

from .conftest import play_on, post_json, start

pytestmark = pytest.mark.django_db


def test_a_greek_state_says_which_blots_each_play_lets_its_player_name(alice_api, alice, bob):
    # Alice plays 6-3 from her fifteen checkers on her 24-point: two checkers out (blots on
    # her 21- and 18-points) or one carried to 15 (a blot there). A bot needs to know which
    # blots it may name (R8.1) without moving the checkers itself.
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")

    state = alice_api.get(reverse("api_match", args=[match.pk])).json()

    blots = state["blots_to_name"]
    assert set(blots) == set(state["legal_plays"])
    assert blots["24/21 24/18"] == [18, 21]
    assert sorted(blots.values()) == [[15], [18, 21]]


def test_only_a_greek_play_that_ends_the_turn_lets_a_blot_be_named(alice_api, alice, bob):
    # A 1-2's segment does not end a greek turn (a double is named next): nothing to name.
    acey_deucey = start(alice, bob, [5, 2, 1, 2], variant="greek")

    state = alice_api.get(reverse("api_match", args=[acey_deucey.pk])).json()

    assert state["legal_plays"] and state["blots_to_name"] is None


def test_it_shows_the_state_of_a_match(alice_api, match):
    response = alice_api.get(reverse("api_match", args=[match.pk]))

    assert response.status_code == 200
    state = response.json()
    deadline = state.pop("deadline")
    legal_plays = state.pop("legal_plays")
    assert state == {
        "id": match.pk,
        "variant": "american",
        "points": 1,
        "status": "active",
        "players": {"white": "alice", "black": "bob"},
        "score": {"white": 0, "black": 0},
        "winner": None,
        "to_move": "alice",
        "phase": "play",
        "blots_to_name": None,
        "allowed_doubles": None,
        "ending": None,
        "game": 1,
        "segment": 1,
        "dice": [6, 3],
        "position": match.position,
        "away_until": {},
        "history": [
            {
                "number": 1,
                "game": 1,
                "kind": "opening",
                "player": None,
                "dice": [5, 2],
                "play": None,
                "named_blot": None,
            }
        ],
        "seed_sha256": hashlib.sha256(bytes.fromhex(match.server_seed)).hexdigest(),
        "seed": None,  # secret while the match is in play
        "dice_url": f"/matches/{match.pk}/dice/",
    }
    assert sorted(legal_plays) == ["in/19 19/16", "in/22 in/19"]
    assert datetime.fromisoformat(deadline) == match.deadline


def test_it_shows_any_match_to_any_signed_in_user(charlie_api, match):
    response = charlie_api.get(reverse("api_match", args=[match.pk]))

    assert response.status_code == 200
    assert response.json()["players"] == {"white": "alice", "black": "bob"}


def test_it_records_plays_in_the_history(alice_api, match):
    post_json(
        alice_api,
        reverse("api_match_turn", args=[match.pk]),
        {"segment": 1, "play": "in/22 in/19"},
    )

    history = alice_api.get(reverse("api_match", args=[match.pk])).json()["history"]

    assert history[1] == {
        "number": 2,
        "game": 1,
        "kind": "roll",
        "player": "white",
        "dice": [6, 3],
        "play": "in/22 in/19",
        "named_blot": None,
    }


def test_it_offers_the_doubles_to_name_after_an_acey_deucey(alice, bob, alice_api):
    match = start(alice, bob, [5, 2, 1, 2])
    url = reverse("api_match", args=[match.pk])
    first = alice_api.get(url).json()
    post_json(
        alice_api,
        reverse("api_match_turn", args=[match.pk]),
        {"segment": first["segment"], "play": first["legal_plays"][0]},
    )

    state = alice_api.get(url).json()

    assert first["phase"] == "play" and first["allowed_doubles"] is None
    assert state["phase"] == "name_double"
    assert state["to_move"] == "alice"
    assert state["dice"] is None
    assert state["legal_plays"] == []
    assert state["allowed_doubles"] == [1, 2, 3, 4, 5, 6]
    assert state["history"][-1]["kind"] == "acey_deucey"


@pytest.mark.parametrize("match_id", [999, 10**30])
def test_it_answers_404_for_an_unknown_match(alice_api, match_id):
    response = alice_api.get(f"/api/v1/matches/{match_id}/")

    assert response.status_code == 404
    assert "no match" in response.json()["error"]


def test_it_reads_a_match_in_the_same_queries_however_long_its_history(
    alice, bob, alice_api, django_assert_num_queries
):
    short = play_on(start(alice, bob, [5, 2, 6, 3], points=3), until_segment=2)
    long = play_on(start(alice, bob, [5, 2, 6, 3], points=3), until_segment=40)
    assert short.segment_count < 5 and long.segment_count >= 40

    alice_api.get(reverse("api_me"))  # the key's last_used_at is now fresh: not written again
    # The token, the match with its players, its segments.
    for match in (short, long):
        with django_assert_num_queries(3):
            response = alice_api.get(reverse("api_match", args=[match.pk]))

        assert len(response.json()["history"]) == match.segment_count


def test_since_gives_only_the_history_the_client_has_not_seen(alice, bob, alice_api):
    match = play_on(start(alice, bob, [5, 2, 6, 3], points=3), until_segment=12)
    url = reverse("api_match", args=[match.pk])
    full = alice_api.get(url).json()["history"]

    later = alice_api.get(url, {"since": 5}).json()["history"]
    nothing = alice_api.get(url, {"since": match.segment_count}).json()["history"]

    assert [s["number"] for s in later] == list(range(6, match.segment_count + 1))
    assert later == full[5:]
    assert nothing == []


@pytest.mark.parametrize("since", [str(2**31), "9" * 5000, "0" * 30 + "7"])
def test_a_since_past_any_segment_gives_no_history(alice_api, match, since):
    # As the docs say, any whole number will do: one past the last segment, however
    # large, means the client has every segment (007 is 7).
    response = alice_api.get(reverse("api_match", args=[match.pk]), {"since": since})

    assert response.status_code == 200
    assert response.json()["history"] == []


@pytest.mark.parametrize("since", ["-1", "x", "1.5", "", "٣", "+1", "1e3"])
def test_a_malformed_since_is_a_readable_400(alice_api, match, since):
    response = alice_api.get(reverse("api_match", args=[match.pk]), {"since": since})

    assert response.status_code == 400
    assert "since must be a segment number" in response.json()["error"]


def test_a_finished_match_says_how_it_ended_and_reveals_its_seed(alice_api, bob_api, match):
    post_json(bob_api, reverse("api_match_resign", args=[match.pk]), {})

    state = alice_api.get(reverse("api_match", args=[match.pk])).json()

    match.refresh_from_db()
    assert (state["status"], state["ending"], state["winner"]) == (
        "finished",
        "resignation",
        "alice",
    )
    assert state["seed"] == match.server_seed
    assert hashlib.sha256(bytes.fromhex(state["seed"])).hexdigest() == state["seed_sha256"]


def test_a_match_read_past_its_deadline_is_ended_on_time(alice_api, match):
    # As its page ends it: not answered as a turn to play that would then be refused.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    state = alice_api.get(reverse("api_match", args=[match.pk])).json()

    assert (state["status"], state["ending"], state["winner"]) == ("finished", "timeout", "bob")
    assert state["to_move"] is None and state["legal_plays"] == []
