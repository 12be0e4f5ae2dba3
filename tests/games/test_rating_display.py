"""Rating changes as the match page and the "match is over" email show them: the change
shown is the difference of the two ratings shown, so the three numbers add up; and a
provisional rating is marked "?", as on the leaderboard and the profile, and explained."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from games import services
from games.models import Match, RatingChange
from tests.matches import each_moves, opened_by_white

pytestmark = pytest.mark.django_db


@pytest.fixture
def uneven_change(alice, bob) -> Match:
    """A finished rated match whose stored ratings round apart: 1422.4 -> 1264.6 is a
    change of -157.8, which rounds to -158, while 1265 - 1422 is -157."""
    match = each_moves(opened_by_white(alice, bob))
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

    assert "1422? → <strong>1265?</strong> (-157)" in text
    # 1500 -> 1500 is no change, though the stored ratings moved by 0.8.
    assert "1500? → <strong>1500?</strong> (+0)" in text


def _finished_email(user, match: Match) -> str:
    return render_to_string(
        "games/email/finished.txt",
        {
            "user": user,
            "match": match,
            "won": match.winner == user,
            "rating": RatingChange.objects.get(match=match, user=user),
            "url": "https://example.com/",
        },
    )


def test_the_match_finished_email_shows_a_change_that_adds_up(alice, uneven_change):
    body = _finished_email(alice, uneven_change)

    assert "rating: 1422? -> 1265? (-157)." in body


EXPLAINED = (
    'A "?" marks a provisional rating: with few or long-ago rated matches behind it, it is'
    " still uncertain and moves a long way with each match, the more so the longer the match."
)


def test_the_match_finished_email_marks_a_provisional_rating_and_says_what_that_means(
    alice, bob, uneven_change
):
    # bob's rating becomes established with this match; alice's stays provisional.
    RatingChange.objects.filter(match=uneven_change, user=bob).update(rd_before=130, rd_after=100)
    alice_change = RatingChange.objects.get(match=uneven_change, user=alice)
    assert alice_change.rd_before > 110 and alice_change.rd_after > 110

    to_alice, to_bob = _finished_email(alice, uneven_change), _finished_email(bob, uneven_change)

    assert "rating: 1422? -> 1265? (-157).\n" + EXPLAINED in to_alice
    assert "rating: 1500? -> 1500 (+0).\n" + EXPLAINED in to_bob


def test_the_match_finished_email_has_no_question_mark_between_established_ratings(
    alice, uneven_change
):
    RatingChange.objects.filter(match=uneven_change, user=alice).update(rd_before=90, rd_after=88)

    body = _finished_email(alice, uneven_change)

    assert "rating: 1422 -> 1265 (-157).\n" in body
    assert "?" not in body


def test_the_match_page_marks_a_provisional_rating_and_says_what_that_means(client, uneven_change):
    text = client.get(uneven_change.get_absolute_url()).text

    assert text.count('A "?" marks a provisional rating') == 1
    assert (
        'A "?" marks a provisional rating (few or long-ago rated matches): it moves a long way'
        " with each match, the more so the longer the match." in text
    )


def test_the_match_page_has_no_question_mark_between_established_ratings(client, uneven_change):
    RatingChange.objects.filter(match=uneven_change).update(rd_before=90, rd_after=88)

    text = client.get(uneven_change.get_absolute_url()).text

    assert "1422 → <strong>1265</strong> (-157)" in text
    assert "1500 → <strong>1500</strong> (+0)" in text
    assert "provisional rating" not in text


def test_a_rated_match_resigned_before_both_moved_says_why_ratings_are_unchanged(
    client, alice, bob, django_capture_on_commit_callbacks, mailoutbox
):
    match = opened_by_white(alice, bob)  # alice to move; neither has moved yet
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(match.pk, user=alice)
    client.force_login(bob)

    page = client.get(match.get_absolute_url()).text
    emails = [m.body for m in mailoutbox if "is over" in m.subject]

    said = "Ratings unchanged: the match ended before both players had moved."
    assert f'<p class="rating-changes muted">{said}</p>' in page
    assert len(emails) == 2 and all(said in body for body in emails)
    assert "rating: " not in page + "".join(emails)
