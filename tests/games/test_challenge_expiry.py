"""A lobby challenge nobody takes up expires after LOBBY_CHALLENGE_DAYS, through beat's
hourly sweep, and is then what a withdrawn one is: gone from the lobby, refused to whoever
would accept it, its players' alone to see."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.models import LOBBY_CHALLENGE_DAYS, Challenge, Match, Notification

pytestmark = pytest.mark.django_db

LIFETIME = timedelta(days=LOBBY_CHALLENGE_DAYS)


def _made_ago(challenge: Challenge, age: timedelta) -> Challenge:
    Challenge.objects.filter(pk=challenge.pk).update(created_at=timezone.now() - age)
    challenge.refresh_from_db()
    return challenge


def _expired(challenger) -> Challenge:
    challenge = _made_ago(services.create_challenge(challenger), LIFETIME + timedelta(hours=1))
    assert services.expire_lobby_challenges() == 1
    challenge.refresh_from_db()
    return challenge


def test_it_expires_the_lobby_challenges_past_their_days_and_no_other(alice, bob, charlie):
    minute = timedelta(minutes=1)
    old = _made_ago(services.create_challenge(alice), LIFETIME + minute)
    young = _made_ago(services.create_challenge(alice, variant="greek"), LIFETIME - minute)
    addressed = _made_ago(services.create_challenge(alice, opponent=bob), LIFETIME + minute)
    private = _made_ago(services.create_challenge(alice, private=True), LIFETIME + minute)
    taken = _made_ago(services.create_challenge(bob), LIFETIME + minute)
    services.accept_challenge(taken.pk, user=charlie)

    expired = services.expire_lobby_challenges()

    assert expired == 1
    assert dict(Challenge.objects.values_list("pk", "status")) == {
        old.pk: "expired",
        young.pk: "open",
        addressed.pk: "open",
        private.pk: "open",
        taken.pk: "accepted",
    }


def test_the_sweep_is_beats_hourly_task(alice):
    _made_ago(services.create_challenge(alice), LIFETIME + timedelta(hours=1))

    assert tasks.task_expire_lobby_challenges() == 1
    assert tasks.task_expire_lobby_challenges() == 0
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "games.tasks.task_expire_lobby_challenges" in scheduled


def test_its_challenger_is_emailed_once_whatever_sweeps_run(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = _made_ago(services.create_challenge(alice, points=3), LIFETIME + timedelta(hours=1))

    with django_capture_on_commit_callbacks(execute=True):
        first = services.expire_lobby_challenges()
    with django_capture_on_commit_callbacks(execute=True):
        second = services.expire_lobby_challenges()

    assert (first, second) == (1, 0)
    [message] = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == "Your challenge in the lobby has expired"
    made = timezone.localtime(challenge.created_at).strftime("%-d %B %Y")
    assert (
        "Your challenge in the lobby (American (US Navy), 3 points, 2 days per move, rated),"
        f" posted on {made}, has expired: nobody took it up within {LOBBY_CHALLENGE_DAYS} days."
        in message.body
    )
    assert f"Post a new challenge: {settings.SITE_URL}/challenges/new/" in message.body
    assert Notification.objects.get(user=alice).key == f"expired:{challenge.pk}"


def test_no_email_of_an_expired_challenge_to_a_challenger_who_wants_none(
    alice, django_capture_on_commit_callbacks
):
    alice.email_preference = alice.EmailPreference.NONE
    alice.save()

    with django_capture_on_commit_callbacks(execute=True):
        _expired(alice)

    assert mail.outbox == []
    assert not Notification.objects.exists()


def test_an_expired_challenge_leaves_the_lobby_and_its_challengers_list(client, alice, bob):
    challenge = _expired(alice)
    client.force_login(bob)

    lobby = client.get(reverse("lobby")).text
    client.force_login(alice)
    dashboard = client.get(reverse("dashboard")).text

    assert reverse("challenge_accept", args=[challenge.pk]) not in lobby
    assert challenge.get_absolute_url() not in dashboard
    assert Challenge.objects.issued_by(alice).count() == 0  # a place free under the limit


def test_accepting_an_expired_challenge_is_refused_as_a_withdrawn_one_is(client, alice, bob):
    challenge = _expired(alice)
    client.force_login(bob)

    answer = client.post(reverse("challenge_accept", args=[challenge.pk]), follow=True)
    page = client.get(challenge.get_absolute_url())

    assert answer.redirect_chain == [(reverse("lobby"), 302)]
    # The same words as for one taken or withdrawn, which name expiry too.
    assert (
        "That challenge is no longer open: another player may have taken it, its challenger"
        " withdrawn it, or it expired." in answer.text
    )
    assert not Match.objects.exists()
    assert page.status_code == 404


def test_its_challenger_sees_it_expired_and_cannot_withdraw_it(client, alice):
    challenge = _expired(alice)
    client.force_login(alice)

    page = client.get(challenge.get_absolute_url()).text
    cancel = client.post(reverse("challenge_cancel", args=[challenge.pk]), follow=True).text

    assert "Status: <strong>Expired</strong>" in page
    assert f"Nobody took it up within {LOBBY_CHALLENGE_DAYS} days" in page
    assert (
        f"This challenge has expired: nobody took it up within {LOBBY_CHALLENGE_DAYS} days."
        in cancel
    )
    challenge.refresh_from_db()
    assert challenge.status == "expired"


def test_the_pages_say_how_long_a_lobby_challenge_waits(client, alice):
    challenge = services.create_challenge(alice)
    client.force_login(alice)

    lobby = client.get(reverse("lobby")).text
    new = client.get(reverse("challenge_new")).text
    page = client.get(challenge.get_absolute_url()).text

    assert f"each waits {LOBBY_CHALLENGE_DAYS} days, then expires" in lobby
    assert f"where it waits {LOBBY_CHALLENGE_DAYS} days" in new
    expires = timezone.localtime(challenge.created_at + LIFETIME)
    assert f'for anyone to accept, until <time datetime="{expires.isoformat()}"' in page
