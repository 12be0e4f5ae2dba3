"""Ratings on the profile page and the rating history chart."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.engine.game import ScriptedDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_result(alice, bob):
    match = services.start_match(
        white=alice,
        black=bob,
        variant="greek",
        points=1,
        days_per_move=2,
        dice=ScriptedDice([5, 2, 6, 3]),
    )
    services.resign(match.pk, user=bob)
    return match


def test_the_profile_shows_a_provisional_rating_with_a_question_mark(client, rated_result):
    response = client.get(reverse("profile", args=["alice"]))

    assert "1662?" in response.text
    assert reverse("rating_chart", args=["alice", "greek"]) in response.text


def test_the_rating_chart_is_an_svg_image_of_the_history(client, rated_result):
    response = client.get(reverse("rating_chart", args=["bob", "greek"]))

    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<?xml") and b"<svg" in response.content
    assert b"1338" in response.content
    assert client.get("/players/bob/rating-chess.svg").status_code == 404
