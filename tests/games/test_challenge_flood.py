"""A player cannot flood another's inbox by challenging, withdrawing and challenging again:
the offer of a challenge waits a little (settings.CHALLENGE_EMAIL_DELAY_SECONDS) and is not
sent if the challenge was settled meanwhile, and a challenger may send the same player only
so many challenges a day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from aceysite.celery import app as celery_app
from games import notifications, services
from games.models import CHALLENGE_DAYS, Challenge, Notification
from tests.api.conftest import post_json, token_client
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


def _offered(challenger, opponent, django_capture_on_commit_callbacks, **options) -> Challenge:
    """A challenge whose email is stored in the outbox, its sending task not run yet (a
    worker behind, or the broker down)."""
    with django_capture_on_commit_callbacks(execute=False):
        return services.create_challenge(challenger, opponent=opponent, **options)


def _offer_email(challenge: Challenge) -> Notification:
    return Notification.objects.get(key=notifications.challenge_key(challenge.pk))


# -- the email of a challenge settled before it went -----------------------------------------


def test_the_email_of_a_challenge_withdrawn_before_it_went_is_not_sent(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    services.cancel_challenge(challenge.pk, user=alice)

    sent = notifications.send_notification(_offer_email(challenge).pk)

    email = _offer_email(challenge)
    assert sent is False
    assert mail.outbox == []
    assert email.sent_at is None and email.cancelled_at is not None
    assert email.pk not in notifications.unsent(older_than_seconds=0)  # nor sent later


@pytest.mark.parametrize("settle", ["decline", "accept"])
def test_the_email_of_a_challenge_answered_before_it_went_is_not_sent(
    alice, bob, django_capture_on_commit_callbacks, settle
):
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        if settle == "decline":
            services.decline_challenge(challenge.pk, user=bob)
        else:
            services.accept_challenge(challenge.pk, user=bob)

    assert notifications.send_notification(_offer_email(challenge).pk) is False
    assert [m for m in mail.outbox if m.to == [bob.email]] == []


@pytest.mark.parametrize("swept", [False, True])
def test_the_email_of_a_challenge_expired_before_it_went_is_not_sent(
    alice, bob, django_capture_on_commit_callbacks, swept
):
    # Its sending put off (a mail server down for long, retried later): by then past its
    # days, it has expired whether or not the hourly sweep has marked it so.
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    Challenge.objects.filter(pk=challenge.pk).update(
        created_at=timezone.now() - timedelta(days=CHALLENGE_DAYS, hours=1)
    )
    if swept:
        with django_capture_on_commit_callbacks(execute=False):
            assert services.expire_challenges() == 1

    sent = notifications.send_notification(_offer_email(challenge).pk)

    assert sent is False
    assert [m for m in mail.outbox if m.to == [bob.email]] == []
    assert _offer_email(challenge).cancelled_at is not None


def test_the_email_of_a_rematch_offer_withdrawn_before_it_went_is_not_sent(
    alice, bob, django_capture_on_commit_callbacks
):
    match = services.resign(opened_by_white(alice, bob).pk, user=bob)
    with django_capture_on_commit_callbacks(execute=False):
        offer = services.offer_rematch(match, user=alice)
    services.cancel_challenge(offer.pk, user=alice)
    mail.outbox = []

    assert notifications.send_notification(_offer_email(offer).pk) is False
    assert mail.outbox == []


def test_the_email_of_a_challenge_still_waiting_is_sent_once(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)

    first = notifications.send_notification(_offer_email(challenge).pk)
    second = notifications.send_notification(_offer_email(challenge).pk)

    assert (first, second) == (True, False)
    assert [m.to for m in mail.outbox] == [[bob.email]]


def test_the_news_of_a_declined_challenge_is_sent_though_it_no_longer_waits(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        services.decline_challenge(challenge.pk, user=bob)
    declined = Notification.objects.get(user=alice)

    assert notifications.send_notification(declined.pk) is True
    assert [m.subject for m in mail.outbox] == ["bob declined your challenge"]


# -- the offer's wait ---------------------------------------------------------------------------

DELAY = 120


@pytest.fixture
def worker_backed(settings):
    """Tasks published to a worker, not run in-process, with the wait set."""
    settings.CHALLENGE_EMAIL_DELAY_SECONDS = DELAY
    celery_app.conf.task_always_eager = False  # the autouse fixture puts it back


def _its_time_has_come(email: Notification) -> None:
    Notification.objects.filter(pk=email.pk).update(
        claimed_until=timezone.now() - timedelta(seconds=1),
        created_at=timezone.now() - timedelta(seconds=DELAY + 60),
    )


def test_the_offer_of_a_challenge_is_held_from_every_sender_for_the_delay(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    before = timezone.now()
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    email = _offer_email(challenge)

    assert email.claimed_until >= before + timedelta(seconds=DELAY)
    assert notifications.send_notification(email.pk) is False
    Notification.objects.filter(pk=email.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert notifications.unsent() == []  # the resend sweep leaves it alone too
    assert mail.outbox == []


def test_a_challenge_withdrawn_within_the_delay_sends_nothing(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    # A sender free at once (without the wait, the email went before the withdrawal).
    at_once = notifications.send_notification(_offer_email(challenge).pk)
    with django_capture_on_commit_callbacks(execute=False):
        services.cancel_challenge(challenge.pk, user=alice)
    _its_time_has_come(_offer_email(challenge))
    when_due = notifications.send_notification(_offer_email(challenge).pk)

    assert (at_once, when_due) == (False, False)

    email = _offer_email(challenge)
    assert email.sent_at is None and email.cancelled_at is not None
    assert mail.outbox == []


def test_a_challenge_left_open_is_offered_once_when_its_time_comes(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    _its_time_has_come(_offer_email(challenge))

    first = notifications.send_notification(_offer_email(challenge).pk)
    second = notifications.send_notification(_offer_email(challenge).pk)

    assert (first, second) == (True, False)
    [message] = mail.outbox
    assert message.to == [bob.email] and message.subject == "alice challenges you to Acey-Deucey"


def test_the_news_of_a_challenge_declined_is_not_held(
    worker_backed, alice, bob, django_capture_on_commit_callbacks
):
    challenge = _offered(alice, bob, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        services.decline_challenge(challenge.pk, user=bob)
    declined = Notification.objects.get(user=alice)

    assert declined.claimed_until is None
    assert notifications.send_notification(declined.pk) is True


def test_the_offer_is_not_held_when_tasks_run_in_process(settings):
    settings.CHALLENGE_EMAIL_DELAY_SECONDS = DELAY

    celery_app.conf.task_always_eager = True
    assert notifications.challenge_email_delay() == 0
    celery_app.conf.task_always_eager = False
    assert notifications.challenge_email_delay() == DELAY


# -- a few challenges a day to one player ----------------------------------------------------

A_DAY = services.MAX_CHALLENGES_TO_A_PLAYER_A_DAY


def _challenge_and_withdraw(challenger, opponent, times: int) -> None:
    for _ in range(times):
        challenge = services.create_challenge(challenger, opponent=opponent)
        services.cancel_challenge(challenge.pk, user=challenger)


def test_a_player_sends_another_a_few_challenges_a_day_withdrawn_ones_counted(alice, bob, charlie):
    _challenge_and_withdraw(alice, bob, A_DAY)
    emails = len(mail.outbox)

    with pytest.raises(
        services.TooManyChallenges, match="sent bob 3 challenges in the last 24 hours"
    ) as no:
        services.create_challenge(alice, opponent=bob)

    assert no.value.status == 429
    assert 23 * 3600 < no.value.retry_after <= 24 * 3600
    assert "you can challenge them again in about 24 hours" in str(no.value)
    assert Challenge.objects.filter(challenger=alice).count() == A_DAY
    assert len(mail.outbox) == emails  # no email to Bob
    # Others are not limited by it.
    services.create_challenge(alice, opponent=charlie)
    services.create_challenge(bob, opponent=alice)


def test_declined_challenges_count_and_accepted_ones_do_not(alice, bob):
    for _ in range(A_DAY - 1):
        challenge = services.create_challenge(alice, opponent=bob)
        services.decline_challenge(challenge.pk, user=bob)
    for _ in range(2):
        challenge = services.create_challenge(alice, opponent=bob)
        services.accept_challenge(challenge.pk, user=bob)
    services.create_challenge(alice, opponent=bob)  # the third not accepted

    Challenge.objects.filter(status="open").update(status="cancelled")
    with pytest.raises(services.TooManyChallenges):
        services.create_challenge(alice, opponent=bob)


def test_a_day_after_the_first_of_them_there_is_room_for_one_more(alice, bob):
    _challenge_and_withdraw(alice, bob, A_DAY)
    first = Challenge.objects.filter(challenger=alice).order_by("created_at").first()
    Challenge.objects.filter(pk=first.pk).update(created_at=first.created_at - timedelta(days=1))

    services.create_challenge(alice, opponent=bob)

    assert Challenge.objects.filter(challenger=alice, status="open").count() == 1


def test_rematch_offers_count_as_challenges(alice, bob):
    match = services.resign(opened_by_white(alice, bob).pk, user=bob)
    for _ in range(A_DAY):
        offer = services.offer_rematch(match, user=alice)
        services.cancel_challenge(offer.pk, user=alice)

    with pytest.raises(services.TooManyChallenges):
        services.offer_rematch(match, user=alice)


def test_the_challenge_form_refuses_one_too_many_in_a_sentence(client, alice, bob):
    _challenge_and_withdraw(alice, bob, A_DAY)
    client.force_login(alice)
    data = {"opponent": "bob", "variant": "greek", "points": 3, "days_per_move": 2}

    response = client.post(reverse("challenge_new"), data)

    assert response.status_code == 200
    assert (
        "You have sent bob 3 challenges in the last 24 hours:"
        " you can challenge them again in about 24 hours." in response.text
    )
    assert Challenge.objects.filter(challenger=alice).count() == A_DAY


def test_the_rematch_button_refuses_one_too_many_in_a_sentence(client, alice, bob):
    match = services.resign(opened_by_white(alice, bob).pk, user=bob)
    _challenge_and_withdraw(alice, bob, A_DAY)
    client.force_login(alice)

    response = client.post(reverse("match_rematch", args=[match.pk]), follow=True)

    assert response.redirect_chain == [(match.get_absolute_url(), 302)]
    assert "You have sent bob 3 challenges in the last 24 hours" in response.text


def test_the_api_refuses_one_too_many_with_429_and_retry_after(alice, bob):
    _challenge_and_withdraw(alice, bob, A_DAY)
    options = {"opponent": "bob", "variant": "american", "points": 1, "days_per_move": 2}

    response = post_json(token_client(alice), reverse("api_challenge_create"), options)

    assert response.status_code == 429
    assert 23 * 3600 < int(response["Retry-After"]) <= 24 * 3600
    assert response.json()["error"].startswith(
        "you have sent bob 3 challenges in the last 24 hours"
    )
