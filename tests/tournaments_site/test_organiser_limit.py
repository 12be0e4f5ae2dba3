"""How many tournaments one organiser may have open or running at once: the tournaments
page lists them all, for everyone, and one player must not be able to fill it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.tournaments import services
from games.tournaments.models import Tournament

from .helpers import open_tournament, started_tournament

pytestmark = pytest.mark.django_db

LIMIT = services.MAX_OPEN_TOURNAMENTS


def test_an_organiser_has_a_limited_number_of_tournaments_open_or_running(alice, bob, users):
    started_tournament(alice, users(2), format="single_elimination")
    for _ in range(LIMIT - 1):
        open_tournament(alice)

    with pytest.raises(services.TournamentRefused, match="3 tournaments that are open or running"):
        open_tournament(alice, name="Free chips at evil.example")

    assert Tournament.objects.filter(organiser=alice).count() == LIMIT
    open_tournament(bob)  # another organiser is not limited by it


def test_a_tournament_cancelled_or_finished_makes_room_for_another(alice, users):
    running = started_tournament(alice, users(2), format="single_elimination")
    opened = [open_tournament(alice) for _ in range(LIMIT - 1)]

    services.cancel_tournament(opened[0].pk, user=alice)
    open_tournament(alice)
    Tournament.objects.filter(pk=running.pk).update(status=Tournament.Status.FINISHED)
    open_tournament(alice)

    assert Tournament.objects.filter(organiser=alice, status="open").count() == LIMIT


def test_the_form_refuses_one_tournament_too_many_in_a_sentence(client, alice):
    for _ in range(LIMIT):
        open_tournament(alice)
    client.force_login(alice)
    deadline = timezone.localtime(timezone.now() + timedelta(days=2))

    response = client.post(
        reverse("tournament_new"),
        {
            "name": "Free chips at evil.example",
            "format": "swiss",
            "variant": "american",
            "points": "1",
            "days_per_move": "2",
            "min_players": "2",
            "max_players": "4",
            "signup_deadline": f"{deadline:%Y-%m-%dT%H:%M}",
            "start_mode": "manual",
        },
    )

    assert response.status_code == 200
    assert (
        "You organise 3 tournaments that are open or running already: wait until one has"
        " finished, or cancel one, before you create another." in response.text
    )
    assert not Tournament.objects.filter(name__startswith="Free chips").exists()
