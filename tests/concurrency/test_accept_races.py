"""Two players accept one lobby challenge at the same moment, against real PostgreSQL: the
one who loses is answered as one who came a moment later would be, whatever the timing.

Each accept checks that the caller may see the challenge, then waits for the players'
locks (games.services.accept_challenge). The challenger's row is held here until both
accepts wait for it: both have passed that check while the challenge was open, and the
one that takes the lock second finds it accepted.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games import services, views
from games.models import Challenge, Match

from .locks import all_waiting_on

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _both_waiting_on(challenger, *calls: Callable[[], object]) -> list[object]:
    """Run the calls in threads while ``challenger``'s row is locked, release it once each
    waits for a lock, and return what each answered."""
    return all_waiting_on(lambda: services.lock_players(challenger), *calls)


def test_the_api_answers_whoever_loses_the_race_404_as_it_would_a_moment_later(
    postgres_url, alice, bob, charlie
):
    challenge = services.create_challenge(alice)
    url = reverse("api_challenge_accept", args=[challenge.pk])

    def accept(user) -> Callable[[], object]:
        _, key = ApiToken.issue(user, "race")
        client = Client(headers={"authorization": f"Token {key}"})
        return lambda: client.post(url, {}, content_type="application/json")

    answers = _both_waiting_on(alice, accept(bob), accept(charlie))
    [loser] = [
        user for user, a in zip((bob, charlie), answers, strict=True) if a.status_code != 200
    ]
    later = accept(loser)()  # the same a moment after: the documented answer

    match = Match.objects.get()
    [won] = [a for a in answers if a.status_code == 200]
    [lost] = [a for a in answers if a.status_code != 200]
    assert won.json() == {"match": match.pk}
    assert lost.status_code == later.status_code == 404
    assert lost.json() == later.json()  # no "match": the match is someone else's
    assert Challenge.objects.get().status == "accepted"


def test_the_page_tells_whoever_loses_the_race_the_challenge_is_gone(
    postgres_url, alice, bob, charlie
):
    challenge = services.create_challenge(alice)
    url = reverse("challenge_accept", args=[challenge.pk])

    def accept(user) -> Callable[[], object]:
        client = Client()
        client.force_login(user)
        return lambda: client.post(url, follow=True)

    answers = _both_waiting_on(alice, accept(bob), accept(charlie))

    match = Match.objects.get()
    [won] = [a for a in answers if a.redirect_chain[-1][0] == match.get_absolute_url()]
    [lost] = [a for a in answers if a is not won]
    assert lost.redirect_chain == [(reverse("lobby"), 302)]
    assert views.CHALLENGE_GONE in lost.text
