"""One or more tests per rule of RULES.md, named after it, with the seeds' worked examples."""

from __future__ import annotations

import pytest

from games.engine import (
    IllegalActionError,
    IllegalPlayError,
    InvalidPositionError,
    Position,
    can_hit_named_blot,
    format_play,
    legal_plays,
)
from games.engine.game import Game, GameState, Phase, ScriptedDice, SegmentKind
from games.engine.match import Ending, Match, game_points

from .helpers import make, notations

# -- R1 Start ------------------------------------------------------------------------------


def test_r1_american_starts_with_every_checker_waiting():
    position = Position.initial("american")

    assert position.points == (0,) * 24
    assert tuple(position.waiting) == (15, 15)
    assert tuple(position.off) == (0, 0)


def test_r1_greek_starts_on_the_opponents_one_point():
    position = Position.initial("greek")

    assert position.points[23] == 15  # White on absolute 24 (Black's one-point)
    assert position.points[0] == -15  # Black on absolute 1 (White's one-point)
    assert tuple(position.waiting) == (0, 0)


def test_r1_higher_opening_die_moves_first_with_both_dice_rolled_afresh():
    game = Game("american", ScriptedDice([2, 5, 6, 3]))

    assert game.to_move == "black"
    assert game.dice == (6, 3)
    assert [(e.white, e.black) for e in game.events] == [(2, 5)]


def test_r1_opening_ties_are_rolled_again_and_recorded():
    game = Game("greek", ScriptedDice([4, 4, 1, 1, 6, 2, 5, 5]))

    assert [(e.white, e.black) for e in game.events] == [(4, 4), (1, 1), (6, 2)]
    assert game.to_move == "white"
    assert game.dice == (5, 5)


def test_r1_first_roll_counts_in_full_a_1_2_is_an_acey_deucey():
    game = Game("american", ScriptedDice([6, 1, 1, 2]))

    assert game.kind is SegmentKind.ACEY_DEUCEY


# -- R2 Single moves -----------------------------------------------------------------------


def test_r2_seed_example_6_3_enters_on_the_6_and_3_points():
    start = Position.initial("american")

    results = {p.result.points for p in legal_plays(start, (6, 3))}

    both_entered = tuple(1 if i + 1 in (19, 22) else 0 for i in range(24))
    one_moved_on = tuple(1 if i + 1 == 16 else 0 for i in range(24))
    assert results == {both_entered, one_moved_on}


def test_r2_black_enters_on_absolute_points_matching_the_dice():
    start = Position.initial("american", "black")

    results = {p.result.points for p in legal_plays(start, (6, 3))}

    assert tuple(-1 if i + 1 in (3, 6) else 0 for i in range(24)) in results


def test_r2_seed_example_5_3_touch_down_must_be_open():
    # The checker on 13 may move 8 only through 8, because 10 is blocked.
    position = make(white={13: 1}, black={10: 2})

    assert notations(position, (5, 3)) == {"13/8 8/5"}


def test_r2_both_touch_downs_blocked_means_no_combined_move():
    position = make(white={13: 1}, black={10: 2, 8: 2})

    plays = legal_plays(position, (5, 3))

    assert len(plays) == 1 and plays[0].is_dance


def test_r2_no_direct_entry_with_the_sum_of_the_dice():
    # Both entry points blocked: the checker cannot jump straight to 16.
    position = make(waiting=(15, 0), black={19: 2, 22: 2})

    assert [p.is_dance for p in legal_plays(position, (6, 3))] == [True]


def test_r2_landing_on_a_blot_hits_it_also_when_entering():
    position = make(waiting=(15, 0), black={22: 1})

    plays = {format_play(p): p for p in legal_plays(position, (3, 3))}

    hit = next(p for text, p in plays.items() if "in/22*" in text)
    assert hit.result.bar.black == 1
    assert hit.result.points[21] >= 1


# -- R3 Bar first --------------------------------------------------------------------------


