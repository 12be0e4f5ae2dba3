"""The admin's login page is counted with the site's login failures (accounts.throttle)."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_superuser("boss", "boss@example.com", PASSWORD)


def _admin_log_in(client, password: str):
    return client.post(
        reverse("admin:login"),
        {"username": "boss", "password": password, "next": "/admin/"},
        REMOTE_ADDR="10.0.0.9",
    )


def test_staff_log_in_to_the_admin(client, boss):
    response = _admin_log_in(client, PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(boss.pk)


def test_the_admin_login_stops_checking_passwords_after_five_failures(client, boss):
    for _ in range(5):
        assert "Too many" not in _admin_log_in(client, "guess").text

    response = _admin_log_in(client, PASSWORD)

    assert "Too many failed login attempts" in response.text
    assert "_auth_user_id" not in client.session


def test_a_player_who_is_not_staff_is_still_refused(client, alice):
    response = client.post(
        reverse("admin:login"), {"username": "alice", "password": PASSWORD, "next": "/admin/"}
    )

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
