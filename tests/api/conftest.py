"""Users, API clients and matches for the JSON API tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken
from games import services
from games.engine import format_play
from games.engine.game import Phase, ScriptedDice
from games.models import Match


# No passwords: the API tests sign in by key or force_login, and hashing is slow. Their
# addresses are confirmed, as the other tests' players' are.
@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(
        username="bob", email="bob@example.com", email_confirmed_at=timezone.now()
    )


@pytest.fixture
def charlie(django_user_model):
    return django_user_model.objects.create_user(
        username="charlie", email="charlie@example.com", email_confirmed_at=timezone.now()
    )


def token_client(user) -> Client:
    """A client authenticated by an API key; it enforces CSRF, as a real client would."""
    _, key = ApiToken.issue(user, "tests")
    return Client(enforce_csrf_checks=True, headers={"authorization": f"Token {key}"})


@pytest.fixture
def alice_api(alice) -> Client:
    return token_client(alice)


@pytest.fixture
def bob_api(bob) -> Client:
    return token_client(bob)


@pytest.fixture
def charlie_api(charlie) -> Client:
    return token_client(charlie)


def post_json(client: Client, url: str, data: Any = None, **extra: Any):
    return client.post(
        url, data if data is not None else {}, content_type="application/json", **extra
    )


def start(alice, bob, dice: list[int], *, variant: str = "american", points: int = 1) -> Match:
    """A match with Alice as white and Bob as black, opening with the scripted ``dice``."""
    return services.start_match(
        white=alice,
        black=bob,
        variant=variant,
        points=points,
        days_per_move=2,
        dice=ScriptedDice(dice),
    )


@pytest.fixture
def match(alice, bob) -> Match:
    # Alice (white) wins the opening 5-2 and plays 6-3 from all checkers waiting.
    return start(alice, bob, [5, 2, 6, 3])


def play_on(match: Match, *, until_segment: int) -> Match:
    """Play ``match`` through the services (first legal play, 6-6 after a 1-2, random dice)
    until it has stored ``until_segment`` segments, for tests that need a long history."""
    while match.segment_count < until_segment and match.is_active:
        game = services.load_game(match)
        if game.phase is Phase.NAME_DOUBLE:
            action = services.TurnAction(segment=match.segment_count, double=6)
        else:
            first = format_play(game.legal_plays()[0])
            action = services.TurnAction(segment=match.segment_count, play=first)
        match = services.submit_segment(match.pk, user=match.to_move, action=action)
    return match