def test_r3_a_bar_checker_enters_before_anything_else_even_waiting_checkers():
    position = make(white={13: 2}, bar=(1, 0), waiting=(12, 0))

    for play in legal_plays(position, (6, 4)):
        assert play.steps[0].source == 25  # bar
        assert all(s.source != 26 for s in play.steps[:1])


def test_r3_dice_that_cannot_enter_are_lost():
    # Two on the bar; only the 4 enters (the 19-point is blocked).
    position = make(white={13: 13}, bar=(2, 0), black={19: 2})

    assert notations(position, (6, 4)) == {"bar/21"}


def test_r3_after_the_bar_is_empty_the_other_die_plays_normally():
    position = make(white={13: 14}, bar=(1, 0), black={19: 2})

    assert notations(position, (6, 4)) == {"bar/21 21/15", "bar/21 13/7"}


# -- R4 Waiting checkers -------------------------------------------------------------------


def test_r4_waiting_checkers_have_no_priority_any_mix_is_legal():
    position = make(white={18: 1}, waiting=(14, 0))

    texts = notations(position, (5, 2))

    assert "in/23 in/20" in texts  # enter two
    assert "18/13 13/11" in texts or "18/16 16/11" in texts  # move only
    assert "in/20 18/16" in texts  # mix


# -- R5 Must-play --------------------------------------------------------------------------


def test_r5_both_dice_must_be_used_when_possible():
    position = make(white={13: 1, 5: 14})

    for play in legal_plays(position, (6, 5)):
        assert len(play.steps) == 2


def test_r5_higher_die_when_only_one_can_be_played():
    # 14/8 (6) or 14/9 (5) are each possible, but not both dice: the 6 must be played.
    position = make(white={14: 1, 1: 14}, black={3: 2})

    assert notations(position, (6, 5)) == {"14/8"}


def test_r5_lower_die_when_the_higher_cannot_be_played():
    position = make(white={14: 1, 1: 14}, black={8: 2, 3: 2})

    assert notations(position, (6, 5)) == {"14/9"}


def test_r5_a_dance_is_one_play_with_no_steps():
    position = make(waiting=(15, 0), black={19: 2, 22: 2, 24: 2, 23: 2, 20: 2, 21: 2})

    plays = legal_plays(position, (4, 2))

    assert len(plays) == 1
    assert plays[0].is_dance
    assert plays[0].result.turn == "black"


def test_r5_move_orders_reaching_the_same_position_are_one_play():
    position = make(white={13: 1}, black={1: 2})

    results = [p.result for p in legal_plays(position, (5, 3))]

    assert len(results) == 1  # 13/8/5 and 13/10/5 are the same play


def test_r5_doubles_play_as_many_moves_as_possible():
    # One checker can make three 6s (21/15/9/3 is blocked at 3) and another one (16/10).
    position = make(white={21: 1, 16: 1, 6: 4, 5: 3, 2: 3, 1: 3}, black={3: 2, 4: 2})

    plays = legal_plays(position, (6, 6))

    assert [len(p.steps) for p in plays] == [3]


def test_r5_bearing_off_the_last_checker_counts_as_using_all_dice():
    position = make(white={4: 1}, black={20: 2})

    plays = legal_plays(position, (4, 1))

    assert len(plays) == 1  # 4/off and 4/3 3/off reach the same position
    assert plays[0].result.off.white == 15
    assert plays[0].wins


def test_r5_last_checker_off_with_a_named_blot_on_the_touch_down_must_hit():
    # RULES.md R5.5's example: the named blot on the 3-point leaves only 4/3* 3/off.
    position = make("greek", white={4: 1}, black={3: 1, 20: 2}, named_blot=3)

    assert notations(position, (4, 1)) == {"4/3* 3/off"}


# -- R6 Bearing off ------------------------------------------------------------------------


