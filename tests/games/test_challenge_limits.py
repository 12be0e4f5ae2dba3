"""How many challenges and bot matches one player may have at once: a player cannot flood
another's inbox with challenges, nor keep the bots' worker busy without end."""

from __future__ import annotations

import pytest
from django.core import mail

from games import services
from games.models import MATCH_LENGTHS, Challenge, Match

pytestmark = pytest.mark.django_db


def test_a_second_challenge_to_the_same_player_waits_for_the_first(alice, bob):
    services.create_challenge(alice, opponent=bob)
    emails = len(mail.outbox)

    with pytest.raises(services.LimitReached, match="already challenged bob") as refused:
        services.create_challenge(alice, opponent=bob, variant="greek")

    assert refused.value.status == 409
    assert Challenge.objects.filter(challenger=alice).count() == 1
    assert len(mail.outbox) == emails  # no second email to Bob
    # Bob may still challenge Alice, and Alice another player.
    services.create_challenge(bob, opponent=alice)


def test_the_same_challenge_to_a_player_sent_twice_is_one_challenge(alice, bob):
    first = services.create_challenge(alice, opponent=bob, variant="greek", points=5)
    emails = len(mail.outbox)

    with pytest.raises(services.SameChallengeWaiting, match="already sent bob") as refused:
        services.create_challenge(alice, opponent=bob, variant="greek", points=5)

    assert refused.value.status == 409
    assert refused.value.challenge == first
    assert list(Challenge.objects.filter(challenger=alice)) == [first]
    assert len(mail.outbox) == emails  # no second email to Bob


@pytest.mark.parametrize(
    "other", [{"variant": "american"}, {"points": 3}, {"days_per_move": 5}, {"rated": False}]
)
def test_a_different_challenge_to_the_same_player_is_not_the_same(alice, bob, other):
    services.create_challenge(alice, opponent=bob, variant="greek", points=5)
    options = {"variant": "greek", "points": 5} | other

    with pytest.raises(services.LimitReached, match="already challenged bob") as refused:
        services.create_challenge(alice, opponent=bob, **options)

    assert not isinstance(refused.value, services.SameChallengeWaiting)


def test_a_player_has_a_limited_number_of_challenges_waiting(alice, django_user_model):
    for n in range(services.MAX_OPEN_CHALLENGES):
        # Each one different: an identical lobby challenge is refused on its own account.
        services.create_challenge(alice, points=MATCH_LENGTHS[n % 7], days_per_move=1 + n // 7)

    with pytest.raises(services.LimitReached, match="withdraw one"):
        services.create_challenge(alice, private=True)
    assert Challenge.objects.filter(challenger=alice).count() == services.MAX_OPEN_CHALLENGES

    # Withdrawn, one makes room for another.
    services.cancel_challenge(Challenge.objects.filter(challenger=alice).first().pk, user=alice)
    services.create_challenge(alice, private=True)


def test_a_player_has_a_limited_number_of_matches_against_the_bots(alice):
    bot = services.bot_users()[0]
    for _ in range(services.MAX_BOT_MATCHES):
        services.create_challenge(alice, opponent=bot)
    assert (
        Match.objects.active().filter(white=alice).count()
        + Match.objects.active().filter(black=alice).count()
        == services.MAX_BOT_MATCHES
    )

    with pytest.raises(services.LimitReached, match="against the computer already"):
        services.create_challenge(alice, opponent=bot)

    assert Match.objects.count() == services.MAX_BOT_MATCHES


def test_challenges_waiting_do_not_stop_a_match_against_a_bot(alice):
    # A bot accepts at once: its challenge never waits, and the waiting limit is not its.
    for n in range(services.MAX_OPEN_CHALLENGES):
        services.create_challenge(alice, points=MATCH_LENGTHS[n % 7], days_per_move=1 + n // 7)

    challenge = services.create_challenge(alice, opponent=services.bot_users()[0])

    assert challenge.status == Challenge.Status.ACCEPTED
    assert Match.objects.get() == challenge.match
    assert Challenge.objects.issued_by(alice).count() == services.MAX_OPEN_CHALLENGES


def test_the_same_lobby_challenge_sent_twice_is_one_challenge(alice):
    first = services.create_challenge(alice, variant="greek", points=5)

    with pytest.raises(services.SameChallengeWaiting, match="already have this") as refused:
        services.create_challenge(alice, variant="greek", points=5)

    assert refused.value.status == 409
    assert refused.value.challenge == first
    assert list(Challenge.objects.filter(challenger=alice)) == [first]


def test_lobby_challenges_that_differ_or_are_private_are_not_the_same(alice, bob):
    first = services.create_challenge(alice, variant="greek", points=5)

    services.create_challenge(alice, variant="greek", points=5, rated=False)
    services.create_challenge(alice, variant="greek", points=5, days_per_move=3)
    services.create_challenge(alice, variant="greek", points=5, private=True)
    services.create_challenge(alice, variant="greek", points=5, private=True)  # two friends
    services.create_challenge(bob, variant="greek", points=5)
    services.cancel_challenge(first.pk, user=alice)
    services.create_challenge(alice, variant="greek", points=5)  # the first is withdrawn

    assert Challenge.objects.filter(challenger=alice).count() == 6
