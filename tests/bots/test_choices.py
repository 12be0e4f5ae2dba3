"""The heuristic and expert levels prefer obviously better plays in hand-made positions."""

from __future__ import annotations

import pytest

from games.bots import ExpertBot, HeuristicBot, make_bot, play_turn_segment
from games.engine import legal_plays, named_double_can_hit
from games.engine.game import Phase, SegmentKind

from .helpers import game_at, make

BACKGAMMON_START_WHITE = {24: 2, 13: 5, 8: 3, 6: 5}
BACKGAMMON_START_BLACK = {1: 2, 12: 5, 17: 3, 19: 5}


def choose(bot, position, dice, *, named_double=False):
    plays = legal_plays(position, dice, named_double=named_double)
    return bot.choose_play(position, dice, named_double=named_double, plays=plays)


LEVELS = [HeuristicBot(1), ExpertBot(1)]


@pytest.mark.parametrize("bot", LEVELS, ids=lambda b: b.name)
def test_makes_a_point(bot) -> None:
    position = make(white=BACKGAMMON_START_WHITE, black=BACKGAMMON_START_BLACK)
    play = choose(bot, position, (3, 1))
    assert play.result.points[4] == 2  # 8/5 6/5


@pytest.mark.parametrize("bot", LEVELS, ids=lambda b: b.name)
def test_points_on_a_blot(bot) -> None:
    # A black blot on White's 5-point: 8/5* 6/5* hits it and makes the point.
    black = {1: 2, 12: 5, 17: 3, 19: 4, 5: 1}
    position = make(white=BACKGAMMON_START_WHITE, black=black)
    play = choose(bot, position, (3, 1))
    assert play.result.bar.black == 1
    assert play.result.points[4] == 2


@pytest.mark.parametrize("bot", LEVELS, ids=lambda b: b.name)
def test_hits_a_blot(bot) -> None:
    # Late in the game: a lone black straggler on White's 9-point, White well ahead.
    position = make(white={13: 2, 6: 4, 5: 3, 4: 3}, black={9: 1, 19: 5, 20: 5, 21: 4})
    play = choose(bot, position, (4, 2))
    assert play.result.bar.black == 1


@pytest.mark.parametrize("bot", LEVELS, ids=lambda b: b.name)
def test_bears_off_rather_than_moving_inside(bot) -> None:
    # A race: every legal play bears off at most one checker; the bots take it.
    position = make(white={6: 3, 5: 2, 3: 2}, black={20: 3, 22: 4})
    plays = legal_plays(position, (3, 1))
    most = max(p.result.off.white for p in plays)
    assert most > position.off.white
    assert choose(bot, position, (3, 1)).result.off.white == most


@pytest.mark.parametrize("bot", LEVELS, ids=lambda b: b.name)
def test_enters_and_hits_from_waiting(bot) -> None:
    # american: a black blot on White's entry point 22 and one on 20.
    position = make(
        white={13: 2},
        black={3: 2, 20: 1, 22: 1},
        waiting=(13, 11),
    )
    play = choose(bot, position, (5, 3))
    assert play.result.bar.black == 2  # in/22* in/20*


@pytest.mark.parametrize("level", ["heuristic", "expert"])
def test_names_the_double_that_wins_the_race(level) -> None:
    # Four checkers on the 6-point: only 6-6 bears them all off now.
    position = make(white={6: 4}, black={1: 1, 2: 2, 12: 3, 24: 2})
    game = game_at(position, None)
    assert game.phase is Phase.NAME_DOUBLE
    play_turn_segment(game, make_bot(level, 1))
    assert game.dice == (6, 6)
    play_turn_segment(game, make_bot(level, 1))
    assert game.winner == "white"


def test_expert_names_a_double_that_hits_the_named_blot() -> None:
    # greek: black named its blot on absolute 10 (White's 10-point); from 22 White hits
    # it with 3-3 or 4-4 only (12 pips), with 6-6 via 16 / 2-2 from 18 / 1-1 never.
    position = make(
        "greek",
        white={22: 2, 18: 1, 6: 4, 5: 4, 4: 4},
        black={10: 1, 19: 4, 20: 5, 21: 5},
        named_blot=10,
    )
    game = game_at(position, None)
    allowed = game.allowed_doubles()
    assert 0 < len(allowed) < 6
    play_turn_segment(game, make_bot("expert", 1))
    d = game.dice[0]
    assert d in allowed and named_double_can_hit(position, d)
    # The named double's play must hit (the engine only offers hitting plays).
    play_turn_segment(game, make_bot("expert", 1))
    assert game.position.bar.black == 1 or game.winner is not None


@pytest.mark.parametrize("level", ["heuristic", "expert"])
def test_hits_with_the_named_double_when_it_wins(level) -> None:
    # greek, no naming: Black's last checker, a blot on White's 9-point, will get home
    # unless hit; White hits it with 3-3 from 18 (18/15/12/9*), 9-pip shots otherwise.
    position = make("greek", white={18: 1, 6: 5, 5: 5, 4: 4}, black={9: 1})
    game = game_at(position, None)
    play_turn_segment(game, make_bot(level, 1))
    assert game.dice == (3, 3)
    play_turn_segment(game, make_bot(level, 1))
    assert game.position.bar.black == 1


@pytest.mark.parametrize("level", ["heuristic", "expert"])
def test_names_only_own_blots(level) -> None:
    # greek: White finishes a turn with blots; whatever it names is one of them.
    position = make(
        "greek",
        white={24: 10, 13: 1, 8: 1, 6: 2, 4: 1},
        black={1: 11, 20: 2, 17: 1, 14: 1},
    )
    game = game_at(position, (6, 5), kind=SegmentKind.ROLL)
    before = len(game.events)
    play_turn_segment(game, make_bot(level, 1))
    event = game.events[before]
    if event.named_blot is not None:
        assert event.position.is_blot_of("white", event.named_blot)
