"""A block racing a challenge between the same two players, against real PostgreSQL: both
lock the two players' rows, so one goes first and the other sees it. A challenge is
never left waiting between two players one of whom has blocked the other."""

from __future__ import annotations

import pytest

from games import blocks, services
from games.models import Block, Challenge, Match

from .test_races import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("attempt", range(3))
def test_a_challenge_sent_as_the_block_is_made_is_refused_or_withdrawn(
    postgres_url, alice, bob, attempt
):
    results = race(
        lambda: services.create_challenge(bob, opponent=alice),
        lambda: blocks.block(alice, other=bob),
    )

    assert not isinstance(results[1], Exception), results
    # Sent first, the challenge is withdrawn by the block; sent second, refused.
    assert isinstance(results[0], Challenge | services.NotAllowed), results
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert not Challenge.objects.filter(status=Challenge.Status.OPEN).exists()


@pytest.mark.parametrize("attempt", range(3))
def test_a_lobby_challenge_accepted_as_the_block_is_made_starts_a_match_or_is_refused(
    postgres_url, alice, bob, attempt
):
    challenge = services.create_challenge(alice)

    results = race(
        lambda: services.accept_challenge(challenge.pk, user=bob),
        lambda: blocks.block(alice, other=bob),
    )

    assert not isinstance(results[1], Exception), results
    challenge.refresh_from_db()
    if isinstance(results[0], Match):  # accepted first: the block resigns nothing
        assert challenge.status == Challenge.Status.ACCEPTED
        assert Match.objects.get().is_active
    else:
        assert isinstance(results[0], services.NotAllowed), results
        assert challenge.status == Challenge.Status.OPEN
        assert not Match.objects.exists()


def test_a_block_pressed_twice_at_once_is_one_block(postgres_url, alice, bob):
    results = race(lambda: blocks.block(alice, other=bob), lambda: blocks.block(alice, other=bob))

    assert not [r for r in results if isinstance(r, Exception)], results
    assert Block.objects.count() == 1
