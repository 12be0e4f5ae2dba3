"""A turn email tells its reader everything since they last moved: the opponent's whole
turn (every segment of an acey-deucey), a blot the opponent named, a game that ended and
the score, the next game's opening roll, and what was played for the reader by the server
(a dance, a forced play). And which checkers on its board are theirs."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import notifications
from games.models import Match, Notification, Segment
from tests.engine.helpers import make
from tests.matches import opened_by_white, take_turn

pytestmark = pytest.mark.django_db


def _turn_email_to(user) -> str:
    """The body of the newest turn email sent to ``user``."""
    bodies = [m.body for m in mail.outbox if m.to == [user.email] and "your turn" in m.body]
    assert bodies, f"no turn email to {user}"
    return bodies[-1]


def _set_position(match: Match, position, **fields) -> Match:
    Match.objects.filter(pk=match.pk).update(position=position.to_dict(), **fields)
    match.refresh_from_db()
    return match


def test_turn_email_lists_every_segment_of_the_opponents_acey_deucey_turn(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob)
        match = take_turn(match, alice, [1, 2], play="in/22 in/19")  # bob rolls 1-2
        # Four requests of bob's: the 1-2, the double named, the double, the roll it earned.
        match = take_turn(match, bob, play="in/24 in/23")
        match = take_turn(match, bob, double=4)
        match = take_turn(match, bob, [1, 3], play="in/21(4)")
        mail.outbox.clear()
        take_turn(match, bob, [6, 5], play="24/21 21/20")

    body = _turn_email_to(alice)
    assert (
        "Since your last move:\n"
        "- bob played 1-2: in/24 in/23; named 4-4: in/21(4); 3-1: 24/21 21/20\n"
        "\nYour dice: 6-5"
    ) in body
    assert "alice played" not in body  # her own move is not told back to her


def test_turn_email_tells_the_blot_the_opponent_named_on_the_readers_numbering(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob, variant="greek")
        mail.outbox.clear()
        # White's own 18-point is black's 7-point (R8: named by its owner's numbering).
        take_turn(match, alice, [5, 2], play="24/18 24/21", name_blot=18)

    body = _turn_email_to(bob)
    assert "- alice played 6-3: 24/21 24/18\n" in body
    assert "- alice named the blot on your 7-point: hit it if you can.\n" in body


def test_turn_email_does_not_ask_to_hit_a_named_blot_a_forced_play_has_hit(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob, variant="greek")
        # Bob's last checker stands 3 points short of where alice's blot will be (13).
        match = _set_position(match, make("greek", white={16: 1, 8: 2}, black={10: 1}))
        mail.outbox.clear()
        # His 1-2 has one play, which hits it; then he is to name a double.
        take_turn(match, alice, [1, 2], play="16/13 8/2", name_blot=13)

    body = _turn_email_to(bob)
    assert "- alice named the blot on your 12-point.\n" in body
    assert "- played for you (forced): 1-2: " in body and "*" in body
    assert "hit it if you can" not in body


def test_turn_email_tells_a_game_the_reader_won_by_a_forced_bear_off_the_score_and_the_opening(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob, dice=(5, 2, 3, 1), points=3)
        # Alice (white) has two checkers left and 1 point; bob one, on his 1-point.
        match = _set_position(match, make(white={6: 1, 5: 1}, black={24: 1}), score_white=1)
        mail.outbox.clear()
        # Bob's 4-1 can only bear his last checker off (played for him): he wins 2 points,
        # then wins the next game's opening roll, 2 against 5, and rolls 6-3.
        take_turn(match, alice, [4, 1, 2, 5, 6, 3], play="6/3 5/4")

    match.refresh_from_db()
    assert (match.game_number, match.score_white, match.score_black) == (2, 1, 2)
    body = _turn_email_to(bob)
    assert (
        "Since the match began:\n"
        "- Opening roll: you 2, alice 5; alice moves first.\n"
        "- alice played 3-1: 6/3 5/4\n"
        "- played for you (forced): 4-1: 1/off\n"
        "- Game 1: you won 2 points (borne off). Score: you 2, alice 1.\n"
        "- Game 2, opening roll: you 5, alice 2; you move first.\n"
        "\nYour dice: 6-3"
    ) in body


def test_turn_email_tells_the_reader_of_their_dance_in_an_earlier_turn(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob, dice=(5, 2, 6, 5))
        # White holds all of black's entry points (absolute 1-6): bob's 3-4 dances.
        match = _set_position(match, make(white={n: 2 for n in range(1, 7)}, waiting=(3, 15)))
        match = take_turn(match, alice, [3, 4, 5, 4], play="in/20 in/19")
        assert match.to_move == alice  # bob danced: back to her, in the same request
        mail.outbox.clear()
        take_turn(match, alice, [6, 5], play="6/1 5/1")  # her 5-4 opens two points

    body = _turn_email_to(bob)
    assert (
        "- alice played 6-5: in/20 in/19\n"
        "- played for you (forced): 4-3: no move\n"
        "- alice played 5-4: 6/1 5/1\n"
    ) in body


def test_turn_email_tells_the_reader_their_acey_deucey_was_played_for_them(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob, dice=(5, 2, 6, 3))
        # Bob's last checker, on his 10-point, has one way to play a 1-2.
        match = _set_position(match, make(white={13: 2, 8: 3}, black={15: 1}))
        mail.outbox.clear()
        take_turn(match, alice, [1, 2], play="13/7 13/10")

    body = _turn_email_to(bob)
    assert "- alice played 6-3: 13/10 13/7\n- played for you (forced): 1-2: 10/8 8/7\n" in body
    assert "You rolled 1-2: name a double." in body


def test_turn_email_tells_the_opponents_dance_from_the_turns_own_segments(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob, dice=(5, 2, 6, 5))
        match = _set_position(match, make(white={n: 2 for n in range(1, 7)}, waiting=(3, 15)))
        mail.outbox.clear()
        take_turn(match, alice, [3, 4, 5, 4], play="in/20 in/19")

    # Written whole in the turn's request: her move and his dance are the turn's segments.
    [stored] = Notification.objects.filter(user=alice, kind="turn").order_by("-pk")[:1]
    assert "Since your last move:\n- bob played 4-3: no move (forced)\n" in stored.body
    assert stored.body in _turn_email_to(alice)


def test_turn_email_says_which_checkers_are_the_readers(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        opened_by_white(alice, bob)

    assert "The board from your side: X is you (white), O is bob (black).\n" in (
        _turn_email_to(alice)
    )
    assert "It is your turn" in _turn_email_to(alice)


def _bobs_turn_email(alice, bob, capture) -> tuple[Match, Notification]:
    """Alice opens a match and plays 6-3; bob's turn email is stored, not sent (``capture``,
    pytest-django's django_capture_on_commit_callbacks, keeps its send from running)."""
    with capture(execute=False):
        match = opened_by_white(alice, bob)
        match = take_turn(match, alice, [6, 5], play="in/22 in/19")
    return match, Notification.objects.get(user=bob, kind="turn")


