"""The name a player's pages show (str(user)): their profile, their
rating chart's title and their dice page, and wherever others' pages name them. A closed
account, or one the staff deactivated, is shown by its username only: its display name is
something its owner said of themselves."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import PlayerRating
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

PAGES = [
    ("profile", ["alice"]),
    ("rating_chart", ["alice", "american"]),
    ("player_dice", ["alice"]),
]


@pytest.fixture
def great_alice(alice):
    alice.display_name = "Alice the Great"
    alice.save()
    return alice


def test_the_public_name_is_the_display_name_or_the_username_of_an_inactive_account(
    great_alice, bob
):
    assert (str(great_alice), str(bob)) == ("Alice the Great", "bob")

    great_alice.is_active = False

    assert str(great_alice) == "alice"


@pytest.mark.parametrize(("url_name", "args"), PAGES)
def test_each_public_page_names_a_player_by_their_display_name(client, great_alice, url_name, args):
    response = client.get(reverse(url_name, args=args))

    assert "Alice the Great" in response.content.decode()


@pytest.mark.parametrize(("url_name", "args"), PAGES)
def test_no_public_page_shows_a_deactivated_accounts_display_name(
    client, great_alice, url_name, args
):
    great_alice.is_active = False  # deactivated by the staff, its display name kept
    great_alice.save()

    response = client.get(reverse(url_name, args=args))

    content = response.content.decode()
    assert response.status_code == 200
    assert "Alice the Great" not in content
    assert "alice" in content


def test_a_deactivated_account_is_named_by_its_username_wherever_it_is_shown(great_alice):
    great_alice.is_active = False

    assert str(great_alice) == "alice"
    assert great_alice.shown_display_name == ""
    assert great_alice.display_name == "Alice the Great"  # kept, for an account let back in


def test_other_players_pages_name_a_deactivated_player_by_username(client, great_alice, bob):
    match = opened_by_white(great_alice, bob)
    PlayerRating.objects.create(user=great_alice, variant="american", rating=1500, rd=60)
    pages = [
        reverse("profile", args=["bob"]),  # "against ..." in bob's matches
        match.get_absolute_url(),
        reverse("leaderboard", args=["american"]),
    ]
    before = [client.get(url).text for url in pages]
    assert all("Alice the Great" in content for content in before)
    type(great_alice).objects.filter(pk=great_alice.pk).update(is_active=False)

    after = [client.get(url).text for url in pages]

    for url, content in zip(pages, after, strict=True):
        assert "Alice the Great" not in content, url
        assert "(<bdi>alice</bdi>)" not in content, url  # no username "beside" itself
    assert "<bdi>alice</bdi>" in after[0] and "<bdi>alice</bdi>" in after[1]
