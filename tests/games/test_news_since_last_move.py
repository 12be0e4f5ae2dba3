"""What a player hears after their move: everything played since they last moved by hand,
not only the other player's last turn. A forced play or a dance of their own, played for
them, and the end of a game came between, unheard."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.board import board_context
from games.engine.game import ScriptedDice
from games.models import Match
from tests.matches import set_position

pytestmark = pytest.mark.django_db


def start(alice, bob, dice: list[int], *, points: int = 1, variant: str = "american") -> Match:
    return services.start_match(
        white=alice,
        black=bob,
        variant=variant,
        points=points,
        days_per_move=2,
        dice=ScriptedDice(dice),
    )


def play(match: Match, user, text: str, *, dice: list[int] | None = None) -> Match:
    action = services.TurnAction(segment=match.segment_count, play=text)
    extra = ScriptedDice(dice) if dice else None
    return services.submit_segment(match.pk, user=user, action=action, dice=extra)


def test_a_dance_played_for_the_player_and_both_of_the_opponents_turns_are_told(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 3]), alice, "in/22 in/19", dice=[6, 3])
    # bob holds all six points alice enters on, and alice has a checker on the bar.
    points = [0] * 24
    for index in range(18, 24):
        points[index] = -2  # absolute 19 to 24: bob's 6- to 1-points
    points[11] = -3  # bob's 13-point
    points[9] = points[5] = 2  # alice's 10- and 6-points
    match = set_position(match, "black", points, bar={"white": 1, "black": 0})
    # bob's 6-3; alice rolls 4-2 and cannot enter (played for her); bob rolls 5-1 and
    # opens his 6-point; alice rolls 6-4.
    match = play(match, bob, "13/7 13/10", dice=[4, 2, 5, 1])
    match = play(match, bob, "6/1 6/5", dice=[6, 4])

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "bob rolled 6-3 and moved from your 12-point to your 15-point and from your 12-point"
        " to your 18-point. You rolled 4-2 and could not move. bob rolled 5-1 and moved from"
        " your 19-point to your 20-point and from your 19-point to your 24-point."
    )
    assert board["announcement"].startswith(board["news"] + " Your turn: you rolled 6-4.")


def test_the_end_of_the_game_the_players_move_won_is_told_before_the_next_games_news(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 5], points=25), alice, "in/19 in/20", dice=[4, 1])
    match = play(match, bob, "in/21 in/24", dice=[6, 5])
    points = [0] * 24
    points[0] = 2  # alice's last two checkers, on her 1-point
    for index in range(18, 23):
        points[index] = -3  # bob's 15, at home
    match = set_position(match, "white", points, off={"white": 13, "black": 0})
    # alice bears off and wins game 1; bob wins game 2's opening roll and plays his 6-3.
    match = play(match, alice, "1/off 1/off", dice=[2, 5, 6, 3])
    match = play(match, bob, "in/19 in/22", dice=[4, 1])

    board = board_context(match, viewer=alice, steps=[])

    assert board["news"] == (
        "Game 1: you won 15 points (borne off). The score is you 15, bob 0. bob rolled 6-3"
        " and entered a checker on your 3-point and a checker on your 6-point."
    )


def test_the_loser_and_a_spectator_hear_the_winner_named_when_the_next_game_opens(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 5], points=25), alice, "in/19 in/20", dice=[4, 1])
    match = play(match, bob, "in/21 in/24", dice=[6, 5])
    points = [0] * 24
    points[0] = 2  # alice's last two checkers, on her 1-point
    for index in range(18, 23):
        points[index] = -3  # bob's 15, at home
    match = set_position(match, "white", points, off={"white": 13, "black": 0})
    # alice bears off and wins game 1; bob wins game 2's opening roll, to play his 6-3.
    match = play(match, alice, "1/off 1/off", dice=[2, 5, 6, 3])

    to_bob = board_context(match, viewer=bob, steps=[])["news"]
    to_spectator = board_context(match, viewer=None, steps=[])["news"]

    assert to_bob == "Game 1: alice won 15 points (borne off). The score is you 0, alice 15."
    assert to_spectator == "Game 1: alice won 15 points (borne off)."


def test_a_greek_player_is_told_of_the_blot_they_may_name_before_submitting(alice, bob):
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")

    board = board_context(match, viewer=alice, steps=[(24, 18), (24, 21)])

    assert board["blot_field"] == "select"
    assert board["announcement"] == (
        "Your play is complete: 24/21 24/18. You may first name one of your blots for your"
        " opponent to hit, in the choice before the Submit button. Submit it, or undo."
    )


def test_a_greek_dance_left_to_the_player_says_they_cannot_move_and_may_name_a_blot(alice, bob):
    match = start(alice, bob, [5, 2, 6, 5], variant="greek")
    points = [0] * 24
    for index in range(18, 24):
        points[index] = -2  # bob holds all six points alice would enter on
    points[11] = -3  # and the rest of his checkers on his 13-point
    points[7] = 1  # a blot of alice's on her 8-point
    points[5] = 13  # and the rest on her 6-point
    match = set_position(match, "white", points, bar={"white": 1, "black": 0}, variant="greek")

    board = board_context(match, viewer=alice, steps=[])

    assert board["next_steps"] == [] and board["blot_field"]
    assert (
        board["hint"] == "None of your checkers can move with this roll: submit to pass the turn."
    )
    assert board["announcement"] == (
        "Your turn: you rolled 6-5, and none of your checkers can move. You may first name"
        " one of your blots for your opponent to hit, in the choice before the Submit button."
        " Submit to pass."
    )


def test_a_double_named_for_the_player_is_told_so_not_as_named_by_them(alice, bob):
    match = greek_double_named_for_alice(alice, bob)

    board = board_context(match, viewer=alice, steps=[])

    assert match.dice == [5, 5]
    assert board["news"] == "5-5 was named for you, the only double you could name."
    assert "you play 5-5" in board["announcement"]
    assert "you named" not in board["announcement"]


def test_a_double_named_for_the_opponent_is_told_as_not_their_choice(alice, bob):
    match = greek_double_named_for_alice(alice, bob)  # 5-5 named for her: the only one that hits
    match = play(match, alice, "17/12* 12/7 7/2 19/14", dice=[6, 5])  # a hit, then on

    board = board_context(match, viewer=bob, steps=[])

    assert board["news"].startswith(
        "alice rolled 1-2 and moved from your 5-point to your 7-point and from your 7-point"
        " to your 8-point. 5-5 was named for alice, the only double they could name. alice"
        " played 5-5 and "
    )
    assert "alice named 5-5" not in board["news"]


def greek_acey_deucey_that_cannot_move(alice, bob) -> Match:
    """Greek: alice plays 6-3, then bob rolls a 1-2 he cannot move (alice holds his 23- and
    22-points) and, in greek, is to name a double all the same (R7.2)."""
    match = start(alice, bob, [5, 2, 6, 3], variant="greek")
    points = [0] * 24
    points[23] = 11  # alice's checkers on her 24-point
    points[1] = points[2] = 2  # and on her 2- and 3-points, bob's 23- and 22-points
    points[0] = -15  # bob's, all on his 24-point
    match = set_position(match, "white", points, variant="greek")
    return play(match, alice, "24/18 24/21", dice=[1, 2])


def test_r7_a_greek_1_2_that_could_not_move_is_not_told_as_played(client, alice, bob):
    match = greek_acey_deucey_that_cannot_move(alice, bob)
    client.force_login(bob)

    board = board_context(match, viewer=bob, steps=[])
    page = client.get(match.get_absolute_url()).text

    assert match.phase == "name_double"
    assert board["announcement"] == (
        "alice rolled 6-3 and moved from your 1-point to your 4-point and from your 1-point"
        " to your 7-point. You rolled 1-2 and could not move. All the same, name a double:"
        " choose 1-1 to 6-6."
    )
    assert "<legend>You rolled 1-2 and could not move: name a double all the same</legend>" in page
    assert "You played your 1-2" not in page


def test_r7_a_1_2_that_could_not_move_is_said_once_when_no_news_said_it(alice, bob):
    match = greek_acey_deucey_that_cannot_move(alice, bob)

    board = board_context(match, viewer=bob, steps=[], with_history=False)

    assert board["announcement"] == (
        "You rolled 1-2 and could not move. All the same, name a double: choose 1-1 to 6-6."
    )


def test_r7_a_played_1_2_is_told_as_played_before_naming_a_double(alice, bob):
    match = play(start(alice, bob, [5, 2, 1, 2], variant="greek"), alice, "24/23 24/22")

    board = board_context(match, viewer=alice, steps=[])

    assert board["announcement"] == "You played your 1-2. Name a double: choose 1-1 to 6-6."


def greek_double_named_for_alice(alice, bob) -> Match:
    """Greek: alice has played her 1-2, and 5-5, the only double that can hit bob's named
    blot (R8.2), was named for her; she is to play it."""
    match = start(alice, bob, [5, 2, 1, 2], variant="greek")
    points = [0] * 24
    points[19] = points[18] = 1  # alice's last two checkers, on her 20- and 19-points
    points[11] = -1  # bob's blot on alice's 12-point, which he has named
    points[0] = -14  # and the rest of his checkers on his 24-point
    match = set_position(match, "white", points, variant="greek", off={"white": 13, "black": 0})
    match.position = {**match.position, "named_blot": 12}
    match.save()
    return play(match, alice, "20/18 18/17")


def test_r8_a_double_named_for_the_player_is_shown_beside_the_dice(client, alice, bob):
    match = greek_double_named_for_alice(alice, bob)
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    dice = page[page.index('<div class="dice"') :]
    dice = dice[: dice.index("</div>")]
    assert 'aria-label="Dice: 5-5 (named for you)"' in dice
    assert "named for you: the only double you could name</span>" in dice


@pytest.mark.parametrize("with_history", [True, False])
def test_r8_only_the_player_to_move_is_shown_a_double_named_for_them(alice, bob, with_history):
    match = greek_double_named_for_alice(alice, bob)

    boards = {
        viewer: board_context(match, viewer=user, steps=[], with_history=with_history)
        for viewer, user in (("alice", alice), ("bob", bob), ("spectator", None))
    }

    assert {viewer: board["double_named_for_you"] for viewer, board in boards.items()} == {
        "alice": True,
        "bob": False,
        "spectator": False,
    }
    assert boards["alice"]["dice_text"] == "5-5 (named for you)"
    assert boards["bob"]["dice_text"] == boards["spectator"]["dice_text"] == "5-5 (named double)"


def test_r8_a_double_named_for_the_player_is_said_once_in_the_live_region(client, alice, bob):
    match = greek_double_named_for_alice(alice, bob)
    client.force_login(alice)

    page = client.get(match.get_absolute_url(), headers={"hx-request": "true"}).text

    announce = page[page.index('<div id="announce"') :]
    announce = announce[: announce.index("</div>")]
    assert announce.count("named for you") == 1
    assert "5-5 was named for you, the only double you could name." in announce


def test_r8_a_double_named_for_the_player_stays_so_after_a_click(alice, bob):
    match = greek_double_named_for_alice(alice, bob)

    board = board_context(match, viewer=alice, steps=[(17, 12)], with_history=False)

    assert board["double_named_for_you"]
    assert board["dice_label"] == "Dice: 5-5 (named for you), 1 of 4 used"
    assert "you named" not in board["announcement"]


def test_a_double_named_for_the_player_is_not_shown_so_to_the_opponent(client, alice, bob):
    match = greek_double_named_for_alice(alice, bob)
    client.force_login(bob)

    page = client.get(match.get_absolute_url()).text

    assert "named for you" not in page
    assert '<span class="muted small">named</span>' in page


def alice_plays_her_1_2(alice, bob) -> Match:
    """American: alice rolls 1-2 and plays it (in/24 in/23); her double is to name."""
    return play(start(alice, bob, [5, 2, 1, 2]), alice, "in/24 in/23")


def name_double(match: Match, user, number: int) -> Match:
    action = services.TurnAction(segment=match.segment_count, double=number)
    return services.submit_segment(match.pk, user=user, action=action)


def test_each_update_tells_only_what_came_after_the_board_the_page_showed(alice, bob):
    match = alice_plays_her_1_2(alice, bob)
    after_1_2 = match.segment_count
    match = name_double(match, alice, 6)
    after_naming = match.segment_count
    match = play(match, alice, "in/19(4)", dice=[5, 3])  # R7.5: an extra roll, 5-3

    news = {
        shown: board_context(match, viewer=bob, steps=[], news_since=shown)["news"]
        for shown in (after_1_2, after_naming, match.segment_count)
    }

    assert news == {
        after_1_2: "alice named 6-6 and entered four checkers on your 6-point.",
        # Its naming was told in the announcement before.
        after_naming: "alice played 6-6 and entered four checkers on your 6-point.",
        match.segment_count: "",
    }


def test_a_spectator_is_told_only_what_came_after_the_board_the_page_showed(alice, bob):
    match = name_double(alice_plays_her_1_2(alice, bob), alice, 6)
    after_naming = match.segment_count
    match = play(match, alice, "in/19(4)", dice=[5, 3])

    news = board_context(match, viewer=None, steps=[], news_since=after_naming)["news"]

    assert news == "alice played in/19(4)."


def test_a_page_with_no_board_before_is_told_all_since_the_players_last_move(alice, bob):
    match = name_double(alice_plays_her_1_2(alice, bob), alice, 6)

    news = board_context(match, viewer=bob, steps=[])["news"]

    assert news == (
        "alice rolled 1-2 and entered a checker on your 1-point and a checker on your"
        " 2-point. alice named 6-6."
    )


def test_a_poll_announces_only_what_came_after_the_board_it_showed(client, alice, bob):
    match = alice_plays_her_1_2(alice, bob)
    shown = match.segment_count  # bob's page heard of alice's 1-2 with this board
    version = f"{shown}-{match.status}"
    match = name_double(match, alice, 6)
    client.force_login(bob)

    # What the waiting page's poll sends: its ?seen= and #live's hx-vals.
    query = {"seen": version, "history": shown, "segment": shown}
    page = client.get(match.get_absolute_url(), query, headers={"hx-request": "true"}).text

    announce = page[page.index('<div id="announce"') :]
    announce = announce[announce.index(">") + 1 : announce.index("</div>")]
    assert announce == "alice named 6-6. Waiting for alice to move."


def alice_to_bear_off_with_a_1_2_and_its_double(alice, bob) -> Match:
    """American, to 1 point: alice is to bear off two checkers with her 1-2, then her last
    two with any double she names; bob has borne off none."""
    match = start(alice, bob, [5, 2, 1, 2])
    points = [0] * 24
    points[0] = points[1] = 1  # alice's checkers on her 1- and 2-points
    points[5] = 2  # and on her 6-point
    for index in range(18, 23):
        points[index] = -3  # bob's 15, at home
    return set_position(match, "white", points, off={"white": 11, "black": 0})


def test_the_end_of_the_match_is_told_after_the_turn_that_ended_it(alice, bob):
    match = alice_to_bear_off_with_a_1_2_and_its_double(alice, bob)
    shown = match.segment_count  # bob's page, waiting for alice's turn
    match = play(match, alice, "2/off 1/off")
    match = name_double(match, alice, 6)  # its only play, 6/off(2), is made for her

    to_bob = board_context(match, viewer=bob, steps=[], news_since=shown)["announcement"]
    to_alice = board_context(match, viewer=alice, steps=[], news_since=shown)["announcement"]

    assert to_bob == (
        "alice rolled 1-2 and bore off a checker from your 23-point and a checker from your"
        " 24-point. alice named 6-6 and bore off two checkers from your 19-point. The match"
        f" is over: alice won {match.result_score} (borne off)."
    )
    # Her 1-2 and her naming she made herself; the play made for her ended the match.
    assert to_alice == (
        "You named 6-6 and your only play was made for you: you bore off two checkers from"
        f" your 6-point. The match is over: you won {match.result_score} (borne off)."
    )


def test_a_game_before_the_last_is_told_with_the_score_after_it_not_the_final_one(alice, bob):
    match = play(start(alice, bob, [5, 2, 6, 5], points=25), alice, "in/19 in/20", dice=[4, 1])
    match = play(match, bob, "in/21 in/24", dice=[6, 5])
    points = [0] * 24
    points[0] = 2  # alice's last two checkers, on her 1-point
    for index in range(18, 23):
        points[index] = -3  # bob's 15, at home
    match = set_position(match, "white", points, off={"white": 13, "black": 0})
    shown = match.segment_count  # bob's page, waiting for alice's turn
    # alice wins game 1 and game 2's opening roll, and bears off game 2's last checkers at
    # once too (a position made for the test): 30 points, the match.
    match = play(match, alice, "1/off 1/off", dice=[5, 2, 6, 5])
    match = set_position(match, "white", points, off={"white": 13, "black": 0})
    match = play(match, alice, "1/off 1/off")

    board = board_context(match, viewer=bob, steps=[], news_since=shown)

    assert not match.is_active and match.score == {"white": 30, "black": 0}
    assert board["announcement"] == (
        "Game 1: alice won 15 points (borne off). alice rolled 6-5 and bore off two checkers"
        f" from your 24-point. The match is over: alice won {match.result_score} (borne off)."
    )


@pytest.mark.parametrize("with_history", [True, False])
def test_r7_the_extra_roll_an_american_acey_deucey_earned_is_told_as_one(alice, bob, with_history):
    match = name_double(alice_plays_her_1_2(alice, bob), alice, 6)
    match = play(match, alice, "in/19(4)", dice=[5, 3])  # all four moves: she rolls again

    board = board_context(match, viewer=alice, steps=[], with_history=with_history)

    assert match.to_move == alice and match.dice == [5, 3]
    assert board["announcement"] == (
        "Your turn: you rolled 5-3, the extra roll your acey-deucey earned. Choose a checker"
        " to move."
    )
    # For the eye too, beside the dice, and in the dice's own label.
    assert board["extra_roll"] and board["dice_text"] == "5-3 (your extra roll)"
    assert board["dice_label"] == "Dice: 5-3 (your extra roll)"


def test_r7_the_extra_roll_is_marked_beside_the_dice_for_its_player_alone(client, alice, bob):
    match = name_double(alice_plays_her_1_2(alice, bob), alice, 6)
    play(match, alice, "in/19(4)", dice=[5, 3])

    pages = {}
    for viewer in (alice, bob):
        client.force_login(viewer)
        pages[viewer.username] = client.get(match.get_absolute_url()).text

    assert "your extra roll: your acey-deucey earned it" in pages["alice"]
    assert "your extra roll" not in pages["bob"]


def test_r7_the_roll_after_a_greek_named_double_is_the_other_players_and_no_extra_one(alice, bob):
    match = play(start(alice, bob, [5, 2, 1, 2], variant="greek"), alice, "24/23 24/22")
    match = name_double(match, alice, 6)
    match = play(match, alice, "24/18(4)", dice=[5, 3])  # greek: the turn ends here

    board = board_context(match, viewer=bob, steps=[])

    assert match.to_move == bob
    assert board["your_dice"] == "you rolled 5-3"


@pytest.mark.parametrize(("variant", "asked"), [("american", True), ("greek", False)])
def test_r7_only_an_american_click_board_looks_for_an_extra_roll(alice, bob, variant, asked):
    """A click's board draws no history: telling an extra roll costs it a query for the
    last segment, which a greek board, whose game has none, does not make."""
    first = {"american": "in/22 in/19", "greek": "24/18 24/21"}[variant]
    match = play(start(alice, bob, [5, 2, 6, 3], variant=variant), alice, first, dice=[6, 4])
    match = Match.objects.select_related("white", "black", "to_move").get(pk=match.pk)
    assert match.to_move == bob and match.dice

    with CaptureQueriesContext(connection) as queries:
        board_context(match, viewer=bob, steps=[], with_history=False)

    looked = any("ORDER BY" in q["sql"] and "games_segment" in q["sql"] for q in queries)
    assert looked is asked


def test_r8_a_click_board_reads_who_named_the_double_from_the_match_row_it_is_drawn_with(
    alice, bob
):
    # The board reads the match, then the double's segment: one committed in between (her
    # other tab played the 5-5, then bob named a double of his own) must not say whether
    # the double of the match row as read was named for her.
    as_read = greek_double_named_for_alice(alice, bob)
    later = as_read.segments.get(kind="double")
    later.pk, later.number, later.automatic = None, as_read.segment_count + 2, False
    later.player = "black"
    later.save()

    board = board_context(as_read, viewer=alice, steps=[], with_history=False)

    assert board["double_named_for_you"] is True
