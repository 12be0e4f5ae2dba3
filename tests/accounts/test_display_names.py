"""A display name may not pass for another player or a bot (settings page)."""

import pytest
from django.urls import reverse

from games import services
from games.services import bot_users

from .test_settings import profile_data

pytestmark = pytest.mark.django_db

NAME_IN_USE = "Another player, or a bot, goes by that name. Please choose another."


def _set_display_name(client, user, display_name: str):
    client.force_login(user)
    return client.post(reverse("settings"), profile_data(display_name=display_name))


def _saved_name(client, user, display_name: str) -> str:
    """Save ``display_name`` in the settings, which must accept it; the name as stored."""
    response = _set_display_name(client, user, display_name)
    assert response.status_code == 302, response.text
    user.refresh_from_db()
    return user.display_name


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

    assert _saved_name(client, alice, "alice") == "alice"


def test_it_allows_a_name_that_only_contains_anothers(client, alice, bob):
    bob.display_name = "Bob the Builder"
    bob.save()

    assert _saved_name(client, alice, "Not Bob the Builder") == "Not Bob the Builder"


def test_it_saves_a_name_with_its_spaces_as_a_page_shows_them(client, alice):
    assert _saved_name(client, alice, "  Alice   of  Athens ") == "Alice of Athens"


@pytest.mark.parametrize(
    "display_name",
    [
        "Expert\u200b bot",  # a zero-width space
        "\uff25xpert bot",  # a full-width E
        "Expert\u00a0bot",  # a no-break space
    ],
)
def test_it_refuses_a_name_that_only_looks_different(client, alice, display_name):
    bot_users()

    response = _set_display_name(client, alice, display_name)

    assert NAME_IN_USE in response.text


def test_it_refuses_a_word_that_mixes_alphabets(client, alice):
    response = _set_display_name(client, alice, "\u0415\u0445\u0440\u0435rt bot")  # Cyrillic

    assert "Write each word of your name in one alphabet." in response.text
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_it_allows_a_name_in_one_alphabet_other_than_latin(client, alice):
    greek = "\u0393\u03b9\u03ce\u03c1\u03b3\u03bf\u03c2 K."  # Giorgos K., in Greek letters

    assert _saved_name(client, alice, greek) == greek


def test_it_compares_names_in_any_case_as_a_reader_would(client, alice, bob):
    bob.display_name = "Straße"
    bob.save()

    response = _set_display_name(client, alice, "STRASSE")

    assert NAME_IN_USE in response.text


def test_it_saves_a_name_without_its_invisible_characters(client, alice):
    _set_display_name(client, alice, "Ali\u200bce \uff21")

    alice.refresh_from_db()
    assert alice.display_name == "Alice A"


def test_a_name_that_collided_before_the_check_does_not_block_other_settings(
    client, alice, django_user_model
):
    type(alice).objects.filter(pk=alice.pk).update(display_name="Carol")  # saved long ago
    django_user_model.objects.create_user("carol", "carol@example.com", "correct horse battery")

    response = _set_display_name(client, alice, "Carol")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email_preference == "digest" and alice.display_name == "Carol"


def test_the_check_is_one_lookup_of_each_kind(alice, django_assert_num_queries):
    from accounts.services import name_in_use

    with django_assert_num_queries(2):  # the usernames, then the display names' keys
        assert not name_in_use("Someone New", except_user=alice)


# -- where strangers see a display name, the username is beside it ------------------------------


@pytest.fixture
def dave_as_expert(django_user_model):
    """dave, whose display name is a bot's (set before names were checked)."""
    return django_user_model.objects.create_user(
        "dave", "dave@example.com", "correct horse battery", display_name="Expert bot"
    )


def test_the_lobby_shows_who_posted_a_challenge(client, alice, dave_as_expert):
    services.create_challenge(dave_as_expert, variant="american")
    client.force_login(alice)

    page = client.get(reverse("lobby")).text

    assert (
        '<strong><bdi>Expert bot</bdi></strong> <span class="muted">(<bdi>dave</bdi>)</span>'
        in page
    )
    assert 'Accept<span class="visually-hidden"> Expert bot (dave)\'s challenge' in page


def test_the_challenge_page_shows_who_sent_it_and_to_whom(client, bob, dave_as_expert):
    bob.display_name = "Bob B."
    bob.save()
    challenge = services.create_challenge(dave_as_expert, opponent=bob)
    client.force_login(bob)

    page = client.get(challenge.get_absolute_url()).text

    assert (
        'Challenge from <bdi>Expert bot</bdi> <span class="muted">(<bdi>dave</bdi>)</span></h1>'
        in page
    )
    assert 'To <bdi>Bob B.</bdi> <span class="muted">(<bdi>bob</bdi>)</span>.' in page


def test_the_dashboard_shows_who_sent_a_challenge(client, alice, dave_as_expert):
    services.create_challenge(dave_as_expert, opponent=alice)
    client.force_login(alice)

    page = client.get(reverse("dashboard")).text

    assert 'Expert bot</bdi></a> <span class="muted">(<bdi>dave</bdi>)</span>' in page


def test_a_name_without_a_display_name_is_shown_once(client, alice, bob):
    services.create_challenge(bob, variant="american")
    client.force_login(alice)

    page = client.get(reverse("lobby")).text

    assert "<strong><bdi>bob</bdi></strong>" in page
    assert "(bob)" not in page


@pytest.mark.parametrize("username", ["Builder", "builder"])
def test_sign_up_refuses_a_username_that_reads_as_another_players_display_name(
    client, bob, username
):
    bob.display_name = "Builder"
    bob.save()
    password = "a long enough passphrase"
    data = {"username": username, "email": "new@example.com"}

    response = client.post(reverse("signup"), data | {"password1": password, "password2": password})

    assert response.status_code == 200
    assert NAME_IN_USE in response.text
    assert not type(bob).objects.filter(email="new@example.com").exists()


def test_sign_up_refuses_a_username_that_mixes_alphabets(client, alice):
    password = "a long enough passphrase"
    data = {"username": "\u0430lice", "email": "new@example.com"}  # a Cyrillic a

    response = client.post(reverse("signup"), data | {"password1": password, "password2": password})

    assert response.status_code == 200
    assert "Write each word of your name in one alphabet." in response.text
    assert not type(alice).objects.filter(email="new@example.com").exists()


def test_a_name_that_folds_longer_than_the_limit_is_refused_with_its_written_out_length(
    client, alice
):
    response = _set_display_name(client, alice, "\ufb01" * 31)  # 31 typed, "fi" each

    assert response.status_code == 200
    assert "Use at most 60 characters. Written out as pages show it, this name has 62" in (
        response.text
    )
    assert "(it has 62)" not in response.text  # the model's own message, not said twice
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_a_name_that_folds_to_the_limit_is_saved(client, alice):
    assert _saved_name(client, alice, "\ufb01" * 30) == "fi" * 30
