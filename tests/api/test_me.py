"""GET /api/v1/me/."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services

from .conftest import start, token_client

pytestmark = pytest.mark.django_db


def test_it_lists_my_active_matches_and_those_waiting_for_me(alice, bob, charlie, alice_api):
    my_turn = start(alice, bob, [5, 2, 6, 3])  # Alice is white and won the opening
    their_turn = start(alice, charlie, [2, 5, 6, 3])  # Charlie (black) won it
    finished = start(alice, bob, [5, 2, 6, 3])
    services.resign(finished.pk, user=bob)
    start(bob, charlie, [5, 2, 6, 3])  # not Alice's

    response = alice_api.get(reverse("api_me"))

    assert response.status_code == 200
    assert response.json() == {
        "username": "alice",
        "matches": [my_turn.pk, their_turn.pk],
        "to_move": [my_turn.pk],
        "finished": [finished.pk],
        "unread_messages": {},
        "email_confirmed": True,
    }


def test_it_says_whether_my_address_is_confirmed(django_user_model):
    newcomer = django_user_model.objects.create_user(username="leo", email="leo@example.com")
    api = token_client(newcomer)

    before = api.get(reverse("api_me")).json()["email_confirmed"]
    django_user_model.objects.filter(pk=newcomer.pk).update(email_confirmed_at=timezone.now())
    after = api.get(reverse("api_me")).json()["email_confirmed"]

    assert (before, after) == (False, True)
