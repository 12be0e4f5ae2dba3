"""Taking time away from the settings page, and what other pages say of a player away."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import away, services
from games.models import Absence
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


@pytest.fixture
def alice_in_tokyo(alice):
    alice.timezone = "Asia/Tokyo"
    alice.save()
    return alice


def test_the_settings_page_offers_time_away_with_the_days_left(client, alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 21
    client.force_login(alice)

    response = client.get(reverse("settings"))

    assert "Time away" in response.text
    assert "21 of 21 days" in response.text
    assert f'action="{reverse("away_start")}"' in response.text


def test_a_player_goes_away_until_the_start_of_the_day_they_chose_in_their_zone(
    client, alice_in_tokyo, bob
):
    match = opened_by_white(alice_in_tokyo, bob)
    deadline = match.deadline
    back_on = timezone.localdate(timezone=TOKYO) + timedelta(days=7)
    client.force_login(alice_in_tokyo)

    response = client.post(reverse("away_start"), {"back_on": back_on.isoformat()}, follow=True)

    until = datetime.combine(back_on, time(), tzinfo=TOKYO)
    alice_in_tokyo.refresh_from_db()
    assert alice_in_tokyo.away_until == until
    match.refresh_from_db()
    assert deadline + timedelta(days=6) < match.deadline <= deadline + timedelta(days=7)
    assert f"You are away until {back_on:%-d %B}." in response.text
    assert "I am back" in response.text


@pytest.mark.parametrize("days", [0, -1])
def test_a_day_that_is_not_after_today_is_refused(client, alice_in_tokyo, days):
    back_on = timezone.localdate(timezone=TOKYO) + timedelta(days=days)
    client.force_login(alice_in_tokyo)

    response = client.post(reverse("away_start"), {"back_on": back_on.isoformat()})

    assert response.status_code == 200
    assert "Choose a day after today." in response.text
    alice_in_tokyo.refresh_from_db()
    assert alice_in_tokyo.away_until is None


@pytest.mark.parametrize("value", ["", "soon", "2026-02-30", "9999999-01-01"])
def test_a_malformed_day_is_refused_with_a_reason(client, alice, value):
    client.force_login(alice)

    response = client.post(reverse("away_start"), {"back_on": value})

    assert response.status_code == 200
    assert 'class="errorlist' in response.text
    assert not Absence.objects.exists()


def test_more_days_than_are_left_is_refused_on_the_page(client, alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 3
    back_on = timezone.localdate(timezone=zoneinfo.ZoneInfo("UTC")) + timedelta(days=5)
    client.force_login(alice)

    response = client.post(reverse("away_start"), {"back_on": back_on.isoformat()})

    assert response.status_code == 200
    assert "you have 3 days left this year" in response.text
    assert not Absence.objects.exists()


def test_a_player_away_comes_back(client, alice):
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    response = client.post(reverse("away_end"), follow=True)

    assert "Welcome back: your clocks run again." in response.text
    alice.refresh_from_db()
    assert alice.away_until is None


def test_coming_back_when_not_away_says_so(client, alice):
    client.force_login(alice)

    response = client.post(reverse("away_end"), follow=True)

    assert "You are not away." in response.text


def test_the_profile_the_match_page_and_the_api_say_who_is_away(client, alice, bob):
    match = opened_by_white(alice, bob)
    until = timezone.now() + timedelta(days=3)
    away.go_away(alice, until=until)
    client.force_login(bob)

    profile = client.get(reverse("profile", args=["alice"]))
    page = client.get(match.get_absolute_url())
    state = client.get(reverse("api_match", args=[match.pk])).json()

    assert "<bdi>alice</bdi> is away until" in profile.text
    assert "<bdi>alice</bdi> is taking time away until" in page.text
    assert "their clock stands still until then" in page.text
    assert state["away_until"] == {"white": until.isoformat()}
    assert "is away until" not in client.get(reverse("profile", args=["bob"])).text


def test_the_dashboard_reminds_a_player_that_they_are_away(client, alice):
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    response = client.get(reverse("dashboard"))

    assert "You are away until" in response.text
    assert "Back sooner?" in response.text


def test_a_player_away_is_offered_to_come_back_on_the_match_waiting_for_them(client, alice, bob):
    match = opened_by_white(alice, bob)
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    page = client.get(match.get_absolute_url())
    redrawn = client.get(match.get_absolute_url(), HTTP_HX_REQUEST="true")  # announced
    response = client.post(reverse("away_end"), {"next": match.get_absolute_url()}, follow=True)

    assert "I am back: let me play" in page.text
    assert "Possible next moves" not in page.text
    assert 'data-mode="away"' in page.text and 'class="target' not in page.text
    assert "Your turn, but you are taking time away: come back to play." in redrawn.text
    assert response.redirect_chain == [(match.get_absolute_url(), 302)]
    assert "Possible next moves" in response.text


def test_coming_back_goes_to_the_settings_for_a_next_that_is_not_a_page_here(client, alice):
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    response = client.post(reverse("away_end"), {"next": "https://evil.example/"})

    assert response.status_code == 302 and response["Location"] == reverse("settings")


def test_the_dashboard_lobby_and_challenge_say_an_opponent_is_away(client, alice, bob):
    opened_by_white(alice, bob)
    challenge = services.create_challenge(alice, opponent=None, variant="american", points=3)
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(bob)

    dashboard = client.get(reverse("dashboard")).text
    lobby = client.get(reverse("lobby")).text
    page = client.get(reverse("challenge", args=[challenge.pk])).text

    assert "<bdi>alice</bdi> to move (away until" in dashboard
    assert "away until" in lobby
    assert "<bdi>alice</bdi> is taking time away until" in page


def test_the_challenge_page_tells_the_player_away_of_their_own_time_away(client, alice, bob):
    challenge = services.create_challenge(bob, opponent=alice, variant="american", points=3)
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    page = client.get(reverse("challenge", args=[challenge.pk])).text

    assert "You are taking time away until" in page
    assert "your clock stands still until then." in page
    assert "<bdi>alice</bdi> is taking time away" not in page


def test_a_refused_absence_takes_the_player_to_the_reason(client, alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 3
    back_on = timezone.localdate(timezone=zoneinfo.ZoneInfo("UTC")) + timedelta(days=5)
    client.force_login(alice)

    response = client.post(reverse("away_start"), {"back_on": back_on.isoformat()})

    field = response.text.split('id="id_back_on"', 1)[0].rsplit("<input", 1)[1]
    assert "autofocus" in field and 'aria-invalid="true"' in field


def test_a_play_sent_while_away_is_refused_with_the_reason_on_the_page(client, alice, bob):
    match = opened_by_white(alice, bob)
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "in/22 in/19"}
    )

    assert response.status_code == 403
    assert "You are taking time away: come back first (Settings, Time away)." in response.text
    assert match.segments.count() == 1


def test_the_dashboard_says_a_challenger_is_away(client, alice, bob):
    services.create_challenge(bob, opponent=alice, variant="greek")
    away.go_away(bob, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    received = client.get(reverse("dashboard")).text.split('id="received-h"', 1)[1]

    assert "away until" in received.split("</section>", 1)[0]


def test_taking_time_away_again_while_away_says_why_it_is_refused(client, alice):
    # The page shows no time-away form to a player away (a second tab still has one), so
    # the reason cannot be beside its field: it is a message at the top of the page.
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    back_on = timezone.localdate(timezone=zoneinfo.ZoneInfo("UTC")) + timedelta(days=5)
    client.force_login(alice)

    response = client.post(reverse("away_start"), {"back_on": back_on.isoformat()}, follow=True)

    assert response.redirect_chain == [(reverse("settings"), 302)]
    assert "You are already away until" in response.text
    assert Absence.objects.count() == 1


def test_taking_time_away_with_no_days_left_says_why_it_is_refused(client, alice, settings):
    settings.AWAY_DAYS_PER_YEAR = 0
    back_on = timezone.localdate(timezone=zoneinfo.ZoneInfo("UTC")) + timedelta(days=2)
    client.force_login(alice)

    response = client.post(reverse("away_start"), {"back_on": back_on.isoformat()}, follow=True)

    assert "you have 0 days left this year" in response.text
    assert not Absence.objects.exists()
