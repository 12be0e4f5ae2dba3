"""Rating finished matches: stored ratings against hand-computed Glicko-2 figures.

The expected figures were computed by hand from Glickman's steps (separately from
games.ratings.glicko2): two new players (1500, RD 350, volatility 0.06), a 1-point match:
the winner 1662.31 (RD 290.32), the loser 1337.69. A 3-point match (weight sqrt 3) between
a 1700 (RD 80) and a 1500 (RD 120) that the 1500 wins: 1657.41 (RD 78.29) and 1592.20
(RD 112.55).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import assume, given
from hypothesis import strategies as st

from games import closing, services
from games.engine import format_play
from games.engine.game import ScriptedDice
from games.models import Match, PlayerRating, RatingChange
from games.ratings import Rating
from games.ratings.store import as_of, display, played_by_both
from tests.matches import each_moves, take_turn

pytestmark = pytest.mark.django_db


def _unplayed(white, black, *, points=1, rated=True) -> Match:
    """A greek match just started: white to move, nobody has moved."""
    return services.start_match(
        white=white,
        black=black,
        variant="greek",
        points=points,
        days_per_move=2,
        rated=rated,
        dice=ScriptedDice([5, 2, 6, 3]),
    )


def _match(white, black, *, points=1, rated=True) -> Match:
    """A greek match in which both players have moved: its result is rated."""
    return each_moves(_unplayed(white, black, points=points, rated=rated))


def test_a_rated_match_moves_both_new_players_by_the_hand_computed_amount(alice, bob):
    match = _match(alice, bob)

    services.resign(match.pk, user=bob)

    white = PlayerRating.objects.get(user=alice, variant="greek")
    black = PlayerRating.objects.get(user=bob, variant="greek")
    assert (round(white.rating, 2), round(white.rd, 2)) == (1662.31, 290.32)
    assert (round(black.rating, 2), round(black.rd, 2)) == (1337.69, 290.32)
    assert (white.wins, white.losses, black.wins, black.losses) == (1, 0, 0, 1)


def test_a_longer_match_counts_as_more_evidence(alice, bob):
    now = timezone.now()
    PlayerRating.objects.create(user=alice, variant="greek", rating=1700, rd=80, rated_at=now)
    PlayerRating.objects.create(user=bob, variant="greek", rating=1500, rd=120, rated_at=now)
    match = _match(alice, bob, points=3)

    services.resign(match.pk, user=alice)

    alice_rating = PlayerRating.objects.get(user=alice)
    bob_rating = PlayerRating.objects.get(user=bob)
    assert (round(alice_rating.rating, 2), round(alice_rating.rd, 2)) == (1657.41, 78.29)
    assert (round(bob_rating.rating, 2), round(bob_rating.rd, 2)) == (1592.20, 112.55)


def test_a_timeout_counts_as_a_loss(alice, bob):
    match = _match(alice, bob)

    services.sweep_deadlines(now=timezone.now() + timedelta(days=3))

    change = RatingChange.objects.get(match=match, user=alice)
    assert change.rating_after < change.rating_before == 1500


@pytest.mark.parametrize("ending", ["resigned", "timed out", "account closed"])
@pytest.mark.parametrize("moved", ["nobody", "white only"])
def test_a_match_that_ends_before_both_players_moved_changes_no_rating(alice, bob, ending, moved):
    # As a game aborted: a throwaway account must not hand a win to a rating it challenges.
    match = _unplayed(alice, bob, points=3)
    if moved == "white only":
        [play, *_] = services.load_game(match).legal_plays()
        match = take_turn(match, alice, play=format_play(play))
        assert match.to_move == bob
    if ending == "resigned":
        services.resign(match.pk, user=alice)
    elif ending == "account closed":
        closing.close_account(alice)
    else:
        services.sweep_deadlines(now=timezone.now() + timedelta(days=3))

    match.refresh_from_db()
    assert match.status == "finished" and match.rated
    assert not PlayerRating.objects.exists()
    assert not RatingChange.objects.exists()
    assert not played_by_both(match)


def test_a_casual_match_changes_no_rating(alice, bob):
    match = _match(alice, bob, rated=False)

    services.resign(match.pk, user=bob)

    assert not PlayerRating.objects.exists()
    assert not RatingChange.objects.filter(match=match).exists()


def test_the_rd_grows_while_a_player_is_idle():
    row = PlayerRating(
        rating=1600, rd=60, volatility=0.06, rated_at=timezone.now() - timedelta(days=90)
    )

    rating = as_of(row)

    assert rating.rating == 1600
    assert 60 < rating.rd < 350
    assert as_of(row, row.rated_at).rd == 60


def test_a_provisional_rating_is_shown_with_a_question_mark():
    assert display(Rating(1623.4, 200)) == "1623?"
    assert display(Rating(1623.4, 60)) == "1623"


@given(
    rd=st.floats(min_value=30, max_value=350),
    volatility=st.floats(min_value=0.001, max_value=0.2),
    idle_days=st.floats(min_value=0, max_value=20_000),
)
def test_established_until_agrees_with_the_rating_as_of_now(rd, volatility, idle_days):
    """The leaderboard's stored date says what as_of() (the profile's view) says."""
    from datetime import UTC, datetime

    from games.ratings import PROVISIONAL_RD
    from games.ratings.store import as_of, established_until

    now = datetime(2030, 1, 1, tzinfo=UTC)
    rated_at = now - timedelta(days=idle_days)
    grown = as_of(
        PlayerRating(rating=1500, rd=rd, volatility=volatility, rated_at=rated_at), now
    ).rd
    assume(abs(grown - PROVISIONAL_RD) > 1e-6)  # not on the boundary itself

    until = established_until(Rating(1500, rd, volatility), rated_at)

    assert (until is not None and until > now) == (grown <= PROVISIONAL_RD)
