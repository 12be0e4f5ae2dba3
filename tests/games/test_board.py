"""The board view model: what each viewer sees, what they can click, what they are told."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games import services
from games.board import (
    HEIGHT,
    POINT_W,
    WIDTH,
    _dice_label,
    board_context,
    named_blot_notice,
    parse_steps,
    point_x,
)
from games.engine import BAR, IN, Position
from games.engine.game import ScriptedDice
from games.models import Match
from tests.matches import set_position

pytestmark = pytest.mark.django_db


def start(alice, bob, dice: list[int], variant: str = "american") -> Match:
    return services.start_match(
        white=alice,
        black=bob,
        variant=variant,
        points=1,
        days_per_move=2,
        dice=ScriptedDice(dice),
    )


def play(match: Match, user, text: str, *, dice: list[int] | None = None) -> Match:
    action = services.TurnAction(segment=match.segment_count, play=text)
    extra = ScriptedDice(dice) if dice else None
    return services.submit_segment(match.pk, user=user, action=action, dice=extra)


def by_own(board: dict) -> dict:
    return {point.own: point for point in board["points"]}


def greek_with_named_blot(alice, bob) -> Match:
    """Greek, White (alice) to move; Black (bob) has named his blot on absolute 20."""
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")
    points = [0] * 24
    points[23] = 14  # White's 24-point
    points[9] = 1  # White's 10-point
    points[0] = -14  # Black's 24-point
    points[19] = -1  # absolute 20: Black's 5-point, White's 20-point
    return set_position(match, "white", points, variant="greek", named_blot=20)


def test_points_are_numbered_from_the_viewers_side(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])

    white = by_own(board_context(match, viewer=alice, steps=[]))
    black = by_own(board_context(match, viewer=bob, steps=[]))

    assert (white[22].count, white[19].count) == (1, 1)
    assert (black[3].count, black[6].count) == (-1, -1)
    assert black[22].count == black[19].count == 0
    assert black[3].label == "point 3, 1 checker your opponent's"
    assert [c.color for c in black[3].checkers] == ["white"]


def test_black_sees_its_own_home_board_bottom_right(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])

    board = board_context(match, viewer=bob, steps=[])
    points = by_own(board)

    bottom_row = [p for p in board["points"] if not p.top]
    assert max(bottom_row, key=lambda p: p.x).own == 1
    assert not points[1].top and points[24].top
    assert points[1].x == points[24].x  # own 1 and 24 face each other on the right
    assert (points[24].count, points[21].count) == (1, 1)
    assert board["side"] == "black"
    assert board["description"].startswith("You play black.")


def test_a_spectator_sees_whites_side(alice, bob, charlie):
    match = start(alice, bob, [5, 2, 6, 3])

    for viewer in (charlie, AnonymousUser()):
        board = board_context(match, viewer=viewer, steps=[])

        assert board["side"] == "white" and board["viewer_color"] is None
        assert board["targets"] == [] and not board["playing"]


def test_a_spectator_is_told_the_position_by_name_and_whose_turn_it_is(alice, bob, charlie):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])

    for viewer in (charlie, AnonymousUser()):
        board = board_context(match, viewer=viewer, steps=[])

        assert board["description"] == (
            "Points are numbered from white's side. alice (white) to move. "
            "alice (white): 1 on the 22-point, 1 on the 19-point. "
            "bob (black): 1 on the 4-point, 1 on the 1-point. "
            "On the bar: alice 0, bob 0. Borne off: alice 0, bob 0. "
            "Waiting to enter: alice 13, bob 13. Pip counts: alice 366, bob 370."
        )
        assert board["mine_label"] == "alice"


def test_a_player_is_still_told_the_position_as_you(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])

    board = board_context(match, viewer=alice, steps=[])

    assert board["description"].startswith("You play white. Your checkers: 1 on your 22-point")
    assert board["mine_label"] == "you"


def test_a_spectators_caption_names_both_players(client, alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])

    page = client.get(match.get_absolute_url()).text

    caption = page.split('<figcaption class="board-caption">', 1)[1].split("</figcaption>", 1)[0]
    assert "<span>Bar: <bdi>alice</bdi> 0, <bdi>bob</bdi> 0</span>" in caption
    assert "you" not in caption
    # Said for the eye as the board's title says it to a screen reader.
    assert "Seen from white's side: points numbered as white counts them." in caption


def test_a_players_caption_does_not_say_whose_side_it_is_seen_from(client, alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])
    client.force_login(bob)

    page = client.get(match.get_absolute_url()).text

    caption = page.split('<figcaption class="board-caption">', 1)[1].split("</figcaption>", 1)[0]
    assert "Seen from" not in caption  # their own side, numbered as they count


def test_the_announcement_says_what_the_other_player_last_played(alice, bob, charlie):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])

    mover = board_context(match, viewer=alice, steps=[])
    waiting = board_context(match, viewer=bob, steps=[])
    watching = board_context(match, viewer=charlie, steps=[])
    clicking = board_context(match, viewer=alice, steps=[(26, 20)], with_history=False)

    assert mover["announcement"] == (
        "bob rolled 4-1 and entered a checker on your 1-point and a checker on your 4-point. "
        "Your turn: you rolled 6-5. Choose a checker to move."
    )
    assert waiting["announcement"] == "Waiting for alice to move."  # bob's own turn is last
    # Someone watching hears the notation, each side in its own numbers, as listed.
    assert watching["announcement"] == (
        "bob rolled 4-1 and played in/24 in/21. Waiting for alice to move."
    )
    assert not clicking["announcement"].startswith("bob")  # said once, not on every click


def test_the_roll_is_announced_when_the_only_checker_to_move_is_chosen_for_the_player(alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])  # alice has only waiting checkers: one source

    board = board_context(match, viewer=alice, steps=[])

    assert board["selected"] is not None
    assert board["announcement"].startswith(
        "Your turn: you rolled 6-3. Selected a waiting checker to enter. You can"
    )


def test_a_turn_of_a_1_2_and_its_named_double_is_told_a_sentence_a_segment(alice, bob, charlie):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[2, 1])
    match = play(match, bob, "in/24 in/23", dice=[6, 5])  # bob's 1-2 ...
    action = services.TurnAction(segment=match.segment_count, double=6)
    match = services.submit_segment(match.pk, user=bob, action=action)
    match = play(match, bob, "in/19(4)", dice=[4, 3])  # ... and the 6-6 he named

    board = board_context(match, viewer=alice, steps=[])
    watching = board_context(match, viewer=charlie, steps=[])

    assert board["news"] == (
        "bob rolled 1-2 and entered a checker on your 1-point and a checker on your 2-point. "
        "bob named 6-6 and entered four checkers on your 6-point."
    )
    assert watching["news"] == (
        "bob rolled 1-2 and played in/24 in/23, named 6-6, played in/19(4)."
    )


def test_a_double_named_and_not_yet_played_is_told_on_its_own(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[2, 1])
    match = play(match, bob, "in/24 in/23")  # bob's 1-2 ...
    action = services.TurnAction(segment=match.segment_count, double=6)
    match = services.submit_segment(match.pk, user=bob, action=action)  # ... 6-6 to play

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "bob rolled 1-2 and entered a checker on your 1-point and a checker on your 2-point. "
        "bob named 6-6."
    )


def black_to_move(alice, bob, dice: list[int], points: list[int], **counts: int) -> Match:
    """bob (black) to move with ``dice`` in an american position made for the test:
    ``points`` as in the position format (Black's checkers negative); Black's ``bar`` and
    ``off`` as given, and each side's other checkers waiting to enter."""
    match = start(alice, bob, [2, 5, *dice])  # black wins the opening roll
    bar, off = counts.get("bar", 0), counts.get("off", 0)
    return set_position(
        match, "black", points, bar={"white": 0, "black": bar}, off={"white": 0, "black": off}
    )


def test_the_opponents_move_is_told_in_the_listeners_own_numbers(alice, bob):
    points = [0] * 24
    points[11] = -2  # absolute 12: Black's 13-point, White's 12-point
    points[5] = 2  # White's 6-point
    match = play(black_to_move(alice, bob, [6, 3], points), bob, "13/7 13/10", dice=[4, 2])

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "bob rolled 6-3 and moved from your 12-point to your 15-point "
        "and from your 12-point to your 18-point."
    )
    assert board["turns"][-1]["segments"][0]["text"] == "6-3: 13/10 13/7"  # the list keeps it


