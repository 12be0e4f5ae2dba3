"""A NUL character (%00) in an address is a readable 400, never PostgreSQL's DataError (a
500): text holding NUL can be neither stored nor compared there."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

PATHS = [
    "/players/a%00b/",
    "/players/a%00b/dice/",
    "/players/a%00b/rating-american.svg",
    "/search/players/?q=a%00",
    "/leaderboard/american/?page=%00",
    "/matches/1/?replay=1%00",
    "/lobby/?a%00=1",
]


@pytest.mark.parametrize("path", PATHS)
def test_a_nul_in_the_address_is_refused_with_a_reason(client, alice, path):
    client.force_login(alice)

    response = client.get(path)

    assert response.status_code == 400
    assert "NUL character" in response.content.decode()


def test_a_nul_in_an_api_address_is_refused_in_json(client, alice):
    client.force_login(alice)

    response = client.get("/api/v1/matches/1/?since=%00")

    assert response.status_code == 400
    assert "NUL character" in response.json()["error"]


def test_addresses_without_nul_are_served_as_before(client, alice):
    client.force_login(alice)

    assert client.get("/players/alice/").status_code == 200
    client.logout()  # the player asking is left out of the suggestions
    assert client.get("/search/players/?q=al").json() == ["alice"]
