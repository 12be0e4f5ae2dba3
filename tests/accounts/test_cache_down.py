"""With the cache (Redis) down, logging in and asking for a password reset go on without
their limits, logged as warnings, instead of failing with a server error."""

from __future__ import annotations

import logging

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


@pytest.fixture
def cache_down(settings):
    # Nothing listens on port 1: every cache call fails to connect at once.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }


def test_logging_in_goes_on_while_the_cache_is_down(client, alice, cache_down, caplog):
    with caplog.at_level(logging.WARNING, logger="accounts.throttle"):
        wrong = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
        assert "_auth_user_id" not in client.session
        right = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert wrong.status_code == 200  # refused as a wrong password, not a server error
    assert right.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert "the cache is unreachable" in caplog.text


def test_a_reset_is_sent_while_the_cache_is_down(client, alice, cache_down):
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})

    assert response.status_code == 302
    assert [message.to for message in mail.outbox] == [["alice@example.com"]]
