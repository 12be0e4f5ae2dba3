"""A turn email quotes what the opponent wrote since the addressee last played."""

from __future__ import annotations

import pytest
from django.core import mail

from games import chat, services
from games.engine import format_play
from tests.matches import opened_by_white, take_turn

pytestmark = pytest.mark.django_db(transaction=True)  # turn emails go out on commit


def _play(match, user, dice):
    """Play the first legal play, with ``dice`` for the next roll; return the match."""
    return take_turn(
        match, user, dice, play=format_play(services.load_game(match).legal_plays()[0])
    )


def _turn_email_to(address: str) -> str:
    [body] = [m.body for m in mail.outbox if m.to == [address] and "your turn" in m.body]
    return body


def test_a_turn_email_quotes_the_opponents_messages_since_the_readers_last_move(alice, bob):
    match = opened_by_white(alice, bob)  # alice to move
    chat.post_message(match.pk, user=bob, text="Good luck!")
    match = _play(match, alice, [4, 1])  # bob to move
    mail.outbox.clear()
    match = _play(match, bob, [6, 5])  # alice to move: bob's "Good luck!" came before her move
    assert "wrote:" not in _turn_email_to("alice@example.com")

    chat.post_message(match.pk, user=alice, text="Thanks!\nNice game so far.")
    chat.post_message(match.pk, user=bob, text="(bob's own words are not quoted to him)")
    mail.outbox.clear()
    _play(match, alice, [3, 2])  # bob to move

    body = _turn_email_to("bob@example.com")
    assert "alice wrote:\n> Thanks!\n> Nice game so far." in body
    assert "bob's own words" not in body
    assert body.index("wrote:") < body.index("To stop these emails")


def test_a_reader_with_messages_off_gets_none_quoted(alice, bob):
    match = opened_by_white(alice, bob)
    chat.post_message(match.pk, user=alice, text="Good luck!")
    bob.shows_messages = False  # after alice wrote
    bob.save()
    mail.outbox.clear()
    _play(match, alice, [4, 1])

    assert "wrote:" not in _turn_email_to("bob@example.com")


def test_a_turn_email_in_a_match_without_messages_does_not_look_for_any(alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import notifications
    from games.models import Match, Notification

    match = opened_by_white(alice, bob)
    email = Notification.objects.create(
        user=bob, kind="turn", key="turn:test", subject="s", body="b", match=match
    )
    with CaptureQueriesContext(connection) as queries:
        assert notifications.send_notification(email.pk)
    assert not any("games_message" in query["sql"] for query in queries)

    chat.post_message(match.pk, user=alice, text="Good luck!")
    assert Match.objects.get(pk=match.pk).message_count == 1