def test_r6_no_bearing_off_with_a_checker_outside_the_home_board():
    position = make(white={8: 1, 6: 14})

    plays = legal_plays(position, (6, 2))

    # Re-checked after each move: once 8/2 or 8/6 brings the last checker home, the
    # other die may bear one off.
    assert {p.result.off.white for p in plays} == {0, 1}
    assert all(p.steps[0].source == 8 for p in plays if p.result.off.white == 1)


def test_r6_no_bearing_off_while_a_checker_is_waiting_to_enter():
    position = make(white={6: 14}, waiting=(1, 0))

    texts = notations(position, (6, 5))

    assert not any("off" in t for t in texts)


def test_r6_no_bearing_off_while_a_checker_is_on_the_bar():
    position = make(white={6: 14}, bar=(1, 0))

    assert not any("off" in t for t in notations(position, (6, 5)))


def test_r6_a_die_equal_to_the_point_bears_off():
    position = make(white={5: 2, 3: 2})

    assert "5/off 3/off" in notations(position, (5, 3))


def test_r6_a_larger_die_bears_off_only_from_the_highest_point():
    position = make(white={4: 1, 2: 1})

    texts = notations(position, (6, 5))

    assert texts == {"4/off 2/off"}


def test_r6_a_larger_die_cannot_bear_off_a_lower_checker_while_a_higher_one_stands():
    position = make(white={5: 1, 2: 1})

    texts = notations(position, (6, 1))

    assert "5/off 2/1" in texts
    assert all(not t.startswith("2/off") for t in texts)


def test_r6_moves_inside_the_home_board_stay_legal():
    position = make(white={6: 2, 5: 2})

    assert "6/4 6/5" in notations(position, (2, 1)) or "6/5 6/4" in notations(position, (2, 1))


def test_r6_exact_roll_bear_off_is_not_the_default():
    position = make(white={3: 1, 2: 1})

    assert notations(position, (6, 5)) == {"3/off 2/off"}


# -- R7 The acey-deucey roll -----------------------------------------------------------------


def _game_at(position: Position, dice: tuple[int, int], rolls: list[int]) -> Game:
    kind = SegmentKind.ACEY_DEUCEY if sorted(dice) == [1, 2] else SegmentKind.ROLL
    return Game(
        position.variant,
        ScriptedDice(rolls),
        state=GameState(position, Phase.PLAY, dice, kind),
    )


def test_r7_american_1_2_then_named_double_then_an_extra_roll():
    game = _game_at(Position.initial("american"), (1, 2), [5, 3])

    game.play("in/24 in/23")
    assert game.phase is Phase.NAME_DOUBLE and game.to_move == "white"
    game.name_double(6)
    assert game.dice == (6, 6) and game.kind is SegmentKind.NAMED_DOUBLE
    game.play("in/19(4)")

    assert game.to_move == "white"
    assert game.dice == (5, 3)
    assert game.kind is SegmentKind.ROLL


def test_r7_american_seed_example_only_the_2_plays_forfeits_the_rest_of_the_turn():
    position = make(waiting=(15, 0), black={24: 2, 22: 2})
    game = _game_at(position, (1, 2), [4, 4])

    assert notations(position, (1, 2)) == {"in/23"}
    game.play("in/23")

    assert game.to_move == "black"
    assert game.phase is Phase.PLAY


def test_r7_greek_always_goes_on_to_name_a_double_and_never_rolls_again():
    position = make("greek", white={24: 15}, black={23: 2, 22: 2, 1: 11})
    game = _game_at(position, (1, 2), [3, 5])

    game.play(legal_plays(position, (1, 2))[0])  # a dance: 23 and 22 are blocked
    assert game.phase is Phase.NAME_DOUBLE
    game.name_double(3)
    game.play(game.legal_plays()[0])

    assert game.to_move == "black"
    assert game.dice == (3, 5)


def test_r7_seed_example_naming_6_6_with_only_three_6s_playable_ends_the_turn():
    position = make(white={21: 1, 16: 1, 6: 4, 5: 3, 2: 3, 1: 3}, black={3: 2, 4: 2})
    game = Game(
        "american", ScriptedDice([2, 3]), state=GameState(position, Phase.NAME_DOUBLE, None, None)
    )

    game.name_double(6)
    plays = game.legal_plays()
    game.play(plays[0])

    assert [len(p.steps) for p in plays] == [3]
    assert game.to_move == "black"
    assert game.dice == (2, 3)


