"""Usernames that look the same are one name: each account's username is stored as a reader
compares names (its username_key: case folded and look-alike letters of other alphabets read
as the Latin ones), held unique by the database, so that the database's own case folding
(SQLite's LOWER knows only ASCII) no longer decides what counts as taken."""

import unicodedata

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.forms import SignupForm
from accounts.models import User, name_as_read
from accounts.services import name_in_use, player_named, username_in_use

from .test_settings import profile_data

pytestmark = pytest.mark.django_db

LOOKS_TAKEN = "This username looks the same as an existing player's name. Please choose another."
NAME_IN_USE = "Another player, or a bot, goes by that name. Please choose another."
PASSWORD = "a long enough passphrase"


def _sign_up(client, username: str):
    data = {"username": username, "email": "new@example.com"}
    return client.post(reverse("signup"), data | {"password1": PASSWORD, "password2": PASSWORD})


def _player(username: str) -> User:
    return User.objects.create_user(username, f"{username.encode().hex()}@example.com", PASSWORD)


@pytest.mark.parametrize(
    ("held", "asked"),
    [
        ("ace", "\u0430\u0441\u0435"),  # all Cyrillic: a, es, ie
        ("ace", "\u0410\u0421\u0415"),  # the same in capitals
        ("kate", "\u043a\u0430\u0442\u0435"),  # Cyrillic ka, a, te, ie (KATE in capitals)
        ("pop", "\u03c1\u03bf\u03c1"),  # Greek rho, omicron, rho
        ("vita", "\u03bd\u03b9\u03c4\u03b1"),  # Greek nu, iota, tau, alpha
        ("bob", "b0b"),  # a zero for the o
        ("alice", "a1ice"),  # a one for the l
    ],
)
def test_sign_up_refuses_a_username_that_looks_the_same_as_one_in_use(client, held, asked):
    _player(held)

    response = _sign_up(client, asked)

    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [LOOKS_TAKEN]
    assert not User.objects.filter(email="new@example.com").exists()


@pytest.mark.parametrize(
    ("held", "asked"),
    [
        ("\u00e9mile", "\u00c9mile"),  # SQLite's LOWER folds only ASCII
        ("alice", "AL\u0130CE"),  # a capital I with a dot above
        ("stra\u00dfe", "STRASSE"),
        (
            "\u03c3\u03bf\u03c6\u03bf\u03c2",
            "\u03a3\u039f\u03a6\u039f\u03a3",
        ),  # Greek, its capital sigma a final one
    ],
)
def test_sign_up_refuses_a_username_in_use_in_another_case_on_any_database(client, held, asked):
    _player(held)

    response = _sign_up(client, asked)

    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert not User.objects.filter(email="new@example.com").exists()


def test_sign_up_still_says_a_username_in_another_case_already_exists(client):
    _player("bob")

    response = _sign_up(client, "BOB")

    assert "A user with that username already exists." in response.text


@pytest.mark.parametrize("asked", ["\u00e9milie", "emile", "alicia", "bobby"])
def test_sign_up_accepts_a_name_that_looks_different(client, asked):
    for held in ("\u00e9mile", "alice", "bob"):
        _player(held)

    response = _sign_up(client, asked)

    assert response.status_code == 302
    assert User.objects.get(email="new@example.com").username == asked


def test_the_key_is_set_on_save_and_follows_a_rename(alice):
    assert alice.username_key == "alice"

    alice.username = "\u0410lice2"  # a Cyrillic capital A
    alice.save()

    alice.refresh_from_db()
    assert alice.username_key == "alice2"


def test_the_key_is_saved_with_the_username_alone(alice):
    alice.username = "ALICE"
    alice.save(update_fields=["username"])

    alice.refresh_from_db()
    assert alice.username_key == "alice"


def test_the_database_refuses_a_look_alike_however_the_account_is_made(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("\u0430lice", "other@example.com")  # a Cyrillic a

    assert list(User.objects.values_list("username", flat=True).filter(is_bot=False)) == ["alice"]


def test_a_look_alike_taken_after_the_form_checked_is_refused_with_the_form():
    form = SignupForm(
        {
            "username": "ace",
            "email": "ace@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
    )
    assert form.is_valid()
    _player("\u0430\u0441\u0435")  # the Cyrillic look-alike signs up meanwhile

    user = form.save_unless_taken()

    assert user is None
    assert form.errors["username"] == [LOOKS_TAKEN]
    assert not User.objects.filter(email="ace@example.com").exists()


@pytest.mark.parametrize("typed", ["\u00c9MILE", "\u00e9mile", "\u00c9mile"])
def test_player_named_finds_a_player_in_any_case_on_any_database(typed):
    emile = _player("\u00e9mile")

    assert player_named(typed) == emile


def test_player_named_finds_nobody_for_a_name_nobody_has(alice):
    assert player_named("alicia") is None
    assert player_named("") is None


def test_username_in_use_compares_keys(alice):
    assert username_in_use("AL\u0130CE")
    assert username_in_use("\u0430lice")
    assert not username_in_use("alicia")


def test_a_display_name_may_not_look_like_anothers_username(client, alice):
    _player("ace")
    client.force_login(alice)

    response = client.post(
        reverse("settings"), profile_data(display_name="\u0410\u0421\u0415")
    )  # ACE in Cyrillic

    assert NAME_IN_USE in response.text
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_a_display_name_may_not_look_like_anothers_display_name(client, alice, bob):
    bob.display_name = "Ace"
    bob.save()
    client.force_login(alice)

    response = client.post(reverse("settings"), profile_data(display_name="\u0410\u0441\u0435"))

    assert NAME_IN_USE in response.text


def test_name_in_use_is_one_lookup_of_each_kind(alice, django_assert_num_queries):
    with django_assert_num_queries(2):  # the usernames' keys, then the display names' keys
        assert not name_in_use("Someone New", except_user=alice)


def test_name_as_read_keeps_accents_that_show():
    assert name_as_read("\u00c9mile") == "\u00e9mile"
    assert name_as_read("\u00c9mile") != name_as_read("Emile")
    # Taken apart and put together again: an accent typed as a combining mark is the same.
    assert name_as_read("E\u0301mile") == name_as_read("\u00c9mile")
    # A Cyrillic io is a Latin e with a diaeresis, as it looks.
    assert name_as_read("\u0451") == "\u00eb"


def test_it_reads_every_look_alike_as_its_latin_letter():
    # The table is applied after NFKC and case folding: an entry those change never matches.
    from accounts.models import LOOK_ALIKES

    for code, latin in LOOK_ALIKES.items():
        assert name_as_read(chr(code)) == latin, unicodedata.name(chr(code))
