"""Glicko-2 against Mark Glickman's worked example, plus the properties a rating must keep."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.ratings as ratings_package
from games.ratings import glicko2
from games.ratings.glicko2 import (
    MAX_RD,
    SCALE,
    Rating,
    Result,
    expected_score,
    inflate_for_inactivity,
    is_provisional,
    match_weight,
    rate_match,
    update,
)
from games.templatetags import ratings as rating_filters

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_RESULTS = (
    Result(Rating(1400, 30), 1),
    Result(Rating(1550, 100), 0),
    Result(Rating(1700, 300), 0),
)

ratings = st.builds(
    Rating,
    rating=st.floats(0, 4000),
    rd=st.floats(30, 350),
    volatility=st.floats(0.01, 0.2),
)
match_lengths = st.integers(1, 25)


@pytest.mark.parametrize(
    "module", [ratings_package, glicko2, rating_filters], ids=lambda m: m.__name__
)
def test_module_doctests_pass(module):
    # pytest's testpaths collect doctests from games/engine only, so run these here.
    failures, tried = doctest.testmod(module)

    assert tried > 0
    assert failures == 0


# -- The paper's worked example ------------------------------------------------------------


def test_paper_example_matches_the_published_figures():
    new = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)

    # The paper prints 1464.06 because it rounds mu' to -0.2069 before converting back;
    # carried exactly, the rating is 1464.0507, within a hundredth of the published figure.
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert round(new.rd, 2) == 151.52
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_paper_example_exact_figures():
    new = update(PAPER_PLAYER, PAPER_RESULTS)

    assert round(new.rating, 4) == 1464.0507
    assert round(new.rd, 4) == 151.5165
    assert round(new.volatility, 6) == 0.059996


def test_paper_example_intermediate_steps():
    opponents = [result.opponent for result in PAPER_RESULTS]

    g = [glicko2._g(opponent.phi) for opponent in opponents]
    e = [glicko2._expected(PAPER_PLAYER.mu, o.mu, o.phi) for o in opponents]
    v, delta = glicko2._variance_and_improvement(PAPER_PLAYER, PAPER_RESULTS)

    assert [round(x, 4) for x in g] == [0.9955, 0.9531, 0.7242]
    assert [round(x, 3) for x in e] == [0.639, 0.432, 0.303]
    # The paper's v = 1.7785 and delta = -0.4834 come from E rounded to three places.
    assert v == pytest.approx(1.7785, abs=0.001)
    assert delta == pytest.approx(-0.4834, abs=0.001)


# -- Weights -------------------------------------------------------------------------------


def test_weight_one_is_a_plain_game():
    opponent = Rating(1620, 80)

    weighted = update(PAPER_PLAYER, [Result(opponent, 1, weight=1.0)])

    assert weighted == update(PAPER_PLAYER, [Result(opponent, 1)])


def test_a_one_point_match_is_a_plain_game():
    a, b = Rating(1550, 120), Rating(1480, 90)

    new_a, new_b = rate_match(a, b, a_won=True, points=1)

    assert new_a == update(a, [Result(b, 1)])
    assert new_b == update(b, [Result(a, 0)])


def test_a_longer_match_moves_the_ratings_more():
    a, b = Rating(1500, 150), Rating(1500, 150)

    short_winner, short_loser = rate_match(a, b, a_won=True, points=1)
    long_winner, long_loser = rate_match(a, b, a_won=True, points=9)

    assert long_winner.rating > short_winner.rating > a.rating
    assert long_loser.rating < short_loser.rating < b.rating
    assert long_winner.rd < short_winner.rd


def test_match_weight_is_the_square_root_of_the_length():
    assert [match_weight(n) for n in (1, 4, 9, 25)] == [1.0, 2.0, 3.0, 5.0]


@settings(max_examples=150, deadline=None)
@given(
    ratings,
    ratings,
    st.sampled_from([0.0, 0.5, 1.0]),
    st.floats(0.1, 10),
    st.floats(0.1, 10),
)
def test_more_weight_never_moves_the_rating_less(player, opponent, score, w1, w2):
    light, heavy = sorted((w1, w2))

    light_change = update(player, [Result(opponent, score, light)]).rating - player.rating
    heavy_change = update(player, [Result(opponent, score, heavy)]).rating - player.rating

    assert abs(light_change) <= abs(heavy_change) + 1e-9


# -- One match, both players ---------------------------------------------------------------


def test_a_win_for_a_mirrors_a_loss_for_b():
    a, b = Rating(1620, 90, 0.05), Rating(1480, 210, 0.07)

    a_wins = rate_match(a, b, a_won=True, points=3)
    b_loses = rate_match(b, a, a_won=False, points=3)

    assert a_wins == b_loses[::-1]


def test_equal_players_gain_and_lose_the_same():
    a = b = Rating(1500, 200)

    winner, loser = rate_match(a, b, a_won=True)

    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == loser.rd


def test_a_draw_between_equal_players_changes_no_rating():
    player = Rating(1700, 120)

    new = update(player, [Result(player, 0.5)])

    assert new.rating == pytest.approx(1700)
    assert new.rd < player.rd


def test_a_game_between_usual_players_lowers_both_rds():
    winner, loser = rate_match(Rating(), Rating(1600, 200), a_won=True)

    assert winner.rd < 350
    assert loser.rd < 200


def test_a_settled_volatile_rating_can_gain_rd_from_one_game():
    # Glicko-2 grows the RD by the period's volatility before the games count (step 6), so
    # one game cannot always win back what a very volatile, very settled rating loses.
    player = Rating(1500, 30, 0.125)

    new = update(player, [Result(player, 1)])

    assert round(new.rd, 2) == 36.83
    assert new.rd < math.hypot(player.rd, SCALE * new.volatility)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, match_lengths)
def test_the_winner_never_loses_rating_and_the_loser_never_gains(a, b, points):
    winner, loser = rate_match(a, b, a_won=True, points=points)

    assert winner.rating >= a.rating
    assert loser.rating <= b.rating


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, match_lengths)
def test_playing_never_leaves_the_rd_above_the_periods_inflation(a, b, points):
    # The RD may end above its old value (see the settled volatile rating above), but a
    # game only ever adds information: never above sqrt(RD^2 + new volatility^2).
    new_a, new_b = rate_match(a, b, a_won=True, points=points)

    for old, new in ((a, new_a), (b, new_b)):
        assert new.rd <= math.hypot(old.rd, SCALE * new.volatility) * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), max_size=8))
def test_ratings_stay_finite_for_extreme_inputs(player, games):
    new = update(player, [Result(opponent, score, 5.0) for opponent, score in games])

    assert all(math.isfinite(x) for x in (new.rating, new.rd, new.volatility))
    assert new.rd > 0
    assert new.volatility > 0


@settings(max_examples=100, deadline=None)
@given(ratings, ratings, match_lengths, st.booleans())
def test_rate_match_is_symmetric(a, b, points, a_won):
    assert (
        rate_match(a, b, a_won, points=points) == rate_match(b, a, not a_won, points=points)[::-1]
    )


def test_a_rating_far_beyond_the_usual_range_stays_finite():
    underdog, champion = Rating(0, 30), Rating(100_000, 30)

    winner, loser = rate_match(underdog, champion, a_won=True, points=25)

    assert math.isfinite(winner.rating) and winner.rating > 0
    assert math.isfinite(loser.rating) and loser.rating < 100_000


# -- No games, inactivity ------------------------------------------------------------------


def test_no_games_only_grows_the_rd():
    new = update(PAPER_PLAYER, [])

    assert new.rating == 1500
    assert new.volatility == 0.06
    assert new.rd == pytest.approx(math.hypot(200, 0.06 * SCALE))


def test_no_games_is_one_idle_period():
    assert update(PAPER_PLAYER, []) == inflate_for_inactivity(PAPER_PLAYER, 1)


def test_inactivity_grows_the_rd_with_the_periods():
    player = Rating(1800, 50)

    rds = [inflate_for_inactivity(player, periods).rd for periods in (0, 0.5, 1, 6, 24)]

    assert rds[0] == 50
    assert rds == sorted(rds)
    assert rds[-1] == pytest.approx(SCALE * math.sqrt((50 / SCALE) ** 2 + 24 * 0.06**2))


def test_inactivity_caps_the_rd_at_350():
    assert inflate_for_inactivity(Rating(1800, 50), 10_000).rd == MAX_RD == 350
    assert inflate_for_inactivity(Rating(1800, 349.9), 1).rd == 350


def test_inactivity_never_shrinks_an_rd_above_the_cap():
    assert inflate_for_inactivity(Rating(1500, 360), 1).rd == 360


def test_inactivity_keeps_rating_and_volatility():
    player = Rating(1234, 80, 0.09)

    idle = inflate_for_inactivity(player, 3)

    assert (idle.rating, idle.volatility) == (1234, 0.09)


def test_negative_periods_are_refused():
    with pytest.raises(ValueError, match="periods must be zero or more"):
        inflate_for_inactivity(Rating(), -1)


# -- Display and prediction ----------------------------------------------------------------


def test_a_new_rating_is_provisional():
    assert is_provisional(Rating())


def test_a_rating_becomes_settled_at_the_threshold():
    assert is_provisional(Rating(1500, 110.01))
    assert not is_provisional(Rating(1500, 110))
    assert not is_provisional(Rating(1500, 45))


def test_the_provisional_threshold_is_configurable():
    assert is_provisional(Rating(1500, 90), threshold_rd=80)
    assert not is_provisional(Rating(1500, 90), threshold_rd=100)


def test_equal_ratings_expect_half_a_point():
    assert expected_score(Rating(1500), Rating(1500)) == 0.5
    assert expected_score(Rating(1900, 40), Rating(1900, 300)) == 0.5


def test_the_higher_rating_is_favoured():
    assert expected_score(Rating(1700), Rating(1500)) > 0.5
    assert expected_score(Rating(1500), Rating(1700)) < 0.5


@settings(max_examples=100, deadline=None)
@given(ratings, ratings)
def test_both_sides_expected_scores_add_to_one(a, b):
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1)


# -- Readable errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Rating(math.nan), "a rating must be a finite number"),
        (lambda: Rating(1500, -5), "a rating deviation must be a positive number"),
        (lambda: Rating(1500, 200, 0), "a volatility must be a positive number"),
        (lambda: Result(Rating(), -0.5), "a score must be between 0 and 1"),
        (lambda: Result(Rating(), 1, weight=0), "a weight must be a positive number"),
        (lambda: match_weight(0), "a match is played to at least 1 point"),
        (lambda: update(Rating(), [], tau=0), "tau must be a positive number"),
    ],
)
def test_bad_values_are_refused_with_a_readable_message(make, message):
    with pytest.raises(ValueError, match=message):
        make()
