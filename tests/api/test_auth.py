"""Authentication: an API key or the browser session (with CSRF on POST)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games.models import Match

from .conftest import post_json

pytestmark = pytest.mark.django_db


def test_it_authenticates_by_token(alice_api, alice):
    response = alice_api.get(reverse("api_me"))

    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    assert ApiToken.objects.get(user=alice).last_used_at is not None


def test_it_does_not_ask_token_requests_for_csrf(alice_api, match):
    response = post_json(alice_api, reverse("api_match_resign", args=[match.pk]))

    assert response.status_code == 200


def test_it_refuses_anonymous_requests():
    response = Client().get(reverse("api_me"))

    assert response.status_code == 401
    assert "Token" in response.json()["error"]
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(
    "header",
    ["Token not-a-key", "Token ", "Bearer abc", "Token", "", "   "],
)
def test_it_refuses_a_bad_authorization_header(alice, header):
    client = Client(headers={"authorization": header})
    client.force_login(alice)  # a bad header is not rescued by the session

    response = client.get(reverse("api_me"))

    assert response.status_code == 401
    assert isinstance(response.json()["error"], str)


def test_it_refuses_the_key_of_a_deactivated_user(alice_api, alice):
    alice.is_active = False
    alice.save()

    response = alice_api.get(reverse("api_me"))

    assert response.status_code == 401


def test_it_accepts_the_session_for_reading(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.get(reverse("api_me"))

    assert response.status_code == 200
    assert "csrftoken" in response.cookies  # for the POSTs that follow


def test_it_requires_csrf_for_session_posts(alice, match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = reverse("api_match_resign", args=[match.pk])

    refused = post_json(client, url)
    csrf_token = client.get(reverse("api_me")).cookies["csrftoken"].value
    accepted = post_json(client, url, headers={"x-csrftoken": csrf_token})

    assert refused.status_code == 403
    assert "CSRF" in refused.json()["error"]
    assert accepted.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_an_api_answer_sets_no_timezone_cookie(alice, alice_api):
    alice.timezone = "Asia/Tokyo"
    alice.save()

    response = alice_api.get("/api/v1/me/")

    assert response.status_code == 200
    assert "tz" not in response.cookies
