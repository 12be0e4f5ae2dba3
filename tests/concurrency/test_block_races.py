"""A block racing a challenge or a message between the same two players, against real
PostgreSQL: each locks the two players' rows, so one goes first and the other sees it. A
challenge is never left waiting between two players one of whom has blocked the other,
and no message is stored once a block between them is."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from games import blocks, chat, services
from games.models import Block, Challenge, Match, Message
from tests.matches import opened_by_white

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


class _InThread(threading.Thread):
    """``call`` run on a connection of its own; ``result``: what it returned or raised."""

    def __init__(self, call: Callable[[], object]) -> None:
        super().__init__()
        self.call = call
        self.result: object = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except Exception as error:  # the outcome under test
            self.result = error
        finally:
            connection.close()


# How long a thread is given to get past a lock it should wait on. Deterministic with the
# locks (it waits however long); without them it is done in milliseconds.
WAIT = 1.0


def test_a_message_sent_while_a_block_is_being_made_waits_for_it_then_is_refused(
    postgres_url, alice, bob
):
    match = opened_by_white(alice, bob)
    writing = _InThread(lambda: chat.post_message(match.pk, user=bob, text="Still there?"))

    with transaction.atomic():  # the block made, not yet committed
        blocks.block(alice, other=bob)
        writing.start()
        writing.join(timeout=WAIT)
        waited = writing.is_alive()
    writing.join(timeout=30)

    assert waited, writing.result
    assert isinstance(writing.result, chat.ChatRefused), writing.result
    assert str(writing.result) == "messages are closed in this match"
    assert not Message.objects.exists()


def test_a_block_made_while_a_message_is_being_stored_waits_for_it(postgres_url, alice, bob):
    match = opened_by_white(alice, bob)
    blocking = _InThread(lambda: blocks.block(alice, other=bob))

    with transaction.atomic():  # the message stored, not yet committed
        chat.post_message(match.pk, user=bob, text="Good luck")
        blocking.start()
        blocking.join(timeout=WAIT)
        waited = blocking.is_alive()
    blocking.join(timeout=30)

    assert waited, blocking.result
    assert isinstance(blocking.result, blocks.BlockMade), blocking.result
    # Stored before the block: the block closes the conversation from then on.
    assert Message.objects.get().created_at < Block.objects.get().created_at


@pytest.mark.parametrize("attempt", range(3))
def test_a_message_sent_as_the_block_is_made_is_stored_first_or_refused(
    postgres_url, alice, bob, attempt
):
    match = opened_by_white(alice, bob)

    results = race(
        lambda: chat.post_message(match.pk, user=bob, text="Still there?"),
        lambda: blocks.block(alice, other=bob),
    )

    assert isinstance(results[1], blocks.BlockMade), results
    assert isinstance(results[0], Message | chat.ChatRefused), results
    assert Message.objects.count() == (1 if isinstance(results[0], Message) else 0)
