"""The API's match state takes as many SQL queries for a long history as for a short one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken

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
