"""The API's lists take as many SQL queries for a long history as for a short one: me/ and
the pages of finished matches (me/finished/); and as many for many challenges as for a few:
challenges/ and the pages of its lists."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games import api, services
from games.models import Challenge
from tests.matches import opened_by_white

from .conftest import count_queries, get_ok

pytestmark = pytest.mark.django_db


def _finished(white, black, *, count: int) -> list[int]:
    """``count`` matches of ``white`` against ``black`` that black resigned: their ids."""
    ids = []
    for _ in range(count):
        match = opened_by_white(white, black)
        services.resign(match.pk, user=black)
        ids.append(match.pk)
    return ids


def _api(user) -> Client:
    _, key = ApiToken.issue(user, "tests")
    return Client(headers={"authorization": f"Token {key}"})


@pytest.fixture
def histories(alice, bob, charlie) -> dict[str, list[int]]:
    """Alice has finished 2 matches, Charlie more than two pages of them (the latest last)."""
    return {
        "short": _finished(alice, bob, count=2),
        "long": _finished(charlie, bob, count=2 * api.FINISHED_PER_PAGE + 5),
    }


def test_me_takes_as_many_queries_for_a_long_history(
    alice, charlie, histories, django_assert_num_queries
):
    short, long = _api(alice), _api(charlie)
    url = reverse("api_me")
    get_ok(short, url)()  # the keys' last use is written once
    get_ok(long, url)()

    queries = count_queries(get_ok(short, url))

    with django_assert_num_queries(queries):
        response = long.get(url)
    assert len(response.json()["finished"]) == api.FINISHED_PER_PAGE


@pytest.mark.parametrize("paged", [False, True], ids=["first page", "a page further on"])
def test_a_page_of_finished_matches_takes_as_many_queries_for_a_long_history(
    alice, charlie, histories, paged, django_assert_num_queries
):
    short, long = _api(alice), _api(charlie)
    url = reverse("api_me_finished")
    short_url = f"{url}?before={histories['short'][-1]}" if paged else url
    long_url = f"{url}?before={histories['long'][-api.FINISHED_PER_PAGE - 3]}" if paged else url
    get_ok(short, short_url)()
    get_ok(long, long_url)()

    queries = count_queries(get_ok(short, short_url))

    with django_assert_num_queries(queries):
        response = long.get(long_url)
    assert len(response.json()["finished"]) == api.FINISHED_PER_PAGE
    assert response.json()["more"] is True


def _challenges(challenger, opponent, *, count: int) -> None:
    """``count`` open challenges (``opponent`` None: in the lobby), beyond the limits on
    how many one player may make."""
    Challenge.objects.bulk_create(
        Challenge(challenger=challenger, opponent=opponent) for _ in range(count)
    )


@pytest.mark.parametrize(
    "url_name",
    [
        "api_challenge_create",
        "api_challenges_received",
        "api_challenges_sent",
        "api_challenges_lobby",
    ],
)
def test_the_challenge_lists_take_as_many_queries_for_many_challenges(
    alice, bob, charlie, url_name, django_assert_num_queries
):
    client = _api(alice)
    url = reverse(url_name)
    for challenger, opponent in ((bob, alice), (alice, bob), (charlie, None)):
        _challenges(challenger, opponent, count=1)
    get_ok(client, url)()
    few = count_queries(get_ok(client, url))
    many = 2 * api.CHALLENGES_PER_PAGE + 5
    for challenger, opponent in ((bob, alice), (alice, charlie), (charlie, None)):
        _challenges(challenger, opponent, count=many)
    later = Challenge.objects.order_by("pk")[api.CHALLENGES_PER_PAGE].pk

    with django_assert_num_queries(few):
        get_ok(client, url)()
    if url_name != "api_challenge_create":  # a list's page further on
        with django_assert_num_queries(few):
            get_ok(client, f"{url}?after={later}")()
