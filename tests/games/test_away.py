"""Time away (games.away): a player's clocks stand still while they are away."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import away, services
from games.away import AwayError
from games.models import Absence, Match, Notification
from games.services import TurnAction
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

ALLOWED = timedelta(days=2)  # opened_by_white's days_per_move


def _clocks(match: Match) -> tuple[datetime | None, datetime | None]:
    match.refresh_from_db()
    return match.deadline, match.remind_at


def test_going_away_moves_the_clock_of_each_match_waiting_for_the_player(alice, bob, charlie):
    waiting_for_alice = opened_by_white(alice, bob)
    waiting_for_charlie = opened_by_white(charlie, alice)
    deadline, remind_at = _clocks(waiting_for_alice)
    others = _clocks(waiting_for_charlie)
    now = timezone.now()

    away.go_away(alice, until=now + timedelta(days=5), now=now)

    five_days = timedelta(days=5)
    assert _clocks(waiting_for_alice) == (deadline + five_days, remind_at + five_days)
    assert _clocks(waiting_for_charlie) == others
    alice.refresh_from_db()
    assert alice.away_until == now + timedelta(days=5) and alice.is_away()
    assert list(Absence.objects.values_list("user", "starts_at", "ends_at")) == [
        (alice.pk, now, now + timedelta(days=5))
    ]


def test_a_turn_passing_to_a_player_who_is_away_starts_their_clock_on_their_return(alice, bob):
    match = opened_by_white(alice, bob)
    back = timezone.now() + timedelta(days=4)
    away.go_away(bob, until=back)

    services.submit_segment(match.pk, user=alice, action=TurnAction(segment=1, play="in/22 in/19"))

    match.refresh_from_db()
    assert match.to_move == bob
    assert match.deadline == back + ALLOWED
    assert match.remind_at == back + ALLOWED * 0.8


def test_a_turn_passing_to_a_player_who_is_not_away_starts_their_clock_now(alice, bob):
    match = opened_by_white(alice, bob)
    before = timezone.now()

    services.submit_segment(match.pk, user=alice, action=TurnAction(segment=1, play="in/22 in/19"))

    match.refresh_from_db()
    assert before + ALLOWED <= match.deadline <= timezone.now() + ALLOWED


def test_coming_back_early_gives_each_match_the_time_it_had_left(alice, bob, charlie):
    waiting_since_before = opened_by_white(alice, bob)
    deadline, _ = _clocks(waiting_since_before)
    left = timezone.now()
    away.go_away(alice, until=left + timedelta(days=10), now=left)
    passed_while_away = opened_by_white(charlie, alice)
    services.submit_segment(
        passed_while_away.pk, user=charlie, action=TurnAction(segment=1, play="in/22 in/19")
    )
    back = left + timedelta(days=1, hours=6)

    away.come_back(alice, now=back)

    # The first match had its clock stopped for the time she was away, no more.
    assert _clocks(waiting_since_before)[0] == deadline + (back - left)
    # The second one's clock starts at her return.
    assert _clocks(passed_while_away) == (back + ALLOWED, back + ALLOWED * 0.8)
    alice.refresh_from_db()
    assert alice.away_until is None and not alice.is_away()
    assert Absence.objects.get(user=alice).ends_at == back


def test_only_the_days_used_count_against_the_allowance(alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 30
    left = datetime(2026, 3, 1, 9, tzinfo=UTC)
    away.go_away(alice, until=left + timedelta(days=10), now=left)
    assert away.days_left(alice, now=left) == 20

    away.come_back(alice, now=left + timedelta(days=2, hours=1))  # part of a third day

    assert away.days_left(alice, now=left + timedelta(days=3)) == 27


def test_short_absences_are_added_up_before_they_are_charged_in_days(alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 30
    morning = datetime(2026, 3, 1, 9, tzinfo=UTC)
    # Away by mistake and straight back, twice: minutes, not two days.
    for start in (morning, morning + timedelta(hours=3)):
        away.go_away(alice, until=start + timedelta(days=4), now=start)
        away.come_back(alice, now=start + timedelta(minutes=2))
    assert away.days_left(alice, now=morning + timedelta(hours=4)) == 29

    # Added up, the year's time away still counts every day begun (4 min + 1 day 23 h 56
    # min: two days to the minute; one second more begins a third).
    start = morning + timedelta(days=1)
    away.go_away(alice, until=start + timedelta(days=4), now=start)
    away.come_back(alice, now=start + timedelta(days=1, hours=23, minutes=56))
    assert away.days_left(alice, now=start + timedelta(days=3)) == 28
    away.go_away(alice, until=start + timedelta(days=5), now=start + timedelta(days=4))
    away.come_back(alice, now=start + timedelta(days=4, seconds=1))
    assert away.days_left(alice, now=start + timedelta(days=5)) == 27


def test_the_allowance_is_counted_by_calendar_year(alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 30
    december = datetime(2026, 12, 20, tzinfo=UTC)
    away.go_away(alice, until=december + timedelta(days=14), now=december)

    assert away.days_left(alice, now=december) == 16
    assert away.days_left(alice, now=datetime(2027, 1, 10, tzinfo=UTC)) == 30


def test_more_days_than_are_left_is_refused_and_changes_nothing(alice, bob, settings):
    settings.AWAY_DAYS_PER_YEAR = 30
    match = opened_by_white(alice, bob)
    now = datetime(2026, 3, 1, 9, tzinfo=UTC)
    away.go_away(alice, until=now + timedelta(days=5), now=now)
    clocks = _clocks(match)

    later = now + timedelta(days=6)
    with pytest.raises(AwayError, match="that is 26 days away; you have 25 days left this year"):
        away.go_away(alice, until=later + timedelta(days=25, hours=1), now=later)

    alice.refresh_from_db()
    assert alice.away_until == now + timedelta(days=5)  # the last absence's, in the past
    assert _clocks(match) == clocks
    assert Absence.objects.filter(user=alice).count() == 1


def test_a_request_is_charged_with_the_days_begun_already_taken_this_year(alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 30
    now = datetime(2026, 3, 1, 9, tzinfo=UTC)
    away.go_away(alice, until=now + timedelta(days=10), now=now)
    away.come_back(alice, now=now + timedelta(days=2, hours=1))  # a third day begun: 3
    later = now + timedelta(days=5)

    # Added to the 2 days and an hour used, 27 days and 23 hours and a minute make 30 days
    # and a minute: 31 days.
    with pytest.raises(AwayError, match="that is 28 days away; you have 27 days left this year"):
        away.go_away(alice, until=later + timedelta(days=27, hours=23, minutes=1), now=later)
    away.go_away(alice, until=later + timedelta(days=27, hours=23), now=later)

    assert away.days_left(alice, now=later) == 0


def test_a_request_is_added_to_the_time_already_away_before_it_is_charged(alice, settings):
    # Charged on its own, 29 days and 9 hours would be 30 days, one more than the 29 left
    # after 12 hours away; added to those 12 hours they make 29 days and 21 hours: 30.
    settings.AWAY_DAYS_PER_YEAR = 30
    now = datetime(2026, 6, 1, tzinfo=UTC)
    away.go_away(alice, until=now + timedelta(hours=12), now=now)
    later = now + timedelta(days=1)
    assert away.days_left(alice, now=later) == 29

    away.go_away(alice, until=later + timedelta(days=29, hours=9), now=later)

    assert away.days_left(alice, now=later) == 0


@pytest.mark.parametrize(
    ("until", "reason"),
    [(timedelta(0), "choose a return in the future"), (-timedelta(hours=1), "in the future")],
)
def test_a_return_not_in_the_future_is_refused(alice, until, reason):
    now = timezone.now()

    with pytest.raises(AwayError, match=reason):
        away.go_away(alice, until=now + until, now=now)

    assert not Absence.objects.exists()


def test_a_player_already_away_must_come_back_before_going_again(alice):
    now = timezone.now()
    away.go_away(alice, until=now + timedelta(days=3), now=now)

    with pytest.raises(AwayError, match=r"already away until .*: come back first"):
        away.go_away(alice, until=now + timedelta(days=5), now=now)

    alice.refresh_from_db()
    assert alice.away_until == now + timedelta(days=3)


def test_a_player_who_is_not_away_cannot_come_back(alice):
    with pytest.raises(AwayError, match="you are not away"):
        away.come_back(alice)


def test_bots_do_not_take_time_away():
    bot = services.bot_users()[0]  # (made again, should a transactional test have flushed them)

    with pytest.raises(AwayError, match="bots"):
        away.go_away(bot, until=timezone.now() + timedelta(days=1))


def test_a_deadline_passed_before_going_away_stays_passed(alice, bob):
    match = opened_by_white(alice, bob)
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(deadline=now - timedelta(minutes=1))

    away.go_away(alice, until=now + timedelta(days=3), now=now)

    assert _clocks(match)[0] == now - timedelta(minutes=1)
    assert services.sweep_deadlines(now=now)["timeouts"] == 1
    match.refresh_from_db()
    assert match.winner == bob


def test_coming_back_leaves_the_matches_waiting_for_the_opponent(alice, bob):
    waiting_for_bob = opened_by_white(bob, alice)
    clocks = _clocks(waiting_for_bob)
    now = timezone.now()
    away.go_away(alice, until=now + timedelta(days=5), now=now)

    away.come_back(alice, now=now + timedelta(days=1))

    assert _clocks(waiting_for_bob) == clocks


def test_a_player_who_is_away_must_come_back_to_play(alice, bob):
    match = opened_by_white(alice, bob)
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    clocks = _clocks(match)

    with pytest.raises(services.NotAllowed, match="you are taking time away: come back first"):
        services.submit_segment(
            match.pk, user=alice, action=TurnAction(segment=1, play="in/22 in/19")
        )

    assert _clocks(match) == clocks
    assert match.segments.count() == 1


def test_a_match_started_while_a_player_is_away_waits_for_their_return(alice, charlie):
    back = timezone.now() + timedelta(days=6)
    away.go_away(alice, until=back)

    match = opened_by_white(alice, charlie)  # alice, white, is to move at once

    assert _clocks(match) == (back + ALLOWED, back + ALLOWED * 0.8)


def test_a_match_waiting_for_a_player_is_timed_out_once_they_are_back_and_it_passes(alice, bob):
    match = opened_by_white(alice, bob)
    now = timezone.now()
    away.go_away(alice, until=now + timedelta(days=3), now=now)
    match.refresh_from_db()

    assert services.sweep_deadlines(now=now + timedelta(days=4))["timeouts"] == 0
    assert services.sweep_deadlines(now=match.deadline + timedelta(seconds=1))["timeouts"] == 1
    match.refresh_from_db()
    assert match.winner == bob


def test_the_year_is_counted_in_utc_whatever_the_current_timezone(alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 30
    # 31 December 23:00 UTC is already 1 January in Tokyo.
    new_years_eve = datetime(2026, 12, 31, 23, tzinfo=UTC)
    away.go_away(alice, until=new_years_eve + timedelta(days=3), now=new_years_eve)

    with timezone.override("Asia/Tokyo"):
        assert away.days_left(alice, now=new_years_eve) == 27
        assert away.days_left(alice, now=new_years_eve + timedelta(hours=2)) == 30


def _reminders(match: Match) -> list[str]:
    """The bodies of the reminders emailed about ``match``, oldest first."""
    sent = Notification.objects.filter(match=match, kind=Notification.Kind.REMINDER)
    return list(sent.order_by("pk").values_list("body", flat=True))


def test_a_player_reminded_before_going_away_is_reminded_again_once_back(alice, bob):
    match = opened_by_white(alice, bob, days_per_move=1)
    start = match.deadline - timedelta(days=1)
    reminded = start + timedelta(hours=20)  # 4 h left
    assert services.sweep_deadlines(now=reminded)["reminders"] == 1
    back = reminded + timedelta(days=5)

    away.go_away(alice, until=back, now=reminded)

    # Her 4 h left are under a fifth of a day (4 h 48 min): the reminder goes on her return,
    # not while she is away, and before her time runs out.
    assert _clocks(match) == (back + timedelta(hours=4), back)
    assert services.sweep_deadlines(now=back - timedelta(minutes=1))["reminders"] == 0
    assert services.sweep_deadlines(now=back)["reminders"] == 1
    assert len(_reminders(match)) == 2
    assert "is due in about 4 hours" in _reminders(match)[1]


def test_a_player_reminded_before_going_away_is_reminded_again_on_coming_back_early(alice, bob):
    match = opened_by_white(alice, bob, days_per_move=1)
    reminded = match.remind_at
    assert services.sweep_deadlines(now=reminded)["reminders"] == 1
    away.go_away(alice, until=reminded + timedelta(days=5), now=reminded)
    back = reminded + timedelta(days=1)

    away.come_back(alice, now=back)

    assert _clocks(match) == (back + timedelta(hours=4, minutes=48), back)
    assert services.sweep_deadlines(now=back)["reminders"] == 1
    assert len(_reminders(match)) == 2


def test_a_player_reminded_and_away_for_moments_is_not_reminded_again(alice, bob):
    # Away by mistake and straight back: they have not forgotten the match since.
    match = opened_by_white(alice, bob, days_per_move=1)
    reminded = match.remind_at
    assert services.sweep_deadlines(now=reminded)["reminders"] == 1
    gone = reminded + timedelta(minutes=5)
    away.go_away(alice, until=gone + timedelta(hours=11), now=gone)
    back = gone + timedelta(seconds=5)

    away.come_back(alice, now=back)

    assert Match.objects.get(pk=match.pk).remind_at == back  # set again, as ever
    assert services.sweep_deadlines(now=back)["reminders"] == 0
    assert len(_reminders(match)) == 1
    # A day away since, and the reminder goes again on the return.
    later = back + timedelta(minutes=5)
    away.go_away(alice, until=later + timedelta(days=1), now=later)
    assert services.sweep_deadlines(now=later + timedelta(days=1))["reminders"] == 1
    assert len(_reminders(match)) == 2


def test_a_reminder_not_yet_sent_keeps_to_the_last_fifth_of_the_turn(alice, bob):
    match = opened_by_white(alice, bob, days_per_move=1)
    now = match.deadline - timedelta(hours=10)  # 10 h left: 5 h 12 min before the reminder
    back = now + timedelta(days=3)

    away.go_away(alice, until=back, now=now)

    assert _clocks(match) == (back + timedelta(hours=10), back + timedelta(hours=5, minutes=12))
    assert services.sweep_deadlines(now=back + timedelta(hours=5))["reminders"] == 0
    assert services.sweep_deadlines(now=back + timedelta(hours=5, minutes=12))["reminders"] == 1


def test_a_turn_passing_to_a_player_who_is_away_is_reminded_after_their_return(alice, bob):
    match = opened_by_white(alice, bob, days_per_move=1)
    now = timezone.now()
    back = now + timedelta(days=2)
    away.go_away(bob, until=back, now=now)
    services.submit_segment(match.pk, user=alice, action=TurnAction(segment=1, play="in/22 in/19"))

    assert services.sweep_deadlines(now=back)["reminders"] == 0
    assert services.sweep_deadlines(now=back + timedelta(hours=19, minutes=12))["reminders"] == 1


def test_each_opponent_is_emailed_once_of_the_time_away_with_their_matches(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    waits_for_alice = opened_by_white(alice, bob)
    bobs_move = opened_by_white(bob, alice)
    charlies_move = opened_by_white(charlie, alice)
    club_bot = next(user for user in services.bot_users() if user.username == "club-bot")
    opened_by_white(alice, club_bot)
    until = (timezone.now() + timedelta(days=3)).replace(minute=0, second=0, microsecond=0)
    mail.outbox = []

    with django_capture_on_commit_callbacks(execute=True):
        away.go_away(alice, until=until)

    sent = {message.to[0]: message for message in mail.outbox}
    assert set(sent) == {bob.email, charlie.email}  # one each; the bot none
    to_bob = sent[bob.email]
    assert to_bob.subject == "alice is taking time away"
    back = f"{until:%a} {until.day} {until:%b %Y, %H:%M} UTC"
    assert f"alice is taking time away until {back}." in to_bob.body
    assert f"Match #{waits_for_alice.pk}: it waits for alice's move until their return." in (
        to_bob.body
    )
    due = f"{bobs_move.deadline:%a} {bobs_move.deadline.day} {bobs_move.deadline:%b %Y, %H:%M}"
    # Not "then it waits for alice's return": a move after it waits for nobody.
    assert (
        f"Match #{bobs_move.pk}: your move, due by {due} UTC; if you move before their return,"
        " it waits for them until then." in to_bob.body
    )
    assert f"Match #{charlies_move.pk}: your move" in sent[charlie.email].body
    assert f"#{waits_for_alice.pk}" not in sent[charlie.email].body


def test_a_match_already_lost_on_time_is_left_out_of_the_opponents_email(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    lost = opened_by_white(alice, bob)  # alice to move, her deadline passed a moment ago
    Match.objects.filter(pk=lost.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    going_on = opened_by_white(charlie, alice)
    mail.outbox = []

    with django_capture_on_commit_callbacks(execute=True):
        away.go_away(alice, until=timezone.now() + timedelta(days=3))

    assert [message.to[0] for message in mail.outbox] == [charlie.email]  # bob: none
    assert f"Match #{going_on.pk}" in mail.outbox[0].body
