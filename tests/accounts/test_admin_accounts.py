"""Staff changing accounts in the admin: held to sign-up's rule on names (no username that
reads as another account's: a form error, not a server error), and an address staff typed
is nobody's proof, so it waits for its owner to confirm it, as a new player's does."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.com", "x"))
    return client


def _change_data(user: User, **changes) -> dict:
    data = {
        "username": user.username,
        "email": user.email,
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "display_name": "",
        "about": "",
        "country": "",
        "timezone": "UTC",
        "is_active": "on",
    }
    return {**data, **changes}


def test_staff_cannot_rename_an_account_to_a_look_alike(staff, alice, bob):
    url = reverse("admin:accounts_user_change", args=[bob.pk])

    response = staff.post(url, _change_data(bob, username="\u0430lice"))  # a Cyrillic a

    assert response.status_code == 200
    assert "looks the same as an existing player" in response.text
    bob.refresh_from_db()
    assert bob.username == "bob"


def test_staff_may_keep_an_accounts_own_name(staff, bob):
    url = reverse("admin:accounts_user_change", args=[bob.pk])

    response = staff.post(url, _change_data(bob, display_name="Bob B."))

    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.display_name == "Bob B."


def test_staff_cannot_add_an_account_named_like_another(staff, alice):
    response = staff.post(
        reverse("admin:accounts_user_add"),
        {"username": "ALICE", "usable_password": "false"},
    )

    assert response.status_code == 200
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_it_leaves_an_address_staff_change_unconfirmed_until_its_owner_confirms_it(staff, bob):
    url = reverse("admin:accounts_user_change", args=[bob.pk])

    response = staff.post(url, _change_data(bob, email="bob@example.org"))

    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.email == "bob@example.org"
    assert bob.email_confirmed_at is None


def test_it_keeps_the_address_confirmed_through_other_changes(staff, bob):
    confirmed = bob.email_confirmed_at
    url = reverse("admin:accounts_user_change", args=[bob.pk])

    response = staff.post(url, _change_data(bob, display_name="Bob B."))

    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.email_confirmed_at == confirmed


def test_it_shows_when_the_address_was_confirmed(staff, bob):
    page = staff.get(reverse("admin:accounts_user_change", args=[bob.pk]))

    assert "Email confirmed at" in page.text
