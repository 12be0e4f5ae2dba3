"""An independent audit of the engine against RULES.md, one test per rule point.

Each test names the rule it checks. These pin behaviour that test_rules.py and
test_notation.py leave open: the mirror image for Black, the bar and waiting checkers
inside the acey-deucey sequence, the R8 naming phases, match play and the interchange
formats.
"""

from __future__ import annotations

import pytest

from games.engine import (
    IllegalActionError,
    IllegalPlayError,
    InvalidNotationError,
    InvalidPositionError,
    Position,
    format_play,
    legal_plays,
)
from games.engine.game import Game, GameState, OpeningRoll, Phase, ScriptedDice, SegmentKind
from games.engine.match import Match, game_points
from games.engine.notation import parse_play
from games.engine.record import import_text, record_from_match, to_text

from .helpers import make, notations


def _game_at(position: Position, dice: tuple[int, int], rolls: list[int]) -> Game:
    """A game whose next segment is ``dice`` in ``position``; later rolls from ``rolls``."""
    kind = SegmentKind.ACEY_DEUCEY if sorted(dice) == [1, 2] else SegmentKind.ROLL
    return Game(
        position.variant, ScriptedDice(rolls), state=GameState(position, Phase.PLAY, dice, kind)
    )


def _naming_at(position: Position, rolls: list[int]) -> Game:
    """A game right after a 1-2 segment: the mover is to name a double (R7.3)."""
    return Game(
        position.variant,
        ScriptedDice(rolls),
        state=GameState(position, Phase.NAME_DOUBLE, None, None),
    )


# -- R1 Start --------------------------------------------------------------------------------


def test_r1_an_opening_double_is_played_as_four_moves():
    game = Game("american", ScriptedDice([3, 1, 6, 6]))

    assert game.to_move == "white"
    assert game.kind is SegmentKind.ROLL
    plays = game.legal_plays()
    assert "in/19(4)" in {format_play(p) for p in plays}
    assert {len(p.steps) for p in plays} == {4}


def test_r1_greek_black_winning_the_opening_moves_from_its_own_24_point():
    game = Game("greek", ScriptedDice([1, 6, 6, 5]))

    assert game.to_move == "black"
    assert game.position.points[0] == -15  # absolute 1 is Black's own 24-point
    assert notations(game.position, game.dice) == {"24/18 18/13", "24/19 24/18"}


def test_r1_every_game_of_a_match_opens_with_its_own_opening_roll():
    # Game 1: white wins the opening (5-2). Game 2: black wins it (2-6).
    match = Match("greek", 2, ScriptedDice([5, 2, 4, 3, 2, 6, 5, 3]))
    nearly_won = make("greek", white={2: 1}, black={20: 2})
    match.games[0] = _game_at(nearly_won, (4, 3), [2, 6, 5, 3])
    match.game.play("2/off")

    match.record_game_end()

    second = match.games[1]
    assert [e for e in second.events if isinstance(e, OpeningRoll)] == [OpeningRoll(2, 6)]
    assert second.to_move == "black"
    assert second.dice == (5, 3)
    assert second.position == Position.initial("greek", "black")


# -- R2 Single moves ---------------------------------------------------------------------------


def test_r2_black_enters_from_the_bar_on_absolute_d_and_hits_there():
    position = make(turn="black", black={24: 13}, bar=(0, 2), white={4: 1, 2: 1, 13: 13})

    plays = legal_plays(position, (4, 2))

    assert {format_play(p) for p in plays} == {"bar/23* bar/21*"}
    assert plays[0].result.bar == (2, 0)
    assert plays[0].result.points[3] == -1 and plays[0].result.points[1] == -1


def test_r2_an_american_checker_that_is_hit_goes_to_the_bar_not_back_to_waiting():
    position = make(white={13: 14}, waiting=(1, 0), black={10: 1}, bar=(0, 0))

    play = parse_play(position, (3, 1), "13/10* 13/12")

    assert play.result.bar.black == 1
    assert play.result.waiting.black == 0


def test_r2_entering_and_moving_on_needs_the_touch_down_of_that_die_open():
    # 16 is reachable only through 22 (the 3 first): 19 is blocked.
    position = make(waiting=(15, 0), black={19: 2, 1: 13})

    assert notations(position, (6, 3)) == {"in/22 22/16"}


def test_r2_a_combined_move_hits_on_its_touch_down_and_goes_on():
    position = make(white={24: 1, 6: 14}, black={18: 1, 19: 2, 1: 12})

    play = parse_play(position, (6, 5), "24/13")

    assert format_play(play) == "24/18* 18/13"
    assert play.result.bar.black == 1