def test_a_hit_on_the_listeners_checker_says_which_checker(alice, bob, charlie):
    points = [0] * 24
    points[11] = -2  # Black's 13-point
    points[17] = 1  # a white blot on absolute 18: White's 18-point, Black's 7-point
    match = play(black_to_move(alice, bob, [6, 3], points), bob, "13/7* 13/10", dice=[4, 2])

    board = board_context(match, viewer=alice, steps=[])
    watching = board_context(match, viewer=charlie, steps=[])

    assert board["news"] == (
        "bob rolled 6-3 and moved from your 12-point to your 15-point "
        "and from your 12-point to your 18-point, hitting your checker there."
    )
    assert watching["news"] == "bob rolled 6-3 and played 13/10 13/7*."


def test_a_hit_is_told_with_the_move_that_made_it_not_at_the_end(alice, bob):
    # Told at the end, it read as the last move's: "... and from your 18-point to your
    # 21-point, hitting your checker on your 18-point".
    points = [0] * 24
    points[11] = -2  # Black's 13-point
    points[17] = 1  # a white blot on absolute 18: Black's 7-point
    match = play(black_to_move(alice, bob, [6, 3], points), bob, "13/7* 7/4", dice=[4, 2])

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "bob rolled 6-3 and moved from your 12-point to your 18-point, hitting your checker"
        " there, and from your 18-point to your 21-point."
    )


