"""Logging in by username in any case: usernames are unique whatever their case, so "Alice"
names alice's account as surely as "alice" does."""

import pytest
from django.urls import reverse

from accounts import throttle
from games import closing

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def log_in(client, username: str, password: str = PASSWORD, ip: str = "10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


@pytest.mark.parametrize("typed", ["Alice", "ALICE", "aLiCe"])
def test_it_logs_in_by_username_in_any_case(client, alice, typed):
    response = log_in(client, typed)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_does_not_count_a_right_password_in_another_case_as_a_failure(client, alice):
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP + 1):
        log_in(client, "ALICE")
        client.logout()

    response = log_in(client, "alice")

    assert response.status_code == 302


def test_it_still_refuses_a_wrong_password_in_any_case(client, alice):
    response = log_in(client, "Alice", "not her password")

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.text
    assert "_auth_user_id" not in client.session


def test_it_counts_failures_in_any_case_against_the_one_username(client, alice):
    for typed in ("Alice", "ALICE", "alice", "aLICE", "alicE"):
        log_in(client, typed, "wrong")

    response = log_in(client, "ALICE")

    assert response.status_code == 429


def test_it_does_not_let_a_closed_account_in_by_another_case(client, alice):
    closing.close_account(alice)

    upper = log_in(client, "ALICE")
    same = log_in(client, "alice")

    assert upper.status_code == same.status_code == 200
    assert "Please enter a correct username and password" in upper.text
    assert "_auth_user_id" not in client.session


def test_the_error_no_longer_says_the_username_may_be_case_sensitive(client, alice):
    response = log_in(client, "alice", "wrong")

    assert "both fields may be case-sensitive" not in response.text
