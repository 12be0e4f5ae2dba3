"""Entering a play one checker move at a time (the clickable board)."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalPlayError, Position, legal_plays
from games.engine.moves import partial_play

from .helpers import make
from .test_properties import DICE, positions


def test_partial_play_offers_both_entries_at_the_start():
    start = Position.initial("american")

    partial = partial_play(start, (6, 3), [])

    assert {(s.source, s.dest) for s in partial.next_steps} == {(26, 19), (26, 22)}
    assert partial.complete is None


def test_partial_play_rejects_a_move_that_no_legal_play_starts_with():
    position = make(white={13: 1}, black={10: 2})

    with pytest.raises(IllegalPlayError, match="13/10"):
        partial_play(position, (5, 3), [(13, 10)])


def test_partial_play_accepts_the_dice_in_either_order():
    position = make(white={13: 1}, black={1: 2})

    assert partial_play(position, (5, 3), [(13, 10), (10, 5)]).complete is not None
    assert partial_play(position, (5, 3), [(13, 8), (8, 5)]).complete is not None


def test_partial_play_bearing_off_follows_the_rules_in_the_order_clicked():
    # 4/off may take the 6 or the 4; 2/off is legal only once the 4-point is empty.
    position = make(white={4: 1, 2: 1}, black={20: 2})

    assert partial_play(position, (6, 4), [(4, 0), (2, 0)]).complete is not None
    with pytest.raises(IllegalPlayError):
        partial_play(position, (6, 4), [(2, 0)])


def test_partial_play_reports_a_reached_play_and_further_moves_together():
    # 2/off alone reaches the same position as the legal 2/1 1/off (R5.4); 1/off after
    # it wins the game, so both are offered.
    position = make(white={2: 1, 1: 1}, black={24: 15})

    partial = partial_play(position, (1, 2), [(2, 0)])

    assert partial.complete is not None
    assert [(s.source, s.dest) for s in partial.next_steps] == [(1, 0)]


def test_partial_play_does_not_allow_stopping_before_the_dice_are_used():
    position = make(white={13: 2}, black={1: 2})

    partial = partial_play(position, (6, 5), [(13, 7)])

    assert partial.complete is None
    assert partial.next_steps


@settings(max_examples=120, deadline=None)
@given(positions(), st.sampled_from(DICE))
def test_every_order_of_a_legal_plays_steps_completes_it(position, dice):
    for play in legal_plays(position, dice)[:10]:
        steps = [(s.source, s.dest) for s in play.steps]
        for order in list(permutations(steps))[:6]:
            try:
                partial = partial_play(position, dice, [])
                for index, step in enumerate(order):
                    assert step in {(s.source, s.dest) for s in partial.next_steps}
                    partial = partial_play(position, dice, list(order[: index + 1]))
            except (AssertionError, IllegalPlayError):
                if order == tuple(steps):
                    raise
                continue  # another order may be illegal (a touch-down, bar first)
            assert partial.complete == play