# -- R3 Bar first ------------------------------------------------------------------------------


def test_r3_three_on_the_bar_with_a_double_enter_then_the_fourth_move_is_free():
    position = make(white={6: 12}, bar=(3, 0), black={1: 15})

    assert notations(position, (3, 3)) == {"bar/22(3) 22/19", "bar/22(3) 6/3"}


def test_r3_black_bar_checker_enters_before_its_waiting_checkers_and_board_moves():
    position = make(turn="black", black={12: 3}, bar=(0, 1), waiting=(0, 11), white={1: 15})

    texts = notations(position, (5, 3))

    assert texts  # something is playable
    assert all(t.startswith("bar/") for t in texts)
    assert "in/20 in/22" not in texts


def test_r3_greek_bar_checkers_that_cannot_enter_lose_the_rest_of_the_1_2_segment():
    # Two on the bar: the 2 cannot enter (own 23 blocked), so only bar/24 is played. Greek
    # still goes on to name a double (R7.2), and the bar checker must enter first there too.
    position = make("greek", white={6: 13}, bar=(2, 0), black={23: 2, 1: 13})
    game = _game_at(position, (1, 2), [3, 4])

    assert notations(position, (1, 2)) == {"bar/24"}
    game.play("bar/24")
    assert game.phase is Phase.NAME_DOUBLE
    game.name_double(2)

    assert [p.is_dance for p in game.legal_plays()] == [True]


# -- R4 Waiting checkers -------------------------------------------------------------------------


def test_r4_black_may_enter_and_move_in_any_mix():
    position = make(turn="black", black={7: 1}, waiting=(0, 14), white={1: 15})

    texts = notations(position, (5, 2))

    assert "in/23 in/20" in texts  # enter two
    assert "18/13 13/11" in texts  # move only (own 18 is absolute 7)
    assert "in/20 18/16" in texts  # mix


def test_r4_entering_counts_as_a_move_for_the_must_play_rule():
    # The board checker cannot move (own 3 with 6 or 5, bearing off closed); an entry with
    # the 5 then a 6 with the entered checker uses both dice, so that is forced.
    position = make(white={3: 1}, waiting=(14, 0), black={19: 2, 1: 13})

    assert notations(position, (6, 5)) == {"in/20 20/14"}


# -- R5 Must-play --------------------------------------------------------------------------------


def test_r5_2_with_a_bar_checker_only_the_higher_entry_when_one_die_can_be_played():
    # bar/19* (6) and bar/20* (5) each leave no move for the other die.
    position = make(white={6: 14}, bar=(1, 0), black={19: 1, 20: 1, 18: 2, 14: 2, 13: 2, 1: 7})

    assert notations(position, (6, 5)) == {"bar/19*"}


def test_r5_2_black_must_play_the_higher_die_when_only_one_can_be_played():
    # Mirror of test_rules' 14/8 example: Black's own 14 is absolute 11.
    position = make(turn="black", black={11: 1, 24: 14}, white={22: 2})

    assert notations(position, (6, 5)) == {"14/8"}


def test_r5_5_a_double_that_bears_off_the_last_checker_counts_as_four_moves():
    position = make(white={2: 1}, black={20: 2})

    plays = legal_plays(position, (2, 2))

    assert [format_play(p) for p in plays] == ["2/off"]
    assert plays[0].wins


def test_r5_1_the_1_2_segment_must_use_both_dice_when_it_can():
    position = make(white={13: 2, 6: 13}, black={1: 15})

    assert all(len(p.steps) == 2 for p in legal_plays(position, (1, 2)))
    with pytest.raises(IllegalPlayError, match="both dice"):
        parse_play(position, (1, 2), "13/11")


# -- R6 Bearing off ------------------------------------------------------------------------------


def test_r6_black_bears_off_above_24_with_the_larger_die_from_its_highest_point():
    # Black's own 1 and 5 are absolute 24 and 20.
    position = make(turn="black", black={24: 1, 20: 1}, white={1: 15})

    assert notations(position, (6, 1)) == {"5/4 4/off", "5/off 1/off"}


def test_r6_re_checked_within_a_double_the_last_checker_home_opens_bearing_off():
    position = make(white={12: 1, 6: 14}, black={24: 15})

    assert "12/6 6/off(3)" in notations(position, (6, 6))


def test_r6_a_checker_entered_this_turn_keeps_bearing_off_closed():
    # The 15th checker enters on 19 and runs 19/13/7; 7/1 is blocked; nothing is borne off.
    position = make(white={6: 14}, waiting=(1, 0), black={1: 15})

    assert notations(position, (6, 6)) == {"in/19 19/13 13/7"}


