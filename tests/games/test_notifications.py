"""Game emails: what each one says, who gets it, and sending each exactly once."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from games import notifications, services, tasks
from games.engine import Position
from games.engine.game import ScriptedDice
from games.models import Match, Notification
from games.services import TurnAction
from tests.mail import refuse_mail
from tests.matches import WHITE_OPENS, opened_by_white

pytestmark = pytest.mark.django_db

SITE_URL = "https://acey-deucey-by-post.example.com"
MORNING = "2031-01-02T09:00:00+00:00"  # past the digest hour in UTC


@pytest.fixture(autouse=True)
def site_url(settings):
    # Long enough that a List-Unsubscribe line is over 78 characters.
    settings.SITE_URL = SITE_URL


def _start(white, black, dice=WHITE_OPENS, **options) -> Match:
    """White opens with the last two dice (6-3 by default)."""
    return opened_by_white(white, black, dice=dice, **options)


def _mails_to(user) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [user.email]]


# -- what each email says --------------------------------------------------------------------


def test_turn_email_shows_the_last_play_the_new_dice_the_board_and_a_link(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = _start(alice, bob)
        services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/19"),
            dice=ScriptedDice([4, 1]),
        )

    match.refresh_from_db()
    [turn] = _mails_to(bob)
    assert turn.subject == f"Your turn against alice (match #{match.pk})"
    assert "alice played 6-3: in/22 in/19" in turn.body
    assert "Your dice: 4-1" in turn.body
    assert Position.from_dict(match.position).diagram("black") in turn.body
    assert f"Play your move: {SITE_URL}/matches/{match.pk}/" in turn.body


def test_the_first_turn_email_has_no_previous_play(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = _start(alice, bob)

    [turn] = _mails_to(alice)
    assert "played" not in turn.body
    assert "Your dice: 6-3" in turn.body
    assert Position.from_dict(match.position).diagram("white") in turn.body


def test_turn_emails_write_the_dice_higher_first(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = _start(alice, bob, dice=(5, 2, 3, 5))  # alice rolls a 3 then a 5
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_segment(
            match.pk,
            user=alice,
            action=TurnAction(segment=1, play="in/22 in/20"),
            dice=ScriptedDice([3, 6]),
        )

    [to_alice] = _mails_to(alice)
    [to_bob] = _mails_to(bob)
    assert "Your dice: 5-3" in to_alice.body
    assert "alice played 5-3: in/22 in/20" in to_bob.body
    assert "Your dice: 6-3" in to_bob.body


DANCE_LEFT = (
    "None of your checkers can move with this roll: submit to pass the turn. You may first"
    " name one of your blots for your opponent to hit."
)


def _greek_dance_ahead(white, black) -> Match:
    """A greek match where black is to play 6-5 from their 13-point, and white, on the bar,
    enters on none of black's six home points, all held; white has a blot on their 8-point."""
    match = _start(white, black, dice=(5, 2, 6, 5))
    points = [0] * 24
    points[18:24] = [-2] * 6  # black's home board, where white enters
    points[11] = -3  # black's 13-point
    points[7], points[5] = 1, 13  # white's blot on the 8-point, the rest on the 6-point
    match.variant, match.to_move = "greek", black
    match.position = {
        "variant": "greek",
        "turn": "black",
        "points": points,
        "bar": {"white": 1, "black": 0},
        "off": {"white": 0, "black": 0},
        "waiting": {"white": 0, "black": 0},
        "named_blot": None,
    }
    match.save()
    return match


def test_turn_email_says_why_a_greek_dance_is_left_to_the_player(
    alice, bob, django_capture_on_commit_callbacks
):
    match = _greek_dance_ahead(alice, bob)

    with django_capture_on_commit_callbacks(execute=True):
        # Alice then rolls 6-5 and cannot enter; with a blot to name, she is left to pass.
        services.submit_segment(
            match.pk,
            user=bob,
            action=TurnAction(segment=match.segment_count, play="13/7 13/8"),
            dice=ScriptedDice([6, 5]),
        )

    match.refresh_from_db()
    assert (match.to_move, match.dice) == (alice, [6, 5])
    [turn] = _mails_to(alice)
    assert f"Your dice: 6-5\n{DANCE_LEFT}\n" in turn.body


