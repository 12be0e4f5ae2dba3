"""A whole game played through the API alone, by two clients as a pair of bots would."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Match, Segment

from .conftest import post_json

pytestmark = pytest.mark.django_db


def test_it_plays_a_whole_american_game_through_the_api(alice, bob, alice_api, bob_api):
    challenge = post_json(
        alice_api,
        reverse("api_challenge_create"),
        {"opponent": "bob", "variant": "american", "points": 1, "days_per_move": 1},
    ).json()
    match_id = post_json(bob_api, reverse("api_challenge_accept", args=[challenge["id"]])).json()[
        "match"
    ]
    clients = {"alice": alice_api, "bob": bob_api}
    state = alice_api.get(reverse("api_match", args=[match_id])).json()

    for _ in range(3000):
        if state["status"] == "finished":
            break
        if state["phase"] == "name_double":
            action = {"double": 6 if 6 in state["allowed_doubles"] else state["allowed_doubles"][0]}
        else:
            action = {"play": state["legal_plays"][0]}
        response = post_json(
            clients[state["to_move"]],
            reverse("api_match_turn", args=[match_id]),
            {"segment": state["segment"], **action},
        )
        assert response.status_code == 200, response.json()
        state = response.json()

    assert state["status"] == "finished" and state["phase"] == "finished"
    winner = state["winner"]
    colour = "white" if state["players"]["white"] == winner else "black"
    assert 1 <= state["score"][colour] <= 15
    assert state["position"]["off"][colour] == 15
    match = Match.objects.get(pk=match_id)
    assert match.ending == Match.Ending.BORNE_OFF
    assert Segment.objects.filter(match=match).count() == state["segment"] == len(state["history"])


def test_a_client_that_keeps_the_history_ends_with_the_whole_of_it(alice, bob, alice_api, bob_api):
    """Playing from each answer with ?since=<segment> (as bench.load and a careful client
    do), the history gathered piece by piece is the match's whole history, across game
    boundaries and forced segments."""
    match = services.start_match(white=alice, black=bob, variant="greek", points=2, days_per_move=1)
    clients = {"alice": alice_api, "bob": bob_api}
    url = reverse("api_match", args=[match.pk])
    state = alice_api.get(url).json()
    history = list(state["history"])
    games = set()

    for _ in range(6000):
        if state["status"] == "finished":
            break
        if state["phase"] == "name_double":
            action = {"double": state["allowed_doubles"][-1]}
        else:
            action = {"play": state["legal_plays"][0]}
        response = post_json(
            clients[state["to_move"]],
            reverse("api_match_turn", args=[match.pk]) + f"?since={state['segment']}",
            {"segment": state["segment"], **action},
        )
        assert response.status_code == 200, response.json()
        state = response.json()
        history += state["history"]
        games.update(s["game"] for s in state["history"])

    assert state["status"] == "finished"
    assert len(games) >= 2  # the answers crossed at least one game boundary
    assert history == alice_api.get(url).json()["history"]
    assert [s["number"] for s in history] == list(range(1, state["segment"] + 1))
