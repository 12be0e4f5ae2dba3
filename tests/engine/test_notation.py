"""Reading and writing move notation (RULES.md "Move notation"): parse_play and format_play."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import (
    IN,
    OFF,
    EngineError,
    IllegalPlayError,
    InvalidNotationError,
    Play,
    Position,
    WrittenStep,
    format_play,
    legal_plays,
    own_point,
)
from games.engine.game import Game, GameState, Phase, ScriptedDice, SegmentKind
from games.engine.notation import format_point, format_steps, parse_play, read_steps

from .helpers import make as board

# -- builders ------------------------------------------------------------------------------


def play_written(position: Position, dice: tuple[int, int], canonical: str) -> Play:
    """The legal play whose canonical notation is ``canonical`` (to compare parses with)."""
    matches = [p for p in legal_plays(position, dice) if format_play(p) == canonical]
    assert len(matches) == 1, sorted(format_play(p) for p in legal_plays(position, dice))
    return matches[0]


class SeededDice:
    """A reproducible dice source."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll_die(self) -> int:
        return self.random.randint(1, 6)


def sample_positions(variant: str, seed: int) -> list[tuple[Position, tuple[int, int], bool]]:
    """(position, dice, named_double) of every segment of one random game.

    Greek turns name one of the mover's blots half of the time, so later positions carry an
    R8 obligation.
    """
    rng = random.Random(seed)
    game = Game(variant, SeededDice(seed))
    seen = []
    while game.phase is not Phase.FINISHED:
        if game.phase is Phase.NAME_DOUBLE:
            game.name_double(rng.choice(game.allowed_doubles()))
            continue
        assert game.dice is not None
        seen.append((game.position, game.dice, game.kind is SegmentKind.NAMED_DOUBLE))
        play = rng.choice(game.legal_plays())
        mover = game.position.turn
        name = None
        if game.may_name_blot and not play.result.is_game_over:
            blots = play.result.blots(mover)
            if blots and rng.random() < 0.5:
                absolute = rng.choice(blots)
                name = absolute if mover == "white" else 25 - absolute
        game.play(play, name_blot=name)
    return seen


# A small midgame for the error tests: White on 24, 13, 8 and 6; Black blocks White's 7-point.
MIDGAME = board(white={24: 2, 13: 5, 8: 3, 6: 5}, black={7: 2, 12: 5, 17: 3, 19: 5})


# -- accepted forms ------------------------------------------------------------------------


def test_parse_plain_steps_return_the_legal_play():
    expected = play_written(MIDGAME, (6, 3), "24/18 13/10")

    play = parse_play(MIDGAME, (6, 3), "24/18 13/10")

    assert play == expected
    assert play in legal_plays(MIDGAME, (6, 3))


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        # Each checker moved by the die the player moved it by: the same play (R5.4) as
        # the move generator's in/19 19/16, but not the moves the player made.
        ("in/22 22/16", "in/22 22/16"),
        ("in/19 19/16", "in/19 19/16"),
        ("22/16 in/22", "in/22 22/16"),  # notation's fixed order, the dice as written
        ("in/16", "in/19 19/16"),  # a combined move: the larger die first
    ],
)
def test_parse_keeps_the_dice_each_checker_was_moved_by(written, kept):
    start = Position.initial("american")
    generated = {format_play(play) for play in legal_plays(start, (6, 3))}

    play = parse_play(start, (6, 3), written)

    assert format_play(play) == kept
    assert play in legal_plays(start, (6, 3))  # the same play
    assert "in/19 19/16" in generated and "in/22 22/16" not in generated
    assert play.result == parse_play(start, (6, 3), "in/19 19/16").result


def test_a_game_keeps_the_players_own_moves_of_a_play():
    game = Game("american", ScriptedDice([5, 2, 6, 3, 1, 1]))

    played = game.play("in/22 22/16")

    assert format_steps(played.steps) == "in/22 22/16"