def test_turn_email_with_a_move_to_play_says_nothing_of_passing(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _start(alice, bob, dice=(5, 2, 6, 3))

    [turn] = _mails_to(alice)
    assert "Your dice: 6-3\n\n" in turn.body
    assert "submit to pass" not in turn.body


def test_challenge_email_describes_the_match_and_links_to_the_challenge(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.create_challenge(alice, opponent=bob, variant="greek", points=3)

    [message] = _mails_to(bob)
    assert message.subject == "alice challenges you to Acey-Deucey"
    assert "Greek, 3 points, 2 days per move" in message.body
    assert f"Accept or decline: {SITE_URL}/challenges/{challenge.pk}/" in message.body


def test_a_line_opening_with_a_right_to_left_name_is_kept_left_to_right(
    alice, bob, django_capture_on_commit_callbacks
):
    # A mail program takes a line's direction from its first letter: "שרה כהן challenges
    # you to Acey-Deucey" ran right to left, the English after the name. Pages isolate
    # names in <bdi>; plain text gets a left-to-right mark, where the line needs one only,
    # and the name is isolated (RLI ... PDI) from the numbers and words around it.
    alice.display_name = "שרה כהן"
    alice.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=bob, variant="greek", points=3)

    [message] = _mails_to(bob)
    name = "\u2067שרה כהן\u2069"
    assert message.subject == f"\u200e{name} challenges you to Acey-Deucey"
    assert message.body.startswith("Hello bob,")  # no mark where none is needed
    assert f"\u200e{name}" in message.body


def test_challenge_email_says_whether_the_match_is_rated(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=bob, points=3, rated=False)
        services.create_challenge(charlie, opponent=bob)

    unrated, rated = _mails_to(bob)
    assert (
        "alice challenges you to a match of Acey-Deucey:"
        " American (US Navy), 3 points, 2 days per move, casual." in unrated.body
    )
    assert "American (US Navy), 1 point, 2 days per move, rated." in rated.body


# Fourteen hours ahead of UTC and eleven behind: at any time of day, the date in one of them
# is not the date in UTC.
@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
@pytest.mark.parametrize("rematch", [False, True], ids=["challenge", "rematch"])
def test_challenge_email_says_until_when_it_is_open_in_the_opponents_time_zone(
    alice, bob, django_capture_on_commit_callbacks, zone, rematch
):
    bob.timezone = zone
    bob.save()
    if rematch:
        match = services.resign(_start(alice, bob).pk, user=bob)
        mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        if rematch:
            challenge = services.offer_rematch(match, user=alice)
        else:
            challenge = services.create_challenge(alice, opponent=bob)

    [message] = _mails_to(bob)
    # As the dashboard ("expires on") and the challenge page ("Open until") give it.
    expires = challenge.expires_at.astimezone(ZoneInfo(zone))
    assert f".\nOpen until {expires.day} {expires:%b %Y}: then it expires.\n\n" in message.body


def _accepted(challenge, bob, monkeypatch, capture, *, challenger_first: bool) -> Match:
    """``bob`` accepts ``challenge``; its challenger plays white (the colours' shuffle left
    out) and moves first or not, by the opening roll."""
    monkeypatch.setattr("random.SystemRandom.shuffle", lambda self, players: None)
    opening = [5, 2] if challenger_first else [2, 5]
    with capture(execute=True):
        return services.accept_challenge(
            challenge.pk, user=bob, dice=ScriptedDice([*opening, 6, 3, 4, 1])
        )


def test_accepted_email_says_the_opponent_moves_first_and_links_to_the_match(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    challenge = services.create_challenge(alice, opponent=bob)

    match = _accepted(
        challenge, bob, monkeypatch, django_capture_on_commit_callbacks, challenger_first=False
    )

    [accepted] = _mails_to(alice)
    assert accepted.subject == "bob accepted your challenge"
    assert f"Match #{match.pk} has begun: bob moves first.\n" in accepted.body
    assert f"Open the match: {SITE_URL}/matches/{match.pk}/" in accepted.body


def test_a_challenger_who_moves_first_gets_one_email_their_turns_saying_it_was_accepted(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    challenge = services.create_challenge(alice, opponent=bob)

    match = _accepted(
        challenge, bob, monkeypatch, django_capture_on_commit_callbacks, challenger_first=True
    )

    [turn] = _mails_to(alice)
    assert turn.subject == f"bob accepted your challenge: your turn (match #{match.pk})"
    assert turn.body.startswith(
        f"Hello alice,\n\nbob accepted your challenge: match #{match.pk} (American (US Navy),"
        " 1 point, 2 days per move, rated) has begun, and it is your turn.\n"
    )
    assert "Your dice: 6-3" in turn.body
    assert not Notification.objects.filter(kind=Notification.Kind.ACCEPTED).exists()


def test_a_challenger_on_the_digest_who_moves_first_is_told_by_when(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.save()
    challenge = services.create_challenge(alice, opponent=bob, days_per_move=1)

    match = _accepted(
        challenge, bob, monkeypatch, django_capture_on_commit_callbacks, challenger_first=True
    )

    [accepted] = _mails_to(alice)
    assert accepted.subject == "bob accepted your challenge"
    due = match.deadline.astimezone(ZoneInfo(alice.timezone or "UTC"))
    assert (
        f"Match #{match.pk} has begun: you move first, by {due:%a} {due.day} {due:%b %Y, %H:%M}"
        in (accepted.body)
    )


def test_an_accepted_rematch_is_told_as_one(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    played = services.resign(_start(alice, bob).pk, user=bob)
    offer = services.offer_rematch(played, user=alice)
    mail.outbox = []

    match = _accepted(
        offer, bob, monkeypatch, django_capture_on_commit_callbacks, challenger_first=True
    )

    [turn] = _mails_to(alice)
    assert turn.subject == (f"bob accepted your rematch offer: your turn (match #{match.pk})")


def test_no_accepted_email_for_a_match_started_against_a_bot(
    alice, django_capture_on_commit_callbacks
):
    club_bot = next(user for user in services.bot_users() if user.username == "club-bot")

    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.create_challenge(alice, opponent=club_bot)

    challenge.refresh_from_db()
    assert challenge.match is not None  # the bot accepted at once
    assert [m.subject for m in _mails_to(alice) if "accepted" in m.subject] == []
    assert not Notification.objects.filter(kind=Notification.Kind.ACCEPTED).exists()


def _declined(challenge, bob, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.decline_challenge(challenge.pk, user=bob)


def test_declined_email_tells_the_challenger_and_links_to_a_new_challenge(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = services.create_challenge(alice, opponent=bob, variant="greek", points=3)

    _declined(challenge, bob, django_capture_on_commit_callbacks)

    [message] = _mails_to(alice)
    assert message.subject == "bob declined your challenge"
    assert "bob declined your challenge (Greek, 3 points, 2 days per move, rated)." in message.body
    assert f"Challenge someone else: {SITE_URL}/challenges/new/" in message.body
    assert "closed" not in message.body


def test_no_declined_email_to_a_challenger_who_wants_none(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.NONE
    alice.save()
    challenge = services.create_challenge(alice, opponent=bob)

    _declined(challenge, bob, django_capture_on_commit_callbacks)

    assert _mails_to(alice) == []
    assert not Notification.objects.filter(user=alice).exists()


def test_a_challenge_declined_as_its_opponent_closed_their_account_says_so(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = services.create_challenge(alice, opponent=bob)
    bob.is_active = False  # as games.closing leaves him while it declines his challenges
    bob.save()

    _declined(challenge, bob, django_capture_on_commit_callbacks)

    [message] = _mails_to(alice)
    # Not "bob declined your challenge": he did not, his account closing did.
    assert message.subject == "Your challenge to bob is off: the account is closed"
    assert "bob's account is closed, which declined the challenges to it." in message.body
    assert "bob declined" not in message.body


def test_rematch_offer_email_names_the_match_it_would_play_again(
    alice, bob, django_capture_on_commit_callbacks
):
    match = services.resign(_start(alice, bob).pk, user=bob)
    mail.outbox = []

    with django_capture_on_commit_callbacks(execute=True):
        services.offer_rematch(match, user=alice)

    [message] = _mails_to(bob)
    assert message.subject == f"alice offers you a rematch of match #{match.pk}"
    assert (
        f"alice offers you a rematch of match #{match.pk}, with the same options:"
        " American (US Navy), 1 point, 2 days per move, rated." in message.body
    )
    assert "challenges you" not in message.body


def test_a_declined_rematch_offer_is_called_one(alice, bob, django_capture_on_commit_callbacks):
    match = services.resign(_start(alice, bob).pk, user=bob)
    offer = services.offer_rematch(match, user=alice)
    mail.outbox = []

    _declined(offer, bob, django_capture_on_commit_callbacks)

    [message] = _mails_to(alice)
    assert message.subject == "bob declined your rematch offer"
    assert f"bob declined your offer of a rematch of match #{match.pk} (" in message.body


def test_finished_email_gives_each_player_the_winner_and_score(
    alice, bob, django_capture_on_commit_callbacks
):
    match = _start(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(match.pk, user=alice)

    match.refresh_from_db()
    assert match.score_black > match.score_white  # bob, black, won: his points come first
    score = f"{match.score_black}\u2013{match.score_white}"
    [to_alice] = _mails_to(alice)
    [to_bob] = _mails_to(bob)
    assert to_alice.subject == f"Match #{match.pk} against bob is over"
    assert f"is over: bob won: you resigned (final score {score})." in to_alice.body
    assert to_bob.subject == f"Match #{match.pk} against alice is over"
    assert f"is over: you won: alice resigned (final score {score})." in to_bob.body


def test_finished_email_on_time_says_whose_time_ran_out(
    alice, bob, django_capture_on_commit_callbacks
):
    match = _start(alice, bob)  # alice to move
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.award_timeout(match.pk)

    match.refresh_from_db()
    final = f"(final score {match.result_score})"
    [to_alice] = _mails_to(alice)
    [to_bob] = _mails_to(bob)
    assert f"is over: bob won on time: your time to move ran out {final}." in to_alice.body
    assert f"is over: you won on time: alice's time to move ran out {final}." in to_bob.body


@pytest.mark.parametrize("rated", [True, False])
def test_finished_email_says_a_casual_match_changed_no_rating(
    alice, bob, django_capture_on_commit_callbacks, rated
):
    match = _start(alice, bob, rated=rated)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(match.pk, user=alice)

    [to_alice] = _mails_to(alice)
    assert ("A casual match: no rating changes." in to_alice.body) == (not rated)


def test_reminder_email_gives_the_deadline_and_a_link(
    alice, bob, django_capture_on_commit_callbacks
):
    match = _start(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.sweep_deadlines(now=timezone.now() + timedelta(days=1.7))

    [reminder] = _mails_to(alice)
    assert reminder.subject == "Reminder: your move against bob is due soon"
    assert f"Play now: {SITE_URL}/matches/{match.pk}/" in reminder.body
    assert f"{match.deadline.year}" in reminder.body
    # A 1-point match is one game: nothing more to lose than it.
    assert "you lose the whole match to bob.\n" in reminder.body


def test_reminder_email_names_the_opponent_says_the_time_left_and_that_the_match_is_lost(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.timezone = "America/New_York"
    alice.save()
    match = opened_by_white(alice, bob, points=3)
    swept = timezone.now() + timedelta(days=1.6)  # 2 days per move: 0.4 days (9.6 h) left
    with django_capture_on_commit_callbacks(execute=True):
        services.sweep_deadlines(now=swept)

    [reminder] = _mails_to(alice)
    due = match.deadline.astimezone(ZoneInfo("America/New_York"))
    assert (
        f"Your move against bob in match #{match.pk} is due in about 10 hours,"
        f" by {due:%a} {due.day} {due:%b %Y, %H:%M} {due.tzname()}.\n"
        "If the deadline passes, you lose the whole match to bob, not just this"
        " game.\n" in reminder.body
    )


@pytest.mark.parametrize(
    ("left", "said"),
    [
        (timedelta(minutes=-3), "about 1 minute"),
        (timedelta(minutes=1), "about 1 minute"),
        (timedelta(minutes=89), "about 89 minutes"),
        (timedelta(minutes=90), "about 2 hours"),
        (timedelta(hours=9, minutes=29), "about 9 hours"),
        (timedelta(hours=47), "about 47 hours"),
        (timedelta(days=2.8), "about 3 days"),
    ],
)
def test_time_left_in_words(left, said):
    assert notifications.time_left_in_words(left) == said


WITHDRAWS_IN_A_ROUND_ROBIN = (
    "It is a match of Spring cup: losing it on time also withdraws you from"
    " the tournament: your matches still to play there would go to your opponents by"
    " walkover, and the standings would place you below every player who has not withdrawn.\n"
)
WITHDRAWS_IN_A_SWISS = (
    "It is a match of Spring cup: losing it on time also withdraws you from"
    " the tournament: you would not be paired in its later rounds, and the standings would"
    " place you below every player who has not withdrawn.\n"
)
A_PLAIN_LOSS = "It is a match of Spring cup: a loss on time counts there as any other loss.\n"


@pytest.mark.parametrize(
    ("format", "players", "warning"),
    [
        ("round_robin", 3, WITHDRAWS_IN_A_ROUND_ROBIN),
        ("swiss", 4, WITHDRAWS_IN_A_SWISS),
        # Knocked out (or dropped to the losers bracket), as by any loss: not withdrawn.
        ("single_elimination", 4, A_PLAIN_LOSS),
        ("double_elimination", 4, A_PLAIN_LOSS),
        # The tournament's last match: losing it withdraws nobody from a tournament over.
        ("round_robin", 2, A_PLAIN_LOSS),
    ],
    ids=["round_robin", "swiss", "single_elimination", "double_elimination", "last_match"],
)
def test_a_tournament_matchs_reminder_says_what_a_timeout_does_there(
    alice, bob, django_capture_on_commit_callbacks, format, players, warning
):
    from tests.tournaments_site.helpers import active_matches, make_users, started_tournament

    cup = started_tournament(alice, make_users(players), format=format, name="Spring cup")
    match = active_matches(cup)[0]
    casual = _start(alice, bob)
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        # 80% of 2 days (the casual match), then of 3 days (the tournament's).
        services.sweep_deadlines(now=timezone.now() + timedelta(days=1.7))
        services.sweep_deadlines(now=timezone.now() + timedelta(days=2.5))

    reminders = {
        m.body.split("match #")[1].split(" ")[0]: m.body
        for m in mail.outbox
        if m.subject.startswith("Reminder")
    }
    assert warning in reminders[str(match.pk)]
    assert "tournament" not in reminders[str(casual.pk)]


@pytest.mark.parametrize(("format", "rounds_before"), [("round_robin", 2), ("swiss", 1)])
def test_a_reminder_in_a_players_last_match_says_a_timeout_is_a_plain_loss(
    alice, django_capture_on_commit_callbacks, format, rounds_before
):
    from tests.tournaments_site.helpers import (
        active_matches,
        lose,
        make_users,
        started_tournament,
    )

    cup = started_tournament(alice, make_users(4), format=format, name="Spring cup", swiss_rounds=2)
    for _ in range(rounds_before * 2):
        match = active_matches(cup)[0]
        lose(match, match.white)
    last_round = active_matches(cup)
    mail.outbox = []

    with django_capture_on_commit_callbacks(execute=True):
        services.sweep_deadlines(now=timezone.now() + timedelta(days=2.5))

    # Both matches of the last round are being played: neither player to move has a match
    # or a round left to give up, so it does not matter that the other match is not over.
    reminders = [m.body for m in mail.outbox if m.subject.startswith("Reminder")]
    assert len(reminders) == len(last_round) == 2
    assert all(A_PLAIN_LOSS in reminder for reminder in reminders)


def test_digest_lists_the_matches_waiting_for_players_who_chose_it(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.save()
    first = _start(alice, bob)
    second = _start(alice, charlie)
    _start(charlie, bob)  # charlie (every turn) is to move here: no digest for him

    with django_capture_on_commit_callbacks(execute=True):
        digest_players = tasks.task_daily_digest(now=MORNING)

    assert digest_players == 1
    [digest] = [m for m in mail.outbox if "waiting for you" in m.subject]
    assert digest.to == [alice.email]
    assert digest.subject == "2 Acey-Deucey matches waiting for you"
    assert f"{SITE_URL}/matches/{first.pk}/" in digest.body
    assert f"{SITE_URL}/matches/{second.pk}/" in digest.body
    assert f"Your dashboard: {SITE_URL}/dashboard/" in digest.body
    assert "These 2 matches are waiting for your move:" in digest.body


def test_a_digest_of_one_match_says_so_in_the_singular(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.save()
    _start(alice, bob)

    with django_capture_on_commit_callbacks(execute=True):
        tasks.task_daily_digest(now=MORNING)

    [digest] = _mails_to(alice)
    assert digest.subject == "1 Acey-Deucey match waiting for you"
    assert "This match is waiting for your move:" in digest.body


def test_no_digest_when_nothing_is_waiting(alice, bob, django_capture_on_commit_callbacks):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.save()
    _start(bob, alice)  # bob is to move

    with django_capture_on_commit_callbacks(execute=True):
        tasks.task_daily_digest(now=MORNING)

    assert not Notification.objects.filter(kind=Notification.Kind.DIGEST).exists()


def test_names_are_not_html_escaped_in_plain_text_email(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.display_name = "Ann O'Neil & <Co>"
    alice.save()

    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=bob)

    [message] = _mails_to(bob)
    assert message.body.startswith("Hello bob,")
    assert "Ann O'Neil & <Co> challenges you" in message.body


# -- preferences -----------------------------------------------------------------------------


def test_digest_players_get_no_turn_email_but_other_game_emails(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.save()

    with django_capture_on_commit_callbacks(execute=True):
        match = _start(alice, bob)  # alice's turn
        services.resign(match.pk, user=bob)

    assert [m.subject for m in _mails_to(alice)] == [f"Match #{match.pk} against bob is over"]
    assert not Notification.objects.filter(user=alice, kind=Notification.Kind.TURN).exists()


def test_players_who_chose_none_get_no_game_email(alice, bob, django_capture_on_commit_callbacks):
    bob.email_preference = bob.EmailPreference.NONE
    bob.save()

    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=bob)
        match = _start(bob, alice)  # bob's turn
        services.resign(match.pk, user=alice)

    assert _mails_to(bob) == []
    assert not Notification.objects.filter(user=bob).exists()
    assert len(_mails_to(alice)) == 1  # her "match is over"


# -- unsubscribing ---------------------------------------------------------------------------


def test_unsubscribe_token_names_its_user(alice):
    token = notifications.unsubscribe_token(alice)

    assert notifications.user_from_unsubscribe_token(token) == alice.pk


def test_a_forged_unsubscribe_token_names_nobody(alice, bob):
    bobs_payload = notifications.unsubscribe_token(bob).split(":")[0]
    alices_rest = notifications.unsubscribe_token(alice).split(":", 1)[1]
    other_salt = signing.dumps({"user": alice.pk})

    for token in (f"{bobs_payload}:{alices_rest}", other_salt, "nonsense", ""):
        assert notifications.user_from_unsubscribe_token(token) is None


def test_list_unsubscribe_is_one_plain_header_line_in_the_sent_bytes(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=bob)

    [message] = _mails_to(bob)
    # The SMTP backend sends message(policy=email.policy.SMTP).as_bytes().
    raw = message.message(policy=email.policy.SMTP).as_bytes()
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    url = message.body.rstrip().rsplit("To stop these emails: ", 1)[1]
    token = url.removeprefix(f"{SITE_URL}/unsubscribe/").removesuffix("/")
    assert notifications.user_from_unsubscribe_token(token) == bob.pk
    assert len(f"List-Unsubscribe: <{url}>") > 78
    assert parsed["List-Unsubscribe"] == f"<{url}>"
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert f"List-Unsubscribe: <{url}>\r\n".encode() in raw
    assert b"=?" not in raw


def test_one_click_unsubscribe_from_the_header_url_turns_emails_off(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=bob)
    [message] = _mails_to(bob)
    path = message.extra_headers["List-Unsubscribe"].strip("<>").removeprefix(SITE_URL)

    # A mail client's RFC 8058 POST carries no CSRF token.
    response = Client(enforce_csrf_checks=True).post(
        path, {"List-Unsubscribe": "One-Click"}, secure=True
    )

    bob.refresh_from_db()
    assert response.status_code == 200
    assert bob.email_preference == bob.EmailPreference.NONE


def test_list_unsubscribe_headers_fall_back_to_encoding_an_odd_url():
    headers = notifications.list_unsubscribe_headers("https://acey.example/ü")

    assert headers["List-Unsubscribe"] == "<https://acey.example/ü>"
    assert not isinstance(headers["List-Unsubscribe"], notifications.UnfoldedHeader)


# -- sending once ----------------------------------------------------------------------------


def _queued_challenge(alice, bob, django_capture_on_commit_callbacks) -> Notification:
    """A challenge email stored in the outbox whose sending task never ran."""
    with django_capture_on_commit_callbacks(execute=False):
        services.create_challenge(alice, opponent=bob)
    return Notification.objects.get(user=bob)


def test_sending_twice_sends_one_email(alice, bob, django_capture_on_commit_callbacks):
    notification = _queued_challenge(alice, bob, django_capture_on_commit_callbacks)

    first = notifications.send_notification(notification.pk)
    second = notifications.send_notification(notification.pk)

    notification.refresh_from_db()
    assert (first, second) == (True, False)
    assert len(mail.outbox) == 1
    assert notification.sent_at is not None and notification.attempts == 1


def test_a_claimed_notification_is_left_to_its_sender(
    alice, bob, django_capture_on_commit_callbacks
):
    notification = _queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    Notification.objects.filter(pk=notification.pk).update(
        claimed_until=timezone.now() + timedelta(minutes=4)
    )

    assert notifications.send_notification(notification.pk) is False
    assert mail.outbox == []


def test_resend_sweep_sends_a_notification_whose_sender_crashed(
    alice, bob, django_capture_on_commit_callbacks
):
    notification = _queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    # A worker claimed it ten minutes ago and died before sending.
    ten_minutes_ago = timezone.now() - timedelta(minutes=10)
    Notification.objects.filter(pk=notification.pk).update(
        created_at=ten_minutes_ago, claimed_until=ten_minutes_ago + timedelta(minutes=5)
    )

    resent = tasks.task_resend_unsent()

    notification.refresh_from_db()
    assert resent == 1
    assert notification.sent_at is not None
    assert [m.to for m in mail.outbox] == [[bob.email]]
    assert tasks.task_resend_unsent() == 0


def test_resend_sweep_leaves_recent_and_given_up_notifications(
    alice, bob, django_capture_on_commit_callbacks
):
    _queued_challenge(alice, bob, django_capture_on_commit_callbacks)  # too recent
    with django_capture_on_commit_callbacks(execute=False):
        services.create_challenge(bob, opponent=alice)
    given_up = Notification.objects.get(user=alice)
    Notification.objects.filter(pk=given_up.pk).update(
        created_at=timezone.now() - timedelta(days=1), attempts=notifications.MAX_ATTEMPTS
    )

    assert notifications.unsent() == []


def test_resend_sweep_leaves_turn_emails_to_their_own_sweep(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = _queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    turn = Notification.objects.create(
        user=alice, kind="turn", key="turn:lost", subject="s", body="b", match=None
    )
    hour_ago = timezone.now() - timedelta(hours=1)
    Notification.objects.filter(pk__in=[challenge.pk, turn.pk]).update(created_at=hour_ago)

    assert notifications.unsent() == [challenge.pk]
    assert notifications.send_due_turn_emails() == 1  # the turn email's own sweep sends it
    turn.refresh_from_db()
    assert turn.sent_at is not None


def test_an_smtp_failure_leaves_the_email_unsent_with_the_error(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    notification = _queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    refuse_mail(settings)

    with pytest.raises(ConnectionRefusedError):
        notifications.send_notification(notification.pk)

    notification.refresh_from_db()
    assert notification.sent_at is None
    assert notification.attempts == 1
    assert "refused" in notification.last_error.lower()
    assert notification.claimed_until is None  # free for the next attempt


def test_a_failed_send_is_held_for_its_retry_so_the_sweep_does_not_double_it(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    notification = _queued_challenge(alice, bob, django_capture_on_commit_callbacks)
    Notification.objects.filter(pk=notification.pk).update(
        created_at=timezone.now() - timedelta(minutes=10)
    )
    refuse_mail(settings)

    with pytest.raises(ConnectionRefusedError):
        notifications.send_notification(notification.pk, retry_in=30)

    notification.refresh_from_db()
    assert notification.claimed_until > timezone.now() + timedelta(seconds=25)
    assert notifications.unsent() == []


def test_email_retries_back_off_exponentially_up_to_an_hour(settings):
    settings.EMAIL_RETRY_BASE_SECONDS = base = 30

    delays = [tasks.email_retry_countdown(retries) for retries in range(9)]

    assert delays[:3] == [base, 2 * base, 4 * base]
    assert max(delays) == 3600


def test_every_attempt_of_one_email_carries_the_same_message_id(alice, bob, mailoutbox):
    from games.models import Notification

    notification = Notification.objects.create(
        user=bob, kind="turn", key="message-id-test", subject="Your turn", body="Play."
    )

    notifications.send_notification(notification.pk)

    [message] = mailoutbox
    # Made from the row as stored, so any attempt, by any sender, makes the same.
    stored = Notification.objects.get(pk=notification.pk)
    assert message.extra_headers["Message-ID"] == notifications.message_id(stored)
    assert notifications.message_id(stored) == notifications.message_id(notification)
    assert message.extra_headers["Message-ID"].startswith(f"<notification.{notification.pk}.")


def test_an_email_written_after_a_restore_reuses_no_message_id(alice, bob, mailoutbox):
    """A restore from a backup hands out the ids after the backup's again: an email sent
    before it and one written after it have the same id, not the same Message-ID."""
    from games.models import Notification

    before = Notification.objects.create(user=bob, kind="turn", key="a", subject="1", body="1")
    notifications.send_notification(before.pk)
    Notification.objects.filter(pk=before.pk).delete()  # the restore
    after = Notification.objects.create(
        pk=before.pk, user=bob, kind="turn", key="a", subject="2", body="2"
    )
    notifications.send_notification(after.pk)

    first, second = (message.extra_headers["Message-ID"] for message in mailoutbox)
    assert first != second


def test_a_sender_claims_an_email_for_the_configured_time(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_CLAIM_SECONDS = 7
    match = _start(alice, bob)  # no on-commit callbacks run: the email waits in the outbox
    notification = Notification.objects.get(match=match, user=alice)

    before = timezone.now()
    assert notifications.send_notification(notification.pk)

    notification.refresh_from_db()
    assert notification.sent_at is not None
    claim = notification.claimed_until - before
    assert timedelta(seconds=6) < claim <= timedelta(seconds=8)


@pytest.mark.parametrize(
    ("zone", "utc", "sent"),
    [
        ("UTC", "2031-01-02T07:59:00+00:00", False),  # before 8 in the morning
        ("UTC", "2031-01-02T08:00:00+00:00", True),
        ("Asia/Tokyo", "2031-01-01T23:00:00+00:00", True),  # 08:00 on the 2nd in Tokyo
        ("UTC", "2031-01-02T10:59:00+00:00", True),  # a run missed, or a match come since
        ("UTC", "2031-01-02T11:00:00+00:00", False),  # not the morning any more
        ("Asia/Tokyo", "2031-01-02T08:00:00+00:00", False),  # 17:00 in Tokyo
        ("America/New_York", "2031-01-02T08:00:00+00:00", False),  # 03:00 in New York
    ],
)
def test_the_digest_comes_at_eight_in_the_players_own_morning(
    alice, bob, django_capture_on_commit_callbacks, settings, zone, utc, sent
):
    settings.DIGEST_HOUR = 8
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.timezone = zone
    alice.save()
    _start(alice, bob)  # alice is to move

    with django_capture_on_commit_callbacks(execute=True):
        tasks.task_daily_digest(now=utc)

    assert Notification.objects.filter(user=alice, kind="digest").exists() == sent


def test_a_match_come_to_wait_in_the_afternoon_waits_for_the_next_morning(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.save()

    with django_capture_on_commit_callbacks(execute=True):
        for hour in range(24):
            if hour == 13:
                _start(alice, bob)  # a match comes to wait for her in the afternoon
            tasks.task_daily_digest(now=f"2031-01-02T{hour:02}:00:00+00:00")
        tasks.task_daily_digest(now="2031-01-03T08:00:00+00:00")

    keys = list(Notification.objects.filter(kind="digest").values_list("key", flat=True))
    assert keys == [f"digest:{alice.pk}:2031-01-03"]  # not at 14:00 on the 2nd


def test_the_hourly_digest_run_sends_one_digest_a_day(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.timezone = "Asia/Tokyo"
    alice.save()
    _start(alice, bob)

    with django_capture_on_commit_callbacks(execute=True):
        for hour in range(24):  # every hour of the 2nd in UTC: 09:00 JST on, then the 3rd
            tasks.task_daily_digest(now=f"2031-01-02T{hour:02}:00:00+00:00")

    keys = sorted(Notification.objects.filter(kind="digest").values_list("key", flat=True))
    assert keys == [f"digest:{alice.pk}:2031-01-02", f"digest:{alice.pk}:2031-01-03"]
    assert len([m for m in mail.outbox if "waiting for you" in m.subject]) == 2


def test_a_later_hourly_run_skips_players_with_todays_digest_in_one_query(
    alice, bob, django_capture_on_commit_callbacks, django_assert_num_queries
):
    alice.email_preference = alice.EmailPreference.DIGEST
    alice.save()
    _start(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.task_daily_digest(now="2031-01-02T09:00:00+00:00")

    with django_assert_num_queries(2):  # the digest players, then today's digests
        assert tasks.task_daily_digest(now="2031-01-02T10:00:00+00:00") == 1


def test_a_game_email_has_one_blank_line_before_the_unsubscribe_link(
    alice, bob, django_capture_on_commit_callbacks
):
    # The template's last line break, and then a blank line added: two blank lines.
    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=bob, variant="greek", points=3)

    [message] = _mails_to(bob)
    assert "\n\n\n" not in message.body
    assert "\n\nTo stop these emails: " in message.body