def test_two_checkers_onto_a_hit_blot_are_told_as_one_move_and_one_hit(alice, bob):
    points = [0] * 24
    points[11] = -2  # Black's 13-point
    points[14] = 1  # a white blot on absolute 15: Black's 10-point
    match = play(black_to_move(alice, bob, [3, 3], points), bob, "13/10(2) in/22(2)", dice=[4, 2])

    board = board_context(match, viewer=alice, steps=[])

    assert board["turns"][-1]["segments"][0]["text"] == "3-3: in/22(2) 13/10* 13/10"
    assert board["news"] == (
        "bob rolled 3-3 and entered two checkers on your 3-point and moved two checkers "
        "from your 12-point to your 15-point, hitting your checker there."
    )


def test_entering_from_the_bar_and_from_waiting_are_told_apart(alice, bob):
    match = black_to_move(alice, bob, [3, 5], [0] * 24, bar=1)
    # Either checker on either point is the same play (R5.4): stored as bob wrote it.
    match = play(match, bob, "bar/22 in/20", dice=[4, 2])

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "bob rolled 5-3 and entered a checker from the bar on your 3-point "
        "and entered a checker on your 5-point."
    )


def test_bearing_off_is_told_from_the_listeners_points(alice, bob):
    points = [0] * 24
    points[18], points[19] = -1, -2  # Black's 6-point and 5-point: White's 19 and 20
    match = play(black_to_move(alice, bob, [6, 5], points, off=12), bob, "6/off 5/off", dice=[4, 2])

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "bob rolled 6-5 and bore off a checker from your 19-point and a checker from your 20-point."
    )


def test_a_dance_is_told_as_could_not_move(alice, bob):
    points = [2] * 6 + [0] * 18  # alice holds all of her home board, where bob must enter
    match = play(black_to_move(alice, bob, [6, 3], points, bar=1), bob, "", dice=[4, 2])

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == "bob rolled 6-3 and could not move."  # as before: no points


def test_a_named_double_that_cannot_move_is_told_in_its_own_sentence(alice, bob):
    points = [0] * 24
    points[5] = points[6] = points[7] = 2  # alice holds bob's 19-, 18- and 17-points
    match = play(black_to_move(alice, bob, [2, 1], points), bob, "in/24 in/23")
    action = services.TurnAction(segment=match.segment_count, double=6)
    match = services.submit_segment(match.pk, user=bob, action=action, dice=ScriptedDice([4, 2]))

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "bob rolled 1-2 and entered a checker on your 1-point and a checker on your 2-point. "
        "bob named 6-6 and could not move."
    )


def test_a_named_blot_is_told_on_the_listeners_numbering(alice, bob, charlie):
    match = start(alice, bob, [2, 5, 6, 3], variant="greek")  # bob first, from his 24-point
    action = services.TurnAction(segment=match.segment_count, play="24/18 24/21", name_blot=21)
    match = services.submit_segment(match.pk, user=bob, action=action, dice=ScriptedDice([4, 2]))

    board = board_context(match, viewer=alice, steps=[])
    watching = board_context(match, viewer=charlie, steps=[])

    assert board["news"] == (
        "bob rolled 6-3 and moved from your 1-point to your 4-point and from your 1-point to "
        "your 7-point. bob named their blot on your 4-point, which you must hit if you can."
    )
    # Agrees, and tells that alice's 4-2 cannot reach it.
    assert board["named_blot"] == (
        "bob named their blot on your 4-point, but no play this turn can hit it: play as you like."
    )
    assert watching["news"] == (
        "bob rolled 6-3 and played 24/21 24/18, named the blot on their 21-point."
    )