def test_r7_any_double_may_be_named_also_one_that_cannot_be_played():
    position = make(white={13: 15}, black={12: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2})
    game = Game(
        "american", ScriptedDice([6, 5]), state=GameState(position, Phase.NAME_DOUBLE, None, None)
    )

    assert game.allowed_doubles() == [1, 2, 3, 4, 5, 6]
    game.name_double(1)

    assert game.forced_play() is not None and game.forced_play().is_dance


def test_r7_a_new_1_2_on_the_extra_roll_repeats_the_chain():
    game = _game_at(Position.initial("american"), (2, 1), [1, 2, 6, 5])

    game.play("in/24 in/23")
    game.name_double(4)
    game.play("in/21(4)")
    assert game.kind is SegmentKind.ACEY_DEUCEY and game.to_move == "white"
    game.play(game.legal_plays()[0])
    game.name_double(5)
    game.play(game.legal_plays()[0])

    assert game.dice == (6, 5)
    assert game.to_move == "white"


def test_r7_rolled_doubles_never_give_an_extra_roll():
    game = _game_at(Position.initial("american"), (6, 6), [4, 1])

    game.play("in/19(4)")

    assert game.to_move == "black"


def test_r7_naming_a_double_is_only_possible_after_a_1_2():
    game = _game_at(Position.initial("american"), (6, 5), [])

    with pytest.raises(IllegalActionError):
        game.name_double(6)


def test_r7_bearing_off_the_last_checker_ends_the_game_mid_turn():
    position = make(white={2: 1}, black={20: 2})
    game = _game_at(position, (1, 2), [])

    game.play(game.legal_plays()[0])

    assert game.phase is Phase.FINISHED
    assert game.winner == "white"
    assert game.points == 2  # Black has 13 off: two checkers not borne off


def test_r7_the_extra_roll_is_rolled_only_after_the_segment_before_it():
    class CountingDice:
        def __init__(self) -> None:
            self.rolls = 0

        def roll_die(self) -> int:
            self.rolls += 1
            return 3

    dice = CountingDice()
    game = Game(
        "american",
        dice,
        state=GameState(Position.initial("american"), Phase.PLAY, (1, 2), SegmentKind.ACEY_DEUCEY),
    )

    game.play("in/24 in/23")
    game.name_double(6)
    assert dice.rolls == 0
    game.play("in/19(4)")

    assert dice.rolls == 2


def test_r7_a_failed_roll_leaves_the_game_unchanged():
    game = _game_at(Position.initial("american"), (6, 5), [])
    before = (game.state, list(game.events))

    with pytest.raises(IllegalActionError):
        game.play("in/20 in/19")

    assert (game.state, game.events) == before


# -- R8 Compulsory hit (greek) -------------------------------------------------------------


def test_r8_the_opponent_must_hit_the_named_blot_when_possible():
    position = make("greek", white={15: 1, 20: 2, 6: 12}, black={9: 1, 1: 14}, named_blot=9)

    plays = legal_plays(position, (6, 5))

    assert plays
    assert all(p.hits_point(9) for p in plays)
    assert len(plays) < len(legal_plays(position._replace(named_blot=None), (6, 5)))


def test_r8_entering_from_the_bar_with_a_hit_counts():
    position = make("greek", white={6: 14}, bar=(1, 0), black={22: 1, 1: 14}, named_blot=22)

    plays = legal_plays(position, (3, 5))

    assert plays and all(p.steps[0].hit and p.steps[0].dest == 22 for p in plays)


def test_r8_obligation_never_forces_fewer_dice_and_then_lapses():
    # 14/9* (the 5) would hit, but only the 6 may be played (R5.2): 14/8.
    position = make("greek", white={14: 1, 1: 14}, black={9: 1, 3: 2}, named_blot=9)

    assert notations(position, (6, 5)) == {"14/8"}


