"""Blocks through the JSON API: the challenge endpoints refuse (403) between two players
one of whom has blocked the other, the lobby list leaves their challenges out, and
POST /api/v1/players/<username>/block/ and .../unblock/ make and take back a block."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import blocks, services
from games.models import Block, Challenge, Match

from .conftest import post_json

pytestmark = pytest.mark.django_db

OPTIONS = {"variant": "greek", "points": 3, "days_per_move": 5}


def test_a_challenge_either_way_is_refused_with_the_reason(alice, bob, alice_api, bob_api):
    blocks.block(alice, other=bob)
    url = reverse("api_challenge_create")

    by_blocker = post_json(alice_api, url, {**OPTIONS, "opponent": "bob"})
    by_blocked = post_json(bob_api, url, {**OPTIONS, "opponent": "alice"})

    assert by_blocker.status_code == by_blocked.status_code == 403
    assert by_blocker.json() == {"error": "you have blocked bob: unblock them first"}
    assert by_blocked.json() == {
        "error": "you cannot challenge alice: they are not taking challenges from you"
    }
    assert not Challenge.objects.exists()


def test_accepting_the_others_lobby_challenge_is_refused(alice, bob, bob_api):
    challenge = services.create_challenge(alice)
    blocks.block(alice, other=bob)

    response = post_json(bob_api, reverse("api_challenge_accept", args=[challenge.pk]))

    assert response.status_code == 403
    assert response.json()["error"] == (
        "you cannot accept this challenge: alice is not playing matches with you"
    )
    assert not Match.objects.exists()


def test_the_lobby_list_leaves_out_the_others_challenges(alice, bob, charlie, bob_api):
    services.create_challenge(alice)
    charlies = services.create_challenge(charlie)
    blocks.block(bob, other=alice)

    lobby = bob_api.get(reverse("api_challenge_create")).json()["lobby"]

    assert [c["id"] for c in lobby] == [charlies.pk]


def test_it_blocks_and_unblocks_a_player(alice, bob, alice_api):
    services.create_challenge(alice, opponent=bob)
    services.create_challenge(bob, opponent=alice)

    blocked = post_json(alice_api, reverse("api_player_block", args=["bob"]))

    assert blocked.status_code == 200
    assert blocked.json() == {"username": "bob", "blocked": True, "withdrawn": 1, "declined": 1}
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()

    unblocked = post_json(alice_api, reverse("api_player_unblock", args=["bob"]))

    assert unblocked.status_code == 200
    assert unblocked.json() == {"username": "bob", "blocked": False}
    assert not Block.objects.exists()


@pytest.mark.parametrize(
    ("username", "status", "reason"),
    [
        ("alice", 400, "cannot block yourself"),
        ("expert-bot", 400, "computer player"),
        ("nobody", 404, "there is no player called"),
    ],
)
def test_it_refuses_a_block_it_cannot_make(alice_api, username, status, reason):
    services.bot_users()

    response = post_json(alice_api, reverse("api_player_block", args=[username]))

    assert response.status_code == status
    assert reason in response.json()["error"]
    assert not Block.objects.exists()


def test_it_lists_the_players_one_has_blocked_the_latest_first(
    alice, bob, charlie, alice_api, bob_api
):
    blocks.block(alice, other=bob)
    blocks.block(alice, other=charlie)
    blocks.block(charlie, other=alice)  # charlie's block, not alice's
    made = {b.blocked.username: b.created_at for b in Block.objects.filter(blocker=alice)}

    mine = alice_api.get(reverse("api_me_blocks"))
    bobs = bob_api.get(reverse("api_me_blocks"))

    assert mine.status_code == 200
    assert mine.json() == {
        "blocks": [
            {"username": "charlie", "blocked_at": made["charlie"].isoformat()},
            {"username": "bob", "blocked_at": made["bob"].isoformat()},
        ]
    }
    # Nobody is told who has blocked them.
    assert bobs.json() == {"blocks": []}


def test_the_list_of_blocks_needs_a_login_and_answers_only_get(alice, bob, alice_api, client):
    blocks.block(alice, other=bob)

    anonymous = client.get(reverse("api_me_blocks"))
    posted = post_json(alice_api, reverse("api_me_blocks"))

    assert anonymous.status_code == 401
    assert "error" in anonymous.json()
    assert posted.status_code == 405
    assert Block.objects.count() == 1
