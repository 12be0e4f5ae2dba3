"""Computer players for Acey-Deucey: pure Python on top of :mod:`games.engine` (no Django).

Three levels are offered (:data:`BOTS`); each only ever picks among the legal options the
engine gives it, so the compulsory hit (R8) and every other rule hold automatically.

>>> from games.engine.game import Game, Phase, ScriptedDice
>>> game = Game("american", ScriptedDice([5, 2, 6, 3, 4, 1]))
>>> bot = make_bot("heuristic", seed=1)
>>> play_turn_segment(game, bot)
>>> game.to_move
'black'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import Bot, RandomBot, own_blots, play_turn_segment
from .beginner import BeginnerBot
from .evaluate import Evaluator, Weights
from .expert import ExpertBot
from .heuristic import EvaluatingBot, HeuristicBot


@dataclass(frozen=True)
class BotLevel:
    """A level offered on the site: its key, display name, description and constructor."""

    key: str
    name: str
    description: str
    factory: Callable[[int | None], Bot]

    def create(self, seed: int | None = None) -> Bot:
        """A new bot of this level; the same seed gives the same choices."""
        return self.factory(seed)

    __call__ = create


BOTS: dict[str, BotLevel] = {
    "beginner": BotLevel(
        "beginner",
        "Beginner",
        "Plays loosely, like someone who has just learned the rules. It scores every legal "
        "play with a rough rule of thumb (pips gained, points made, opposing checkers hit, "
        "its own blots left) and then picks at random, favouring the better-looking plays "
        "but often taking a weaker one. It never looks at the odds of being hit and rarely "
        "names a blot in the Greek game.",
        lambda seed: BeginnerBot(seed),
    ),
    "heuristic": BotLevel(
        "heuristic",
        "Club player",
        "Chooses the play that leaves the best-looking position, judged by a hand-tuned "
        "evaluation: the race in pips, how many of the opponent's rolls would hit each of "
        "its blots (counting blocked points), the points it holds and how well its primes "
        "trap the opponent's checkers, checkers on the bar or still waiting to enter, and "
        "bear-off efficiency. After a 1-2 it names the double whose best play looks best; "
        "in the Greek game it names a blot when that diverts the opponent from a costlier "
        "shot. It does not look ahead.",
        lambda seed: HeuristicBot(seed),
    ),
    "expert": BotLevel(
        "expert",
        "Expert",
        "Looks one roll ahead. It scores every legal play with the club player's "
        "evaluation, keeps the most promising few, and for each one considers all 21 rolls "
        "the opponent could throw and the opponent's best answer to each, then plays the "
        "move with the best average outcome. It picks the double to name after a 1-2 by "
        "trying all six, and in the Greek game names a blot only when forcing the "
        "opponent to hit it works out better on average. It thinks for up to a couple of "
        "seconds per move.",
        lambda seed: ExpertBot(seed),
    ),
}


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of the level keyed ``level`` (``"beginner"``, ``"heuristic"``, ``"expert"``)."""
    try:
        return BOTS[level].create(seed)
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r}: expected one of {', '.join(BOTS)}"
        ) from None


__all__ = [
    "BOTS",
    "BeginnerBot",
    "Bot",
    "BotLevel",
    "EvaluatingBot",
    "Evaluator",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "Weights",
    "make_bot",
    "own_blots",
    "play_turn_segment",
]
