"""Beat's schedule keeps to the clock: beat keeps it in memory (the Procfile's
celery.beat:Scheduler), so each restart (each deploy) starts it afresh, and a sweep counted
as an interval from beat's start would be put off by a whole interval each time."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
from celery.schedules import maybe_schedule
from django.conf import settings

from aceysite.celery import app as celery_app

# A restart puts a sweep off by its interval at most, and that only for the short ones.
LONGEST_PUT_OFF = timedelta(minutes=2)


def next_run(schedule: object, *, beat_started: datetime) -> datetime:
    """When a beat started at ``beat_started`` first runs an entry of this ``schedule``."""
    entry = copy.copy(maybe_schedule(schedule, app=celery_app))  # not the settings' own
    entry.nowfun = lambda: beat_started
    return beat_started + entry.remaining_estimate(beat_started)


@pytest.mark.parametrize("name", sorted(settings.CELERY_BEAT_SCHEDULE))
def test_a_beat_restarted_just_before_a_sweep_is_due_puts_it_off_two_minutes_at_most(name):
    schedule = settings.CELERY_BEAT_SCHEDULE[name]["schedule"]
    due = next_run(schedule, beat_started=datetime(2025, 3, 4, 10, 7, 30, tzinfo=UTC))

    restarted = next_run(schedule, beat_started=due - timedelta(seconds=1))

    assert restarted - due <= LONGEST_PUT_OFF
