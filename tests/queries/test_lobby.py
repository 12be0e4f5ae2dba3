"""The lobby takes as many SQL queries for thousands of open challenges as for a few, and
reads them through an index of those alone, however many challenges have been made since
the site began."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from games import blocks, services, views
from games.models import Challenge

from .conftest import count_queries, get_ok

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("viewer", ["player", "anonymous"])
def test_the_lobby_takes_as_many_queries_for_many_challenges(
    viewer, client, django_user_model, alice, bob, charlie, django_assert_num_queries
):
    bots = services.bot_users()  # (made again, should a transactional test have flushed them)
    blocks.block(alice, other=charlie)
    Challenge.objects.create(challenger=bob)
    if viewer == "player":
        client.force_login(alice)
    url = reverse("lobby")
    get_ok(client, url)()  # warm up: the session
    few = count_queries(get_ok(client, url))
    players = django_user_model.objects.bulk_create(
        django_user_model(username=f"p{n}", email=f"p{n}@example.com") for n in range(20)
    )
    Challenge.objects.bulk_create(
        Challenge(challenger=players[n % 20]) for n in range(3 * views.LOBBY_PER_PAGE)
    )
    older = Challenge.objects.order_by("-pk")[views.LOBBY_PER_PAGE + 5].pk

    with django_assert_num_queries(few):
        response = client.get(url)
    with django_assert_num_queries(few):
        get_ok(client, f"{url}?before={older}")()
    assert response.text.count('class="card"') == views.LOBBY_PER_PAGE + len(bots)


def test_the_lobby_reads_the_index_of_the_challenges_waiting_there(
    postgres_url, alice, bob, charlie
):
    Challenge.objects.bulk_create(Challenge(challenger=bob) for _ in range(20))
    settled = Challenge.Status.DECLINED
    Challenge.objects.bulk_create(
        Challenge(challenger=bob, opponent=charlie, status=settled) for _ in range(3000)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_challenge")
    lobby = Challenge.objects.open_in_lobby().apart_from(alice).select_related("challenger")

    newest_first = lobby.order_by("-pk")[:31].explain()
    oldest_first = lobby.exclude(challenger=alice).order_by("pk").filter(pk__gt=5)[:51].explain()

    assert "challenge_open_in_lobby" in newest_first
    assert "challenge_open_in_lobby" in oldest_first