def test_parse_hit_marker_is_optional():
    position = board(white={13: 2, 6: 13}, black={10: 1, 19: 14})
    expected = play_written(position, (6, 3), "13/10* 13/7")

    assert parse_play(position, (6, 3), "13/10* 13/7") == expected
    assert parse_play(position, (6, 3), "13/10 13/7") == expected  # hit left out


def test_parse_hit_marker_on_any_of_the_moves_landing_on_the_hit_point():
    position = board("greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14})
    expected = play_written(position, (6, 5), "24/18* 23/18")

    assert parse_play(position, (6, 5), "24/18 23/18*") == expected
    assert parse_play(position, (6, 5), "24/18* 23/18*") == expected


def test_parse_hit_marker_inside_a_path_and_on_a_repeat():
    position = board(white={13: 2, 6: 13}, black={10: 1, 19: 14})
    double = board(white={8: 2, 13: 13}, black={6: 1, 19: 14})

    assert parse_play(position, (6, 3), "13/10*/4") == play_written(position, (6, 3), "13/10* 10/4")
    assert parse_play(double, (2, 2), "8/6*(2) 13/11(2)") == play_written(
        double, (2, 2), "13/11(2) 8/6* 8/6"
    )


def test_parse_ignores_case_commas_and_extra_spaces():
    position = board(white={13: 2, 6: 12}, bar=(1, 0), black={19: 15})

    play = parse_play(position, (3, 6), "  BAR / 22 ,  13/7  ")

    assert play == parse_play(position, (3, 6), "bar/22 13/7")
    assert format_play(play) == "bar/22 13/7"


def test_parse_in_enters_waiting_checkers_in_american():
    start = Position.initial("american")

    play = parse_play(start, (6, 3), "in/22 in/19")

    assert play.result.points[21] == 1 and play.result.points[18] == 1
    assert play.result.waiting.white == 13


def test_parse_reads_points_from_blacks_own_side():
    start = Position.initial("american", "black")

    play = parse_play(start, (6, 3), "in/22 in/19")

    assert play.result.points[2] == -1 and play.result.points[5] == -1  # absolute 3 and 6


def test_parse_bearing_off():
    position = board(white={5: 1, 3: 1}, black={24: 15})

    play = parse_play(position, (5, 3), "5/off 3/off")

    assert play.wins


def test_parse_repeat_count_equals_the_steps_written_out():
    position = board(white={8: 2, 6: 2, 13: 11}, black={24: 15})

    play = parse_play(position, (2, 2), "6/4(2) 8/6(2)")

    assert play == parse_play(position, (2, 2), "6/4 6/4 8/6 8/6")
    assert format_play(play) == "8/6(2) 6/4(2)"


def test_parse_a_checkers_path_equals_its_steps():
    expected = parse_play(MIDGAME, (6, 5), "24/18 18/13")

    assert parse_play(MIDGAME, (6, 5), "24/18/13") == expected


def test_parse_combined_move_when_only_one_touch_down_is_open():
    # 24/13 with 6-5: 18 is blocked, so the checker must touch down on 19.
    position = board(white={24: 1, 6: 14}, black={18: 2, 1: 13})

    play = parse_play(position, (6, 5), "24/13")

    assert format_play(play) == "24/19 19/13"


def test_parse_combined_move_whose_orders_reach_the_same_position():
    assert parse_play(MIDGAME, (6, 5), "24/13") == parse_play(MIDGAME, (6, 5), "24/18/13")


def test_parse_combined_move_with_a_double():
    position = board(white={13: 2, 6: 13}, black={24: 15})

    play = parse_play(position, (4, 4), "13/5 6/2(2)")

    assert format_play(play) == "13/9 9/5 6/2(2)"


def test_parse_combined_bear_off_of_the_last_checker():
    position = board(white={8: 1}, black={24: 15})

    play = parse_play(position, (6, 2), "8/off")

    assert play.wins


def test_parse_combined_move_that_may_or_may_not_hit_is_ambiguous():
    # 24/13 with 6-5 may touch down on 18 (hitting the blot there) or on 19 (not hitting).
    position = board(white={24: 1, 6: 14}, black={18: 1, 1: 14})

    with pytest.raises(IllegalPlayError) as caught:
        parse_play(position, (6, 5), "24/13")

    message = str(caught.value)
    assert "ambiguous" in message
    assert "24/18* 18/13" in message and "24/19 19/13" in message


def test_parse_explicit_path_resolves_the_ambiguity():
    position = board(white={24: 1, 6: 14}, black={18: 1, 1: 14})

    play = parse_play(position, (6, 5), "24/18/13")

    assert play.hits_point(18)


def test_parse_combined_entry_from_the_bar():
    position = board(white={13: 2, 6: 12}, bar=(1, 0), black={24: 15})

    play = parse_play(position, (3, 6), "bar/16")

    assert play == parse_play(position, (3, 6), "bar/22/16")


def test_parse_error_r3_combined_entry_stops_while_another_checker_is_on_the_bar():
    position = board(white={13: 2, 6: 11}, bar=(2, 0), black={24: 15})

    with pytest.raises(IllegalPlayError, match="enter your other checker from the bar"):
        parse_play(position, (3, 6), "bar/16")


def test_parse_moves_in_any_order():
    # As written, 5/off comes before the checker on 8 is home; the other order is legal.
    position = board(white={8: 1, 5: 2}, black={24: 15})

    play = parse_play(position, (5, 3), "5/off 8/5")

    assert play == parse_play(position, (5, 3), "8/5 5/off")


@pytest.mark.parametrize("text", ["", "dance", "-", "  DANCE  "])
def test_parse_no_move_is_the_dance_when_nothing_can_move(text):
    position = board(waiting=(15, 0), black={19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2})

    play = parse_play(position, (4, 2), text)

    assert play.is_dance


def test_parse_takes_plays_from_the_caller():
    plays = legal_plays(MIDGAME, (6, 3))

    play = parse_play(MIDGAME, (6, 3), "24/18 13/10", plays=plays)

    assert any(play is p for p in plays)


def test_parse_named_double_keeps_the_american_mover_on_turn():
    position = board(white={13: 4, 6: 11}, black={24: 15})

    play = parse_play(position, (3, 3), "13/10(4)", named_double=True)

    assert play.result.turn == "white"  # R7.5: all four played, the player rolls again


def test_game_play_accepts_notation_on_an_american_opening():
    game = Game("american", ScriptedDice([5, 2, 6, 3, 4, 1]))

    event = game.play("in/22 in/19")

    assert event.notation == "in/22 in/19"
    assert game.to_move == "black"
    assert game.position.waiting.white == 13


# -- unreadable text -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["13-7", "13/", "/7", "x/y", "13//7", "6/4(0)", "6/4(5)", "6/4(x)", "13/7(2", "25/20", "0/3"],
)
def test_parse_unreadable_text_raises_invalid_notation(text):
    with pytest.raises(InvalidNotationError):
        parse_play(MIDGAME, (6, 3), text)


