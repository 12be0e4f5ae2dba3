"""The leaderboard: established ratings ranked best first, then provisional ones apart and
unranked; paginated, closed accounts left out, bounded queries."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import PlayerRating

pytestmark = pytest.mark.django_db


def _players(
    django_user_model, count: int, *, rd: float = 60, prefix: str = "player", rating: int = 1400
) -> None:
    for n in range(count):
        name = f"{prefix}{n:03}"
        user = django_user_model.objects.create_user(name, f"{name}@example.com")
        PlayerRating.objects.create(
            user=user, variant="american", rating=rating + n, rd=rd, matches=4, wins=3, losses=1
        )


def _table(html: str, caption: str) -> str:
    """The leaderboard table whose (hidden) caption starts with ``caption``, or ""."""
    found = re.search(rf"<table[^>]*>\s*<caption[^>]*>{caption}.*?</table>", html, re.S)
    return found.group(0) if found else ""


def _names(table: str) -> list[str]:
    return re.findall(r"<bdi>([^<]*)</bdi>", table)


def test_it_lists_established_players_best_first(client, django_user_model):
    _players(django_user_model, 3)

    response = client.get(reverse("leaderboard", args=["american"]))

    established = _table(response.text, "American established ratings")
    assert response.status_code == 200
    assert _names(established) == ["player002", "player001", "player000"]
    assert re.findall(r"<tr><td>(\d+)</td>", established) == ["1", "2", "3"]
    assert "Provisional ratings" not in response.text


@pytest.mark.parametrize(("rd", "caption"), [(60, "American established"), (250, "American prov")])
def test_it_shows_the_username_beside_a_display_name(client, django_user_model, rd, caption):
    user = django_user_model.objects.create_user("bob", "bob@example.com", display_name="Bobby")
    PlayerRating.objects.create(user=user, variant="american", rating=1500, rd=rd, matches=4)

    response = client.get(reverse("leaderboard", args=["american"]))

    table = _table(response.text, caption)
    assert '<bdi>Bobby</bdi></a> <span class="muted">(<bdi>bob</bdi>)</span>' in table


def test_a_site_with_only_provisional_ratings_shows_them_unranked(client, django_user_model):
    _players(django_user_model, 2, rd=250, prefix="newbie")

    text = client.get(reverse("leaderboard", args=["american"])).text

    provisional = _table(text, "American provisional ratings")
    assert _names(provisional) == ["newbie001", "newbie000"]
    assert "<td>1401?</td><td>250</td><td>3</td><td>1</td>" in provisional
    assert '<th scope="col">#</th>' not in provisional  # no ranks
    assert "<h2>Provisional ratings</h2>" in text
    assert "No established ratings yet" in text
    assert _table(text, "American established ratings") == ""
    assert "is above 110, too uncertain to rank: it becomes established once" in text


def test_established_players_are_ranked_above_the_provisional_ones_and_not_repeated(
    client, django_user_model
):
    _players(django_user_model, 2, rd=60, prefix="steady", rating=1400)
    # A better rating, but a provisional one: beneath, not first.
    _players(django_user_model, 2, rd=200, prefix="newbie", rating=2000)

    text = client.get(reverse("leaderboard", args=["american"])).text

    established = _table(text, "American established ratings")
    provisional = _table(text, "American provisional ratings")
    assert _names(established) == ["steady001", "steady000"]
    assert _names(provisional) == ["newbie001", "newbie000"]
    assert text.index(established) < text.index(provisional)
    assert _names(text).count("steady000") == _names(text).count("newbie000") == 1
    assert "No established ratings yet" not in text


def test_a_rating_never_played_is_not_listed(client, django_user_model):
    user = django_user_model.objects.create_user("nobody", "nobody@example.com")
    PlayerRating.objects.create(user=user, variant="american")  # rd 350, no matches

    text = client.get(reverse("leaderboard", args=["american"])).text

    assert "nobody" not in text
    assert "No ratings yet" in text


@pytest.mark.parametrize("rd", [60, 250], ids=["established", "provisional"])
def test_a_closed_account_leaves_the_leaderboard(client, django_user_model, rd):
    _players(django_user_model, 2, rd=rd)
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


def test_the_provisional_ratings_follow_the_established_ones_from_page_to_page(
    client, django_user_model
):
    _players(django_user_model, 45, prefix="steady", rating=1400)
    _players(django_user_model, 10, rd=200, prefix="newbie", rating=1800)
    url = reverse("leaderboard", args=["american"])

    first = client.get(url).text
    second = client.get(url, {"page": 2}).text

    assert len(_names(_table(first, "American established ratings"))) == 45
    assert _names(_table(first, "American provisional ratings")) == [
        f"newbie{n:03}" for n in range(9, 4, -1)
    ]
    assert _table(second, "American established ratings") == ""
    assert _names(_table(second, "American provisional ratings")) == [
        f"newbie{n:03}" for n in range(4, -1, -1)
    ]
    assert "No established ratings yet" not in second


@pytest.mark.parametrize("count", [5, 120])
@pytest.mark.parametrize("number", [1, 2, 3])
def test_it_uses_the_same_number_of_queries_for_any_number_of_players(
    client, django_user_model, django_assert_num_queries, count, number
):
    # As many provisional ratings as established ones: page 2 of 120 holds both.
    _players(django_user_model, count)
    _players(django_user_model, count, rd=200, prefix="newbie")

    with django_assert_num_queries(2):
        response = client.get(reverse("leaderboard", args=["american"]), {"page": number})

    assert response.status_code == 200


def test_a_rating_gone_provisional_by_idleness_moves_to_the_provisional_ones(
    client, django_user_model
):
    from datetime import timedelta

    from django.utils import timezone

    from games.ratings.store import as_of

    now = timezone.now()
    for name, idle in (("regular", timedelta(days=10)), ("away", timedelta(days=3 * 365))):
        user = django_user_model.objects.create_user(name, f"{name}@example.com")
        PlayerRating.objects.create(
            user=user, variant="american", rating=1600, rd=100, rated_at=now - idle, matches=9
        )
    away = PlayerRating.objects.get(user__username="away")
    assert away.rd <= 110 < as_of(away, now).rd  # established when stored, not any more

    text = client.get(reverse("leaderboard", args=["american"])).text

    assert _names(_table(text, "American established ratings")) == ["regular"]
    assert _names(_table(text, "American provisional ratings")) == ["away"]


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


def test_it_says_a_provisional_rating_moves_a_long_way_with_each_match(client):
    response = client.get(reverse("leaderboard", args=["american"]))

    text = " ".join(response.text.split())
    assert (
        "A provisional rating moves a long way with each match, the more so the longer the"
        " match: a single 11-point match can move it by several hundred points." in text
    )


@pytest.mark.parametrize(
    ("rd", "caption", "shown"),
    # Rounded to the nearest, 110.4 would read "110" beside its "?": established, as the
    # page says an RD of 110 is.
    [(110.0, "American established", "110"), (110.4, "American prov", "111")],
)
def test_an_rd_is_shown_rounded_up(client, django_user_model, rd, caption, shown):
    user = django_user_model.objects.create_user("bob", "bob@example.com")
    PlayerRating.objects.create(user=user, variant="american", rating=1500, rd=rd, matches=4)

    page = client.get(reverse("leaderboard", args=["american"])).text
    profile = client.get(reverse("profile", args=["bob"])).text

    assert re.search(rf"<td>1500\??</td><td>{shown}</td>", _table(page, caption))
    assert f"(RD {shown})" in profile


def test_the_page_gives_the_figures_a_rating_is_computed_with(client):
    from games.ratings import glicko2

    text = client.get(reverse("leaderboard", args=["american"])).text

    assert "counts as √N games" in text
    assert f"the system constant τ is {glicko2.DEFAULT_TAU}" in text
    assert "a period being 30 days" in text
    assert f"up to {glicko2.MAX_RD:.0f}" in text


def test_each_variants_page_has_a_title_of_its_own(client, django_user_model):
    _players(django_user_model, 60)  # two pages
    titles = [
        re.search(r"<title>(.*?)</title>", client.get(url).text).group(1)
        for url in (
            reverse("leaderboard", args=["american"]),
            reverse("leaderboard", args=["greek"]),
            reverse("leaderboard", args=["american"]) + "?page=2",
        )
    ]

    assert titles[0].startswith("Leaderboard: American (US Navy) ·")
    assert titles[1].startswith("Leaderboard: Greek ·")
    assert titles[2].startswith("Leaderboard: American (US Navy), page 2 ·")
