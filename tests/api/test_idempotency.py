"""The Idempotency-Key header: a POST sent again with its key is done once
(games.idempotency)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import closing, services, tasks
from games.models import Challenge, Match, Message, SentOnce

from .conftest import post_json

pytestmark = pytest.mark.django_db

OPTIONS = {"variant": "american", "points": 1, "days_per_move": 2}


def _create(client, key: str | None = "retry-1", **data):
    headers = {} if key is None else {"headers": {"Idempotency-Key": key}}
    return post_json(client, reverse("api_challenge_create"), {**OPTIONS, **data}, **headers)


@pytest.fixture
def bot():
    return services.bot_users()[0]


def test_a_bot_challenge_sent_twice_with_its_key_starts_one_match(alice_api, alice, bot):
    first = _create(alice_api, opponent=bot.username)

    again = _create(alice_api, opponent=bot.username)

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and "match" in first.json()
    assert again["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert Match.objects.count() == 1 and Challenge.objects.count() == 1


def test_without_a_key_a_bot_challenge_sent_twice_is_two_matches_as_before(alice_api, bot):
    _create(alice_api, key=None, opponent=bot.username)

    again = _create(alice_api, key=None, opponent=bot.username)

    assert again.status_code == 201
    assert Match.objects.count() == 2


def test_a_named_challenge_sent_again_with_its_key_gets_its_first_answer(alice_api, bob):
    first = _create(alice_api, opponent="bob")

    again = _create(alice_api, opponent="bob")

    # Not the 409 a copy without the key gets: the same 201, with the same id.
    assert (again.status_code, again.json()) == (201, first.json())
    assert Challenge.objects.count() == 1


def test_the_fields_may_come_in_another_order_and_spacing(alice_api, bot):
    url = reverse("api_challenge_create")
    headers = {"Idempotency-Key": "k"}
    body = '{"opponent": "%s", "variant": "american", "points": 1, "days_per_move": 2}'
    reordered = '{"days_per_move":2,"points":1,"variant":"american","opponent":"%s"}'

    first = alice_api.post(url, body % bot.username, "application/json", headers=headers)
    again = alice_api.post(url, reordered % bot.username, "application/json", headers=headers)

    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Match.objects.count() == 1


def test_the_same_key_with_another_body_is_refused_and_does_nothing(alice_api, bot):
    _create(alice_api, opponent=bot.username)

    other = _create(alice_api, opponent=bot.username, points=3)

    assert other.status_code == 422
    assert "Idempotency-Key came before with another request" in other.json()["error"]
    assert Match.objects.count() == 1


def test_the_same_key_at_another_endpoint_is_refused(alice_api, alice, bob, match):
    _create(alice_api, opponent="bob")

    other = post_json(
        alice_api,
        reverse("api_match_messages", args=[match.pk]),
        {"text": "hello"},
        headers={"Idempotency-Key": "retry-1"},
    )

    assert other.status_code == 422
    assert not Message.objects.exists()


def test_keys_are_each_players_own(alice_api, bob_api, bot):
    mine = _create(alice_api, opponent=bot.username)

    theirs = _create(bob_api, opponent=bot.username)

    assert theirs.status_code == 201 and not theirs.has_header("Idempotent-Replayed")
    assert theirs.json()["match"] != mine.json()["match"]
    assert Match.objects.count() == 2


def test_a_refusal_keeps_nothing_so_the_request_put_right_may_use_the_key(alice_api, bob):
    refused = _create(alice_api, opponent="nobody")

    right = _create(alice_api, opponent="bob")

    assert refused.status_code == 400
    assert right.status_code == 201 and not right.has_header("Idempotent-Replayed")
    assert Challenge.objects.count() == 1
    assert SentOnce.objects.get().status == 201


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("", "the key is empty"),
        ("   ", "the key is empty"),
        ("x" * 256, "longer than 255 characters"),
        ("two words", "visible ASCII"),
        ("caf\u00e9", "visible ASCII"),
    ],
)
def test_a_key_that_is_not_one_is_refused_with_the_reason(alice_api, bot, key, reason):
    response = _create(alice_api, key=key, opponent=bot.username)

    assert response.status_code == 400
    assert response.json()["error"].startswith("the Idempotency-Key header is not valid")
    assert reason in response.json()["error"]
    assert not Match.objects.exists() and not SentOnce.objects.exists()


def test_a_key_of_255_visible_characters_is_taken(alice_api, bot):
    response = _create(alice_api, key="a-Z_0.~!" + "x" * 247, opponent=bot.username)

    assert response.status_code == 201


def test_an_expired_key_counts_as_new(alice_api, bot):
    _create(alice_api, opponent=bot.username)
    SentOnce.objects.update(created_at=timezone.now() - timedelta(hours=24, minutes=1))

    again = _create(alice_api, opponent=bot.username)

    assert again.status_code == 201 and not again.has_header("Idempotent-Replayed")
    assert Match.objects.count() == 2


def test_the_sweep_forgets_expired_keys_only(alice_api, bot):
    _create(alice_api, key="old", opponent=bot.username)
    _create(alice_api, key="new", opponent=bot.username)
    SentOnce.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))

    assert tasks.task_forget_idempotency_keys() == 1

    assert list(SentOnce.objects.values_list("key", flat=True)) == ["new"]


def test_a_message_sent_again_with_its_key_is_written_once(alice_api, match):
    url = reverse("api_match_messages", args=[match.pk])
    send = lambda: post_json(  # noqa: E731
        alice_api, url, {"text": "good luck"}, headers={"Idempotency-Key": "m1"}
    )

    first, again = send(), send()

    assert (again.status_code, again.json()) == (201, first.json())
    assert Message.objects.count() == 1


def test_a_turn_sent_again_with_its_key_gets_the_state_it_had(alice_api, match):
    url = reverse("api_match_turn", args=[match.pk])
    turn = {"segment": 1, "play": "in/22 in/19"}
    send = lambda: post_json(alice_api, url, turn, headers={"Idempotency-Key": "t1"})  # noqa: E731

    first, again = send(), send()

    # Not the 409 "already_played" a copy without the key gets: the first answer.
    assert (again.status_code, again.json()) == (200, first.json())


def test_a_get_ignores_the_header(alice_api):
    response = alice_api.get(reverse("api_me"), headers={"Idempotency-Key": "not one"})

    assert response.status_code == 200


def test_a_session_client_uses_keys_too(client, alice, bot):
    client.force_login(alice)

    first = _create(client, opponent=bot.username)
    again = _create(client, opponent=bot.username)

    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Match.objects.count() == 1


def test_closing_the_account_forgets_its_keys(alice_api, alice, bob):
    _create(alice_api, opponent="bob")

    closing.close_account(alice)

    assert not SentOnce.objects.exists()
