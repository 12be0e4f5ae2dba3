"""A player cannot flood another's inbox by challenging, withdrawing and challenging again:
the offer of a challenge settled before its email went is not sent, and a challenger may
send the same player only so many challenges a day."""

from __future__ import annotations

import pytest
from django.core import mail

from games import notifications, services
from games.models import Challenge, Notification
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