def test_parse_dash_instead_of_slash_says_how_to_write_a_move():
    with pytest.raises(InvalidNotationError, match="13/7"):
        parse_play(MIDGAME, (6, 3), "13-7")


def test_parse_zero_repeat_count_is_refused():
    with pytest.raises(InvalidNotationError, match="1 to 4"):
        parse_play(MIDGAME, (6, 3), "13/7(0)")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("bar/off", "enter and bear off"),
        ("in/off", "enter and bear off"),
        ("off/5", "off can only end"),
        ("13/bar", "bar can only start"),
        ("7/13", "backwards"),
        ("13/13", "does not move"),
    ],
)
def test_parse_moves_that_can_never_be_played_are_explained(text, words):
    with pytest.raises(InvalidNotationError, match=words):
        parse_play(MIDGAME, (6, 3), text)


def test_parse_a_huge_number_is_refused_quickly():
    with pytest.raises(InvalidNotationError, match="no"):
        parse_play(MIDGAME, (6, 3), "9" * 10_000 + "/7")


def test_parse_off_marked_as_a_hit_is_unreadable():
    position = board(white={5: 1, 3: 1}, black={24: 15})

    with pytest.raises(InvalidNotationError, match="off takes no"):
        parse_play(position, (5, 3), "5/off* 3/off")


