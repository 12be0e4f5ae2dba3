"""GET /api/v1/challenges/ a page of each list at a time, and each list's further pages:
GET /api/v1/challenges/received/, .../sent/ and .../lobby/ (?after=<challenge id>)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import api, blocks, services
from games.models import Challenge

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_a_page(monkeypatch):
    monkeypatch.setattr(api, "CHALLENGES_PER_PAGE", 2)


def _open(challenger, opponent=None, count: int = 1) -> list[int]:
    """``count`` open challenges (``opponent`` None: in the lobby), as the database holds
    them whatever the limits on how many one player may make: their ids."""
    made = [
        Challenge.objects.create(challenger=challenger, opponent=opponent) for _ in range(count)
    ]
    return [challenge.pk for challenge in made]


def _ids(listed: list[dict]) -> list[int]:
    return [challenge["id"] for challenge in listed]


def test_each_list_holds_a_page_and_links_the_next(alice, bob, charlie, bob_api, two_a_page):
    received = _open(alice, bob, count=3)
    sent = _open(bob, charlie)
    lobby = _open(charlie, count=4)

    listed = bob_api.get(reverse("api_challenge_create")).json()

    assert (_ids(listed["received"]), _ids(listed["sent"]), _ids(listed["lobby"])) == (
        received[:2],
        sent,
        lobby[:2],
    )
    assert listed["next"] == {
        "received": f"http://testserver/api/v1/challenges/received/?after={received[1]}",
        "sent": None,
        "lobby": f"http://testserver/api/v1/challenges/lobby/?after={lobby[1]}",
    }


@pytest.mark.parametrize("name", ["received", "sent", "lobby"])
def test_a_list_s_pages_hold_each_open_challenge_once_oldest_first(
    alice, bob, charlie, bob_api, two_a_page, name
):
    made = {
        "received": lambda: _open(alice, bob, count=5),
        "sent": lambda: _open(bob, charlie, count=5),
        "lobby": lambda: _open(charlie, count=5),
    }[name]()
    _open(alice, charlie, count=2)  # nobody's list of bob's

    pages, url = [], reverse(f"api_challenges_{name}")
    while url:
        page = bob_api.get(url).json()
        pages.append((_ids(page[name]), page["more"]))
        url = page["next"]

    assert pages == [(made[:2], True), (made[2:4], True), (made[4:], False)]


def test_a_page_goes_on_after_a_challenge_no_longer_open(alice, bob, bob_api, two_a_page):
    received = _open(alice, bob, count=4)
    link = bob_api.get(reverse("api_challenge_create")).json()["next"]["received"]
    services.decline_challenge(received[1], user=bob)  # the last of the first page

    page = bob_api.get(link).json()

    assert _ids(page["received"]) == received[2:]


def test_the_lobby_s_pages_leave_out_mine_and_those_of_players_blocked(
    alice, bob, charlie, bob_api
):
    _open(bob)
    _open(alice)
    waiting = _open(charlie)
    blocks.block(bob, other=alice)

    page = bob_api.get(reverse("api_challenges_lobby")).json()

    assert (_ids(page["lobby"]), page["more"], page["next"]) == (waiting, False, None)


@pytest.mark.parametrize("name", ["received", "sent", "lobby"])
def test_a_page_after_an_id_larger_than_any_is_empty(bob_api, name):
    # "Any whole number, 0 or more, will do", as the docs say: not a 400 past 2**31 - 1.
    response = bob_api.get(reverse(f"api_challenges_{name}"), {"after": "9" * 40})

    assert response.status_code == 200
    assert (response.json()[name], response.json()["next"]) == ([], None)


@pytest.mark.parametrize("after", ["abc", "-1", "1.5", "", "1 2"])
@pytest.mark.parametrize("name", ["received", "sent", "lobby"])
def test_a_page_refuses_an_after_that_is_no_id(bob_api, name, after):
    response = bob_api.get(reverse(f"api_challenges_{name}"), {"after": after})

    assert response.status_code == 400
    assert response.json() == {"error": f'after must be a challenge id, not "{after}"'}
