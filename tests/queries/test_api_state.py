"""The API's match state takes as many SQL queries for a long history as for a short one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import ApiToken
from games import services

from .conftest import count_queries, get_ok

pytestmark = pytest.mark.django_db


def test_the_match_state_queries_do_not_grow_with_the_history(
    alice, short_match, long_match, django_assert_num_queries
):
    _, key = ApiToken.issue(alice, "tests")
    client = Client(headers={"authorization": f"Token {key}"})
    short_url = reverse("api_match", args=[short_match.pk])
    long_url = reverse("api_match", args=[long_match.pk])
    get_ok(client, short_url)()

    short = count_queries(get_ok(client, short_url))

    with django_assert_num_queries(short):
        response = client.get(long_url)
    assert response.status_code == 200
    assert len(response.json()["history"]) == long_match.segment_count


def test_a_turn_answers_with_the_segments_it_stored_without_reading_them_back(alice, bob):
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=1
    )
    mover = match.to_move
    _, key = ApiToken.issue(mover, "tests")
    client = Client(headers={"authorization": f"Token {key}"})
    state = client.get(reverse("api_match", args=[match.pk])).json()
    url = reverse("api_match_turn", args=[match.pk]) + f"?since={state['segment']}"

    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            url,
            {"segment": state["segment"], "play": state["legal_plays"][0]},
            content_type="application/json",
        )

    assert response.status_code == 200
    history = response.json()["history"]
    assert [s["number"] for s in history] == list(
        range(state["segment"] + 1, response.json()["segment"] + 1)
    )
    reads = [
        q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"games_segment"' in q["sql"]
    ]
    assert reads == []
