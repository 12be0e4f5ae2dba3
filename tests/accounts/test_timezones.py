"""Times in the player's own timezone (their settings): on pages, in emails, and the local
time their profile shows."""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.tournaments import services as tournaments
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

TOKYO = "Asia/Tokyo"  # UTC+9 all year, no summer time
DEADLINE = datetime(2031, 1, 2, 3, 4, tzinfo=UTC)


@pytest.fixture
def cup(alice):
    return tournaments.create_tournament(alice, name="Winter cup", signup_deadline=DEADLINE)


def _create_tournament(client, deadline: str):
    """The organiser's tournament form, posted with ``deadline`` as typed."""
    return client.post(
        reverse("tournament_new"),
        {
            "name": "Timely cup",
            "format": "single_elimination",
            "variant": "american",
            "points": "3",
            "days_per_move": "3",
            "min_players": "4",
            "max_players": "8",
            "signup_deadline": deadline,
            "start_mode": "automatic",
        },
    )


@pytest.mark.parametrize(
    ("zone", "shown"),
    [(TOKYO, "Thu 2 Jan 2031, 12:04 JST"), ("UTC", "Thu 2 Jan 2031, 03:04 UTC"), ("", None)],
)
def test_a_page_shows_times_in_the_viewers_own_timezone(client, bob, cup, zone, shown):
    if zone:
        bob.timezone = zone
        bob.save()
        client.force_login(bob)

    page = client.get(reverse("tournament", args=[cup.pk]))

    assert f"until {shown or 'Thu 2 Jan 2031, 03:04 UTC'}" in page.text


def test_an_unknown_timezone_name_falls_back_to_utc(client, bob, cup):
    bob.timezone = "Mars/Olympus_Mons"
    bob.save()
    client.force_login(bob)

    page = client.get(reverse("tournament", args=[cup.pk]))

    assert "until Thu 2 Jan 2031, 03:04 UTC" in page.text