def test_r8_obligation_lapses_when_no_play_hits():
    position = make("greek", white={20: 1, 6: 14}, black={2: 1, 1: 14}, named_blot=2)
    unrestricted = notations(position._replace(named_blot=None), (6, 5))

    assert notations(position, (6, 5)) == unrestricted == {"20/14 14/9"}


def test_r8_can_hit_named_blot_tells_whether_the_obligation_binds_or_lapses():
    binds = make("greek", white={15: 1, 20: 2, 6: 12}, black={9: 1, 1: 14}, named_blot=9)
    lapses = make("greek", white={20: 1, 6: 14}, black={2: 1, 1: 14}, named_blot=2)

    assert can_hit_named_blot(binds, (6, 5))  # 15/9*
    assert not can_hit_named_blot(binds, (4, 3))  # 15/11 11/8: 9 is passed, not landed on
    assert not can_hit_named_blot(lapses, (6, 5))
    assert not can_hit_named_blot(binds._replace(named_blot=None), (6, 5))  # none named


def test_r8_can_hit_named_blot_looks_through_a_1_2_to_its_named_double():
    # Out of reach of the 1-2 itself; 20/19 (or 20/18) leaves a double that reaches 10.
    position = make("greek", white={20: 1, 6: 5, 5: 5, 4: 4}, black={10: 1}, named_blot=10)
    out_of_reach = make("greek", white={6: 5, 5: 5, 4: 5}, black={22: 1, 1: 14}, named_blot=22)

    assert can_hit_named_blot(position, (1, 2))
    assert not can_hit_named_blot(out_of_reach, (1, 2))


def test_r8_can_hit_named_blot_after_a_1_2_asks_of_the_doubles_to_name():
    position = make("greek", white={19: 1, 6: 5, 5: 5, 4: 4}, black={10: 1}, named_blot=10)
    out_of_reach = make("greek", white={6: 5, 5: 5, 4: 5}, black={22: 1, 1: 14}, named_blot=22)

    assert can_hit_named_blot(position, None)  # 3-3: 19/16/13/10*
    assert not can_hit_named_blot(out_of_reach, None)


def test_r8_named_point_that_is_not_a_blot_creates_no_obligation():
    position = make("greek", white={15: 1, 6: 14}, black={9: 2, 1: 13}, named_blot=9)

    assert position.obligation is None
    assert notations(position, (6, 5)) == notations(position._replace(named_blot=None), (6, 5))


def test_r8_greek_seed_example_hit_within_the_1_2():
    position = make("greek", white={20: 1, 6: 14}, black={18: 1, 1: 14}, named_blot=18)
    game = _game_at(position, (1, 2), [])

    hitting = [p for p in game.legal_plays() if p.hits_point(18)]
    game.play(hitting[0])

    assert game.phase is Phase.NAME_DOUBLE
    assert game.position.named_blot is None  # met: the double is free
    assert game.allowed_doubles() == [1, 2, 3, 4, 5, 6]


def test_r8_greek_seed_example_hit_across_the_1_2_through_the_named_double():
    # The blot on 10 is out of reach of the 1-2, but 5-5 from 20, 3-3 from 19 or
    # 2-2/4-4 from 18 reach it: the checker on 20 must not be moved 3 pips to 17.
    position = make("greek", white={20: 1, 6: 5, 5: 5, 4: 4}, black={10: 1}, named_blot=10)
    free = position._replace(named_blot=None)

    allowed = {p.result.points[16] for p in legal_plays(position, (1, 2))}
    unrestricted = {p.result.points[16] for p in legal_plays(free, (1, 2))}

    assert unrestricted == {0, 1}
    assert allowed == {0}


