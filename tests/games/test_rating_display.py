"""Rating changes as the match page and the "match is over" email show them: the change
shown is the difference of the two ratings shown, so the three numbers add up."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from games import services
from games.models import Match, RatingChange
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


@pytest.fixture
def uneven_change(alice, bob) -> Match:
    """A finished rated match whose stored ratings round apart: 1422.4 -> 1264.6 is a
    change of -157.8, which rounds to -158, while 1265 - 1422 is -157."""
    match = opened_by_white(alice, bob)
    services.resign(match.pk, user=bob)
    RatingChange.objects.filter(match=match, user=alice).update(
        rating_before=1422.4, rating_after=1264.6
    )
    RatingChange.objects.filter(match=match, user=bob).update(
        rating_before=1499.6, rating_after=1500.4
    )
    return Match.objects.get(pk=match.pk)


def test_the_match_page_shows_a_change_that_adds_up(client, uneven_change):
    text = client.get(uneven_change.get_absolute_url()).text

    assert "1422 → <strong>1265</strong> (-157)" in text
    # 1500 -> 1500 is no change, though the stored ratings moved by 0.8.
    assert "1500 → <strong>1500</strong> (+0)" in text


def test_the_match_finished_email_shows_a_change_that_adds_up(alice, uneven_change):
    body = render_to_string(
        "games/email/finished.txt",
        {
            "user": alice,
            "match": uneven_change,
            "won": False,
            "rating": RatingChange.objects.get(match=uneven_change, user=alice),
            "url": "https://example.com/",
        },
    )

    assert "rating: 1422 -> 1265 (-157)." in body