# -- illegal plays, each with its reason ---------------------------------------------------


def test_parse_error_a_hit_marked_where_there_is_no_blot():
    position = board(white={13: 2, 6: 13}, black={10: 1, 19: 14})

    with pytest.raises(IllegalPlayError) as refused:
        parse_play(position, (6, 3), "13/10* 13/7*")

    assert str(refused.value) == "13/7*: there is no blot on your 7-point to hit"


def test_parse_error_a_hit_marked_where_there_is_no_blot_in_blacks_numbers():
    position = board(turn="black", white={15: 1}, black={12: 2, 19: 13})  # a blot on its 10

    assert format_play(parse_play(position, (6, 3), "13/10* 13/7")) == "13/10* 13/7"
    with pytest.raises(IllegalPlayError, match=r"^13/7\*: there is no blot on your 7-point"):
        parse_play(position, (6, 3), "13/10* 13/7*")


def test_parse_error_a_hit_marked_on_entering_where_there_is_no_blot():
    position = board(white={13: 2, 6: 12}, bar=(1, 0), black={22: 1, 1: 14})

    assert format_play(parse_play(position, (6, 3), "bar/22* 13/7")) == "bar/22* 13/7"
    with pytest.raises(IllegalPlayError, match=r"^bar/19\*: there is no blot on your 19-point"):
        parse_play(position, (6, 3), "bar/19* 13/10")
    with pytest.raises(IllegalPlayError, match=r"^in/22\*: there is no blot on your 22-point"):
        parse_play(Position.initial("american"), (6, 3), "in/22* in/19")