def test_r8_the_named_double_must_be_one_that_still_allows_the_hit():
    position = make("greek", white={20: 1, 6: 5, 5: 5, 4: 4}, black={10: 1}, named_blot=10)
    game = _game_at(position, (1, 2), [])
    play = next(p for p in game.legal_plays() if p.result.points[18] == 1)  # 20/19 ...

    game.play(play)

    assert game.allowed_doubles() == [3]
    with pytest.raises(IllegalPlayError, match="named blot"):
        game.name_double(6)
    game.name_double(3)
    assert all(p.hits_point(10) for p in game.legal_plays())


def test_r8_naming_is_optional_at_most_one_and_lasts_one_turn():
    position = make("greek", white={15: 2, 6: 13}, black={9: 1, 1: 14})
    game = _game_at(position, (6, 1), [3, 3, 4, 2])

    game.play("15/9* 15/14", name_blot=14)
    assert game.position.named_blot == 14
    assert game.to_move == "black"
    game.play(game.legal_plays()[0])  # black must hit on their 11-point if it can; then

    assert game.position.named_blot is None


def test_r8_only_a_blot_of_ones_own_can_be_named():
    position = make("greek", white={15: 2, 6: 13}, black={9: 1, 1: 14})
    game = _game_at(position, (6, 1), [3, 3])

    with pytest.raises(IllegalPlayError, match="exactly one"):
        game.play("15/9* 15/14", name_blot=6)
    assert game.position == position


def test_r8_no_naming_in_american():
    data = make(white={15: 1}).to_dict() | {"named_blot": 15}

    with pytest.raises(InvalidPositionError, match=r"R8\.5"):
        Position.from_dict(data)


# -- R9 Scoring, winning, matches ------------------------------------------------------------


def test_r9_american_winner_scores_a_point_per_opposing_checker_not_borne_off():
    position = make(white={}, black={20: 2, 19: 1}, waiting=(0, 1), bar=(0, 1))

    assert game_points(position, "white") == 5


def test_r9_seed_example_a_shutout_scores_15():
    position = make(white={}, black={19: 15})

    assert game_points(position, "white") == 15


def test_r9_greek_winner_scores_one_point():
    position = make("greek", white={}, black={19: 15})

    assert game_points(position, "white") == 1


def test_r9_a_match_is_played_until_a_player_reaches_n_points():
    from .helpers import SeededDice

    match = Match("greek", 3, SeededDice(7))
    import random

    rng = random.Random(7)
    while not match.is_over:
        game = match.game
        if game.phase is Phase.NAME_DOUBLE:
            game.name_double(rng.choice(game.allowed_doubles()))
        else:
            game.play(rng.choice(game.legal_plays()))
            match.record_game_end()

    assert max(match.score) == 3
    assert len(match.games) == sum(match.score)
    assert match.winner == ("white" if match.score.white == 3 else "black")


def test_r9_resignation_loses_the_match_and_records_the_current_points():
    match = Match("american", 7, ScriptedDice([5, 2, 6, 3, 4, 1]))
    match.game.play("in/22 in/19")

    result = match.resign("white")

    assert match.winner == "black"
    assert result.ending is Ending.RESIGNATION
    assert result.points == 15  # white has borne off none
    assert match.score.black == 15


def test_r9_timeout_loses_the_match():
    match = Match("greek", 5, ScriptedDice([5, 2, 6, 3]))

    result = match.timeout("black")

    assert match.winner == "white"
    assert (result.ending, result.points) == (Ending.TIMEOUT, 1)
    with pytest.raises(IllegalActionError):
        match.resign("white")


def test_legal_plays_are_a_fresh_list_each_time_and_the_same_from_any_game_object():
    # Game keeps a few recent answers (a turn asks for the same segment's plays three
    # times, from different Game objects): a caller changing its list changes no other.
    game = Game("american", ScriptedDice([5, 2, 6, 3]))
    plays = game.legal_plays()
    expected = list(plays)
    plays.clear()

    again = Game("american", ScriptedDice([5, 2, 6, 3])).legal_plays()

    assert again == expected and again is not plays
    assert again == legal_plays(game.position, (6, 3))
