"""A name may not pass for another's by characters that do not show (Unicode's default
ignorable code points, blank-looking symbols), nor be made of nothing but them."""

import unicodedata

import pytest
from django.urls import reverse

from accounts.models import User, tidy_name
from games.services import bot_users

from .test_settings import profile_data

pytestmark = pytest.mark.django_db

NAME_IN_USE = "Another player, or a bot, goes by that name. Please choose another."
SHOWS_NOTHING = "That name shows nothing"

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) that are not format
# characters (category Cf), which were already dropped: a browser draws none of them.
IGNORABLE_BUT_NOT_CF = [
    "\u034f",  # combining grapheme joiner
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\u17b4",  # Khmer vowel inherent aq
    "\u17b5",  # Khmer vowel inherent aa
    "\u180b",  # Mongolian free variation selector one
    "\u180f",  # Mongolian free variation selector four
    "\u3164",  # Hangul filler
    "\ufe00",  # variation selector-1
    "\ufe0f",  # variation selector-16
    "\uffa0",  # halfwidth Hangul filler
    "\U000e0100",  # variation selector-17
    "\U000e01ef",  # variation selector-256
]


def _set_display_name(client, user: User, display_name: str):
    client.force_login(user)
    return client.post(reverse("settings"), profile_data(display_name=display_name))


def _sign_up(client, username: str):
    password = "a long enough passphrase"
    data = {"username": username, "email": "new@example.com"}
    return client.post(reverse("signup"), data | {"password1": password, "password2": password})


@pytest.mark.parametrize("invisible", IGNORABLE_BUT_NOT_CF)
def test_tidy_name_drops_every_default_ignorable_code_point(invisible):
    assert tidy_name(f"Ali{invisible}ce {invisible}") == "Alice"


def test_tidy_name_reads_a_braille_blank_as_a_space():
    assert tidy_name("Club\u2800bot\u2800") == "Club bot"


@pytest.mark.parametrize(
    ("display_name", "copies"),
    [
        ("heidi\u034f", "heidi"),  # combining grapheme joiner
        ("Club bot\u3164", "Club bot"),  # Hangul filler
        ("Club bot\u1160", "Club bot"),  # Hangul jungseong filler
        ("Beginner bot\u115f", "Beginner bot"),  # Hangul choseong filler
        ("Club\u2800bot", "Club bot"),  # braille pattern blank, where a space was
        ("Expert bot\ufe0f", "Expert bot"),  # variation selector-16
    ],
)
def test_it_refuses_a_name_copied_with_characters_that_do_not_show(
    client, alice, django_user_model, display_name, copies
):
    bot_users()
    django_user_model.objects.create_user("heidi", "heidi@example.com", "correct horse battery")

    response = _set_display_name(client, alice, display_name)

    assert response.status_code == 200
    assert NAME_IN_USE in response.text
    alice.refresh_from_db()
    assert alice.display_name == ""


@pytest.mark.parametrize("display_name", ["\u3164", "\u3164 \u115f", "\u200b", "\u2800", "\u034f"])
def test_it_refuses_a_display_name_that_shows_nothing(client, alice, display_name):
    alice.display_name = "Alice A."
    alice.save()

    response = _set_display_name(client, alice, display_name)

    assert response.status_code == 200
    assert SHOWS_NOTHING in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."


def test_an_empty_display_name_still_means_going_by_the_username(client, alice):
    alice.display_name = "Alice A."
    alice.save()

    response = _set_display_name(client, alice, "")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_it_saves_a_braille_blank_as_a_space(client, alice):
    response = _set_display_name(client, alice, "Alice\u2800A.")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."


@pytest.mark.parametrize("username", ["\u3164", "\u3164\u3164"])
def test_sign_up_refuses_a_username_that_shows_nothing(client, username):
    response = _sign_up(client, username)

    assert response.status_code == 200
    assert SHOWS_NOTHING in response.text
    assert not User.objects.filter(email="new@example.com").exists()


def test_sign_up_refuses_a_username_with_characters_that_do_not_show(client, alice):
    response = _sign_up(client, "alice\u3164")

    assert response.status_code == 200
    assert "characters that do not show" in response.text
    assert not User.objects.filter(email="new@example.com").exists()


def test_the_name_key_ignores_what_does_not_show(alice):
    alice.display_name = "Ali\u034fce\u3164"
    alice.save()

    alice.refresh_from_db()
    assert alice.name_key == "alice"


def test_every_format_character_is_still_dropped():
    format_characters = [chr(n) for n in range(0x110000) if unicodedata.category(chr(n)) == "Cf"]

    assert tidy_name("a" + "".join(format_characters) + "b") == "ab"