def test_parse_error_a_hit_marked_where_there_is_no_blot_in_greek():
    position = board("greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14})

    with pytest.raises(IllegalPlayError, match=r"^23/17\*: there is no blot on your 17-point"):
        parse_play(position, (6, 5), "23/18* 23/17*")
    with pytest.raises(IllegalPlayError, match=r"^18/12\*: there is no blot on your 12-point"):
        parse_play(position, (6, 5), "23/18*/12*")  # a path marks each landing


def test_parse_error_when_the_source_point_is_empty():
    with pytest.raises(IllegalPlayError, match="no checker on your 14-point"):
        parse_play(MIDGAME, (6, 3), "14/8 13/10")


def test_parse_error_when_entering_from_an_empty_bar():
    with pytest.raises(IllegalPlayError, match="no checker on the bar"):
        parse_play(MIDGAME, (6, 3), "bar/22 13/10")


def test_parse_error_when_no_checker_waits_to_enter():
    with pytest.raises(IllegalPlayError, match=r"^in/22: you have no checker waiting to enter$"):
        parse_play(MIDGAME, (6, 3), "in/22 13/7")


def test_parse_error_r1_in_greek_says_no_checker_ever_waits_and_what_to_write():
    position = Position.initial("greek")

    with pytest.raises(IllegalPlayError) as refused:
        parse_play(position, (6, 3), "in/22 in/19")

    assert str(refused.value) == (
        "in/22: the Greek game has no checkers waiting to enter (they all start on your"
        " 24-point): write a move from the point a checker stands on, such as 24/21"
    )


def test_parse_error_r1_in_greek_points_a_hit_checker_to_the_bar():
    position = board("greek", white={13: 14}, bar=(1, 0), black={1: 15})

    with pytest.raises(IllegalPlayError) as refused:
        parse_play(position, (3, 1), "in/22 13/12")

    assert str(refused.value) == (
        "in/22: the Greek game has no checkers waiting to enter (they all start on your"
        " 24-point): write bar/22 to enter your checker from the bar"
    )


def test_parse_error_r3_bar_checker_must_enter_first():
    position = board(white={13: 2, 6: 12}, bar=(1, 0), black={19: 15})

    with pytest.raises(IllegalPlayError, match="enter your checker from the bar first"):
        parse_play(position, (6, 3), "13/7 13/10")


def test_parse_error_when_the_distance_matches_no_die():
    with pytest.raises(IllegalPlayError, match="13/9 moves 4 pips, but you rolled 6-3"):
        parse_play(MIDGAME, (6, 3), "13/9 24/18")


def test_parse_error_of_a_named_double_says_it_was_named_not_rolled():
    start = Position.initial("american")

    with pytest.raises(IllegalPlayError, match="in/20 moves 5 pips, but you named 3-3"):
        parse_play(start, (3, 3), "in/20 in/22", named_double=True)


def test_parse_error_when_the_dice_are_used_up():
    with pytest.raises(IllegalPlayError, match="13/10 moves 3 pips, but only a 6"):
        parse_play(MIDGAME, (6, 3), "24/21 13/10")


def test_parse_error_when_the_destination_is_blocked():
    with pytest.raises(IllegalPlayError, match=r"your 7-point is blocked \(2 or more opposing"):
        parse_play(MIDGAME, (6, 3), "13/7 13/10")


def test_parse_error_when_every_touch_down_is_blocked():
    position = board(white={13: 1, 6: 14}, black={10: 2, 8: 2, 1: 11})

    with pytest.raises(IllegalPlayError, match="10-point and 8-point are blocked"):
        parse_play(position, (5, 3), "13/5")


def test_parse_error_r6_bearing_off_with_a_checker_outside():
    position = board(white={8: 1, 6: 14}, black={24: 15})

    with pytest.raises(IllegalPlayError, match="outside your home board"):
        parse_play(position, (6, 2), "6/off 6/4")


def test_parse_error_r6_waiting_checkers_count_as_outside():
    position = board(white={6: 14}, waiting=(1, 0), black={24: 15})

    with pytest.raises(IllegalPlayError, match="a checker outside your home board"):
        parse_play(position, (6, 2), "6/off 6/4")


def test_parse_error_r6_larger_die_needs_no_checker_higher():
    position = board(white={5: 1, 3: 1, 2: 1}, black={24: 15})

    with pytest.raises(IllegalPlayError, match="bear off from a higher point first") as caught:
        parse_play(position, (6, 4), "3/off")

    assert "5-point" in str(caught.value)


def test_parse_error_r5_both_dice_must_be_used():
    with pytest.raises(IllegalPlayError, match="you must use both dice"):
        parse_play(MIDGAME, (6, 3), "24/18")


def test_parse_error_r5_as_many_moves_of_a_double_as_possible():
    with pytest.raises(IllegalPlayError, match=r"as many of the four 3s as you can \(4\)"):
        parse_play(MIDGAME, (3, 3), "13/10(2)")


def test_parse_error_r5_higher_die_when_only_one_can_be_played():
    position = board(white={14: 1, 1: 14}, black={3: 2, 24: 13})

    with pytest.raises(IllegalPlayError, match=r"you must play the higher die \(6\)"):
        parse_play(position, (6, 5), "14/9")


def test_parse_error_r5_no_pass_when_a_move_exists():
    with pytest.raises(IllegalPlayError, match="cannot pass"):
        parse_play(MIDGAME, (6, 3), "")


def test_parse_error_moves_given_for_a_dance_say_it_is_a_dance():
    position = board(waiting=(15, 0), black={19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2})

    with pytest.raises(IllegalPlayError, match="dance"):
        parse_play(position, (4, 2), "in/21 in/23")


def test_parse_error_r8_must_hit_the_named_blot_from_the_movers_side():
    # Black to move; White named its blot on absolute 7, which is Black's own 18-point.
    position = board(
        "greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14}, named_blot=7
    )

    with pytest.raises(IllegalPlayError, match="hit the named blot on your 18-point"):
        parse_play(position, (6, 5), "23/17 17/12")


def test_parse_r8_hitting_play_is_accepted():
    position = board(
        "greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14}, named_blot=7
    )

    play = parse_play(position, (6, 5), "24/18* 23/18")

    assert play.result.bar.white == 1


def test_parse_error_fallback_names_the_dice():
    only = [play_written(MIDGAME, (6, 3), "24/18 13/10")]

    with pytest.raises(IllegalPlayError, match="not legal with 6-3"):
        parse_play(MIDGAME, (6, 3), "24/21 24/18", plays=only)


def test_parse_error_too_many_moves_for_the_dice():
    with pytest.raises(IllegalPlayError, match="you rolled 6-3: that is only two moves"):
        parse_play(MIDGAME, (6, 3), "24/18 13/10 8/5")


def test_parse_error_too_many_moves_names_the_acey_deucey_roll_1_2():
    with pytest.raises(IllegalPlayError, match="you rolled 1-2: that is only two moves"):
        parse_play(MIDGAME, (2, 1), "24/23 24/22 13/12")


def test_game_play_r8_notation_must_hit_the_named_blot():
    position = board(
        "greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14}, named_blot=7
    )
    game = Game(
        "greek",
        ScriptedDice([4, 1]),
        state=GameState(position, Phase.PLAY, (6, 5), SegmentKind.ROLL),
    )

    with pytest.raises(IllegalPlayError, match="named blot on your 18-point"):
        game.play("23/17/12")
    event = game.play("23/18*/12")

    assert event.position.bar.white == 1


def test_parse_error_too_many_moves_for_a_double():
    with pytest.raises(IllegalPlayError, match="only four moves"):
        parse_play(MIDGAME, (3, 3), "13/10(3) 8/5(2)")


# -- round trip and robustness -------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("american", 1), ("american", 2), ("american", 3), ("greek", 3), ("greek", 6), ("greek", 7)],
)
def test_format_then_parse_round_trips_every_legal_play(variant, seed):
    segments = sample_positions(variant, seed)

    for position, dice, named_double in segments:
        plays = legal_plays(position, dice, named_double=named_double)
        for play in plays:
            assert parse_play(position, dice, format_play(play), plays=plays) == play