def test_r6_greek_bear_off_is_the_same_as_american():
    position = make("greek", white={4: 1, 2: 1}, black={24: 15})

    assert notations(position, (6, 5)) == {"4/off 2/off"}


# -- R7 The acey-deucey roll ---------------------------------------------------------------------


def test_r7_2_american_only_the_1_playable_ends_the_turn():
    # Entering with the 2 (own 23) is blocked and 24/22 too: only in/24 can be played.
    position = make(waiting=(15, 0), black={23: 2, 22: 2, 1: 11})
    game = _game_at(position, (1, 2), [3, 4])

    assert notations(position, (1, 2)) == {"in/24"}
    game.play("in/24")

    assert game.to_move == "black"
    assert (game.phase, game.dice) == (Phase.PLAY, (3, 4))


def test_r7_2_american_a_dance_on_the_1_2_ends_the_turn():
    position = make(waiting=(15, 0), black={23: 2, 24: 2, 1: 11})
    game = _game_at(position, (1, 2), [3, 4])

    game.play("")

    assert game.to_move == "black"
    assert game.allowed_doubles() == []


def test_r7_2_greek_a_1_2_with_only_one_die_played_still_names_a_double():
    position = make("greek", white={24: 15}, black={22: 2, 21: 2, 1: 11})
    game = _game_at(position, (1, 2), [3, 4])

    assert notations(position, (1, 2)) == {"24/23"}
    game.play("24/23")

    assert game.phase is Phase.NAME_DOUBLE
    assert game.to_move == "white"
    assert game.allowed_doubles() == [1, 2, 3, 4, 5, 6]


def test_r7_3_greek_without_a_named_blot_any_double_may_be_named():
    position = make("greek", white={24: 15}, black={1: 15})
    game = _naming_at(position, [3, 4])

    game.name_double(1)

    assert game.dice == (1, 1) and game.kind is SegmentKind.NAMED_DOUBLE


def test_r7_5_american_a_named_double_danced_ends_the_turn():
    position = make(white={13: 15}, black={12: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2})
    game = _naming_at(position, [6, 5])

    game.name_double(1)
    game.play("")

    assert (game.to_move, game.dice) == ("black", (6, 5))


def test_r7_6_the_extra_roll_after_a_named_double_gives_no_roll_when_it_is_a_double():
    game = _game_at(Position.initial("american"), (1, 2), [6, 6, 3, 1])

    game.play("in/24 in/23")
    game.name_double(5)
    game.play("in/20(4)")
    assert (game.to_move, game.dice, game.kind) == ("white", (6, 6), SegmentKind.ROLL)
    game.play("in/19(4)")

    assert (game.to_move, game.dice) == ("black", (3, 1))


def test_r7_7_a_named_double_bearing_off_the_15th_checker_ends_the_game_without_a_roll():
    position = make(white={3: 1, 2: 1}, black={20: 2})
    game = _naming_at(position, [])  # no dice left: any further roll would fail

    game.name_double(3)
    game.play("3/off 2/off")

    assert game.phase is Phase.FINISHED
    assert (game.winner, game.points) == ("white", 2)


def test_r7_black_american_acey_deucey_chain_keeps_black_on_turn():
    game = _game_at(Position.initial("american", "black"), (2, 1), [5, 3])

    game.play("in/24 in/23")
    assert (game.phase, game.to_move) == (Phase.NAME_DOUBLE, "black")
    game.name_double(6)
    event = game.play("in/19(4)")

    assert event.position.points[5] == -4  # Black's own 19 is absolute 6
    assert (game.to_move, game.dice) == ("black", (5, 3))


# -- R8 Compulsory hit (greek) ------------------------------------------------------------------


def test_r8_1_no_naming_after_the_1_2_segment_which_does_not_end_the_turn():
    position = make("greek", white={20: 1, 6: 14}, black={1: 15})
    game = _game_at(position, (1, 2), [])

    with pytest.raises(IllegalPlayError, match="end of a greek turn"):
        game.play(game.legal_plays()[0], name_blot=6)
    assert game.position == position


def test_r8_1_naming_at_the_end_of_the_named_double_segment():
    position = make("greek", white={13: 2, 6: 13}, black={1: 15})
    game = _naming_at(position, [4, 3])

    game.name_double(3)
    event = game.play("13/10/7 6/3(2)", name_blot=7)

    assert event.named_blot == 7
    assert game.position.named_blot == 7
    assert game.to_move == "black"


