"""The page that closes an account: it says what closing ends, asks for the password, and
logs the player out with a word on what was done."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
URL = reverse("close_account")


def test_it_says_what_closing_will_end(client, alice, bob):
    opened_by_white(alice, bob)
    client.force_login(alice)

    response = client.get(URL)

    assert response.status_code == 200
    assert "your 1 match in play is resigned" in response.text
    assert "cannot be undone" in response.text


def test_a_wrong_password_changes_nothing(client, alice, bob):
    match = opened_by_white(alice, bob)
    client.force_login(alice)

    response = client.post(URL, {"password": "not it"})

    assert response.status_code == 200
    assert "That is not your password." in response.text
    alice.refresh_from_db()
    assert alice.is_active and alice.email == "alice@example.com"
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    assert client.get(reverse("settings")).status_code == 200  # still logged in


def test_the_password_closes_it_and_logs_out(client, alice, bob):
    match = opened_by_white(alice, bob)
    client.force_login(alice)

    response = client.post(URL, {"password": PASSWORD}, follow=True)

    assert response.redirect_chain == [(reverse("home"), 302)]
    assert "Your account is closed (1 match resigned)." in response.text
    alice.refresh_from_db()
    assert not alice.is_active
    assert Match.objects.get(pk=match.pk).winner == bob
    assert "_auth_user_id" not in client.session
    assert not client.login(username="alice", password=PASSWORD)


def test_another_session_of_hers_ends_too(client, alice):
    elsewhere = client.__class__()
    elsewhere.force_login(alice)
    client.force_login(alice)

    client.post(URL, {"password": PASSWORD})

    assert elsewhere.get(reverse("settings")).status_code == 302  # to the login page


def test_it_needs_a_login(client):
    response = client.post(URL, {"password": PASSWORD})

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_it_warns_an_organiser_of_the_open_tournaments_it_calls_off(client, alice, bob):
    from tests.tournaments_site.helpers import open_tournament

    cup = open_tournament(alice, name="Harbour cup")  # alice organises it, without playing
    client.force_login(alice)

    response = client.get(URL)

    assert "called off for everyone signed up" in response.text
    assert f'<a href="{cup.get_absolute_url()}">Harbour cup</a>' in response.text


def test_wrong_passwords_count_with_the_logins_and_are_limited(client, alice):
    client.force_login(alice)
    for _ in range(5):
        client.post(URL, {"password": "a guess"})

    response = client.post(URL, {"password": PASSWORD})  # right, but too late

    assert "Too many wrong passwords" in response.text
    alice.refresh_from_db()
    assert alice.is_active


def test_an_empty_post_is_told_what_is_missing(client, alice):
    client.force_login(alice)

    response = client.post(URL, {})

    assert response.status_code == 200
    assert "This field is required." in response.text
    alice.refresh_from_db()
    assert alice.is_active
