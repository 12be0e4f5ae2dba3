"""Every new turn gets its full time, a fresh reminder and a turn email, also when it comes
straight back to the player who just moved (the opponent danced, or a game ended and they
won the next opening roll); a player going on with their own turn keeps their clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine.game import ScriptedDice
from games.models import Match, Notification, Segment
from games.notifications import turn_key
from games.services import TurnAction
from tests.engine.helpers import make

pytestmark = pytest.mark.django_db


def _match(alice, bob, dice: list[int], points: int = 1) -> Match:
    return services.start_match(
        white=alice,
        black=bob,
        variant="american",
        days_per_move=2,
        dice=ScriptedDice(dice),
        points=points,
    )


def _nearly_out_of_time(match: Match, position) -> None:
    match.position = position.to_dict()
    match.deadline = timezone.now() + timedelta(hours=1)
    match.remind_at = timezone.now() - timedelta(hours=1)  # its reminder has gone
    match.save()


def _turn_emails(match: Match, user) -> list[str]:
    return list(
        Notification.objects.filter(match=match, user=user, kind="turn").values_list(
            "key", flat=True
        )
    )


def test_a_turn_that_comes_back_after_the_opponent_dances_gets_its_full_time(alice, bob):
    # White holds all of Black's entry points (absolute 1-6): any Black roll dances.
    match = _match(alice, bob, [5, 2, 6, 5])
    _nearly_out_of_time(match, make(white={n: 2 for n in range(1, 7)}, waiting=(3, 15)))
    before = timezone.now()

    services.submit_segment(
        match.pk,
        user=alice,
        action=TurnAction(segment=1, play="in/20 in/19"),
        dice=ScriptedDice([3, 4, 5, 3]),
    )

    match.refresh_from_db()
    dance = Segment.objects.get(match=match, number=3)
    assert (dance.player, dance.automatic, match.to_move) == ("black", True, alice)
    assert match.deadline >= before + timedelta(days=2)
    assert match.remind_at >= before + timedelta(days=1.6)
    assert turn_key(match.pk, match.segment_count) in _turn_emails(match, alice)


def test_a_turn_that_comes_back_with_a_new_game_gets_its_full_time(alice, bob):
    match = _match(alice, bob, [5, 2, 6, 5], points=25)
    # White bears off its last checker; Black has one left, so the game is worth 1 point.
    _nearly_out_of_time(match, make(white={1: 1}, black={19: 1}))
    before = timezone.now()

    services.submit_segment(
        match.pk,
        user=alice,
        action=TurnAction(segment=1, play="1/off"),
        dice=ScriptedDice([6, 3, 4, 2]),  # White wins the next opening roll, then rolls 4-2
    )

    match.refresh_from_db()
    assert (match.game_number, match.score_white, match.to_move) == (2, 1, alice)
    assert match.deadline >= before + timedelta(days=2)
    assert match.remind_at >= before + timedelta(days=1.6)
    assert turn_key(match.pk, match.segment_count) in _turn_emails(match, alice)


def test_going_on_with_ones_own_acey_deucey_keeps_the_clock(alice, bob):
    match = _match(alice, bob, [5, 2, 1, 2])
    deadline = timezone.now() + timedelta(hours=1)
    Match.objects.filter(pk=match.pk).update(deadline=deadline)
    emails = _turn_emails(match, alice)

    services.submit_segment(match.pk, user=alice, action=TurnAction(segment=1, play="in/24 in/23"))

    match.refresh_from_db()
    assert match.to_move == alice and match.dice is None  # a double to name next
    assert match.deadline == deadline
    assert _turn_emails(match, alice) == emails