def test_the_board_fits_its_viewbox():
    right_edge = max(point_x(own)[0] for own in range(1, 25)) + POINT_W

    assert 0 < point_x(12)[0] < point_x(1)[0] < right_edge < WIDTH
    assert HEIGHT < WIDTH


def test_selecting_a_source_highlights_its_destinations(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])  # alice has 6-5 now

    board = board_context(match, viewer=alice, steps=[], selected=22)
    points = by_own(board)

    assert points[22].selected and points[22].source
    assert {p.own for p in board["points"] if p.dest} == {17, 16}
    assert points[16].ghost is not None
    dests = {t.key for t in board["targets"] if t.dest}
    assert dests == {"to-17", "to-16"}
    assert "Move to point 16 (22/16): empty" in [t.label for t in board["targets"]]
    assert "Selected your checker on point 22. You can" in board["announcement"]


def test_an_unknown_selection_is_ignored(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])

    board = board_context(match, viewer=alice, steps=[], selected=5)

    assert board["selected"] is None
    assert not any(p.dest for p in board["points"])
    assert all(not t.dest for t in board["targets"])


def test_the_only_source_is_selected_at_once(alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])  # all checkers waiting: "in" is the only source

    board = board_context(match, viewer=alice, steps=[])

    assert board["selected"] == IN and board["in_selected"]
    assert {p.own for p in board["points"] if p.dest} == {22, 19}


def test_the_waiting_tray_is_outlined_while_its_checkers_may_enter(alice, bob, client):
    # As each point a checker may move from is: here alice may enter or move on.
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])
    client.force_login(alice)

    board = board_context(match, viewer=alice, steps=[])
    selected = board_context(match, viewer=alice, steps=[], selected=IN)
    page = client.get(match.get_absolute_url()).text

    assert board["selected"] is None and board["in_source"]
    assert not selected["in_source"] and selected["in_selected"]
    assert page.count("tray-source") == 1


def test_carried_steps_are_drawn_and_make_a_play_to_submit(alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])

    board = board_context(match, viewer=alice, steps=parse_steps("26-22 26-19"))

    assert board["steps_notation"] == "in/22 in/19"
    assert board["can_submit"] and board["must_submit"]
    assert board["hint"] == "Submit your play, or undo a move."
    assert by_own(board)[22].count == by_own(board)[19].count == 1
    assert board["waiting_mine"] == 13
    assert [d["used"] for d in board["dice"]] == [True, True]
    assert board["undo_steps_text"] == "26-22"


def test_dice_of_a_double_are_four_and_used_one_by_one(alice, bob):
    match = start(alice, bob, [5, 2, 4, 4])

    board = board_context(match, viewer=alice, steps=[(IN, 21)])

    assert [d["value"] for d in board["dice"]] == [4, 4, 4, 4]
    assert [d["used"] for d in board["dice"]] == [True, False, False, False]


def test_only_the_player_to_move_gets_targets(alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])

    waiting = board_context(match, viewer=bob, steps=[])

    assert waiting["mode"] == "wait" and waiting["targets"] == []
    assert waiting["announcement"] == "Waiting for alice to move."


def test_the_player_to_move_sees_example_plays_to_type(alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])

    board = board_context(match, viewer=alice, steps=[])

    assert set(board["example_plays"]) <= {"in/22 in/19", "in/19 19/16", "in/22 22/16"}
    assert board["example_plays"]


def _rolled(match: Match, dice: list[int]) -> Match:
    match.dice = dice
    match.save()
    return match


def test_the_mover_is_told_to_hit_the_named_blot_on_their_numbering(alice, bob):
    match = _rolled(greek_with_named_blot(alice, bob), [4, 1])  # 24/20*

    board = board_context(match, viewer=alice, steps=[])

    assert board["named_blot"] == "You must hit the blot on your 20-point this turn: bob named it."


def test_the_namer_is_told_their_opponent_must_hit_it(alice, bob):
    match = _rolled(greek_with_named_blot(alice, bob), [4, 1])

    board = board_context(match, viewer=bob, steps=[])

    assert board["named_blot"] == (
        "Your opponent must hit your blot on your 5-point this turn: you named it."
    )


@pytest.mark.parametrize("viewer", ["alice", "bob", "charlie"])
def test_nobody_is_told_to_hit_a_blot_once_the_match_is_over(alice, bob, charlie, viewer):
    match = _rolled(greek_with_named_blot(alice, bob), [4, 1])
    match = services.resign(match.pk, user=alice)  # the naming still in its position
    assert Position.from_dict(match.position).obligation is not None

    people = {"alice": alice, "bob": bob, "charlie": charlie}
    board = board_context(match, viewer=people[viewer], steps=[])

    assert board["named_blot"] == ""


