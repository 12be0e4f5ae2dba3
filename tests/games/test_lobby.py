"""The lobby: open challenges a page at a time, the newest first, and the bots."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services, views
from games.models import Challenge

pytestmark = pytest.mark.django_db

PER_PAGE = views.LOBBY_PER_PAGE


def _waiting(challenger, count: int) -> list[int]:
    """``count`` open lobby challenges of ``challenger``'s (beyond the limit on how many one
    player may make): their ids, the oldest first."""
    made = Challenge.objects.bulk_create(Challenge(challenger=challenger) for _ in range(count))
    return [challenge.pk for challenge in made]


def _offered(page: str) -> list[int]:
    """The ids of the challenges a lobby page offers to accept, in its order."""
    return [int(pk) for pk in re.findall(r'action="/challenges/(\d+)/accept/"', page)]


def test_it_shows_the_newest_page_and_links_to_the_older_ones(client, alice, bob):
    ids = _waiting(alice, PER_PAGE + 5)
    client.force_login(bob)

    first = client.get(reverse("lobby")).text
    older = client.get(f"{reverse('lobby')}?before={ids[5]}").text

    assert _offered(first) == ids[::-1][:PER_PAGE]
    assert f'href="?before={ids[5]}">Older challenges</a>' in first
    assert "Newest challenges" not in first
    assert _offered(older) == ids[4::-1]
    assert "Older challenges" not in older
    assert f'href="{reverse("lobby")}">Newest challenges</a>' in older


def test_a_full_page_with_nothing_older_has_no_link_to_older_ones(client, alice, bob):
    _waiting(alice, PER_PAGE)
    client.force_login(bob)

    page = client.get(reverse("lobby")).text

    assert len(_offered(page)) == PER_PAGE
    assert "Older challenges" not in page


def test_a_page_past_the_oldest_says_there_are_no_older_ones(client, alice, bob):
    ids = _waiting(alice, 2)
    client.force_login(bob)

    page = client.get(f"{reverse('lobby')}?before={ids[0]}").text

    assert _offered(page) == []
    assert "No older open challenges." in page
    assert "Newest challenges" in page


@pytest.mark.parametrize("before", ["", "x", "-1", "9" * 40])
def test_a_before_that_is_not_an_id_shows_the_newest_page(client, alice, bob, before):
    ids = _waiting(alice, 2)
    client.force_login(bob)

    response = client.get(reverse("lobby"), {"before": before})

    assert response.status_code == 200
    assert _offered(response.text) == ids[::-1]


@pytest.mark.parametrize("signed_in", [True, False])
def test_the_bots_are_a_link_away_before_the_challenges(client, alice, bob, signed_in):
    _waiting(alice, PER_PAGE + 1)
    if signed_in:
        client.force_login(bob)

    page = client.get(reverse("lobby")).text

    assert page.index('href="#bots-h"') < page.index('class="card"') < page.index('id="bots-h"')


def test_each_challenge_says_when_it_expires(client, alice, bob):
    theirs = services.create_challenge(alice)
    mine = services.create_challenge(bob, variant="greek")
    client.force_login(bob)

    page = client.get(reverse("lobby")).text

    # In the reader's time zone, as the dashboard says it: CHALLENGE_DAYS after it was made.
    for challenge in (theirs, mine):
        expires = timezone.localtime(challenge.expires_at)
        assert (
            f'expires on <time datetime="{expires.isoformat()}">{expires:%-d %b %Y}</time>'
        ) in page
