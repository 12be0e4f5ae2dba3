"""A challenge nobody accepts (in the lobby, to a player, or by invite link) expires after
CHALLENGE_DAYS, through beat's hourly sweep, and is then what a withdrawn one is: gone from
the lobby and from its opponent's list, refused to whoever would accept it, its players'
alone to see. Its challenger is emailed; its opponent is not."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import blocks, closing, services, tasks
from games.models import CHALLENGE_DAYS, Challenge, Match, Notification
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

LIFETIME = timedelta(days=CHALLENGE_DAYS)


def _made_ago(challenge: Challenge, age: timedelta) -> Challenge:
    Challenge.objects.filter(pk=challenge.pk).update(created_at=timezone.now() - age)
    challenge.refresh_from_db()
    return challenge


def _expired(challenger, **options) -> Challenge:
    challenge = services.create_challenge(challenger, **options)
    challenge = _made_ago(challenge, LIFETIME + timedelta(hours=1))
    assert services.expire_challenges() == 1
    challenge.refresh_from_db()
    return challenge


def test_it_expires_every_challenge_past_its_days_and_no_other(alice, bob, charlie):
    minute = timedelta(minutes=1)
    old = _made_ago(services.create_challenge(alice), LIFETIME + minute)
    young = _made_ago(services.create_challenge(alice, variant="greek"), LIFETIME - minute)
    addressed = _made_ago(services.create_challenge(alice, opponent=bob), LIFETIME + minute)
    young_addressed = _made_ago(services.create_challenge(bob, opponent=charlie), LIFETIME - minute)
    private = _made_ago(services.create_challenge(alice, private=True), LIFETIME + minute)
    # Settled in time, long ago.
    taken = services.create_challenge(bob)
    services.accept_challenge(taken.pk, user=charlie)
    taken = _made_ago(taken, LIFETIME + minute)
    declined = services.create_challenge(charlie, opponent=alice)
    services.decline_challenge(declined.pk, user=alice)
    declined = _made_ago(declined, LIFETIME + minute)

    expired = services.expire_challenges()

    assert expired == 3
    assert dict(Challenge.objects.values_list("pk", "status")) == {
        old.pk: "expired",
        young.pk: "open",
        addressed.pk: "expired",
        young_addressed.pk: "open",
        private.pk: "expired",
        taken.pk: "accepted",
        declined.pk: "declined",
    }


def test_the_sweep_is_beats_hourly_task(alice):
    _made_ago(services.create_challenge(alice), LIFETIME + timedelta(hours=1))

    assert tasks.task_expire_challenges() == 1
    assert tasks.task_expire_challenges() == 0
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "games.tasks.task_expire_challenges" in scheduled


def test_its_challenger_is_emailed_once_whatever_sweeps_run(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = _made_ago(services.create_challenge(alice, points=3), LIFETIME + timedelta(hours=1))

    with django_capture_on_commit_callbacks(execute=True):
        first = services.expire_challenges()
    with django_capture_on_commit_callbacks(execute=True):
        second = services.expire_challenges()

    assert (first, second) == (1, 0)
    [message] = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == "Your challenge in the lobby has expired"
    assert (
        "Your challenge in the lobby (American (US Navy), 3 points, 2 days per move, rated),"
        f" posted on {_day(challenge)}, expired unanswered after {CHALLENGE_DAYS} days:"
        " nobody took it up." in message.body
    )
    assert f"Make a new challenge: {settings.SITE_URL}/challenges/new/" in message.body
    assert Notification.objects.get(user=alice).key == f"expired:{challenge.pk}"


def _day(challenge: Challenge) -> str:
    return timezone.localtime(challenge.created_at).strftime("%-d %B %Y")


def test_a_challenge_to_a_player_expires_with_an_email_to_its_challenger_alone(
    client, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = _expired(alice, opponent=bob, variant="greek")
    mail.outbox = [m for m in mail.outbox if "has expired" in m.subject]  # not the offer
    client.force_login(bob)
    dashboard = client.get(reverse("dashboard")).text

    [message] = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == "Your challenge to bob has expired"
    assert (
        "Your challenge to bob (Greek, 1 point, 2 days per move, rated),"
        f" sent on {_day(challenge)}, expired unanswered after {CHALLENGE_DAYS} days."
        in message.body
    )
    again = f"{settings.SITE_URL}/challenges/new/?opponent=bob"
    assert f"Challenge bob again, or someone else: {again}" in message.body
    assert challenge.get_absolute_url() not in dashboard
    assert "Challenges for you" not in dashboard


def test_a_rematch_offer_expires_as_a_challenge_to_a_player_does(
    alice, bob, django_capture_on_commit_callbacks
):
    match = services.resign(opened_by_white(alice, bob).pk, user=bob)
    offer = _made_ago(services.offer_rematch(match, user=alice), LIFETIME + timedelta(hours=1))
    mail.outbox = []

    with django_capture_on_commit_callbacks(execute=True):
        services.expire_challenges()

    [message] = mail.outbox
    assert message.subject == "Your rematch offer to bob has expired"
    assert f"Your offer to bob of a rematch of match #{match.pk} (" in message.body
    assert services.rematch_offers(match, alice)["mine"] is None  # room for another
    offer.refresh_from_db()
    assert offer.status == "expired"


def test_a_private_invite_expires_and_its_link_is_refused(
    client, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = _expired(alice, private=True)
    client.force_login(bob)

    page = client.get(challenge.invite_path()).text
    accept = client.post(
        reverse("challenge_accept", args=[challenge.pk]),
        {"token": challenge.invite_token},
        follow=True,
    ).text

    [message] = mail.outbox
    assert message.subject == "Your private invite has expired"
    assert (
        f"made on {_day(challenge)}, expired unanswered after {CHALLENGE_DAYS} days:"
        " nobody accepted it, and its link no longer works." in message.body
    )
    assert "Status: <strong>Expired</strong>" in page
    assert f"Nobody took it up within {CHALLENGE_DAYS} days." in page
    assert "Accept and play" not in page
    assert f"This challenge has expired: nobody took it up within {CHALLENGE_DAYS} days." in accept
    assert not Match.objects.exists()


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
    assert f"Nobody took it up within {CHALLENGE_DAYS} days" in page
    assert f"This challenge has expired: nobody took it up within {CHALLENGE_DAYS} days." in cancel
    challenge.refresh_from_db()
    assert challenge.status == "expired"


def _time(when) -> str:
    """The start of a <time> element for ``when``, as the timestamp tag writes it."""
    return f'<time datetime="{timezone.localtime(when).isoformat()}"'


def test_the_pages_say_how_long_a_lobby_challenge_waits(client, alice):
    challenge = services.create_challenge(alice)
    client.force_login(alice)

    lobby = client.get(reverse("lobby")).text
    page = client.get(challenge.get_absolute_url()).text

    assert f"each waits {CHALLENGE_DAYS} days, then expires" in lobby
    expires = challenge.created_at + LIFETIME
    assert f"for anyone to accept, until {_time(expires)}" in page


def test_the_challenge_form_says_when_a_challenge_sent_now_expires(client, alice):
    client.force_login(alice)
    before = timezone.now()

    new = client.get(reverse("challenge_new")).text

    assert (
        f"Whoever it is for, a challenge waits {CHALLENGE_DAYS} days for someone to accept it,"
        " then expires: one sent now expires on <time" in new
    )
    shown = datetime.fromisoformat(re.search(r'expires on <time datetime="([^"]+)"', new)[1])
    assert before + LIFETIME <= shown <= timezone.now() + LIFETIME


def test_both_players_lists_and_pages_say_when_a_challenge_expires(client, alice, bob, charlie):
    to_bob = services.create_challenge(alice, opponent=bob)
    invite = services.create_challenge(alice, private=True, variant="greek")
    client.force_login(alice)
    alices = client.get(reverse("dashboard")).text
    to_bob_for_alice = client.get(to_bob.get_absolute_url()).text
    invite_for_alice = client.get(invite.get_absolute_url()).text
    client.force_login(bob)
    bobs = client.get(reverse("dashboard")).text
    to_bob_for_bob = client.get(to_bob.get_absolute_url()).text
    client.force_login(charlie)
    invite_for_charlie = client.get(invite.invite_path()).text

    for challenge in (to_bob, invite):
        assert f"expires on {_time(challenge.expires_at)}" in alices
    assert f"expires on {_time(to_bob.expires_at)}" in bobs
    assert f"It waits for <bdi>bob</bdi>'s answer until {_time(to_bob.expires_at)}" in (
        to_bob_for_alice
    )
    assert f"Your friend may accept it until {_time(invite.expires_at)}" in invite_for_alice
    assert f"Open until {_time(to_bob.expires_at)}" in to_bob_for_bob
    assert f"Open until {_time(invite.expires_at)}" in invite_for_charlie


def test_a_settled_challenge_has_no_expiry(alice, bob):
    challenge = services.create_challenge(alice, opponent=bob)
    assert challenge.expires_at == challenge.created_at + LIFETIME

    services.decline_challenge(challenge.pk, user=bob)
    challenge.refresh_from_db()

    assert challenge.expires_at is None


# Before the hourly sweep comes: a challenge is expired the moment its days are past, not
# when the sweep marks it so (models.challenge_expiry_cutoff), and behaves as one swept.


def test_a_challenge_past_its_days_is_refused_before_the_sweep_marks_it(alice, bob):
    challenge = _made_ago(services.create_challenge(alice, opponent=bob), LIFETIME)

    with pytest.raises(services.StaleSegment, match="this challenge has expired"):
        services.accept_challenge(challenge.pk, user=bob)
    with pytest.raises(services.StaleSegment, match="this challenge has expired"):
        services.cancel_challenge(challenge.pk, user=alice)

    assert not Match.objects.exists()
    challenge.refresh_from_db()
    assert challenge.status == "open"  # the sweep's to mark, and to email of
    assert challenge.current_status == "expired"


def test_a_challenge_past_its_days_is_listed_nowhere_before_the_sweep(client, alice, bob):
    lobby_one = _made_ago(services.create_challenge(alice), LIFETIME)
    to_bob = _made_ago(services.create_challenge(alice, opponent=bob), LIFETIME)
    client.force_login(bob)
    lobby = client.get(reverse("lobby")).text
    bobs = client.get(reverse("dashboard")).text
    client.force_login(alice)
    alices = client.get(reverse("dashboard")).text

    for challenge in (lobby_one, to_bob):
        assert challenge.get_absolute_url() not in lobby + bobs + alices
    assert Challenge.objects.issued_by(alice).count() == 0  # places free under the limit


def test_a_rematch_offer_past_its_days_is_not_taken_up_nor_in_the_way(alice, bob):
    match = services.resign(opened_by_white(alice, bob).pk, user=bob)
    old = _made_ago(services.offer_rematch(match, user=alice), LIFETIME)

    offered_back = services.offer_rematch(match, user=bob)

    assert services.rematch_offers(match, alice)["theirs"] == offered_back
    assert offered_back.pk != old.pk and offered_back.status == "open"
    assert not Match.objects.exclude(pk=match.pk).exists()  # not a rematch of the old offer


def test_the_pages_refuse_a_challenge_past_its_days_as_an_expired_one(
    client, alice, bob, charlie, django_capture_on_commit_callbacks
):
    lobby_one = _made_ago(services.create_challenge(alice), LIFETIME)
    to_bob = _made_ago(services.create_challenge(alice, opponent=bob, variant="greek"), LIFETIME)
    client.force_login(bob)
    bobs = client.post(reverse("challenge_accept", args=[to_bob.pk]), follow=True).text
    client.force_login(charlie)
    charlies = client.post(reverse("challenge_accept", args=[lobby_one.pk]), follow=True).text
    page = client.get(lobby_one.get_absolute_url())
    client.force_login(alice)
    own = client.get(to_bob.get_absolute_url()).text

    assert f"This challenge has expired: nobody took it up within {CHALLENGE_DAYS} days." in bobs
    assert "That challenge is no longer open" in charlies  # a lobby one is its players' now
    assert page.status_code == 404
    assert "Status: <strong>Expired</strong>" in own and "Cancel the challenge" not in own
    assert not Match.objects.exists()
    # The sweep still marks them, and tells their challenger.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.expire_challenges() == 2
    assert {m.subject for m in mail.outbox if "expired" in m.subject} == {
        "Your challenge in the lobby has expired",
        "Your challenge to bob has expired",
    }


def test_a_block_or_a_closure_ends_a_challenge_past_its_days_before_the_sweep(alice, bob, charlie):
    to_bob = _made_ago(services.create_challenge(alice, opponent=bob), LIFETIME)
    to_charlie = _made_ago(services.create_challenge(alice, opponent=charlie), LIFETIME)

    made = blocks.block(bob, other=alice)
    closure = closing.close_account(charlie)

    # Declined, as one still waiting would be: left to the sweep, each would have emailed
    # alice to challenge bob, or charlie's closed account, again.
    assert (made.withdrawn, made.declined) == (0, 1)
    assert (closure.challenges_withdrawn, closure.challenges_declined) == (0, 1)
    assert services.expire_challenges() == 0
    assert {to_bob.pk, to_charlie.pk} == set(
        Challenge.objects.filter(status="declined").values_list("pk", flat=True)
    )
