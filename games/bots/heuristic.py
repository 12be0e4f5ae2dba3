"""Level 2: the play whose resulting position the hand-tuned evaluation likes best."""

from __future__ import annotations

from games.engine import Color, Play, Position, legal_plays

from .base import Bot, own_blots
from .board import board_after, continues_turn, side_board
from .evaluate import Evaluator, Weights


class EvaluatingBot(Bot):
    """Shared by the heuristic and expert levels: static scores of plays and namings."""

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.evaluator = Evaluator(weights)

    def play_value(self, play: Play, *, named_double: bool) -> float:
        """The static value of ``play``'s result for its mover (-1..1)."""
        on_roll = continues_turn(play, named_double=named_double)
        return self.evaluator.value(board_after(play), on_roll=on_roll)

    def ranked(self, plays: list[Play], *, named_double: bool) -> list[tuple[float, Play]]:
        """``plays`` with their static values, best first (ties keep the engine's order)."""
        scored = [
            (self.play_value(p, named_double=named_double), i, p) for i, p in enumerate(plays)
        ]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [(v, p) for v, _, p in scored]

    def best_double_value(self, position: Position, d: int) -> float:
        """The static value of the best play of the named double ``d-d``."""
        # Without named_double the engine builds no result positions; continues_turn
        # still reads the segment as a named double.
        plays = legal_plays(position, (d, d))
        return max(self.play_value(p, named_double=True) for p in plays)

    def static_blot(self, position_after: Position, mover: Color) -> int | None:
        """The naming (or none) the static evaluation likes best."""
        blots = own_blots(position_after, mover)
        if not blots:
            return None
        s = side_board(position_after, mover)
        best_value = self.evaluator.value(s, on_roll=False)
        best = None
        for blot in blots:
            v = self.evaluator.value(s, on_roll=False, named=blot)
            if v > best_value + 1e-9:
                best_value, best = v, blot
        return best


class HeuristicBot(EvaluatingBot):
    """Maximises the static evaluation of the position after each segment."""

    name = "heuristic"

    def choose_play(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        named_double: bool,
        plays: list[Play],
    ) -> Play:
        if len(plays) == 1:
            return plays[0]
        return self.ranked(plays, named_double=named_double)[0][1]

    def choose_double(self, position: Position, allowed: list[int]) -> int:
        return max(allowed, key=lambda d: self.best_double_value(position, d))

    def choose_blot(self, position_after: Position, mover: Color) -> int | None:
        return self.static_blot(position_after, mover)
