"""SECRET_KEY rotated with the old key in SECRET_KEY_FALLBACKS: what the old key signed
holds (a session, a link in an email already sent); without it, nothing does."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import notifications

pytestmark = pytest.mark.django_db

OLD, NEW = "old-key-" + "x" * 50, "new-key-" + "y" * 50


@pytest.mark.parametrize("kept", [True, False], ids=["old-key-listed", "old-key-dropped"])
def test_a_session_and_an_emailed_link_outlive_a_rotation_while_the_old_key_is_listed(
    settings, alice, kept
):
    settings.SECRET_KEY = OLD
    browser = Client()
    browser.force_login(alice)
    token = notifications.unsubscribe_token(alice)

    settings.SECRET_KEY = NEW
    settings.SECRET_KEY_FALLBACKS = [OLD] if kept else []

    assert (notifications.user_from_unsubscribe_token(token) == alice.pk) == kept
    dashboard = browser.get(reverse("dashboard"))
    assert (dashboard.status_code == 200) == kept  # else logged out: to the login page