def test_a_spectator_is_told_who_must_hit_what(alice, bob, charlie):
    match = _rolled(greek_with_named_blot(alice, bob), [4, 1])

    board = board_context(match, viewer=charlie, steps=[])

    assert board["named_blot"] == (
        "alice must hit bob's blot on the 20-point (numbered from white's side, as on this"
        " board) this turn."
    )


def test_r8_a_named_blot_this_roll_cannot_reach_is_told_as_lapsing(alice, bob, charlie):
    match = greek_with_named_blot(alice, bob)  # alice's 6-3 from 24 and 10: 20 is 4 away

    told = {
        who: board_context(match, viewer=user, steps=[])["named_blot"]
        for who, user in (("mover", alice), ("namer", bob), ("spectator", charlie))
    }

    assert told == {
        "mover": "bob named their blot on your 20-point, but no play this turn can hit it:"
        " play as you like.",
        "namer": "You named your blot on your 5-point, but no play of your opponent's turn can"
        " hit it.",
        "spectator": "bob named their blot on the 20-point (numbered from white's side, as on"
        " this board), but no play of alice's turn can hit it.",
    }


def test_r8_the_notice_says_the_blot_is_hit_once_a_clicked_move_hits_it(alice, bob):
    match = _rolled(greek_with_named_blot(alice, bob), [4, 1])  # 24/20* hits it

    hit = board_context(match, viewer=alice, steps=[(24, 20)])
    elsewhere = board_context(match, viewer=alice, steps=[(24, 23)])

    assert hit["named_blot"] == "You have hit the blot on your 20-point that bob named."
    assert elsewhere["named_blot"] == (
        "You must hit the blot on your 20-point this turn: bob named it."
    )


def test_r8_a_1_2_is_told_to_hit_when_only_its_named_double_can(alice, bob):
    points = [0] * 24
    points[19] = 1  # white's 20-point: 20/19 then 3-3 reach the blot, the 1-2 alone cannot
    points[5] = points[4] = 5
    points[3] = 4
    points[9] = -1  # bob's blot on absolute 10, named
    points[0] = -14
    match = greek_with_named_blot(alice, bob)
    match = _rolled(set_position(match, "white", points, variant="greek", named_blot=10), [1, 2])

    board = board_context(match, viewer=alice, steps=[])

    assert board["named_blot"] == "You must hit the blot on your 10-point this turn: bob named it."


def test_the_rule_is_told_as_such_when_no_dice_are_known():
    position = Position.initial("greek").with_turn("white")
    position = position._replace(points=(0,) * 19 + (-1,) + (0,) * 3 + (14,), named_blot=20)
    names = {"white": "alice", "black": "bob"}

    assert named_blot_notice(position, "white", names) == (
        "You must hit the blot on your 20-point if you can: bob named it."
    )


def test_r8_a_spectator_is_told_of_a_blot_named_by_white_on_the_boards_numbering(
    client, alice, bob, charlie
):
    match = greek_with_named_blot(alice, bob)
    points = [0] * 24
    points[23] = 14  # White's 24-point
    points[4] = 1  # absolute 5: White's 5-point, Black's 20-point
    points[0] = -15  # Black's 24-point
    match.position = {**match.position, "turn": "black", "points": points, "named_blot": 5}
    match.save()

    board = board_context(match, viewer=charlie, steps=[])
    page = client.get(match.get_absolute_url()).text  # anonymous: a spectator too

    assert by_own(board)[5].count == 1  # alice's blot, drawn on the board's 5-point
    assert board["named_blot"] == (  # bob's 6-3 from absolute 1 cannot reach 5
        "alice named their blot on the 5-point (numbered from white's side, as on this"
        " board), but no play of bob's turn can hit it."
    )
    assert "their blot on the 5-point (numbered from white&#x27;s side" in page


def test_a_named_point_without_a_blot_says_nothing():
    position = Position.initial("greek").with_turn("white")._replace(named_blot=20)

    assert named_blot_notice(position, "white", {"white": "alice", "black": "bob"}) == ""


def test_history_groups_a_1_2_and_its_named_double_into_one_turn(alice, bob):
    match = start(alice, bob, [5, 2, 2, 1])
    match = play(match, alice, "in/24 in/23")
    match = services.submit_segment(
        match.pk, user=alice, action=services.TurnAction(segment=match.segment_count, double=6)
    )

    turns = board_context(match, viewer=alice, steps=[])["turns"]

    assert [turn["who"] for turn in turns] == ["Game 1", "alice"]
    assert [s["text"] for s in turns[1]["segments"]] == ["1-2: in/24 in/23", "names 6-6"]


