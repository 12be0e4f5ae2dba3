"""The name a player's public pages show (User.public_name): their profile, their rating
chart's title and their dice page. A closed account, or one the staff deactivated, is
shown by its username only: its display name is something its owner said of themselves."""

from __future__ import annotations

import pytest
from django.urls import reverse

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
    assert (great_alice.public_name, bob.public_name) == ("Alice the Great", "bob")

    great_alice.is_active = False

    assert great_alice.public_name == "alice"


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