def test_r8_5_an_american_game_refuses_a_named_blot():
    game = _game_at(make(white={13: 2, 6: 13}, black={1: 15}), (6, 1), [3, 3])

    with pytest.raises(IllegalPlayError):
        game.play("13/7 13/12", name_blot=12)
    assert game.position.named_blot is None and game.to_move == "white"


def test_r8_2_a_rolled_double_must_hit_the_named_blot():
    position = make("greek", white={15: 1, 6: 14}, black={9: 1, 1: 14}, named_blot=9)

    assert notations(position, (3, 3)) == {"15/12 12/9* 9/6 6/3", "15/12 12/9* 6/3(2)"}


def test_r8_2_when_only_the_higher_die_plays_the_hitting_way_to_play_it_is_forced():
    # Only one die can be played (the 6); 14/8 and 12/6* each use it; 6 is the named blot.
    position = make(
        "greek", white={14: 1, 12: 1}, black={6: 1, 9: 2, 7: 2, 3: 2, 1: 2}, named_blot=6
    )
    free = position._replace(named_blot=None)

    assert notations(free, (6, 5)) == {"14/8", "12/6*"}
    assert notations(position, (6, 5)) == {"12/6*"}


def test_r8_2_black_1_2_look_ahead_through_the_named_double():
    # Mirror of test_rules' look-ahead example: White's blot on absolute 15 (Black's own
    # 10). Black's checker on own 20 must not be moved 3 pips to own 17.
    position = make(
        "greek", "black", black={5: 1, 19: 5, 20: 5, 21: 4}, white={15: 1}, named_blot=15
    )
    free = position._replace(named_blot=None)

    unrestricted = {p.result.points[7] for p in legal_plays(free, (1, 2))}  # absolute 8
    allowed = {p.result.points[7] for p in legal_plays(position, (1, 2))}

    assert unrestricted == {0, -1}
    assert allowed == {0}


def test_r8_2_black_named_double_must_be_one_that_can_hit():
    # After 20/19 (own) Black's checker on own 19 reaches own 10 only with 3-3.
    position = make("greek", "black", black={6: 1, 19: 5, 20: 5, 21: 4}, white={15: 1})
    position = position._replace(named_blot=15)
    game = _naming_at(position, [])

    assert game.allowed_doubles() == [3]
    with pytest.raises(IllegalPlayError, match="named blot"):
        game.name_double(4)


# -- R9 Scoring, winning, matches ----------------------------------------------------------------


def test_r9_american_loser_with_14_off_gives_one_point():
    position = make(white={}, black={19: 1})

    assert game_points(position, "white") == 1


def test_r9_american_match_goes_on_to_a_new_game_until_n_is_reached():
    match = Match("american", 5, ScriptedDice([6, 1, 2, 2, 3, 4, 6, 5]))
    match.games[0] = _game_at(
        make(white={2: 1}, black={20: 3}, waiting=(0, 0)), (2, 2), [3, 4, 6, 5]
    )
    match.game.play("2/off")

    result = match.record_game_end()

    assert result is not None and (result.winner, result.points) == ("white", 3)
    assert tuple(match.score) == (3, 0)
    assert not match.is_over
    assert len(match.games) == 2 and match.game.position.waiting == (15, 15)
    assert isinstance(match.game.events[0], OpeningRoll)


def test_r9_american_match_ends_when_a_game_reaches_n_or_more():
    match = Match("american", 2, ScriptedDice([6, 1, 2, 2]))
    match.games[0] = _game_at(make(white={2: 1}, black={20: 3}), (2, 2), [])
    match.game.play("2/off")

    match.record_game_end()

    assert match.winner == "white" and match.is_over
    assert len(match.games) == 1


def test_r9_resigning_while_waiting_checkers_remain_counts_them():
    match = Match("american", 20, ScriptedDice([5, 2, 6, 3, 4, 1]))
    match.game.play("in/22 in/19")

    result = match.resign("black")

    assert (result.winner, result.points) == ("white", 15)
    assert match.winner == "white"


# -- Position format -----------------------------------------------------------------------------


