"""A turn short of time stands out, in words and not in colour alone, to the player whose
turn it is: on the dashboard's card and beside the match page's clock. Short means less
than a fifth of the time per move left, from when the reminder email goes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

SHORT = "time is short"


def _left(match: Match, left: timedelta) -> Match:
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + left)
    match.refresh_from_db()
    return match


@pytest.mark.parametrize(
    ("days_per_move", "left", "short"),
    [
        (1, timedelta(hours=4, minutes=40), True),  # a fifth of a day is 4 h 48 min
        (1, timedelta(hours=5), False),
        (2, timedelta(hours=8, minutes=59), True),
        (14, timedelta(days=2), True),  # a fifth of 14 days is 2 days 19 h 12 min
        (14, timedelta(days=3), False),
    ],
)
def test_a_turn_is_short_of_time_in_its_last_fifth(alice, bob, days_per_move, left, short):
    match = _left(opened_by_white(alice, bob, days_per_move=days_per_move), left)

    assert match.time_is_short is short


def test_the_reminder_goes_when_the_time_becomes_short(alice, bob):
    match = opened_by_white(alice, bob, days_per_move=5)

    assert match.deadline - match.remind_at == timedelta(days=1)


def test_the_dashboard_says_so_on_the_readers_own_turn_only(client, alice, bob):
    short = _left(opened_by_white(alice, bob), timedelta(hours=8, minutes=59))
    client.force_login(alice)

    mine = client.get(reverse("dashboard")).text
    client.force_login(bob)
    theirs = client.get(reverse("dashboard")).text

    card = mine.split(f"#{short.pk} ", 1)[1].split("</li>", 1)[0]
    assert "Your move, due in <time" in card
    assert f': <strong class="due-soon">{SHORT}</strong>' in card
    assert "card-due-soon" in mine
    assert SHORT not in theirs and "card-due-soon" not in theirs


def test_the_dashboard_says_nothing_while_there_is_time(client, alice, bob):
    _left(opened_by_white(alice, bob), timedelta(hours=10))
    client.force_login(alice)

    page = client.get(reverse("dashboard")).text

    assert SHORT not in page and "card-due-soon" not in page


def test_the_match_page_says_so_beside_the_clock_to_the_player_to_move(client, alice, bob):
    match = _left(opened_by_white(alice, bob), timedelta(hours=3))
    client.force_login(alice)

    mine = client.get(match.get_absolute_url()).text
    client.force_login(bob)
    theirs = client.get(match.get_absolute_url()).text

    assert '<p class="clock due-soon"><strong>Time is short:</strong> <time' in mine
    assert "Time is short" not in theirs
