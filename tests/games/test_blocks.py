"""Blocking a player (games.blocks): in both directions, neither can challenge the other,
accept the other's challenge, offer a rematch or write to the other; matches in play go on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import blocks, chat, services
from games.models import CHALLENGE_DAYS, Block, Challenge, Match, Message, Notification
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


def _finished(white, black) -> Match:
    match = opened_by_white(white, black, points=3)
    return services.resign(match.pk, user=white)


def _loaded(match: Match) -> Match:
    return Match.objects.select_related("white", "black").get(pk=match.pk)


def test_it_records_a_block_and_takes_it_back(alice, bob, charlie):
    blocks.block(alice, other=bob)

    assert list(Block.objects.values_list("blocker__username", "blocked__username")) == [
        ("alice", "bob")
    ]
    assert blocks.blocked_between(alice, bob)
    assert blocks.blocked_between(bob, alice)  # both ways
    assert not blocks.blocked_between(alice, charlie)

    assert blocks.unblock(alice, other=bob)

    assert not Block.objects.exists()
    assert not blocks.blocked_between(alice, bob)
    assert not blocks.unblock(alice, other=bob)  # nothing left to take back


def test_it_blocks_once_when_asked_twice(alice, bob):
    blocks.block(alice, other=bob)
    blocks.block(alice, other=bob)

    assert Block.objects.count() == 1


def test_the_blocked_player_cannot_take_the_block_back(alice, bob):
    blocks.block(alice, other=bob)

    assert not blocks.unblock(bob, other=alice)

    assert blocks.blocked_between(alice, bob)


def test_it_refuses_to_block_oneself_a_bot_or_a_closed_account(alice, bob):
    bot = services.bot_users()[0]
    bob.is_active = False
    bob.save()

    with pytest.raises(blocks.BlockRefused, match="cannot block yourself"):
        blocks.block(alice, other=alice)
    with pytest.raises(blocks.BlockRefused, match="computer player"):
        blocks.block(alice, other=bot)
    with pytest.raises(blocks.BlockRefused, match="account is closed"):
        blocks.block(alice, other=bob)

    assert not Block.objects.exists()


def test_the_database_refuses_a_self_block_and_a_second_of_the_same_pair(alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)

    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=alice, blocked=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=alice, blocked=bob)


def test_it_withdraws_and_declines_the_challenges_waiting_between_them(alice, bob, charlie):
    mine = services.create_challenge(alice, opponent=bob)
    theirs = services.create_challenge(bob, opponent=alice)
    elsewhere = services.create_challenge(alice, opponent=charlie)
    lobby = services.create_challenge(alice)

    made = blocks.block(alice, other=bob)

    assert (made.withdrawn, made.declined) == (1, 1)
    for challenge in (mine, theirs, elsewhere, lobby):
        challenge.refresh_from_db()
    assert mine.status == Challenge.Status.CANCELLED
    assert theirs.status == Challenge.Status.DECLINED
    assert elsewhere.status == lobby.status == Challenge.Status.OPEN


def test_challenges_between_them_past_their_days_and_not_yet_swept_are_closed_too(alice, bob):
    mine = services.create_challenge(alice, opponent=bob)
    theirs = services.create_challenge(bob, opponent=alice)
    # Past their days, the hourly sweep not yet come: still OPEN in their rows.
    Challenge.objects.filter(pk__in=[mine.pk, theirs.pk]).update(
        created_at=timezone.now() - timedelta(days=CHALLENGE_DAYS, hours=1)
    )

    made = blocks.block(alice, other=bob)
    services.expire_challenges()

    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (made.withdrawn, made.declined) == (1, 1)
    assert mine.status == Challenge.Status.CANCELLED
    assert theirs.status == Challenge.Status.DECLINED
    # The sweep after it invites neither to challenge the other again.
    expired = [f"expired:{mine.pk}", f"expired:{theirs.pk}"]
    assert not Notification.objects.filter(key__in=expired).exists()


def test_neither_can_challenge_the_other(alice, bob):
    blocks.block(alice, other=bob)
    emails = len(mail.outbox)

    with pytest.raises(services.NotAllowed) as by_blocker:
        services.create_challenge(alice, opponent=bob)
    with pytest.raises(services.NotAllowed) as by_blocked:
        services.create_challenge(bob, opponent=alice)

    assert str(by_blocker.value) == "you have blocked bob: unblock them first"
    assert str(by_blocked.value) == (
        "you cannot challenge alice: they are not taking challenges from you"
    )
    assert by_blocked.value.status == 403
    assert not Challenge.objects.exists()
    assert len(mail.outbox) == emails


def test_they_may_challenge_each_other_again_once_unblocked(alice, bob):
    blocks.block(alice, other=bob)
    blocks.unblock(alice, other=bob)

    services.create_challenge(bob, opponent=alice)

    assert Challenge.objects.filter(challenger=bob, opponent=alice).exists()


def test_neither_can_accept_the_others_lobby_challenge_or_invite(alice, bob):
    lobby = services.create_challenge(alice)
    invite = services.create_challenge(bob, private=True)
    blocks.block(alice, other=bob)

    with pytest.raises(services.NotAllowed) as by_blocked:
        services.accept_challenge(lobby.pk, user=bob)
    with pytest.raises(services.NotAllowed) as by_blocker:
        services.accept_challenge(invite.pk, user=alice, invite_token=invite.invite_token)

    assert str(by_blocked.value) == (
        "you cannot accept this challenge: alice is not playing matches with you"
    )
    assert str(by_blocker.value) == "you have blocked bob: unblock them first"
    for challenge in (lobby, invite):
        challenge.refresh_from_db()
        assert challenge.status == Challenge.Status.OPEN
    assert not Match.objects.exists()


def test_the_lobby_leaves_out_the_challenges_of_players_blocked_either_way(alice, bob, charlie):
    alices = services.create_challenge(alice)
    bobs = services.create_challenge(bob)
    blocks.block(alice, other=bob)

    assert set(Challenge.objects.open_in_lobby().apart_from(bob)) == {bobs}
    assert set(Challenge.objects.open_in_lobby().apart_from(alice)) == {alices}
    assert set(Challenge.objects.open_in_lobby().apart_from(charlie)) == {alices, bobs}


def test_the_lobby_looks_for_blocks_in_each_direction_apart(alice):
    # One NOT EXISTS with an OR of the two directions, PostgreSQL can only run as a nested
    # loop over every open challenge and every block of the player's; two are each an anti
    # join on the (blocker, blocked) index.
    sql = str(Challenge.objects.open_in_lobby().apart_from(alice).query)

    assert sql.count("NOT EXISTS") == 2
    assert " OR " not in sql


def test_the_names_suggested_leave_out_players_blocked_either_way(
    django_user_model, alice, bob, charlie
):
    dave = django_user_model.objects.create_user(username="dave", email="dave@example.com")
    blocks.block(alice, other=bob)
    blocks.block(charlie, other=alice)
    blocks.block(bob, other=dave)  # between others: nothing to alice
    everyone = django_user_model.objects.filter(username__in=["alice", "bob", "charlie", "dave"])

    def suggested(user) -> set[str]:
        return {person.username for person in blocks.without_blocks(everyone, user)}

    assert suggested(alice) == {"alice", "dave"}
    assert suggested(bob) == {"bob", "charlie"}
    assert suggested(charlie) == {"bob", "charlie", "dave"}
    assert suggested(dave) == {"alice", "charlie", "dave"}


def test_the_names_suggested_look_for_blocks_in_each_direction_apart(django_user_model, alice):
    # As the lobby's: one NOT EXISTS for each direction, each an anti join on an index.
    sql = str(blocks.without_blocks(django_user_model.objects.all(), alice).query)

    assert sql.count("NOT EXISTS") == 2
    assert " OR " not in sql


def test_no_rematch_between_them_and_an_offer_waiting_is_declined(alice, bob):
    match = _finished(alice, bob)
    offer = services.offer_rematch(match, user=bob)

    blocks.block(alice, other=bob)

    offer.refresh_from_db()
    assert offer.status == Challenge.Status.DECLINED
    with pytest.raises(services.NotAllowed, match="you have blocked bob"):
        services.offer_rematch(match, user=alice)
    with pytest.raises(services.NotAllowed, match="not taking challenges from you"):
        services.offer_rematch(match, user=bob)
    assert Challenge.objects.filter(status=Challenge.Status.OPEN).count() == 0


def test_messages_close_for_both_with_a_reason_only_the_blocker_is_told(alice, bob):
    match = opened_by_white(alice, bob)
    chat.post_message(match.pk, user=bob, text="Good luck!")

    blocks.block(alice, other=bob)

    for_alice = chat.conversation(_loaded(match), alice)
    for_bob = chat.conversation(_loaded(match), bob)
    assert for_alice is not None and for_bob is not None
    assert not for_alice.can_write and not for_bob.can_write
    assert for_alice.closed_because == "messages are closed in this match: you have blocked bob"
    assert for_bob.closed_because == "messages are closed in this match"
    assert not chat.is_open(_loaded(match), bob)
    with pytest.raises(chat.ChatRefused, match="messages are closed in this match"):
        chat.post_message(match.pk, user=bob, text="Why?")
    assert list(Message.objects.values_list("text", flat=True)) == ["Good luck!"]


def test_a_block_never_resigns_a_match_in_play(alice, bob):
    match = opened_by_white(alice, bob)

    blocks.block(bob, other=alice)

    match.refresh_from_db()
    assert match.is_active
    action = services.TurnAction(segment=match.segment_count, play="in/22 in/19")
    services.submit_segment(match.pk, user=alice, action=action)
    match.refresh_from_db()
    assert match.to_move == bob


def test_messages_open_again_once_unblocked(alice, bob):
    match = opened_by_white(alice, bob)
    blocks.block(alice, other=bob)

    blocks.unblock(alice, other=bob)

    chat.post_message(match.pk, user=bob, text="Thanks.")
    assert Message.objects.count() == 1


def test_blocks_of_lists_a_players_own_blocks_newest_first(alice, bob, charlie):
    blocks.block(alice, other=bob)
    blocks.block(alice, other=charlie)
    blocks.block(bob, other=charlie)

    assert [b.blocked.username for b in blocks.blocks_of(alice)] == ["charlie", "bob"]


def test_blocked_between_is_one_query(alice, bob, django_assert_num_queries):
    blocks.block(alice, other=bob)

    with django_assert_num_queries(1):
        assert blocks.blocked_between(bob, alice)


@pytest.mark.django_db(transaction=True)  # turn emails go out on commit
def test_a_turn_email_quotes_no_messages_between_them_once_blocked(alice, bob):
    match = opened_by_white(alice, bob)  # alice to move
    chat.post_message(match.pk, user=alice, text="Good luck!")
    blocks.block(bob, other=alice)
    mail.outbox.clear()

    action = services.TurnAction(segment=match.segment_count, play="in/22 in/19")
    services.submit_segment(match.pk, user=alice, action=action)

    [body] = [m.body for m in mail.outbox if m.to == ["bob@example.com"]]
    assert "your turn" in body  # the match goes on, and its emails with it
    assert "wrote:" not in body and "Good luck!" not in body


def test_tournaments_pair_players_who_have_blocked_each_other(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments import services as tournaments

    tournament = tournaments.create_tournament(
        alice, name="Spring cup", signup_deadline=timezone.now() + timedelta(days=1), min_players=2
    )
    tournaments.sign_up(tournament.pk, user=alice)
    tournaments.sign_up(tournament.pk, user=bob)
    blocks.block(alice, other=bob)

    tournaments.start_tournament(tournament.pk, user=alice)

    match = Match.objects.get()
    assert {match.white, match.black} == {alice, bob}
    assert match.is_active