def test_format_then_parse_round_trips_under_a_named_blot():
    segments = [s for seed in (4, 5) for s in sample_positions("greek", seed)]
    obliged = [(p, d, n) for p, d, n in segments if p.obligation is not None]

    assert len(obliged) >= 10
    for position, dice, named_double in obliged:
        plays = legal_plays(position, dice, named_double=named_double)
        for play in plays:
            assert parse_play(position, dice, format_play(play), plays=plays) == play
        # Without ``plays`` the parser generates them itself, R8 included.
        first = format_play(plays[0])
        assert parse_play(position, dice, first, named_double=named_double) == plays[0]


def test_read_steps_writes_out_repeats_with_the_hit_on_the_first():
    steps = read_steps("in/22(2) 13/10*(2) 6/off")

    assert steps == [
        WrittenStep(IN, 22),
        WrittenStep(IN, 22),
        WrittenStep(13, 10, hit=True),
        WrittenStep(13, 10),
        WrittenStep(6, OFF),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "24/18/13",
        "24/13",
        "in/18",
        "25/22",
        "0/off",
        "7/off",
        "5/off*",
        "bar/off",
        "13-7",
        "13/7 ",
        "13/7(1)",
        "13/7(5)",
        "BAR/22",
        "-",
    ],
)
def test_read_steps_refuses_what_the_formatter_never_writes(text):
    with pytest.raises(InvalidNotationError):
        read_steps(text)