def test_replay_shows_a_stored_position_without_controls(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])

    board = board_context(match, viewer=alice, steps=[], replay=1)
    points = by_own(board)

    assert board["mode"] == "replay" and board["targets"] == []
    assert board["waiting_mine"] == 15 and points[22].count == 0
    assert board["replayed"] == "Opening roll: white 5, black 2"
    assert [s["current"] for turn in board["turns"] for s in turn["segments"]] == [True, False]


def test_a_checker_on_the_bar_is_the_only_source(alice, bob):
    points = [0] * 24
    points[0], points[23] = 14, -15
    bar = {"white": 1, "black": 0}
    match = set_position(start(alice, bob, [5, 2, 6, 3]), "white", points, bar=bar)  # 6-3

    board = board_context(match, viewer=alice, steps=[])

    assert board["selected"] == BAR and board["bar_selected"]
    assert {t.key for t in board["targets"] if t.dest} == {"to-22", "to-19"}
    assert board["bar_mine"] == 1 and len(board["bar_checkers"]) == 1


def test_a_hit_keeps_its_mark_in_the_play_so_far(alice, bob):
    points = [0] * 24
    points[12], points[9], points[23] = 2, -1, -14  # white's 13; a black blot on white's 10
    off = {"white": 13, "black": 0}
    match = set_position(start(alice, bob, [5, 2, 6, 3]), "white", points, off=off)  # alice has 6-3

    one = board_context(match, viewer=alice, steps=[(13, 10)], with_history=False)
    both = board_context(match, viewer=alice, steps=[(13, 10), (13, 7)], with_history=False)

    assert one["steps_notation"] == "13/10*"
    assert "Your play so far: 13/10*." in one["announcement"]
    assert both["steps_notation"] == "13/10* 13/7"
    assert both["announcement"].startswith("Your play is complete: 13/10* 13/7.")


def test_bearing_off_targets_the_off_tray(alice, bob):
    points = [0] * 24
    points[0], points[2], points[23] = 13, 2, -15
    match = set_position(start(alice, bob, [5, 2, 6, 3]), "white", points)

    board = board_context(match, viewer=alice, steps=[], selected=3)

    assert board["off_dest"]
    off = next(t for t in board["targets"] if t.key == "to-0")
    assert off.label == "Bear off (3/off)"
    assert off.values == {"steps": "3-0"}


def test_a_greek_player_may_name_a_blot_left_by_the_clicked_play(alice, bob):
    match = greek_with_named_blot(alice, bob)  # alice has 6-3 and cannot reach the 20-point

    board = board_context(match, viewer=alice, steps=[(24, 18), (18, 15)])

    assert board["can_submit"]
    assert board["blots_to_name"] == [10, 15]


def test_the_match_page_shows_the_named_blot_and_the_blots_to_name(client, alice, bob):
    match = greek_with_named_blot(alice, bob)  # alice's 6-3 cannot reach it
    client.force_login(alice)

    page = client.get(match.get_absolute_url())
    clicked = client.post(
        reverse("match_click", args=[match.pk]), {"steps": "24-18 18-15"}, HTTP_HX_REQUEST="true"
    )

    assert "bob named their blot on your 20-point, but no play this turn can hit it" in page.text
    assert '<option value="15">Your 15-point</option>' in clicked.text
    assert 'id="announce" hx-swap-oob="innerHTML">Your play is complete' in clicked.text


def test_the_replay_page_steps_back_and_forth(client, alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[4, 1])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])

    page = client.get(match.get_absolute_url() + "?replay=2")

    # Each link says which link of the next page takes the keyboard's focus: the same
    # one, or the other where the same one is gone (no "Previous" at the first segment).
    assert 'href="?replay=1&amp;focus=next" rel="prev"' in page.text
    assert 'href="?replay=3&amp;focus=prev" rel="next"' in page.text
    assert "Position after segment 2 of 3: <strong>alice 6-3: in/22 in/19</strong>" in page.text


def test_after_a_1_2_only_doubles_that_hit_a_named_blot_are_offered(alice, bob):
    match = greek_with_named_blot(alice, bob)
    # Alice has just played a 1-2 (from elsewhere): she names a double now. Her checkers
    # on her 24-point are 4 pips from the named blot on her 20-point: 1-1, 2-2 and 4-4
    # reach it; 3-3, 5-5 and 6-6 jump past it.
    match.phase, match.dice, match.segment_kind = "name_double", None, "acey_deucey"
    match.save()

    board = board_context(match, viewer=alice, steps=[])

    assert board["mode"] == "double"
    assert board["doubles"] == [1, 2, 4]
    assert "named blot on your 20-point" in board["doubles_note"]
    assert board["announcement"].startswith("You played your 1-2. Name a double: 1-1, 2-2, 4-4.")


