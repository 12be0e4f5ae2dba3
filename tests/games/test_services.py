"""Services: challenges, turns, forced plays, match end, timeouts."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import services
from games.engine import format_play
from games.engine.game import ScriptedDice
from games.models import Challenge, GameResult, Match, Notification, Segment
from games.services import IllegalTurn, NotAllowed, StaleSegment, TurnAction
from tests.engine.helpers import SeededDice, make

pytestmark = pytest.mark.django_db


def _match(alice, bob, dice, **options) -> Match:
    return services.start_match(
        white=alice,
        black=bob,
        variant=options.get("variant", "american"),
        points=options.get("points", 1),
        days_per_move=2,
        dice=dice,
    )


def test_accepting_a_challenge_starts_a_match_with_the_opening_roll(alice, bob):
    challenge = services.create_challenge(alice, opponent=bob, variant="greek", points=3)

    match = services.accept_challenge(challenge.pk, user=bob, dice=ScriptedDice([6, 2, 5, 3]))

    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED and challenge.match == match
    assert {match.white, match.black} == {alice, bob}
    assert match.segment_count == 1
    assert match.segments.get().kind == Segment.Kind.OPENING
    assert match.to_move == match.white and match.dice == [5, 3]
    assert match.deadline is not None


def test_accepting_twice_is_rejected(alice, bob, charlie):
    challenge = services.create_challenge(alice)
    services.accept_challenge(challenge.pk, user=bob)

    with pytest.raises(StaleSegment):
        services.accept_challenge(challenge.pk, user=charlie)

    assert Match.objects.count() == 1


def test_a_challenge_to_bob_cannot_be_accepted_by_charlie(alice, bob, charlie):
    challenge = services.create_challenge(alice, opponent=bob)

    with pytest.raises(NotAllowed):
        services.accept_challenge(challenge.pk, user=charlie)


def test_a_turn_is_applied_once_and_a_stale_repeat_gets_409(alice, bob):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))
    action = TurnAction(segment=match.segment_count, play="in/22 in/19")

    services.submit_segment(match.pk, user=alice, action=action, dice=ScriptedDice([4, 1]))
    with pytest.raises(StaleSegment):
        services.submit_segment(match.pk, user=alice, action=action)

    match.refresh_from_db()
    assert match.segment_count == 2
    assert match.to_move == bob and match.dice == [4, 1]
    assert Segment.objects.get(match=match, number=2).play == "in/22 in/19"


def test_an_illegal_play_is_rejected_with_a_reason_and_changes_nothing(alice, bob):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))
    before = (match.position, match.segment_count)

    with pytest.raises(IllegalTurn):
        services.submit_segment(
            match.pk, user=alice, action=TurnAction(segment=1, play="in/20 in/19")
        )

    match.refresh_from_db()
    assert (match.position, match.segment_count) == before


def test_only_the_player_to_move_may_play(alice, bob, charlie):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))

    for user in (bob, charlie):
        with pytest.raises(NotAllowed):
            services.submit_segment(
                match.pk, user=user, action=TurnAction(segment=1, play="in/22 in/19")
            )


def test_clicked_steps_are_accepted_like_notation(alice, bob):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))

    services.submit_segment(
        match.pk, user=alice, action=TurnAction(segment=1, steps=((26, 22), (22, 16)))
    )

    assert Segment.objects.get(match=match, number=2).play in {"in/22 22/16", "in/19 19/16"}


@pytest.mark.parametrize(
    ("steps", "stored"),
    [(((26, 22), (22, 16)), "in/22 22/16"), (((26, 19), (19, 16)), "in/19 19/16")],
)
def test_a_play_is_stored_as_the_player_moved_its_checkers(alice, bob, steps, stored):
    # The same play either way (R5.4), but the history shows the moves the player made,
    # clicked or typed, not the ones the move generator found first; and the same play
    # sent again is known for what it is (not refused as stale).
    other_path = "in/19 19/16" if stored == "in/22 22/16" else "in/22 22/16"
    for sent in (TurnAction(segment=1, steps=steps), TurnAction(segment=1, play=stored)):
        Match.objects.all().delete()
        match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))

        services.submit_segment(match.pk, user=alice, action=sent)

        assert Segment.objects.get(match=match, number=2).play == stored
        assert services.already_played(match.pk, user=alice, action=sent)
        # Sent again by the other path to the same point: the same play.
        again = TurnAction(segment=1, play=other_path)
        assert services.already_played(match.pk, user=alice, action=again)
        elsewhere = TurnAction(segment=1, play="in/22 in/19")  # another play of the 6-3
        assert not services.already_played(match.pk, user=alice, action=elsewhere)


def test_a_dance_is_played_and_recorded_automatically(alice, bob):
    # White holds all of Black's entry points (absolute 1-6): any Black roll dances.
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 5]))
    match.position = make(white={n: 2 for n in range(1, 7)}, waiting=(3, 15)).to_dict()
    match.save()

    services.submit_segment(
        match.pk,
        user=alice,
        action=TurnAction(segment=1, play="in/20 in/19"),
        dice=ScriptedDice([3, 4, 2, 2]),
    )

    match.refresh_from_db()
    dance = Segment.objects.get(match=match, number=3)
    assert (dance.player, dance.dice, dance.play, dance.automatic) == ("black", [3, 4], "", True)
    assert match.to_move == alice and match.dice == [2, 2]


def test_resigning_ends_the_match_in_one_place(alice, bob):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]), points=5)

    services.resign(match.pk, user=alice)

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner == bob and match.ending == Match.Ending.RESIGNATION
    assert match.score_black == 15 and match.to_move is None
    assert GameResult.objects.get(match=match).points == 15


def test_a_passed_deadline_awards_the_match_to_the_opponent(alice, bob):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))
    later = timezone.now() + timedelta(days=3)

    result = services.sweep_deadlines(now=later)

    match.refresh_from_db()
    assert result["timeouts"] == 1
    assert match.winner == bob and match.ending == Match.Ending.TIMEOUT
    assert services.award_timeout(match.pk, now=later) is False


def _past_its_deadline(match: Match) -> Match:
    """The deadline passed a moment ago, and the sweep has not come to it yet."""
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    match.refresh_from_db()
    return match


def test_r9_a_turn_sent_after_the_deadline_is_refused_and_loses_on_time(alice, bob):
    match = _past_its_deadline(_match(alice, bob, ScriptedDice([5, 2, 6, 3])))  # alice's 6-3

    with pytest.raises(services.TimeRanOut, match="you lost the match on time"):
        services.submit_segment(
            match.pk, user=alice, action=TurnAction(segment=match.segment_count, play="in/22 in/19")
        )

    match.refresh_from_db()
    assert match.winner == bob and match.ending == Match.Ending.TIMEOUT
    assert match.segment_count == Segment.objects.filter(match=match).count()  # none stored
    assert not Segment.objects.filter(match=match, player="white").exists()
    assert Notification.objects.filter(match=match, kind="finished").count() == 2


def test_r9_the_opponent_resigning_after_the_deadline_has_won_on_time(alice, bob):
    match = _past_its_deadline(_match(alice, bob, ScriptedDice([5, 2, 6, 3])))  # alice to move

    with pytest.raises(services.TimeRanOut, match="alice's time to move had run out before you"):
        services.resign(match.pk, user=bob)

    match.refresh_from_db()
    assert match.winner == bob and match.ending == Match.Ending.TIMEOUT


def test_r9_a_turn_sent_by_the_player_waiting_after_the_deadline_has_won_on_time(alice, bob):
    # Not "it is not your turn", the match left waiting for the sweep: it is over, as a
    # resignation sent now would find.
    match = _past_its_deadline(_match(alice, bob, ScriptedDice([5, 2, 6, 3])))  # alice to move

    with pytest.raises(services.TimeRanOut, match="alice's time to move had run out: you won"):
        services.submit_segment(
            match.pk, user=bob, action=TurnAction(segment=match.segment_count, play="in/22 in/19")
        )

    match.refresh_from_db()
    assert match.winner == bob and match.ending == Match.Ending.TIMEOUT


def test_a_turn_sent_by_the_player_waiting_before_the_deadline_is_not_theirs(alice, bob):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))  # alice to move

    with pytest.raises(services.NotAllowed, match="it is not your turn"):
        services.submit_segment(
            match.pk, user=bob, action=TurnAction(segment=match.segment_count, play="in/22 in/19")
        )

    match.refresh_from_db()
    assert match.is_active


def test_a_turn_sent_before_the_deadline_is_played(alice, bob):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=5))

    match = services.submit_segment(
        match.pk, user=alice, action=TurnAction(segment=match.segment_count, play="in/22 in/19")
    )

    assert match.is_active and match.to_move == bob


def test_the_sweep_sends_one_reminder_at_80_percent(alice, bob, django_capture_on_commit_callbacks):
    match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))
    at_85_percent = timezone.now() + timedelta(days=1.7)

    with django_capture_on_commit_callbacks(execute=True):
        first = services.sweep_deadlines(now=at_85_percent)
        second = services.sweep_deadlines(now=at_85_percent)

    assert (first["reminders"], second["reminders"], first["timeouts"]) == (1, 0, 0)
    assert Notification.objects.filter(match=match, kind="reminder").count() == 1
    assert any("Reminder" in m.subject for m in mail.outbox)


def test_a_whole_match_played_through_services_ends_with_the_right_score(alice, bob):
    rng = random.Random(5)
    match = _match(alice, bob, SeededDice(5), variant="greek", points=3)

    while match.status == Match.Status.ACTIVE:
        user = match.to_move
        if match.phase == "name_double":
            action = TurnAction(segment=match.segment_count, double=rng.randint(1, 6))
        else:
            game = services.load_game(match)
            play = rng.choice(game.legal_plays())
            action = TurnAction(segment=match.segment_count, play=format_play(play))
        try:
            match = services.submit_segment(
                match.pk, user=user, action=action, dice=SeededDice(rng.random())
            )
        except IllegalTurn as error:
            assert "named blot" in str(error)  # a double that cannot hit the named blot
            continue

    results = list(GameResult.objects.filter(match=match))
    assert max(match.score_white, match.score_black) == 3
    assert sum(r.points for r in results) == match.score_white + match.score_black
    assert match.winner == (alice if match.score_white >= 3 else bob)
    assert match.segments.count() == match.segment_count


def test_turn_email_is_queued_after_commit_and_sent_once(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = _match(alice, bob, ScriptedDice([5, 2, 6, 3]))

    turn_mails = [m for m in mail.outbox if "Your turn" in m.subject]
    assert len(turn_mails) == 1
    assert turn_mails[0].to == ["alice@example.com"]
    assert "6-3" in turn_mails[0].body and "List-Unsubscribe" in turn_mails[0].extra_headers
    notification = Notification.objects.get(match=match, kind="turn")
    from games.notifications import send_notification

    assert send_notification(notification.pk) is False  # already sent: never twice