def test_an_email_gives_times_in_its_addressees_timezone(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.timezone = TOKYO
    alice.save()
    # Bob, in UTC, is the one whose request writes alice's turn email.
    with (
        timezone.override(zoneinfo.ZoneInfo("UTC")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match = opened_by_white(alice, bob)

    [email] = [m for m in mail.outbox if m.to == [alice.email]]
    tokyo = match.deadline.astimezone(zoneinfo.ZoneInfo(TOKYO))
    assert f"Deadline: {tokyo:%a} {tokyo.day} {tokyo:%b %Y, %H:%M} JST" in email.body


def test_the_profile_shows_the_players_local_time_whoever_looks(client, alice, bob):
    alice.timezone = TOKYO
    alice.save()
    bob.timezone = "America/New_York"
    bob.save()
    client.force_login(bob)

    page = client.get(reverse("profile", args=[alice.username]))

    [shown] = re.findall(r"local time (\d\d:\d\d)", page.text)
    now = timezone.now().astimezone(zoneinfo.ZoneInfo(TOKYO))
    assert shown in {f"{now - timedelta(minutes=1):%H:%M}", f"{now:%H:%M}"}


@pytest.fixture
def a_month_before_the_deadline(monkeypatch) -> None:
    """Now is a month before DEADLINE: a sign-up closes within a year (the form says)."""
    monkeypatch.setattr(timezone, "now", lambda: DEADLINE - timedelta(days=30))


@pytest.mark.usefixtures("a_month_before_the_deadline")
def test_a_tournament_deadline_is_typed_in_the_organisers_timezone(client, alice):
    from games.tournaments.models import Tournament

    alice.timezone = TOKYO
    alice.save()
    client.force_login(alice)
    form = client.get(reverse("tournament_new"))
    [initial] = re.findall(r'name="signup_deadline" value="([^"]+)"', form.text)
    in_a_week = timezone.now().astimezone(zoneinfo.ZoneInfo(TOKYO)) + timedelta(days=7)
    assert initial == f"{in_a_week:%Y-%m-%d}T12:00"  # noon, in Tokyo
    assert "In your timezone, Asia/Tokyo" in form.text

    _create_tournament(client, "2031-01-02T12:04")

    assert Tournament.objects.get().signup_deadline == DEADLINE  # 12:04 JST is 03:04 UTC


# -- the zone cookie: the zone known without loading the player -----------------------------


def test_a_page_that_looks_at_the_player_leaves_their_zone_in_a_cookie(client, alice):
    alice.timezone = TOKYO
    alice.save()
    client.force_login(alice)

    response = client.get(reverse("dashboard"))

    assert response.cookies["tz"].value == TOKYO
    assert response.cookies["tz"]["httponly"] and response.cookies["tz"]["samesite"] == "Lax"


def test_with_the_cookie_a_request_that_never_looks_at_the_player_loads_nobody(
    client, alice, bob, django_assert_num_queries
):
    from tests.matches import opened_by_white

    match = opened_by_white(alice, bob)
    waiting = reverse("match", args=[match.pk]) + f"?seen={match.segment_count}-active"
    client.force_login(bob)
    client.get(reverse("dashboard"))  # leaves the cookie
    anonymous = type(client)()

    with django_assert_num_queries(1):  # the match: no session, no user
        assert client.get(waiting, HTTP_HX_REQUEST="true").status_code == 204
    with django_assert_num_queries(1):
        assert anonymous.get(waiting, HTTP_HX_REQUEST="true").status_code == 204


def test_changing_the_zone_in_the_settings_changes_the_cookie(client, alice):
    client.force_login(alice)
    client.get(reverse("dashboard"))
    data = {"timezone": TOKYO, "email_preference": "every_turn", "display_name": "", "about": ""}

    response = client.post(reverse("settings"), data | {"country": ""})

    alice.refresh_from_db()
    assert alice.timezone == TOKYO
    assert response.cookies["tz"].value == TOKYO


def test_logging_out_drops_the_cookie(client, alice):
    client.force_login(alice)
    client.get(reverse("dashboard"))

    response = client.post(reverse("logout"))

    assert response.cookies["tz"].value == "" and response.cookies["tz"]["max-age"] == 0


def test_a_cookie_naming_no_zone_is_ignored_for_the_players_own_zone(client, bob, cup):
    bob.timezone = TOKYO
    bob.save()
    client.force_login(bob)
    client.cookies["tz"] = "Nowhere/Atlantis"

    page = client.get(reverse("tournament", args=[cup.pk]))

    assert "until Thu 2 Jan 2031, 12:04 JST" in page.text
    assert page.cookies["tz"].value == TOKYO


@pytest.mark.usefixtures("a_month_before_the_deadline")
def test_a_form_is_read_in_the_players_zone_whatever_the_cookie_says(client, alice):
    from games.tournaments.models import Tournament

    alice.timezone = TOKYO
    alice.save()
    client.force_login(alice)
    client.cookies["tz"] = "America/New_York"  # stale: left by another device

    response = _create_tournament(client, "2031-01-02T12:04")

    assert Tournament.objects.get().signup_deadline == DEADLINE  # 12:04 JST
    assert response.cookies["tz"].value == TOKYO


def test_the_default_deadline_is_never_an_hour_the_clocks_skip_or_repeat(
    client, alice, monkeypatch
):
    # A week before Athens puts its clocks back (25 Oct 2026, 04:00 -> 03:00), at 03:30.
    alice.timezone = "Europe/Athens"
    alice.save()
    client.force_login(alice)
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 10, 18, 0, 30, tzinfo=UTC))

    form = client.get(reverse("tournament_new"))
    [initial] = re.findall(r'name="signup_deadline" value="([^"]+)"', form.text)
    response = _create_tournament(client, initial)

    assert initial == "2026-10-25T12:00"
    assert response.status_code == 302
