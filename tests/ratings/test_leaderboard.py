"""The leaderboard: established ratings only, best first, paginated, bounded queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import PlayerRating

pytestmark = pytest.mark.django_db


def _players(django_user_model, count: int, *, rd: float = 60) -> None:
    for n in range(count):
        user = django_user_model.objects.create_user(f"player{n:03}", f"p{n}@example.com")
        PlayerRating.objects.create(user=user, variant="american", rating=1400 + n, rd=rd)


def test_it_lists_established_players_best_first(client, django_user_model):
    _players(django_user_model, 3)
    provisional = django_user_model.objects.create_user("newbie", "n@example.com")
    PlayerRating.objects.create(user=provisional, variant="american", rating=2000, rd=300)

    response = client.get(reverse("leaderboard", args=["american"]))

    text = response.text
    assert response.status_code == 200
    assert "newbie" not in text
    assert text.index("player002") < text.index("player001") < text.index("player000")


def test_a_closed_account_leaves_the_leaderboard(client, django_user_model):
    _players(django_user_model, 2)
    django_user_model.objects.filter(username="player001").update(is_active=False)

    text = client.get(reverse("leaderboard", args=["american"])).text

    assert "player000" in text
    assert "player001" not in text


def test_it_keeps_variants_apart(client, django_user_model):
    _players(django_user_model, 2)

    response = client.get(reverse("leaderboard", args=["greek"]))

    assert "player000" not in response.text
    assert client.get("/leaderboard/chess/").status_code == 404


def test_it_paginates(client, django_user_model):
    _players(django_user_model, 60)

    second = client.get(reverse("leaderboard", args=["american"]), {"page": 2})

    assert "Page 2 of 2" in second.text
    assert "player009" in second.text and "player059" not in second.text


@pytest.mark.parametrize("count", [5, 120])
def test_it_uses_the_same_number_of_queries_for_any_number_of_players(
    client, django_user_model, django_assert_num_queries, count
):
    _players(django_user_model, count)

    with django_assert_num_queries(2):
        client.get(reverse("leaderboard", args=["american"]))


def test_a_rating_gone_provisional_by_idleness_leaves_the_leaderboard(client, django_user_model):
    from datetime import timedelta

    from django.utils import timezone

    from games.ratings.store import as_of

    now = timezone.now()
    for name, idle in (("regular", timedelta(days=10)), ("away", timedelta(days=3 * 365))):
        user = django_user_model.objects.create_user(name, f"{name}@example.com")
        PlayerRating.objects.create(
            user=user, variant="american", rating=1600, rd=100, rated_at=now - idle
        )
    away = PlayerRating.objects.get(user__username="away")
    assert away.rd <= 110 < as_of(away, now).rd  # established when stored, not any more

    text = client.get(reverse("leaderboard", args=["american"])).text

    assert "regular" in text and "away" not in text


def test_it_shows_the_rd_grown_for_idleness_as_the_profile_does(client, django_user_model):
    from datetime import timedelta

    from django.utils import timezone

    from games.ratings.store import as_of

    user = django_user_model.objects.create_user("idle", "idle@example.com")
    row = PlayerRating.objects.create(
        user=user,
        variant="american",
        rating=1600,
        rd=45,
        volatility=0.06,
        rated_at=timezone.now() - timedelta(days=300),
    )
    grown = round(as_of(row).rd)
    assert 45 < grown <= 110  # grown, still established

    leaderboard = client.get(reverse("leaderboard", args=["american"])).text
    profile = client.get(reverse("profile", args=["idle"])).text

    assert f"<td>{grown}</td>" in leaderboard and "<td>45</td>" not in leaderboard
    assert f"(RD {grown})" in profile
