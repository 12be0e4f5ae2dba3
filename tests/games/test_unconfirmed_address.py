"""No game email goes to an address nobody has confirmed (games.notifications._queue);
account emails still do."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.services import confirm_email_address, email_confirmation_token
from games import services, tasks
from games.engine.game import ScriptedDice
from games.models import Notification
from games.tournaments.brackets import Format
from tests.matches import opened_by_white
from tests.tournaments_site.helpers import started_tournament

pytestmark = pytest.mark.django_db

MORNING = "2031-01-02T09:00:00+00:00"  # past the digest hour in UTC


@pytest.fixture
def leo(django_user_model):
    """A player who signed up with someone else's address, never confirmed."""
    return django_user_model.objects.create_user(
        username="leo", email="someone-elses@example.net", password="correct horse battery"
    )


def _mails_to(user) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [user.email]]


def _nothing_for(user) -> bool:
    return _mails_to(user) == [] and not Notification.objects.filter(user=user).exists()


def test_it_has_the_fixtures_players_confirmed_and_a_new_player_not(alice, leo):
    assert alice.email_confirmed_at is not None
    assert leo.email_confirmed_at is None


def test_it_sends_no_challenge_accepted_or_declined_email_to_an_unconfirmed_address(
    alice, bob, leo, django_capture_on_commit_callbacks
):
    # Each step's emails go before the next: a challenge's own email is dropped once it is
    # no longer open (games.notifications), and these are to be sent.
    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=leo)  # received
    with django_capture_on_commit_callbacks(execute=True):
        accepted = services.create_challenge(leo, opponent=alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.accept_challenge(accepted.pk, user=alice, dice=ScriptedDice([5, 2, 6, 3]))
    with django_capture_on_commit_callbacks(execute=True):
        declined = services.create_challenge(leo, opponent=bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.decline_challenge(declined.pk, user=bob)

    assert _nothing_for(leo)
    assert "leo challenges you to Acey-Deucey" in [m.subject for m in _mails_to(alice)]
    assert [m.subject for m in _mails_to(bob)] == ["leo challenges you to Acey-Deucey"]


def test_it_sends_no_turn_reminder_or_match_over_email_to_an_unconfirmed_address(
    alice, leo, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(leo, alice)  # leo's turn
        services.sweep_deadlines(now=timezone.now() + timedelta(days=1.7))  # his reminder
        services.resign(match.pk, user=alice)

    assert _nothing_for(leo)
    assert [m.subject for m in _mails_to(alice)] == [f"Match #{match.pk} against leo is over"]


def test_it_sends_no_digest_to_an_unconfirmed_address(
    alice, leo, django_capture_on_commit_callbacks
):
    leo.email_preference = leo.EmailPreference.DIGEST
    leo.save()
    opened_by_white(leo, alice)

    with django_capture_on_commit_callbacks(execute=True):
        tasks.task_daily_digest(now=MORNING)

    assert _nothing_for(leo)


def test_it_sends_no_tournament_email_to_an_unconfirmed_address(
    alice, leo, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        started_tournament(alice, [alice, leo], format=Format.ROUND_ROBIN, name="Spring cup")

    assert _nothing_for(leo)
    assert any("Spring cup" in m.subject for m in _mails_to(alice))


def test_it_sends_game_emails_once_the_address_is_confirmed(
    alice, leo, django_capture_on_commit_callbacks
):
    confirm_email_address(email_confirmation_token(leo), viewer=leo)
    leo.refresh_from_db()

    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(alice, opponent=leo)

    assert [m.subject for m in _mails_to(leo)] == ["alice challenges you to Acey-Deucey"]


def test_it_still_sends_account_emails_to_an_unconfirmed_address(
    leo, django_capture_on_commit_callbacks
):
    client = Client()

    client.post(reverse("password_reset"), {"email": "someone-elses@example.net"})
    client.force_login(leo)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("password_change"),
            {
                "old_password": "correct horse battery",
                "new_password1": "another long passphrase",
                "new_password2": "another long passphrase",
            },
        )

    assert [m.subject for m in _mails_to(leo)] == [
        "Reset your Acey-Deucey password",
        "Your Acey-Deucey password was changed",
    ]


def test_it_promises_a_waiting_player_no_turn_email_before_they_confirm(client, alice, leo):
    match = opened_by_white(alice, leo)  # alice to move: leo waits
    client.force_login(leo)

    page = client.get(reverse("match", args=[match.pk]))

    [waiting] = re.findall(r'<p class="notice waiting-note">(.*?)</p>', page.text)
    assert waiting.endswith(
        "; once you confirm your email address, we will email you when it is your turn."
    )