def test_position_format_round_trips_a_greek_position_with_a_named_blot():
    data = make("greek", "black", white={24: 14, 7: 1}, black={1: 15}, named_blot=7).to_dict()

    assert data["points"][6] == 1 and data["points"][0] == -15
    assert data["named_blot"] == 7
    assert Position.from_dict(data).to_dict() == data


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"off": {"white": 1, "black": 0}}, "16 checkers"),
        ({"waiting": {"white": 1, "black": 0}, "points": [-15] + [0] * 22 + [14]}, "greek has no"),
        ({"named_blot": 25}, "named_blot"),
        ({"turn": "red"}, "turn"),
        ({"points": [0] * 23}, "24 integers"),
    ],
)
def test_position_format_rejects_broken_invariants(change, words):
    data = Position.initial("greek").to_dict() | change

    with pytest.raises(InvalidPositionError, match=words):
        Position.from_dict(data)


def test_position_format_named_blot_on_a_non_blot_is_stored_but_binds_nothing():
    # R8.5: the naming creates no obligation; the API that receives a naming rejects it.
    position = make("greek", white={24: 14, 7: 1}, black={1: 15}, named_blot=1)

    assert position.obligation is None
    with pytest.raises(InvalidPositionError, match="exactly one"):
        position.with_named_blot(1)


# -- Move notation -------------------------------------------------------------------------------


def test_notation_in_is_refused_while_a_checker_is_on_the_bar_and_bar_is_accepted():
    position = make(white={13: 2}, bar=(1, 0), waiting=(12, 0), black={1: 15})

    with pytest.raises(IllegalPlayError, match="bar first"):
        parse_play(position, (3, 6), "in/22 13/7")
    assert format_play(parse_play(position, (3, 6), "bar/22 13/7")) == "bar/22 13/7"


def test_notation_entering_hit_is_written_with_a_star():
    position = make(waiting=(15, 0), black={22: 1, 1: 14})

    assert "in/22* in/19" in notations(position, (6, 3))


def test_notation_13_7_2_with_3_3_is_two_checkers_each_moving_six():
    position = make(white={13: 2, 6: 13}, black={24: 15})

    play = parse_play(position, (3, 3), "13/7(2)")

    assert format_play(play) == "13/10(2) 10/7(2)"
    assert play.result.points[6] == 2 and play.result.points[12] == 0


def test_notation_a_repeat_count_means_that_many_checkers_not_one_checker_further():
    # One checker on 24: 24/18(2) cannot mean 24/18/12.
    position = make(white={24: 1, 13: 14}, black={1: 15})

    with pytest.raises(IllegalPlayError, match="24/18"):
        parse_play(position, (6, 6), "24/18(2) 13/7(2)")
    assert parse_play(position, (6, 6), "24/12 13/7(2)").result.points[11] == 1


def test_notation_black_plays_are_written_from_blacks_own_side():
    position = make(turn="black", black={1: 2, 12: 13}, white={24: 15})

    assert "24/21 24/18" in notations(position, (6, 3))


def test_notation_a_turn_record_lists_the_1_2_segments_in_order():
    match = Match("american", 1, ScriptedDice([5, 2, 1, 2, 6, 5, 4, 1]))
    game = match.game
    game.play("in/24 in/23")
    game.name_double(6)
    game.play("in/19(2) 24/18 23/17")
    game.play("in/20 in/19")

    text = to_text(record_from_match(match, players={"white": "a", "black": "b"}))

    line = "white 1-2: in/24 in/23; named 6-6: in/19(2) 24/18 23/17; 6-5: in/20 in/19"
    assert line in text.splitlines()
    assert import_text(text).game.position == game.position


def test_notation_a_dance_is_recorded_as_the_roll_with_no_play():
    match = Match("american", 1, ScriptedDice([5, 2, 1, 2, 6, 6]))
    position = make(waiting=(15, 0), black={23: 2, 24: 2, 1: 11})
    match.games[0].state = GameState(position, Phase.PLAY, (1, 2), SegmentKind.ACEY_DEUCEY)
    match.game.play("")

    text = to_text(record_from_match(match, players={"white": "a", "black": "b"}))

    assert "white 1-2:" in text.splitlines()


def test_notation_dance_text_is_refused_when_a_move_exists():
    with pytest.raises(IllegalPlayError, match="cannot pass"):
        parse_play(Position.initial("greek"), (6, 5), "dance")


def test_notation_a_step_off_the_board_must_be_written_off_not_0():
    position = make(white={2: 1, 6: 14}, black={19: 15})

    with pytest.raises(InvalidNotationError):
        parse_play(position, (6, 2), "6/0 2/0")
    assert parse_play(position, (6, 2), "6/off 2/off").result.off.white == 2


def test_notation_naming_a_double_outside_1_to_6_is_refused():
    game = _naming_at(make(white={13: 15}, black={1: 15}), [])

    with pytest.raises(IllegalActionError):
        game.name_double(7)
    assert game.phase is Phase.NAME_DOUBLE