def test_each_double_to_name_says_when_it_cannot_play_all_four_moves(client, alice, bob):
    # White's last checker on her 24-point; black holds the 18- and 12-points. 1-1 and
    # 5-5 (24/19/14/9/4) run clear; 6-6 is stopped at once, 3-3 after one move (21, then
    # 18), 2-2 and 4-4 after two (22, 20, then 18; 20, 16, then 12).
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")
    points = [0] * 24
    points[23], points[17], points[11], points[0] = 1, -2, -2, -11
    set_position(match, "white", points, variant="greek", off={"white": 14, "black": 0})
    match.phase, match.dice, match.segment_kind = "name_double", None, "acey_deucey"
    match.save()
    client.force_login(alice)

    board = board_context(match, viewer=alice, steps=[])
    page = " ".join(client.get(match.get_absolute_url()).text.split())

    assert board["double_choices"] == [
        (1, ""),
        (2, "2 of 4 moves"),
        (3, "1 of 4 moves"),
        (4, "2 of 4 moves"),
        (5, ""),
        (6, "no move"),
    ]
    assert '6-6 <span class="double-moves">(no move)</span></button>' in page
    assert 'class="button double-button">5-5</button>' in page


def test_after_a_1_2_with_no_blot_to_hit_every_double_is_offered(client, alice, bob):
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")
    match.phase, match.dice, match.segment_kind = "name_double", None, "acey_deucey"
    match.save()
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    assert page.count('class="button double-button"') == 6
    assert "R8.2" not in page


@pytest.mark.parametrize("carried", ["a-b", "26-x", "26", "-3-4", "26-22 22-16 16-10 10-4 4-0"])
def test_garbled_carried_moves_are_refused_in_words(carried):
    with pytest.raises(ValueError, match=r"^the carried moves are not valid$"):
        parse_steps(carried)


def test_the_dice_label_says_which_dice_the_moves_so_far_have_used(client, alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[1, 4])
    match = play(match, bob, "in/24 in/21", dice=[6, 5])  # alice has 6-5 now
    client.force_login(alice)
    click = reverse("match_click", args=[match.pk])

    def label(steps: str) -> str:
        page = client.post(click, {"steps": steps}, HTTP_HX_REQUEST="true").text
        return page.split('<div class="dice" role="img" aria-label="', 1)[1].split('"', 1)[0]

    assert label("") == "Dice: 6-5"
    assert label("22-16") == "Dice: 6-5, 6 used"  # as the picture greys the 6
    assert label("22-16 19-14") == "Dice: 6-5, both used"


def test_dice_are_shown_higher_first_as_players_write_them_but_stored_as_rolled(client, alice, bob):
    # White rolls a 3 then a 5; RULES.md and backgammon records write it 5-3.
    match = start(alice, bob, [5, 2, 3, 5])
    client.force_login(alice)

    board = board_context(match, viewer=alice, steps=[])
    match = play(match, alice, "in/22 in/20", dice=[2, 1])  # bob's acey-deucey, rolled 2-1
    dice_page = client.get(reverse("match_dice", args=[match.pk])).text
    history = board_context(match, viewer=bob, steps=[])["announcement"]

    assert match.segments.get(number=2).dice == [3, 5]  # stored as rolled
    assert "Your turn: you rolled 5-3." in board["announcement"]
    assert board["dice_label"] == "Dice: 5-3"
    assert [face["value"] for face in board["dice"]] == [5, 3]  # drawn as written
    assert "alice rolled 5-3 and" in history
    assert '<td class="num">3-5</td>' in dice_page  # the dice page: as the formula gives them
    assert board_context(match, viewer=bob, steps=[])["dice_label"] == "Dice: 1-2"


def test_the_dice_label_counts_a_doubles_four_moves():
    faces = [{"value": 3, "used": used} for used in (True, True, False, False)]

    assert _dice_label("3-3", faces) == "Dice: 3-3, 2 of 4 used"
    assert _dice_label("3-3", [{**face, "used": True} for face in faces]) == (
        "Dice: 3-3, all 4 used"
    )


