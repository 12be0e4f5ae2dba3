"""Limits on email-change confirmation links, per player and per address they go to: one
player must not be able to flood someone's inbox with them."""

import time

import pytest
from django.core import mail
from django.urls import reverse

from accounts import throttle

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def ask(client, email: str):
    return client.post(reverse("email_change"), {"email": email, "password": PASSWORD})


def test_one_address_is_sent_a_few_links_an_hour_however_often_they_are_asked(client, alice):
    client.force_login(alice)
    answers = [ask(client, "victim@example.org") for _ in range(12)]

    assert [a.status_code for a in answers[:3]] == [302, 302, 302]
    assert {a.status_code for a in answers[3:]} == {429}
    assert len(mail.outbox) == throttle.MAX_EMAIL_CHANGES_PER_ADDRESS == 3
    assert "That address has been sent as many confirmation links" in answers[3].text
    assert "You have asked for 5 confirmation links" in answers[-1].text


def test_the_limit_per_address_holds_across_players(client, alice, bob):
    client.force_login(alice)
    for _ in range(3):
        ask(client, "Victim@Example.org")
    client.force_login(bob)

    refused = ask(client, "victim@example.org")

    assert refused.status_code == 429
    assert len(mail.outbox) == 3


def test_one_player_is_sent_a_few_links_an_hour_whatever_the_addresses(client, alice):
    client.force_login(alice)
    for n in range(throttle.MAX_EMAIL_CHANGES_PER_PLAYER):
        assert ask(client, f"alice{n}@new.example").status_code == 302

    refused = ask(client, "alice-again@new.example")

    assert refused.status_code == 429
    assert "You have asked for 5 confirmation links in the last hour" in refused.text
    assert len(mail.outbox) == 5
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_a_request_refused_for_its_player_does_not_count_against_the_address(client, alice, bob):
    client.force_login(alice)
    for n in range(throttle.MAX_EMAIL_CHANGES_PER_PLAYER):
        ask(client, f"alice{n}@new.example")
    for _ in range(5):
        ask(client, "victim@example.org")  # refused: alice is over her limit
    client.force_login(bob)

    response = ask(client, "victim@example.org")

    assert response.status_code == 302
    assert mail.outbox[-1].to == ["victim@example.org"]


def test_a_refused_form_sends_nothing_and_counts_nothing(client, alice):
    client.force_login(alice)
    # More than the address's limit, fewer than the login throttle allows.
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP - 1):
        client.post(reverse("email_change"), {"email": "victim@example.org", "password": "x"})

    response = ask(client, "victim@example.org")

    assert response.status_code == 302
    assert len(mail.outbox) == 1


@pytest.mark.usefixtures("local_memory_cache")
def test_it_sends_links_again_once_the_hour_has_passed(client, alice, monkeypatch):
    client.force_login(alice)
    for _ in range(4):
        ask(client, "victim@example.org")
    later = time.time() + throttle.EMAIL_CHANGE_WINDOW_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)

    response = ask(client, "victim@example.org")

    assert response.status_code == 302
    assert len(mail.outbox) == 4
