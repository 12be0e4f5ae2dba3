"""A player is told that their time zone, their local time and their time away are shown
on their public profile: the sign-up form fills the zone in from the browser unasked."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_sign_up_form_says_the_time_zone_is_shown_on_the_profile(client):
    response = client.get(reverse("signup"))

    assert (
        "Your time zone is taken from your browser and shown, with your local time, on your"
        " public profile; you can change it in your settings." in response.text
    )


def test_the_settings_say_the_time_zone_and_time_away_are_shown_on_the_profile(client, alice):
    client.force_login(alice)

    response = client.get(reverse("settings"))

    assert "Your public profile shows it, with your local time." in response.text
    assert "Your public profile shows that you are away, and until when." in response.text
