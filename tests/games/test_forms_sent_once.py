"""Forms that start something carry a one-time key (games.idempotency.form_sent_once): sent
twice without JavaScript (a double click, a reload of the answer), they count once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Challenge, Match
from games.tournaments.models import Tournament

pytestmark = pytest.mark.django_db

KEY = re.compile(r'<input type="hidden" name="idempotency_key" value="([^"]+)">')


def _lobby_keys(client) -> list[str]:
    return KEY.findall(client.get(reverse("lobby")).text)


def _bot_form(bot, key: str, **changes: str) -> dict[str, str]:
    form = {
        "opponent": bot.username,
        "variant": "american",
        "points": "1",
        "days_per_move": "2",
        "rated": "on",
        "idempotency_key": key,
    }
    return form | changes


def test_each_bot_form_of_the_lobby_has_a_key_of_its_own_new_with_each_page(client, alice):
    client.force_login(alice)
    bots = services.bot_users()

    keys, again = _lobby_keys(client), _lobby_keys(client)

    assert len(keys) == len(bots) == len(set(keys))
    assert not set(keys) & set(again)


@pytest.mark.parametrize(
    ("url_name", "forms"), [("lobby", 3), ("challenge_new", 1), ("tournament_new", 1)]
)
def test_the_pages_with_keys_are_never_cached(client, alice, url_name, forms):
    client.force_login(alice)
    services.bot_users()

    response = client.get(reverse(url_name))

    # From the browser's cache (Back), the page would send its old keys again: a bot
    # played again would go to the match it started before.
    assert "no-store" in response["Cache-Control"]
    assert len(KEY.findall(response.text)) == forms


def test_the_lobby_bot_form_sent_twice_starts_one_match(client, alice):
    bot = services.bot_users()[0]
    client.force_login(alice)
    key = _lobby_keys(client)[0]

    first = client.post(reverse("challenge_new"), _bot_form(bot, key))
    again = client.post(reverse("challenge_new"), _bot_form(bot, key))

    match = Match.objects.get()
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == match.get_absolute_url()
    assert "The form was sent twice: it counted once." in [
        str(m) for m in get_messages(again.wsgi_request)
    ]


def test_two_forms_of_the_lobby_start_two_matches(client, alice):
    bot = services.bot_users()[0]
    client.force_login(alice)
    first_key, second_key = _lobby_keys(client)[:2]

    client.post(reverse("challenge_new"), _bot_form(bot, first_key))
    client.post(reverse("challenge_new"), _bot_form(bot, second_key))

    assert Match.objects.count() == 2


def test_a_key_sent_with_other_choices_is_refused_and_starts_nothing(client, alice):
    client.force_login(alice)
    bot = services.bot_users()[0]
    client.post(reverse("challenge_new"), _bot_form(bot, "k1"))

    other = client.post(reverse("challenge_new"), _bot_form(bot, "k1", points="3"))

    assert other.status_code == 302 and other["Location"] == reverse("challenge_new")
    assert Match.objects.count() == 1
    page = client.get(other["Location"])
    assert "That form could not be sent as it was: please send it again." in page.text


def test_a_key_that_is_not_one_is_refused_and_starts_nothing(client, alice):
    client.force_login(alice)
    bot = services.bot_users()[0]

    response = client.post(reverse("challenge_new"), _bot_form(bot, "not a key"))

    assert response.status_code == 302 and not Match.objects.exists()


def test_a_refused_form_keeps_nothing_so_the_form_put_right_goes(client, alice):
    client.force_login(alice)

    refused = client.post(
        reverse("challenge_new"), _bot_form(services.bot_users()[0], "k", opponent="nobody")
    )
    right = client.post(reverse("challenge_new"), _bot_form(services.bot_users()[0], "k"))

    assert refused.status_code == 200 and "There is no player called nobody." in refused.text
    assert right.status_code == 302 and Match.objects.count() == 1


def test_a_challenge_to_a_player_sent_twice_with_its_key_goes_to_the_one_challenge(
    client, alice, bob
):
    client.force_login(alice)
    form = _bot_form(bob, "k") | {"points": "3"}

    first = client.post(reverse("challenge_new"), form)
    again = client.post(reverse("challenge_new"), form)

    assert first["Location"] == again["Location"] == Challenge.objects.get().get_absolute_url()


def test_the_tournament_form_sent_twice_opens_one_tournament(client, alice):
    client.force_login(alice)
    deadline = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Winter knock-out",
        "format": "single_elimination",
        "variant": "american",
        "points": "3",
        "days_per_move": "3",
        "min_players": "4",
        "max_players": "8",
        "signup_deadline": deadline,
        "start_mode": "automatic",
        "idempotency_key": KEY.findall(client.get(reverse("tournament_new")).text)[0],
    }

    first = client.post(reverse("tournament_new"), form)
    again = client.post(reverse("tournament_new"), form)

    assert first["Location"] == again["Location"] == Tournament.objects.get().get_absolute_url()
