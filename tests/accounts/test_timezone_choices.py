"""The settings' timezone list offers the zones people live in, by their place names: not
the files a zone database also holds ("localtime", "Factory", "posixrules"), nor the legacy
aliases ("US/Eastern", "GB", "EST5EDT", "Etc/GMT+5", and within the areas "Asia/Calcutta",
"Europe/Kiev"). A player whose saved zone is one of
those keeps it: the list offers it to them, and their settings save with it."""

import zoneinfo

import pytest
from django.urls import reverse

from accounts.forms import ProfileForm, place_zones, timezone_choices, zone_links
from accounts.models import User

from .test_settings import profile_data

pytestmark = pytest.mark.django_db

NOT_OFFERED = ["localtime", "Factory", "posixrules", "US/Eastern", "GB", "EST5EDT", "Etc/GMT+5"]


@pytest.fixture
def a_zone_database_with_everything(monkeypatch):
    """The zone names as a system's database may list them, posixrules and all."""
    names = zoneinfo.available_timezones() | {"localtime", "Factory", "posixrules"}
    monkeypatch.setattr(zoneinfo, "available_timezones", lambda: names)
    timezone_choices.cache_clear()
    yield
    timezone_choices.cache_clear()


@pytest.mark.usefixtures("a_zone_database_with_everything")
def test_it_offers_places_not_files_or_aliases():
    offered = {name for name, _label in timezone_choices()}

    assert offered.isdisjoint(NOT_OFFERED)
    assert {"UTC", "Europe/Athens", "America/New_York", "America/Argentina/Buenos_Aires"} <= offered
    assert ("America/New_York", "America/New York") in timezone_choices()


@pytest.mark.parametrize(
    ("alias", "place"),
    [
        ("Asia/Calcutta", "Asia/Kolkata"),
        ("Europe/Kiev", "Europe/Kyiv"),
        ("America/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("Australia/ACT", "Australia/Sydney"),
    ],
)
def test_it_offers_a_place_not_its_legacy_alias_within_the_areas(alias, place):
    offered = dict(timezone_choices())

    assert alias not in offered
    assert place in offered


def test_it_offers_the_places_that_share_another_zone():
    # Links in the tz database's own data, not legacy aliases: a Norwegian looks for Oslo.
    offered = dict(timezone_choices())

    assert {"Europe/Oslo", "Asia/Kuwait", "Atlantic/Reykjavik"} <= set(offered)


@pytest.fixture
def no_zone_tables(monkeypatch, tmp_path):
    """A system whose zones came without the tz database's tables (zone1970.tab)."""
    monkeypatch.setattr(zoneinfo, "TZPATH", (str(tmp_path),))
    monkeypatch.setattr("importlib.resources.files", lambda name: tmp_path)
    place_zones.cache_clear()
    timezone_choices.cache_clear()
    zone_links.cache_clear()
    yield
    place_zones.cache_clear()
    timezone_choices.cache_clear()
    zone_links.cache_clear()


def test_it_knows_the_legacy_names_of_the_places_it_offers():
    links = zone_links()

    assert links["Asia/Calcutta"] == "Asia/Kolkata"
    assert links["GB"] == "Europe/London"
    assert set(links.values()) <= set(dict(timezone_choices()))


@pytest.mark.usefixtures("no_zone_tables")
def test_without_the_zone_tables_it_knows_no_legacy_name():
    assert zone_links() == {}


@pytest.mark.usefixtures("no_zone_tables")
def test_without_the_zone_tables_it_still_offers_every_place():
    offered = dict(timezone_choices())

    assert place_zones() is None
    assert {"UTC", "Europe/Athens", "Europe/Oslo", "Asia/Kolkata"} <= set(offered)
    assert "US/Eastern" not in offered


@pytest.mark.parametrize("saved", ["US/Eastern", "Asia/Calcutta"])
def test_a_saved_zone_no_longer_offered_is_offered_to_its_player(alice, saved):
    alice.timezone = saved
    alice.save()

    form = ProfileForm(instance=alice)

    assert saved in dict(form.fields["timezone"].choices)
    assert f'value="{saved}" selected' in str(form["timezone"])


def test_a_player_keeps_a_saved_zone_no_longer_offered_when_saving(client, alice):
    alice.timezone = "US/Eastern"
    alice.save()
    client.force_login(alice)

    response = client.post(reverse("settings"), profile_data(timezone="US/Eastern"))

    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.timezone, alice.country) == ("US/Eastern", "Greece")


def test_another_player_cannot_choose_a_zone_not_offered(client, alice):
    client.force_login(alice)

    response = client.post(reverse("settings"), profile_data(timezone="US/Eastern"))

    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    alice.refresh_from_db()
    assert alice.timezone == "UTC"


@pytest.mark.parametrize("sent", ["localtime", "Factory"])
def test_sign_up_takes_utc_for_a_zone_that_is_no_place(client, sent):
    password = "a long enough passphrase"
    data = {"username": "newcomer", "email": "new@example.com", "timezone": sent}

    client.post(reverse("signup"), data | {"password1": password, "password2": password})

    assert User.objects.get(username="newcomer").timezone == "UTC"
