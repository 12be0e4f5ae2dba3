"""Hypothesis properties of the engine, checked against the slow reference in reference.py."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Pair, Position, absolute_point, format_play, legal_plays, variant_named
from games.engine.game import Game, Phase
from games.engine.match import game_points

from .helpers import SeededDice, play_random_game
from .reference import reference_max_dice, reference_states

DICE = [(a, b) for a in range(1, 7) for b in range(a, 7)]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Arbitrary legal positions: checkers scattered, some home-heavy for bearing off."""
    variant = draw(st.sampled_from(["american", "greek"]))
    turn = draw(st.sampled_from(["white", "black"]))
    home_bias = draw(st.booleans())
    # A few positions near the end, where R5.5 (the last checker off) comes into play.
    nearly_done = draw(st.integers(0, 9)) == 0
    points = [0] * 24
    bar, off, waiting = [0, 0], [0, 0], [0, 0]
    for color, sign in ((0, 1), (1, -1)):
        for index in range(15):
            if nearly_done and color == (0 if turn == "white" else 1) and index < 13:
                where = 0  # borne off
            elif home_bias:
                home = draw(st.integers(1, 6))
                where = home if color == 0 else 25 - home
                where = draw(st.sampled_from([where, where, where, 0]))
            else:
                where = draw(st.integers(0, 27))
            if where == 25 or (1 <= where <= 24 and points[where - 1] * sign < 0):
                bar[color] += 1  # a point held by the other colour: put it on the bar
            elif where == 26 and variant == "american":
                waiting[color] += 1
            elif 1 <= where <= 24:
                points[where - 1] += sign
            else:
                off[color] += 1
    position = Position(
        variant_named(variant), turn, tuple(points), Pair(*bar), Pair(*off), Pair(*waiting)
    )
    if variant == "greek" and draw(st.booleans()):
        blots = position.blots("black" if turn == "white" else "white")
        if blots:
            position = position._replace(named_blot=draw(st.sampled_from(blots)))
    if position.winner is not None:
        # Nothing to play in a finished game; move one borne-off checker back to the bar.
        color = position.winner
        position = position._replace(
            off=position.off.replace(color, 14),
            bar=position.bar.replace(color, position.bar.of(color) + 1),
        )
    position.validate()
    return position


def _state(position: Position) -> tuple:
    return (position.points, tuple(position.bar), tuple(position.off), tuple(position.waiting))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from(DICE))
def test_legal_plays_agree_with_the_unpruned_reference(position, dice):
    plays = legal_plays(position, dice)

    assert {_state(p.result) for p in plays} == reference_states(position, dice)


@settings(max_examples=200, deadline=None)
@given(positions(), st.sampled_from(DICE))
def test_checkers_are_conserved_15_a_side(position, dice):
    for play in legal_plays(position, dice):
        play.result.validate()


@settings(max_examples=200, deadline=None)
@given(positions(), st.sampled_from(DICE))
def test_every_play_uses_the_maximum_number_of_dice(position, dice):
    most = reference_max_dice(position, dice)

    for play in legal_plays(position, dice):
        used = (4 if dice[0] == dice[1] else 2) if play.wins else len(play.steps)
        assert used == most


@settings(max_examples=200, deadline=None)
@given(positions(), st.sampled_from(DICE))
def test_no_legal_play_lands_on_a_blocked_point(position, dice):
    mover = position.turn
    sign = 1 if mover == "white" else -1
    for play in legal_plays(position, dice):
        for step in play.steps:
            if 1 <= step.dest <= 24:
                opposing = -sign * position.points[absolute_point(mover, step.dest) - 1]
                assert opposing < 2


@settings(max_examples=100, deadline=None)
@given(positions(), st.sampled_from(DICE))
def test_plays_are_distinct_positions(position, dice):
    plays = legal_plays(position, dice)

    assert len({p.result for p in plays}) == len(plays)
    assert len({format_play(p) for p in plays}) == len(plays)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["american", "greek"]))
def test_a_random_game_ends_with_a_correct_score(seed, variant):
    game = Game(variant, SeededDice(seed))

    play_random_game(game, random.Random(seed))

    loser = "black" if game.winner == "white" else "white"
    assert game.phase is Phase.FINISHED
    assert game.position.off.of(game.winner) == 15
    assert game.position.off.of(loser) < 15
    expected = 1 if variant == "greek" else 15 - game.position.off.of(loser)
    assert game.points == expected == game_points(game.position, game.winner)


def test_positions_seen_in_random_games_agree_with_the_reference():
    rng = random.Random(2026)
    checked = 0
    for seed in range(6):
        for variant in ("american", "greek"):
            game = Game(variant, SeededDice(seed))
            for position in play_random_game(game, rng)[::7]:
                if position.is_game_over:
                    continue
                dice = rng.choice(DICE)
                assert {_state(p.result) for p in legal_plays(position, dice)} == (
                    reference_states(position, dice)
                )
                checked += 1
    assert checked > 100
