"""Every level only ever chooses legal plays, doubles and blots, and games finish."""

from __future__ import annotations

import pytest

from games.bots import BOTS, Bot, ExpertBot, RandomBot, make_bot, own_blots, play_turn_segment
from games.engine import Color, Play, Position
from games.engine.game import Game, Phase

from .helpers import SeededDice

MAX_SEGMENTS = 3000


class Checked(Bot):
    """Wraps a bot and checks each of its answers against the options it was given."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.name = inner.name
        self.decisions = 0
        self.namings = 0

    def choose_play(self, position, dice, *, named_double, plays) -> Play:
        chosen = self.inner.choose_play(position, dice, named_double=named_double, plays=plays)
        assert any(chosen is p for p in plays), "a bot must return one of the given plays"
        self.decisions += 1
        return chosen

    def choose_double(self, position: Position, allowed: list[int]) -> int:
        value = self.inner.choose_double(position, allowed)
        assert value in allowed
        self.decisions += 1
        return value

    def choose_blot(self, position_after: Position, mover: Color) -> int | None:
        assert position_after.turn != mover
        blot = self.inner.choose_blot(position_after, mover)
        if blot is not None:
            assert blot in own_blots(position_after, mover), "only own blots may be named"
            self.namings += 1
        return blot


def play_game(variant: str, white: Bot, black: Bot, seed: int) -> Game:
    game = Game(variant, SeededDice(seed))
    bots = {"white": white, "black": black}
    for _ in range(MAX_SEGMENTS):
        if game.phase is Phase.FINISHED:
            break
        play_turn_segment(game, bots[game.to_move])
    assert game.phase is Phase.FINISHED, "a game always finishes"
    assert game.winner is not None and game.points >= 1
    return game


@pytest.mark.parametrize("variant", ["american", "greek"])
@pytest.mark.parametrize("level", ["beginner", "heuristic"])
def test_fast_levels_play_only_legal_moves(level: str, variant: str) -> None:
    namings = 0
    for seed in range(3):
        bot = Checked(make_bot(level, seed))
        other = Checked(make_bot(level, seed + 100) if seed % 2 else RandomBot(seed))
        white, black = (bot, other) if seed % 2 == 0 else (other, bot)
        play_game(variant, white, black, seed)
        assert bot.decisions > 10
        namings += bot.namings
    if variant == "american":
        assert namings == 0


@pytest.mark.parametrize("variant", ["american", "greek"])
def test_expert_plays_only_legal_moves(variant: str) -> None:
    # A whole game with a narrower search (the same code paths, fewer candidates) keeps
    # the test quick; the level as offered plays the opening below.
    expert = Checked(ExpertBot(1, width=2, margin=0.05, acey_deucey_width=2, blot_width=1))
    play_game(variant, expert, Checked(make_bot("heuristic", 2)), seed=11)
    assert expert.decisions > 10


@pytest.mark.parametrize("variant", ["american", "greek"])
def test_expert_as_offered_plays_legal_moves(variant: str) -> None:
    game = Game(variant, SeededDice(12))
    expert = Checked(make_bot("expert", 3))
    bots = {"white": expert, "black": Checked(make_bot("heuristic", 4))}
    for _ in range(16):
        if game.phase is Phase.FINISHED:
            break
        play_turn_segment(game, bots[game.to_move])
    assert expert.decisions > 5


def test_random_games_with_blot_naming_finish() -> None:
    bot = Checked(RandomBot(5))
    play_game("greek", bot, Checked(RandomBot(6)), seed=3)
    assert bot.namings > 0


def test_registry_describes_every_level() -> None:
    assert list(BOTS) == ["beginner", "heuristic", "expert"]
    for key, level in BOTS.items():
        assert level.key == key
        assert level.name and len(level.description) > 80
        assert isinstance(level.create(1), Bot)
        assert isinstance(level(1), Bot)
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")


def test_play_turn_segment_refuses_a_finished_game() -> None:
    game = play_game("american", make_bot("heuristic", 1), make_bot("heuristic", 2), seed=4)
    with pytest.raises(ValueError, match="over"):
        play_turn_segment(game, make_bot("heuristic", 1))
