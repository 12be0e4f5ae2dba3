"""Two copies of one request with one key, at the same instant, against real PostgreSQL:
the work is done once and both get its answer (games.idempotency)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games import services
from games.models import Challenge, Match, SentOnce
from tests.concurrency.test_races import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("attempt", range(3))
def test_a_bot_challenge_sent_twice_at_once_with_one_key_starts_one_match(
    postgres_url, alice, attempt
):
    bot = services.bot_users()[0]
    _, token = ApiToken.issue(alice, "race")
    body = json.dumps(
        {"opponent": bot.username, "variant": "greek", "points": 3, "days_per_move": 2}
    )

    def send():
        client = Client(headers={"authorization": f"Token {token}"})
        return client.post(
            reverse("api_challenge_create"),
            body,
            content_type="application/json",
            headers={"Idempotency-Key": "one"},
        )

    first, second = race(send, send)

    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert sum(r.has_header("Idempotent-Replayed") for r in (first, second)) == 1
    assert Match.objects.count() == Challenge.objects.count() == 1
    assert SentOnce.objects.get().status == 201


@pytest.mark.parametrize("attempt", range(3))
def test_the_lobby_bot_form_sent_twice_at_once_starts_one_match(postgres_url, alice, attempt):
    bot = services.bot_users()[0]
    form = {
        "idempotency_key": "form-key",
        "opponent": bot.username,
        "variant": "american",
        "points": "1",
        "days_per_move": "2",
        "rated": "on",
    }

    def send():
        client = Client()
        client.force_login(alice)
        return client.post(reverse("challenge_new"), form)

    first, second = race(send, send)

    match = Match.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == match.get_absolute_url()
