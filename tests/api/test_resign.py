"""POST /api/v1/matches/<id>/resign/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match

from .conftest import post_json

pytestmark = pytest.mark.django_db


def test_it_resigns_the_match(bob_api, match):
    response = post_json(bob_api, reverse("api_match_resign", args=[match.pk]))

    assert response.status_code == 200
    state = response.json()
    assert state["status"] == "finished" and state["phase"] == "finished"
    assert state["winner"] == "alice"
    assert state["score"] == {"white": 15, "black": 0}  # R9: Bob had borne off nothing
    assert state["to_move"] is None and state["deadline"] is None
    assert state["dice"] is None and state["legal_plays"] == []
    match.refresh_from_db()
    assert match.ending == Match.Ending.RESIGNATION


def test_it_refuses_someone_not_playing(charlie_api, match):
    response = post_json(charlie_api, reverse("api_match_resign", args=[match.pk]))

    assert response.status_code == 403
    match.refresh_from_db()
    assert match.is_active


def test_it_refuses_to_resign_twice(bob_api, match):
    url = reverse("api_match_resign", args=[match.pk])
    post_json(bob_api, url)

    response = post_json(bob_api, url)

    assert response.status_code == 409
    assert "over" in response.json()["error"]
    assert response.json()["status"] == "finished"  # as a turn's 409 says


def test_a_resignation_after_the_deadline_is_told_the_match_ended_on_time(bob_api, match):
    # Bob waits on alice's move, whose time ran out a minute ago; the sweep has not come.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    response = post_json(bob_api, reverse("api_match_resign", args=[match.pk]))

    assert response.status_code == 409
    assert response.json() == {
        "error": "alice's time to move had run out before you resigned: you won the match on"
        " time (R9)",
        "status": "finished",
    }
    match.refresh_from_db()
    assert (match.ending, match.winner.username) == ("timeout", "bob")


def test_it_takes_no_fields(bob_api, match):
    response = post_json(bob_api, reverse("api_match_resign", args=[match.pk]), {"sure": True})

    assert response.status_code == 400
    assert "unknown field" in response.json()["error"]
    match.refresh_from_db()
    assert match.is_active


def test_it_answers_404_for_an_unknown_match(bob_api):
    response = post_json(bob_api, reverse("api_match_resign", args=[999]))

    assert response.status_code == 404
