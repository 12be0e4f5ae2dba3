"""Turn emails wait, through real parts: this process commits a turn email held until its
time; the worker's beat sweeps the outbox (every second here) and sends it when its time
has come, only if the player has still not moved (the worker's wait set too)."""

from __future__ import annotations

import time

import pytest

from games import services
from games.engine.game import ScriptedDice
from games.models import Notification
from games.services import TurnAction
from tests.matches import opened_by_white

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

DELAY = 2
# The module's worker checks, before a turn email goes out, that the turn is still to play.
WORKER_ENV = {"ACEY_TURN_EMAIL_DELAY": str(DELAY)}


def test_a_player_who_moved_in_time_gets_no_email_the_one_still_to_move_gets_one_late(
    alice, bob, mailbox, worker, settings
):
    settings.TURN_EMAIL_DELAY_SECONDS = DELAY
    before = time.monotonic()
    match = opened_by_white(alice, bob)  # alice, white, plays 6-3: her turn email waits
    services.submit_segment(  # and she moves at once: bob's turn email waits
        match.pk,
        user=alice,
        action=TurnAction(segment=1, play="in/22 in/19"),
        dice=ScriptedDice([4, 1]),
    )
    emails = Notification.objects.filter(match=match, kind="turn")

    worker.wait_for(
        lambda: emails.filter(user=bob, sent_at__isnull=False).exists(),
        timeout=30,
        what="bob's turn email",
    )
    worker.wait_for(
        lambda: emails.filter(user=alice, cancelled_at__isnull=False).exists(),
        timeout=30,
        what="alice's turn email to be dropped",
    )

    [sent_at] = mailbox.attempt_times(bob.email)
    assert sent_at - before >= DELAY  # not before its time
    assert len(mailbox.to(bob.email)) == 1
    assert mailbox.to(alice.email) == []
    assert emails.filter(user=alice, sent_at__isnull=False).count() == 0
