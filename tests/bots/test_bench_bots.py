"""bench.bots' duplicate dice and its intervals (the benchmark itself is not a test)."""

from __future__ import annotations

import pytest

from bench.bots import Job, SeatDice, SeatGame, share_ci, stratified_mean_ci
from games.bots import RandomBot, play_turn_segment
from games.engine.game import Phase, SegmentKind, SegmentPlayed


def _rolls_by_color(job: Job, bot_seed: int) -> dict[str, list[tuple[int, int]]]:
    game = SeatGame(job.variant, SeatDice(job.twin))
    bots = {"white": RandomBot(bot_seed), "black": RandomBot(bot_seed + 1)}
    while game.phase is not Phase.FINISHED:
        play_turn_segment(game, bots[game.to_move])
    rolls: dict[str, list[tuple[int, int]]] = {"white": [], "black": []}
    for event in game.events:
        if isinstance(event, SegmentPlayed) and event.kind is not SegmentKind.NAMED_DOUBLE:
            rolls[event.player].append(event.dice)
    return rolls


@pytest.mark.parametrize("twin", [0, 1, 7])
def test_twin_games_roll_the_same_dice_for_each_colour_however_they_are_played(twin):
    first, second = Job("random", "random", 2 * twin, 1), Job("random", "random", 2 * twin + 1, 1)
    assert first.twin == second.twin and first.variant == second.variant
    assert first.stronger_color != second.stronger_color

    a = _rolls_by_color(first, bot_seed=10)
    b = _rolls_by_color(second, bot_seed=99)  # other choices: the games diverge

    for color in ("white", "black"):
        n = min(len(a[color]), len(b[color]))
        assert n > 10 and a[color][:n] == b[color][:n]


def test_different_twins_roll_different_dice():
    a = _rolls_by_color(Job("random", "random", 0, 1), bot_seed=10)
    b = _rolls_by_color(Job("random", "random", 2, 1), bot_seed=10)

    assert a["white"][:10] != b["white"][:10]


def test_the_stratified_interval_weighs_strata_equally():
    mean, low, high = stratified_mean_ci([[1.0, 1.0, 1.0, 1.0], [3.0, 3.0]])
    assert (mean, low, high) == (2.0, 2.0, 2.0)

    mean, low, high = stratified_mean_ci([[0.0, 2.0], [10.0, 10.0]])
    # Means 1 and 10; sample variances 2 and 0 over 2 values each: (2 / 2 + 0) / 2 ** 2.
    assert mean == 5.5 and high - mean == pytest.approx(1.96 * 0.5)


def test_the_points_share_interval_holds_the_share_and_resamples_whole_twins():
    share, low, high = share_ci([[(3, 1), (2, 2)], [(1, 0), (0, 1)]])

    assert share == pytest.approx(6 / 10)
    assert low <= share <= high
    assert share_ci([[(5, 0)] * 4]) == (1.0, 1.0, 1.0)
