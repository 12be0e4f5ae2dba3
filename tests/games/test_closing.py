"""Closing an account (games.closing): what it erases, what it ends, and that it can run
again."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

import pytest
from django.contrib.auth import authenticate
from django.utils import timezone

from accounts.models import ApiToken
from accounts.services import player_named
from games import blocks, chat, closing, notifications, services
from games.models import CHALLENGE_DAYS, Block, Challenge, Match, Message, Notification
from games.tournaments.brackets import Format
from games.tournaments.models import Entry, Tournament
from tests.matches import opened_by_white
from tests.tournaments_site.helpers import make_users, open_tournament, started_tournament

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


@pytest.fixture
def alice(alice):
    alice.display_name = "Alice Liddell"
    alice.about = "Plays on Sundays."
    alice.country = "England"
    alice.save()
    return alice


def test_it_erases_the_person_and_keeps_the_username(alice, bob):
    ApiToken.issue(alice, "my bot")
    alice.email_undo_address, alice.email_undo_key = "alice@old.example", "0" * 64
    alice.save()
    match = opened_by_white(alice, bob)
    chat.post_message(match.pk, user=alice, text="I live at 12 Harbour Lane")
    chat.post_message(match.pk, user=bob, text="Good luck")

    closing.close_account(alice)

    alice.refresh_from_db()
    assert alice.username == "alice"
    assert not alice.is_active
    assert (alice.email, alice.display_name, alice.about, alice.country) == ("", "", "", "")
    assert not alice.has_usable_password()
    assert alice.email_preference == alice.EmailPreference.NONE
    assert alice.timezone == "UTC"
    assert (alice.email_undo_address, alice.email_undo_key) == ("", "")
    assert not ApiToken.objects.filter(user=alice).exists()
    assert authenticate(username="alice", password=PASSWORD) is None
    assert player_named("alice") is None  # nobody can challenge her by name
    assert list(Message.objects.values_list("text", flat=True)) == ["Good luck"]


def test_it_erases_her_name_from_the_emails_kept_of_her_matches_and_challenges(alice, bob, charlie):
    match = opened_by_white(alice, bob)
    challenge = services.create_challenge(alice, opponent=charlie)
    sent = timezone.now()

    def kept(user, key, *, match=None, **when):
        return Notification.objects.create(
            user=user,
            kind="turn",
            key=key,
            subject="Your turn against Alice Liddell",
            body="Alice Liddell played 6-3.",
            match=match,
            **when,
        )

    turn = kept(bob, "turn:old", match=match, sent_at=sent)
    offer = Notification.objects.get(key=f"challenge:{challenge.pk}")  # queued with it
    Notification.objects.filter(pk=offer.pk).update(
        subject="Alice Liddell challenges you", sent_at=sent
    )
    # Another match's email that happens to have the words: not about her.
    other = kept(charlie, "turn:other", match=opened_by_white(bob, charlie), sent_at=sent)
    waiting = kept(bob, "turn:waiting", match=match)  # written afresh when it goes

    closing.close_account(alice)

    erased = (closing.ERASED, closing.ERASED)
    for row in (turn, offer, other, waiting):
        row.refresh_from_db()
    assert (turn.subject, turn.body) == erased
    assert (offer.subject, offer.body) == erased
    assert turn.sent_at is not None  # the record of what was sent, when, stays
    assert other.body == "Alice Liddell played 6-3."
    assert waiting.body == "Alice Liddell played 6-3."


def test_it_deletes_the_blocks_she_made_and_those_made_of_her(alice, bob, charlie):
    blocks.block(alice, other=bob)
    blocks.block(charlie, other=alice)
    blocks.block(bob, other=charlie)

    closing.close_account(alice)

    assert list(Block.objects.values_list("blocker__username", "blocked__username")) == [
        ("bob", "charlie")
    ]


def test_nobody_can_block_her_once_she_has_gone_even_from_a_page_read_before(alice, bob):
    as_read = type(alice).objects.get(pk=alice.pk)  # bob's page, loaded before she closed

    closing.close_account(alice)

    with pytest.raises(blocks.BlockRefused, match="the account is closed"):
        blocks.block(bob, other=as_read)
    assert not Block.objects.exists()


def test_it_resigns_her_matches_and_her_opponents_win(alice, bob, charlie):
    to_move = opened_by_white(alice, bob)
    waiting = opened_by_white(charlie, alice)
    finished = opened_by_white(alice, charlie)
    services.resign(finished.pk, user=charlie)

    done = closing.close_account(alice)

    assert done.matches_resigned == 2
    for match, winner in ((to_move, bob), (waiting, charlie)):
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert match.winner == winner
        assert match.ending == Match.Ending.RESIGNATION
    finished.refresh_from_db()
    assert finished.winner == alice  # what she won stays won


def test_it_withdraws_her_challenges_and_declines_those_to_her(alice, bob, charlie):
    hers = services.create_challenge(alice, variant="greek")
    to_bob = services.create_challenge(alice, opponent=bob)
    to_her = services.create_challenge(charlie, opponent=alice)
    not_hers = services.create_challenge(bob, opponent=charlie)

    done = closing.close_account(alice)

    assert (done.challenges_withdrawn, done.challenges_declined) == (2, 1)
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses[hers.pk] == statuses[to_bob.pk] == Challenge.Status.CANCELLED
    assert statuses[to_her.pk] == Challenge.Status.DECLINED
    assert statuses[not_hers.pk] == Challenge.Status.OPEN


def test_a_challenge_to_her_past_its_days_and_not_yet_swept_is_declined(alice, charlie):
    to_her = services.create_challenge(charlie, opponent=alice)
    # Past its days, the hourly sweep not yet come: still OPEN in its row.
    Challenge.objects.filter(pk=to_her.pk).update(
        created_at=timezone.now() - timedelta(days=CHALLENGE_DAYS, hours=1)
    )

    asked = closing.in_play(alice)
    done = closing.close_account(alice)
    services.expire_challenges()

    to_her.refresh_from_db()
    assert asked["challenges"] == 0  # the pages show it as expired, not as open
    assert done.challenges_declined == 1
    assert to_her.status == Challenge.Status.DECLINED
    # The sweep after it does not invite charlie to challenge a closed account again.
    assert not Notification.objects.filter(key=f"expired:{to_her.pk}").exists()


def test_it_takes_her_out_of_tournaments_and_calls_off_the_one_she_organises(alice, bob):
    others = make_users(3)
    entered = open_tournament(bob)
    for player in (alice, *others[:1]):
        services_sign_up(entered, player)
    organised = open_tournament(alice)
    services_sign_up(organised, others[1])
    running = started_tournament(bob, [alice, *others], format=Format.ROUND_ROBIN)

    done = closing.close_account(alice)

    assert done.tournaments_left == 2
    assert done.tournaments_called_off == 1
    assert not Entry.objects.filter(tournament=entered, user=alice).exists()
    organised.refresh_from_db()
    assert organised.status == Tournament.Status.CANCELLED
    assert Entry.objects.get(tournament=running, user=alice).withdrawn
    assert not Match.objects.active().involving(alice).exists()
    running.refresh_from_db()
    assert running.status == Tournament.Status.RUNNING  # the others play on


def test_it_deletes_the_emails_to_her_and_a_queued_one_is_not_sent(alice, bob):
    match = opened_by_white(bob, alice)
    unsent = Notification.objects.create(
        user=alice, kind=Notification.Kind.TURN, key="turn:x", subject="s", body="b", match=match
    )
    to_bob = Notification.objects.create(
        user=bob, kind=Notification.Kind.TURN, key="turn:y", subject="s", body="b", match=match
    )

    closing.close_account(alice)

    # Their bodies greet her by name.
    assert not Notification.objects.filter(user=alice).exists()
    assert Notification.objects.filter(pk=to_bob.pk).exists()
    # The task already queued for hers finds nothing to send.
    assert notifications.send_notification(unsent.pk) is False


def test_an_email_queued_just_before_she_closed_is_not_sent(alice, bob):
    match = opened_by_white(bob, alice)
    queued = Notification.objects.create(
        user=alice, kind=Notification.Kind.TURN, key="turn:x", subject="s", body="b", match=match
    )
    closing._deactivate(alice)
    # As if it had been written between her closing and its deletion.
    Notification.objects.create(
        pk=queued.pk, user=alice, kind="turn", key="turn:x", subject="s", body="b", match=match
    )

    assert notifications.send_notification(queued.pk) is False
    queued.refresh_from_db()
    assert queued.sent_at is None and queued.cancelled_at is not None


def test_her_challenge_cannot_be_accepted_once_she_has_gone(alice, bob):
    challenge = services.create_challenge(alice, variant="greek")
    # The account is deactivated first, in its own transaction; an accept that comes
    # between that and the challenge being withdrawn is refused.
    closing._deactivate(alice)

    with pytest.raises(
        services.StaleSegment, match="account of a player of this challenge is closed"
    ):
        services.accept_challenge(challenge.pk, user=bob)

    assert not Match.objects.involving(bob).exists()
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN


def test_closing_again_finishes_what_was_left_and_ends_nothing_twice(alice, bob):
    match = opened_by_white(alice, bob)
    challenge = services.create_challenge(alice, opponent=bob)
    closing._deactivate(alice)  # as if the closure stopped after its first step

    first = closing.close_account(alice)
    again = closing.close_account(alice)

    assert (first.matches_resigned, first.challenges_withdrawn) == (1, 1)
    assert again == closing.Closure()
    match.refresh_from_db()
    challenge.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert challenge.status == Challenge.Status.CANCELLED


def services_sign_up(tournament: Tournament, player) -> None:
    from games.tournaments import services as tournaments

    tournaments.sign_up(tournament.pk, user=player)


def test_a_tournament_that_starts_as_she_leaves_it_loses_her_from_its_draw(alice, bob, monkeypatch):
    from games.tournaments import services as tournaments

    others = make_users(3)
    cup = open_tournament(bob, format=Format.DOUBLE_ELIMINATION)
    for player in (alice, *others):
        services_sign_up(cup, player)
    withdraw, calls = tournaments.withdraw, []

    def started_meanwhile(tournament_id, *, user):
        # The first time, the organiser starts it after the withdrawal read it as open
        # and before it took its lock: the withdrawal is refused, as it then is.
        calls.append(tournament_id)
        if len(calls) == 1:
            tournaments.start_tournament(tournament_id, user=bob)
            raise tournaments.StartedMeanwhile("the tournament has started meanwhile")
        return withdraw(tournament_id, user=user)

    monkeypatch.setattr(tournaments, "withdraw", started_meanwhile)

    done = closing.close_account(alice)

    assert done.tournaments_left == 1
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING
    assert Entry.objects.get(tournament=cup, user=alice).withdrawn
    assert alice.pk in cup.draw().withdrawn
    assert not Match.objects.active().involving(alice).exists()


def test_an_organisers_tournament_that_started_meanwhile_is_not_called_off(alice, bob):
    from games.tournaments import services as tournaments

    cup = started_tournament(alice, [bob, *make_users(2)], format=Format.ROUND_ROBIN)

    # As the closure would, had the tournament started after it read it as open.
    refused = closing._ended(partial(tournaments.cancel_tournament, only_open=True), cup.pk, alice)

    assert refused == 0
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING


def test_nobody_can_challenge_her_after_nor_offer_her_a_rematch(client, alice, bob):
    finished = opened_by_white(alice, bob)
    services.resign(finished.pk, user=alice)
    services.create_challenge(alice, variant="greek")  # in the lobby

    closing._deactivate(alice)  # as if the closure stopped before withdrawing it

    assert not Challenge.objects.open_in_lobby().exists()
    with pytest.raises(services.IllegalTurn, match="the account is closed"):
        services.offer_rematch(Match.objects.get(pk=finished.pk), user=bob)
    client.force_login(bob)
    assert "Offer a rematch" not in client.get(finished.get_absolute_url()).text


def test_the_count_of_resigned_matches_takes_in_her_tournament_matches(alice, bob):
    opened_by_white(alice, bob)
    started_tournament(bob, [alice, *make_users(1)], format=Format.SINGLE_ELIMINATION)

    done = closing.close_account(alice)

    assert done.matches_resigned == 2
    assert done.tournaments_left == 1


def test_the_entrants_of_a_tournament_she_organised_are_told_why_it_was_called_off(
    alice, bob, django_capture_on_commit_callbacks
):
    from django.core import mail

    cup = open_tournament(alice, name="Harbour cup")
    services_sign_up(cup, bob)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        closing.close_account(alice)

    [told] = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert "its organiser has closed their account" in told.body


def test_the_sweep_finishes_a_closure_that_stopped_after_its_first_step(alice, bob, charlie):
    match = opened_by_white(alice, bob)
    lobby = services.create_challenge(alice, variant="greek")
    cup = open_tournament(bob)
    services_sign_up(cup, alice)
    untouched = opened_by_white(bob, charlie)
    closing._deactivate(alice)  # and then the process died

    assert closing.finish_interrupted() == 1
    assert closing.finish_interrupted() == 0  # nothing left

    assert Match.objects.get(pk=match.pk).winner == bob
    assert Challenge.objects.get(pk=lobby.pk).status == Challenge.Status.CANCELLED
    assert not Entry.objects.filter(tournament=cup, user=alice).exists()
    assert Match.objects.get(pk=untouched.pk).status == Match.Status.ACTIVE


def test_the_sweep_ends_the_play_of_an_account_the_staff_deactivated(alice, bob):
    match = opened_by_white(alice, bob)
    alice.is_active = False  # in the admin: nothing erased, but nobody waits on her
    alice.save()

    closing.finish_interrupted()

    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert Match.objects.get(pk=match.pk).winner == bob
    # Her address kept, but the site writes to it no more: bob hears of the result, she
    # does not.
    told = Notification.objects.filter(key__startswith=f"finished:{match.pk}:")
    assert list(told.values_list("user__username", flat=True)) == ["bob"]


def test_email_queued_for_a_player_before_the_staff_deactivated_them_is_not_sent(
    alice, bob, mailoutbox
):
    waiting = Notification.objects.create(
        user=alice, kind="finished", key="queued-before", subject="Over", body="You won."
    )
    alice.is_active = False
    alice.save()

    assert notifications.send_notification(waiting.pk) is False

    waiting.refresh_from_db()
    assert waiting.cancelled_at is not None
    assert mailoutbox == []


def test_her_opponent_is_told_why_the_match_ended(alice, bob, charlie):
    playing = opened_by_white(alice, bob)
    resigned = opened_by_white(charlie, bob)
    services.resign(resigned.pk, user=charlie)  # no account closed: nothing said of one

    closing.close_account(alice)

    [email] = Notification.objects.filter(user=bob, key=f"finished:{playing.pk}:{bob.pk}")
    assert "you won" in email.body
    assert "Your opponent's account on the site is closed" in email.body
    [other] = Notification.objects.filter(user=bob, key=f"finished:{resigned.pk}:{bob.pk}")
    assert "account on the site is closed" not in other.body


def test_a_tournament_she_is_knocked_out_of_is_not_one_she_leaves(alice, bob):
    tournament = started_tournament(alice, [bob, *make_users(3)], format=Format.SINGLE_ELIMINATION)
    [knocked_out] = [m for m in Match.objects.active() if bob in (m.white, m.black)]
    services.resign(knocked_out.pk, user=bob)  # out of a single elimination

    asked = closing.in_play(bob)
    done = closing.close_account(bob)

    assert asked["tournaments"] == 0
    assert done.tournaments_left == 0
    assert not Entry.objects.get(tournament=tournament, user=bob).withdrawn
    assert closing.finish_interrupted() == 0  # nothing left for the sweep to pick up
