"""Property: no body sent to the turn endpoint is a 500, or changes a match it does not play."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
# Objects with the right field names reach past the shape checks, into the engine.
turn_like = st.fixed_dictionaries(
    {"segment": st.one_of(st.just(1), json_values)},
    optional={
        "play": st.one_of(st.text(alphabet="0123456789/*() inbarof-,", max_size=30), json_values),
        "double": json_values,
        "name_blot": json_values,
    },
)
bodies = st.one_of(
    turn_like.map(json.dumps),
    json_values.map(lambda value: json.dumps(value, allow_nan=True)),
    st.text(max_size=200),
    st.binary(max_size=200),
)

# The fixtures (one match, one client) are shared by every example on purpose: each
# example checks that the match is unchanged, which is the point of reusing it.
FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(body=bodies)
def test_it_answers_any_body_with_a_readable_4xx(alice_api, match, body):
    before = (match.segment_count, match.position)

    response = alice_api.post(
        reverse("api_match_turn", args=[match.pk]), body, content_type="application/json"
    )

    assert 400 <= response.status_code < 500, (response.status_code, body)
    assert isinstance(response.json()["error"], str)
    match.refresh_from_db()
    assert (match.segment_count, match.position) == before


# Control characters (NUL) and lone surrogates: JSON carries both, no database can.
names = st.text(st.sampled_from("\x00\ud800b") | st.characters(categories=["Cs", "Cc", "L"]))


@FUZZ
@given(opponent=names)
def test_it_answers_any_opponent_name_with_201_or_a_readable_4xx(alice_api, bob, opponent):
    body = {"opponent": opponent, "variant": "greek", "points": 1, "days_per_move": 2}

    response = alice_api.post(
        reverse("api_challenge_create"), json.dumps(body), content_type="application/json"
    )

    assert response.status_code == 201 or 400 <= response.status_code < 500, opponent
    if response.status_code != 201:
        assert isinstance(response.json()["error"], str)


# Any text a query string can carry (a lone surrogate cannot be sent), and numbers.
query_values = st.text(st.characters(exclude_categories=["Cs"]), max_size=30) | st.integers().map(
    str
)


@pytest.mark.parametrize(
    ("url_name", "parameter"),
    [
        ("api_me_finished", "before"),
        ("api_challenges_received", "after"),
        ("api_challenges_sent", "after"),
        ("api_challenges_lobby", "after"),
    ],
)
@FUZZ
@given(value=query_values)
def test_it_answers_any_paging_parameter_with_a_page_or_a_readable_400(
    alice_api, url_name, parameter, value
):
    response = alice_api.get(reverse(url_name), {parameter: value})

    assert response.status_code in (200, 400), (response.status_code, value)
    if response.status_code == 400:  # the parameter's reason, or the site's for a NUL
        assert re.search(r"[a-z]{3,}", response.json()["error"]), value


# Objects with the right field reach past the shape checks, into the settings page's form.
away_bodies = st.one_of(
    st.fixed_dictionaries(
        {"back_on": st.one_of(st.dates().map(lambda day: day.isoformat()), json_values)}
    ).map(json.dumps),
    bodies,
)


@FUZZ
@given(body=away_bodies)
def test_it_answers_any_body_sent_for_time_away_with_200_or_a_readable_4xx(alice_api, body):
    response = alice_api.post(reverse("api_me_away"), body, content_type="application/json")

    # 200 once (a day within the allowance), then 409: alice is away already.
    assert response.status_code == 200 or 400 <= response.status_code < 500, body
    if response.status_code != 200:
        assert re.search(r"[a-z]{3,}", response.json()["error"]), body