def test_a_turn_whose_email_reaches_back_before_the_turn_costs_no_more_queries(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        match = opened_by_white(alice, bob)
        match = take_turn(match, alice, [1, 2], play="in/22 in/19")
        match = take_turn(match, bob, play="in/24 in/23")
        match = take_turn(match, bob, double=4)
        match = take_turn(match, bob, [1, 3], play="in/21(4)")
        ordinary = opened_by_white(alice, bob)

    # Bob's last segment, whose email must tell his whole turn, against an ordinary turn.
    with CaptureQueriesContext(connection) as last_of_a_chain:
        take_turn(match, bob, [6, 5], play="24/21 21/20")
    with CaptureQueriesContext(connection) as plain:
        take_turn(ordinary, alice, [6, 5], play="in/22 in/19")

    assert len(last_of_a_chain) == len(plain)


def test_a_turn_email_whose_story_is_written_when_sent_costs_the_sender_one_query(
    alice, bob, django_capture_on_commit_callbacks, django_assert_num_queries
):
    _match, email = _bobs_turn_email(alice, bob, django_capture_on_commit_callbacks)

    # The claim; the email with its addressee, match and players; the match's segments
    # since bob last moved; marking it sent (with the body as sent).
    with django_assert_num_queries(4):
        assert notifications.send_notification(email.pk) is True

    [message] = mail.outbox
    assert "Since the match began:\n- Opening roll: you 2, alice 5; alice moves first.\n" in (
        message.body
    )
    email.refresh_from_db()
    assert notifications.HISTORY_TO_COME not in email.body
    assert "- alice played 6-3: in/22 in/19\n" in email.body


def _stored(match: Match, rows: list[tuple[str, bool]]) -> int:
    """Store a segment after the match's last for each ``(player, automatic)``; return the
    number of the last. (Their plays do not matter here: only who made them.)"""
    first = match.segment_count + 1
    Segment.objects.bulk_create(
        Segment(
            match=match,
            number=first + index,
            game_number=match.game_number,
            kind=Segment.Kind.ROLL,
            player=player,
            dice=[6, 5],
            position=match.position,
            automatic=automatic,
        )
        for index, (player, automatic) in enumerate(rows)
    )
    return first + len(rows) - 1


def _told(match: Match, color: str, count: int, *, history: bool = True, after: bool = False):
    segments = notifications._segments_for_turn_email(
        match, color, count, history=history, after=after
    )
    return [segment.number for segment in segments]


def test_the_story_begins_at_the_readers_last_move_of_their_own(alice, bob):
    match = opened_by_white(alice, bob)  # segment 1: the opening roll
    count = _stored(
        match,
        [("black", False), ("white", True), ("white", False), ("black", False), ("white", True)],
    )

    # White last moved at 4 (3 was played for them); black at 5.
    assert _told(match, "white", count) == [4, 5, 6]
    assert _told(match, "black", count) == [5, 6]
    # Queued at 5 and read later: nothing after 5 unless asked for, then a turn's worth.
    assert _told(match, "white", 5) == [4, 5]
    assert _told(match, "white", 5, after=True) == [4, 5, 6]
    assert _told(match, "white", 4, history=False, after=True) == [5, 6]


def test_the_story_of_a_reader_who_has_not_moved_yet_begins_with_the_match(alice, bob):
    match = opened_by_white(alice, bob)
    count = _stored(match, [("white", False), ("black", True), ("white", False)])

    assert _told(match, "black", count) == [1, 2, 3, 4]


def test_the_story_keeps_the_newest_segments_when_there_are_too_many(alice, bob):
    match = opened_by_white(alice, bob)
    kept = notifications.SEGMENTS_IN_A_TURN_EMAIL
    count = _stored(match, [("white", False)] + [("black", False)] * (kept + 10))

    assert _told(match, "white", count) == list(range(count - kept + 1, count + 1))


# -- written when sent, from what the turn knew ------------------------------------------------


def test_a_turn_stores_its_email_unwritten_with_what_only_the_turn_knew(
    alice, bob, django_capture_on_commit_callbacks
):
    match, email = _bobs_turn_email(alice, bob, django_capture_on_commit_callbacks)

    assert email.body == notifications.TURN_EMAIL_WRITTEN_WHEN_SENT
    assert email.subject == f"Your turn against alice (match #{match.pk})"
    assert email.facts == {
        "dice": [6, 5],
        "dance_left": False,
        "deadline": match.deadline.isoformat(),
        "score": [0, 0],
        "started": False,
        "stage": None,
    }


def test_an_email_sent_after_its_reader_moved_on_tells_the_turn_it_was_queued_for(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    # Sent at once (no delay), but by a sweep that came late: bob has played meanwhile,
    # and the match's dice, position and deadline are his next turn's.
    settings.TURN_EMAIL_DELAY_SECONDS = 0
    match, email = _bobs_turn_email(alice, bob, django_capture_on_commit_callbacks)
    then = (match.dice, match.deadline, match.position)
    with django_capture_on_commit_callbacks(execute=False):
        match = take_turn(match, bob, [4, 4], play="in/19 in/20")
    assert (match.dice, match.position) != then[::2]
    # Alice's deadline now, which bob's email must not give as his.
    Match.objects.filter(pk=match.pk).update(deadline=match.deadline.replace(year=2099))

    assert notifications.send_notification(email.pk) is True

    body = _turn_email_to(bob)
    assert "- alice played 6-3: in/22 in/19\n" in body
    assert "bob played" not in body and "you played" not in body
    assert "Your dice: 6-5" in body
    position = notifications.Position.from_dict(then[2])
    assert position.diagram("black") in body
    assert "2099" not in body and f"Deadline: {then[1]:%a %-d %b %Y, %H:%M} UTC" in body


def test_the_story_tells_the_score_its_turn_knew(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        match = opened_by_white(alice, bob, dice=(5, 2, 3, 1), points=5)
        match = _set_position(match, make(white={6: 1, 5: 1}, black={24: 1}), score_white=1)
        take_turn(match, alice, [4, 1, 2, 5, 6, 3], play="6/3 5/4")  # bob wins game 1: 2 points
    # Later games changed the score before the email went.
    Match.objects.filter(pk=match.pk).update(score_white=3, score_black=4)

    email = Notification.objects.get(user=bob, kind="turn")
    assert notifications.send_notification(email.pk) is True

    assert "Score: you 2, alice 1." in _turn_email_to(bob)


def test_an_email_stored_before_turns_stored_facts_is_sent_as_its_turn_wrote_it(
    alice, bob, django_capture_on_commit_callbacks
):
    # Migration 0030's rows: a body written by the turn, perhaps with its story to come.
    _match, email = _bobs_turn_email(alice, bob, django_capture_on_commit_callbacks)
    Notification.objects.filter(pk=email.pk).update(
        facts=None, body=f"Hello bob,\n\n{notifications.HISTORY_TO_COME}Your dice: 6-5\n"
    )

    assert notifications.send_notification(email.pk) is True

    [message] = mail.outbox
    body = message.body
    assert body.startswith(
        "Hello bob,\n\nSince the match began:\n- Opening roll: you 2, alice 5; alice moves first."
        "\n- alice played 6-3: in/22 in/19\n\nYour dice: 6-5\n"
    )
