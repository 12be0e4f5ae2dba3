"""GET /api/v1/me/."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services

from .conftest import start

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
    }
