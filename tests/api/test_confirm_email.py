"""POST /api/v1/me/confirm-email/: the link that confirms one's address, sent again, with
the limit the web's "Send the link again" has (accounts.throttle)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Notification

from .conftest import post_json, token_client

# The limit's counters live in the cache: emptied around each test.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]

URL = "/api/v1/me/confirm-email/"


@pytest.fixture
def leo(django_user_model) -> User:
    """A player who has not confirmed his address."""
    return django_user_model.objects.create_user(username="leo", email="leo@example.com")


@pytest.fixture
def leo_api(leo) -> Client:
    return token_client(leo)


def test_it_sends_a_link_that_confirms_the_address(
    leo, leo_api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(leo_api, URL)

    assert reverse("api_me_confirm_email") == URL
    assert response.status_code == 202
    assert response.json() == {"email": "leo@example.com", "valid_days": 7}
    [message] = mail.outbox
    assert message.to == ["leo@example.com"]
    link = re.search(r"https?://[^/\s]+(/accounts/email/verify/\S+/)", message.body).group(1)
    Client().post(link)
    leo.refresh_from_db()
    assert leo.email_confirmed_at is not None


def test_it_sends_at_most_three_an_hour_then_answers_429(leo, leo_api):
    for _ in range(3):
        assert post_json(leo_api, URL).status_code == 202

    response = post_json(leo_api, URL)

    assert response.status_code == 429
    assert response.json()["error"] == (
        "We have sent you 3 links in the last hour, as many as we send: follow one of those,"
        " or ask again in an hour."
    )
    assert response["Retry-After"] == "3600"
    assert Notification.objects.filter(user=leo).count() == 3


def test_the_web_and_the_api_share_the_limit(leo, leo_api):
    web = Client()
    web.force_login(leo)
    for _ in range(3):
        web.post(reverse("email_verify_send"))

    response = post_json(leo_api, URL)

    assert response.status_code == 429
    assert Notification.objects.filter(user=leo).count() == 3


def test_it_answers_409_for_an_address_confirmed_already(alice, alice_api):
    response = post_json(alice_api, URL)

    assert response.status_code == 409
    assert response.json() == {
        "error": "Your email address alice@example.com is confirmed already."
    }
    assert not Notification.objects.exists()


def test_it_answers_400_for_an_account_without_an_address(leo, leo_api):
    User.objects.filter(pk=leo.pk).update(email="")

    response = post_json(leo_api, URL)

    assert response.status_code == 400
    assert "no email address" in response.json()["error"]
    assert not Notification.objects.exists()


def test_it_needs_a_login_a_post_and_no_fields(leo, leo_api, client):
    anonymous = post_json(client, URL)
    got = leo_api.get(URL)
    with_fields = post_json(leo_api, URL, {"email": "someone@example.org"})

    assert anonymous.status_code == 401
    assert got.status_code == 405
    assert with_fields.status_code == 400
    assert "unknown field" in with_fields.json()["error"]
    assert not Notification.objects.exists()