def test_a_named_double_is_announced_as_named_not_rolled(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[2, 1])
    match = play(match, bob, "in/24 in/23")  # bob's 1-2: he names a double next
    action = services.TurnAction(segment=match.segment_count, double=1)
    match = services.submit_segment(match.pk, user=bob, action=action)

    board = board_context(match, viewer=bob, steps=[])

    assert "Your turn: you named 1-1." in board["announcement"]
    assert "rolled 1-1" not in board["announcement"]
    assert board["dice_label"] == "Dice: 1-1 (named double)"


def test_a_move_that_hits_says_so_in_words_on_its_target_and_when_the_checker_is_chosen(alice, bob):
    points = [0] * 24
    points[11] = -2  # Black's 13-point
    points[17] = 1  # a white blot on Black's 7-point
    points[5] = 2  # White's 6-point
    match = black_to_move(alice, bob, [6, 3], points)

    board = board_context(match, viewer=bob, steps=[], selected=13)

    (hitting,) = [t for t in board["targets"] if t.dest and "hit your" in t.label]
    assert hitting.label == "Move to point 7 and hit your opponent's blot (13/7*)"
    assert board["announcement"].endswith(
        "You can move to point 10 or move to point 7 and hit your opponent's blot."
    )
    assert [c["hit"] for c in board["next_steps"] if c["label"] == "13/7*"] == [True]


def test_the_bar_and_the_waiting_checkers_to_select_say_how_many_are_there(alice, bob):
    points = [0] * 24
    points[11] = -2  # Black's 13-point: 11 of Black's checkers wait to enter
    points[5] = 2  # White's 6-point
    on_bar = black_to_move(alice, bob, [4, 3], points, bar=2)
    waiting = black_to_move(alice, bob, [6, 3], points)

    bar_labels = [t.label for t in board_context(on_bar, viewer=bob, steps=[])["targets"]]
    waiting_labels = [t.label for t in board_context(waiting, viewer=bob, steps=[])["targets"]]

    # As a point's does: the board shows the stack, a screen reader hears the number.
    assert "Select your checker on the bar: 2 there, selected" in bar_labels
    assert "Select a waiting checker to enter: 13 there" in waiting_labels
    # After one enters, one is left there.
    after_one = board_context(on_bar, viewer=bob, steps=[(BAR, 22)])["targets"]
    assert "Select your checker on the bar: 1 there, selected" in [t.label for t in after_one]


def test_a_move_and_a_checker_to_select_say_what_is_on_their_points(alice, bob):
    points = [0] * 24
    points[11] = -2  # Black's 13-point
    points[14] = -1  # Black's 10-point
    points[5] = 2  # White's 6-point
    match = black_to_move(alice, bob, [6, 3], points)

    board = board_context(match, viewer=bob, steps=[], selected=13)

    assert [t.label for t in board["targets"]] == [
        "Move to point 10 (13/10): 1 of your checkers there",  # it makes a point
        "Move to point 7 (13/7): empty",  # it leaves a blot
        "Select a waiting checker to enter: 12 there",
        "Deselect your checker on point 13: 2 there",  # one moved leaves a blot
    ]
    [selected] = [t for t in board["targets"] if t.selected]
    assert selected.values == {"steps": ""}  # no "select": a click lets go of it

    let_go = board_context(match, viewer=bob, steps=[], selected=None)

    assert not any(t.selected or t.dest for t in let_go["targets"])
    assert board["announcement"].endswith("You can move to point 10 or move to point 7.")


def test_a_page_opened_afresh_says_what_the_opponent_played_in_the_players_numbering(
    client, alice, bob, charlie
):
    # From the turn email, say: the live region says it only after a redraw, and the
    # history has it in the mover's own numbering.
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[6, 5])
    match = play(match, bob, "in/20 in/19")
    news = '<p class="news">bob rolled 6-5 and entered a checker on your 5-point and a checker'

    client.force_login(alice)
    page = client.get(match.get_absolute_url()).text
    client.force_login(charlie)  # watching: not to move
    watching = client.get(match.get_absolute_url()).text

    assert news in page
    assert '<p class="news">' not in watching


def test_a_poll_that_brings_the_opponents_move_shows_it_in_words(client, alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])  # alice's 6-3 to play; bob's page waits
    seen = f"{match.segment_count}-active"
    match = play(match, alice, "in/22 in/19", dice=[6, 5])
    client.force_login(bob)

    redrawn = client.get(match.get_absolute_url(), {"seen": seen}, HTTP_HX_REQUEST="true")

    assert redrawn.status_code == 200
    assert '<p class="news">alice rolled 6-3 and entered a checker on your' in redrawn.text