@st.composite
def played_segments(draw: st.DrawFn) -> tuple[Position, tuple[int, int], list[Play], Play]:
    """A segment of a random game, reached by legal play (greek blots named at random, so
    R8 comes up): its position, dice and legal plays, and one of those plays."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    game = Game(draw(st.sampled_from(["american", "greek"])), SeededDice(rng.random()))
    for _ in range(draw(st.integers(0, 120))):
        if game.phase is Phase.FINISHED:
            break
        if game.phase is Phase.NAME_DOUBLE:
            game.name_double(rng.choice(game.allowed_doubles()))
            continue
        play = rng.choice(game.legal_plays())
        mover = game.position.turn
        blots = [] if play.result.is_game_over else play.result.blots(mover)
        name = rng.choice(blots) if game.may_name_blot and blots and rng.random() < 0.5 else None
        game.play(play, name_blot=None if name is None else own_point(mover, name))
    if game.phase is not Phase.PLAY:
        assume(False)  # ended, or waiting for a double to be named: nothing to play
    assert game.dice is not None
    plays = game.legal_plays()
    return game.position, game.dice, plays, draw(st.sampled_from(plays))


def written(steps: list[tuple[int, int]], marked: set[int]) -> str:
    """Steps written out one by one, with a ``*`` on every step landing on a ``marked`` point."""
    return " ".join(
        f"{format_point(source)}/{format_point(dest)}{'*' if dest in marked else ''}"
        for source, dest in steps
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_segments())
def test_format_then_read_steps_gives_the_plays_steps_and_hits(segment):
    *_, play = segment

    steps = read_steps(format_play(play))

    assert sorted((s.source, s.dest) for s in steps) == sorted(
        (s.source, s.dest) for s in play.steps
    )
    # Each point hit is marked once (on its first landing, as the formatter writes it).
    assert sorted(s.dest for s in steps if s.hit) == sorted({s.dest for s in play.steps if s.hit})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_segments(), st.data())
def test_a_hit_may_be_marked_or_not_but_a_mark_where_nothing_is_hit_is_refused(segment, data):
    position, dice, plays, play = segment
    steps = [(s.source, s.dest) for s in play.steps]
    hit_points = {s.dest for s in play.steps if s.hit}
    marked = data.draw(
        st.sets(st.sampled_from(sorted(hit_points))) if hit_points else st.just(set())
    )
    wrong = {dest for _, dest in steps if dest not in hit_points and dest != OFF}

    assert parse_play(position, dice, written(steps, marked), plays=plays) == play
    if wrong:
        point = data.draw(st.sampled_from(sorted(wrong)))
        with pytest.raises(IllegalPlayError, match=f"no blot on your {point}-point to hit"):
            parse_play(position, dice, written(steps, marked | {point}), plays=plays)


ROBUSTNESS_POSITIONS = [
    (Position.initial("american"), (6, 3)),
    (Position.initial("greek", "black"), (1, 2)),
    (MIDGAME, (4, 4)),
    (board(white={13: 2, 6: 12}, bar=(1, 0), black={19: 15}), (3, 6)),
    (board(white={8: 1, 5: 2, 2: 2}, black={3: 1, 24: 14}), (6, 2)),
    (
        board("greek", "black", white={7: 1, 12: 2, 24: 12}, black={1: 1, 2: 14}, named_blot=7),
        (6, 5),
    ),
]
NOTATION_ALPHABET = "0123456789/*() offinbar"
ELEMENTS = st.sampled_from(["bar", "in", "off", *map(str, range(0, 26))])
PLAUSIBLE_TEXT = st.lists(
    st.lists(ELEMENTS, min_size=1, max_size=4).map("/".join)
    | st.builds(lambda a, b, n: f"{a}/{b}({n})", ELEMENTS, ELEMENTS, st.integers(0, 5)),
    max_size=5,
).map(" ".join)


def assert_parses_or_explains(position: Position, dice: tuple[int, int], text: str) -> None:
    try:
        play = parse_play(position, dice, text)
    except EngineError as error:
        assert str(error)  # every refusal says why
    else:
        assert play in legal_plays(position, dice)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ROBUSTNESS_POSITIONS), st.text(max_size=40))
def test_parse_arbitrary_text_never_raises_anything_but_engine_errors(case, text):
    position, dice = case

    assert_parses_or_explains(position, dice, text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ROBUSTNESS_POSITIONS), st.text(alphabet=NOTATION_ALPHABET, max_size=40))
def test_parse_notation_alphabet_text_never_raises_anything_but_engine_errors(case, text):
    position, dice = case

    assert_parses_or_explains(position, dice, text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ROBUSTNESS_POSITIONS), PLAUSIBLE_TEXT)
def test_parse_plausible_moves_never_raise_anything_but_engine_errors(case, text):
    position, dice = case

    assert_parses_or_explains(position, dice, text)
