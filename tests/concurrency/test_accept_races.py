"""Two players accept one lobby challenge at the same moment, against real PostgreSQL: the
one who loses is answered as one who came a moment later would be, whatever the timing.

Each accept checks that the caller may see the challenge, then waits for the players'
locks (games.services.accept_challenge). The challenger's row is held here until both
accepts wait for it: both have passed that check while the challenge was open, and the
one that takes the lock second finds it accepted.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games import services, views
from games.models import Challenge, Match

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def _both_waiting_on(challenger, *calls: Callable[[], object]) -> list[object]:
    """Run the calls in threads while ``challenger``'s row is locked, release it once each
    waits for a lock, and return what each answered."""
    held, release = threading.Event(), threading.Event()
    results: list[object] = [None] * len(calls)

    def hold() -> None:
        try:
            with transaction.atomic():
                services.lock_players(challenger)
                held.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            results[index] = call()
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(timeout=10)
    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while _waiting_for_a_lock() < len(calls) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _waiting_for_a_lock() == len(calls)
    release.set()
    for thread in [holder, *threads]:
        thread.join(timeout=30)
    return results


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
