"""GET and POST /api/v1/me/away/, POST /api/v1/me/away/end/: time away (games.away) taken
and ended through the API, with the settings page's rules and reasons."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import away, services
from games.models import Absence

from .conftest import post_json, token_client

pytestmark = pytest.mark.django_db

ATHENS = zoneinfo.ZoneInfo("Europe/Athens")
AWAY = "/api/v1/me/away/"
BACK = "/api/v1/me/away/end/"


def _in_days(days: int, zone: zoneinfo.ZoneInfo = ATHENS) -> str:
    return (timezone.localdate(timezone=zone) + timedelta(days=days)).isoformat()


@pytest.fixture
def in_athens(alice):
    User.objects.filter(pk=alice.pk).update(timezone="Europe/Athens")


def test_the_addresses_are_these():
    assert (reverse("api_me_away"), reverse("api_me_away_end")) == (AWAY, BACK)


def test_it_says_i_am_not_away_and_how_many_days_i_have(alice_api):
    response = alice_api.get(AWAY)

    assert response.status_code == 200
    assert response.json() == {
        "away_until": None,
        "days_left": settings.AWAY_DAYS_PER_YEAR,
        "days_per_year": settings.AWAY_DAYS_PER_YEAR,
    }


def test_it_takes_time_away_until_the_day_given_begins_in_my_timezone(
    alice, alice_api, in_athens, match
):
    deadline = match.deadline  # alice is to move

    response = post_json(alice_api, AWAY, {"back_on": _in_days(3)})

    back = datetime.combine(timezone.localdate(timezone=ATHENS) + timedelta(days=3), time(), ATHENS)
    assert response.status_code == 200
    assert response.json() == {
        "away_until": back.astimezone(UTC).isoformat(),
        "days_left": settings.AWAY_DAYS_PER_YEAR - away.days_charged(timezone.now(), back),
        "days_per_year": settings.AWAY_DAYS_PER_YEAR,
    }
    alice.refresh_from_db()
    assert alice.away_until == back
    match.refresh_from_db()
    assert match.deadline > deadline  # her clock stands still
    assert alice_api.get(AWAY).json() == response.json()


def test_coming_back_lets_me_play_again(alice, alice_api, match):
    post_json(alice_api, AWAY, {"back_on": _in_days(5, zoneinfo.ZoneInfo("UTC"))})
    turn = {"segment": match.segment_count, "play": "in/22 in/19"}
    refused = post_json(alice_api, reverse("api_match_turn", args=[match.pk]), turn)

    response = post_json(alice_api, BACK)

    assert refused.status_code == 403
    assert refused.json() == {
        "error": "you are taking time away: come back first (POST /api/v1/me/away/end/)"
    }
    assert response.status_code == 200
    assert response.json()["away_until"] is None
    assert response.json()["days_left"] == settings.AWAY_DAYS_PER_YEAR - 1  # a day begun
    assert post_json(alice_api, reverse("api_match_turn", args=[match.pk]), turn).status_code == 200


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({}, "back_on is required"),
        ({"back_on": None}, "back_on is required"),
        ({"back_on": 20270101}, "back_on must be a string"),
        ({"back_on": ""}, "back_on: This field is required."),
        ({"back_on": "2026-02-30"}, "back_on: Enter a valid date."),
        ({"back_on": "soon"}, "back_on: Enter a valid date."),
        ({"back_on": "1970-01-01"}, "back_on: Choose a day after today."),
        ({"back_on": "(today)"}, "back_on: Choose a day after today."),
        (
            {"back_on": "(in 100 days)"},
            f"that is 100 days away; you have {settings.AWAY_DAYS_PER_YEAR} days left this year",
        ),
        ({"until": "2030-01-01"}, 'unknown field "until": this endpoint takes back_on'),
    ],
)
def test_it_refuses_a_day_the_settings_page_refuses_saying_why(
    alice, alice_api, in_athens, body, reason
):
    days = {"(today)": _in_days(0), "(in 100 days)": _in_days(100)}
    body = {key: days.get(value, value) for key, value in body.items()}

    response = post_json(alice_api, AWAY, body)

    assert response.status_code == 400
    assert response.json() == {"error": reason}
    alice.refresh_from_db()
    assert alice.away_until is None and not Absence.objects.exists()


def test_time_away_taken_twice_is_refused_the_second_time(alice, alice_api, in_athens):
    post_json(alice_api, AWAY, {"back_on": _in_days(3)})
    alice.refresh_from_db()
    back = timezone.localtime(alice.away_until, ATHENS)

    response = post_json(alice_api, AWAY, {"back_on": _in_days(4)})

    assert response.status_code == 409
    assert response.json() == {
        "error": f"you are already away until {back:%-d %b %Y} 00:00: come back first to change it"
    }
    assert Absence.objects.count() == 1


def test_coming_back_when_not_away_is_refused(alice_api):
    response = post_json(alice_api, BACK)

    assert response.status_code == 409
    assert response.json() == {"error": "you are not away"}


def test_a_bot_is_refused():
    bot = services.bot_users()[0]

    response = post_json(token_client(bot), AWAY, {"back_on": _in_days(3)})

    assert response.status_code == 400
    assert response.json() == {"error": "bots do not take time away"}
