"""The page that closes an account: it says what closing ends, asks for the password, and
logs the player out with a word on what was done."""

from __future__ import annotations

import pytest
from django.core import mail
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
    assert "your match in play is resigned" in response.text  # not "your 1 match"
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


def test_the_owner_is_emailed_what_closing_did_and_that_it_cannot_be_undone(
    client, alice, bob, charlie, django_capture_on_commit_callbacks
):
    from games import services

    alice.timezone = "Europe/Athens"
    alice.save()
    opened_by_white(alice, bob)
    opened_by_white(charlie, alice)
    services.create_challenge(alice, opponent=charlie)
    client.force_login(alice)
    mail.outbox = []

    with django_capture_on_commit_callbacks(execute=True):
        client.post(URL, {"password": PASSWORD})

    [closed] = [message for message in mail.outbox if message.to == ["alice@example.com"]]
    assert closed.subject == "Your Acey-Deucey account is closed"
    assert "Your Acey-Deucey account alice was closed on the settings page" in closed.body
    assert "EET" in closed.body or "EEST" in closed.body  # in her own time
    assert "Your 2 matches in play were resigned: your opponents win them." in closed.body
    assert "Your open challenge was withdrawn." in closed.body  # not "Your 1 open challenge"
    assert "Your past matches and ratings stay under your username" in closed.body
    assert "This is the last email we send you." in closed.body
    assert "Closing an account cannot be undone. To play again, sign up with a new username." in (
        closed.body
    )
    assert "If you did not close it, someone who knew your password did" in closed.body


def test_closing_again_an_account_closed_already_emails_nobody(
    alice, django_capture_on_commit_callbacks
):
    from games import closing

    closing.close_account(alice)
    mail.outbox = []

    with django_capture_on_commit_callbacks(execute=True):
        closing.close_account(alice)  # as an interrupted closure is finished

    assert mail.outbox == []


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


def test_a_tournament_she_organises_and_plays_in_is_called_off_not_also_left(client, alice, bob):
    from games.tournaments import services as tournaments
    from games.tournaments.brackets import Format
    from tests.tournaments_site.helpers import make_users, open_tournament, started_tournament

    organised = open_tournament(alice, name="Harbour cup")
    tournaments.sign_up(organised.pk, user=alice)
    started_tournament(bob, [alice, *make_users(2)], format=Format.ROUND_ROBIN)
    client.force_login(alice)

    page = client.get(URL).text
    response = client.post(URL, {"password": PASSWORD}, follow=True)

    assert "you leave your tournament;" in page
    assert f'<a href="{organised.get_absolute_url()}">Harbour cup</a>' in page
    assert "1 tournament left, 1 tournament called off" in response.text


def test_an_address_never_confirmed_is_not_told_of_the_closing(
    client, django_user_model, django_capture_on_commit_callbacks
):
    # Anyone may sign up with anyone's address: signing up and closing, again and again,
    # must not send its owner a notice each time of an account that was never theirs.
    newcomer = django_user_model.objects.create_user(
        username="newcomer", email="someone@example.com", password=PASSWORD
    )
    client.force_login(newcomer)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(URL, {"password": PASSWORD})

    assert response.status_code == 302
    newcomer.refresh_from_db()
    assert not newcomer.is_active and newcomer.email == ""
    assert mail.outbox == []


def test_the_page_says_an_address_never_confirmed_gets_no_last_email(client, django_user_model):
    newcomer = django_user_model.objects.create_user(
        username="newcomer", email="someone@example.com", password=PASSWORD
    )
    client.force_login(newcomer)

    page = client.get(URL).text

    assert "your address was never confirmed, so we do not tell it" in page
    assert "one last email" not in page
