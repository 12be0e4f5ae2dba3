"""A display name may not pass for another player or a bot (settings page)."""

import pytest
from django.urls import reverse

from games.services import bot_users

from .test_settings import profile_data

pytestmark = pytest.mark.django_db

NAME_IN_USE = "Another player, or a bot, goes by that name. Please choose another."


def _set_display_name(client, user, display_name: str):
    client.force_login(user)
    return client.post(reverse("settings"), profile_data(display_name=display_name))


@pytest.mark.parametrize(
    "display_name",
    ["Expert bot", "EXPERT BOT", "  expert   bot ", "expert-bot", "Expert-Bot", "Club bot"],
)
def test_it_refuses_a_bots_name(client, alice, display_name):
    bot_users()

    response = _set_display_name(client, alice, display_name)

    assert response.status_code == 200
    assert NAME_IN_USE in response.text
    alice.refresh_from_db()
    assert alice.display_name == ""


@pytest.mark.parametrize(
    "display_name", ["bob", "Bob", " BOB ", "Bob the Builder", "bob  THE builder"]
)
def test_it_refuses_another_players_username_or_display_name(client, alice, bob, display_name):
    bob.display_name = "Bob the Builder"
    bob.save()

    response = _set_display_name(client, alice, display_name)

    assert NAME_IN_USE in response.text
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_it_compares_with_a_name_saved_with_a_run_of_spaces(client, alice, bob):
    bob.display_name = "Bob   the Builder"  # saved before names were checked
    bob.save()

    response = _set_display_name(client, alice, "bob the builder")

    assert NAME_IN_USE in response.text


def test_it_lets_a_player_use_their_own_username_or_keep_their_name(client, alice, bob):
    _set_display_name(client, alice, "ALICE")
    alice.refresh_from_db()
    assert alice.display_name == "ALICE"

    response = _set_display_name(client, alice, "alice")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "alice"


def test_it_allows_a_name_that_only_contains_anothers(client, alice, bob):
    bob.display_name = "Bob the Builder"
    bob.save()

    response = _set_display_name(client, alice, "Not Bob the Builder")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Not Bob the Builder"


def test_it_saves_a_name_with_its_spaces_as_a_page_shows_them(client, alice):
    response = _set_display_name(client, alice, "  Alice   of  Athens ")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice of Athens"
