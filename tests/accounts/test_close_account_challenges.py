"""The word on what closing an account did says which challenges were withdrawn (the
player's own) and which declined (those to the player), not all of them "withdrawn"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Challenge

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def _close(client, user) -> str:
    client.force_login(user)
    return client.post(reverse("close_account"), {"password": PASSWORD}, follow=True).text


def test_it_says_which_challenges_were_withdrawn_and_which_declined(client, alice, bob, charlie):
    services.create_challenge(alice, variant="greek")
    services.create_challenge(alice, opponent=bob)
    services.create_challenge(alice, opponent=charlie)
    to_her = services.create_challenge(charlie, opponent=alice)

    page = _close(client, alice)

    assert "Your account is closed (3 challenges withdrawn, 1 challenge declined)." in page
    to_her.refresh_from_db()
    assert to_her.status == Challenge.Status.DECLINED


def test_it_says_declined_alone_when_every_challenge_was_to_the_player(client, alice, bob):
    services.create_challenge(bob, opponent=alice)

    page = _close(client, alice)

    assert "Your account is closed (1 challenge declined)." in page
    assert "withdrawn" not in page
