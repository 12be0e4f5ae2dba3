"""Level 1: loose plays drawn from a softmax over a crude evaluation."""

from __future__ import annotations

import math

from games.engine import Color, Play, Position, legal_plays

from .base import Bot, own_blots
from .board import MY_BAR, MY_OFF, MY_WAITING, OPP_BAR, OPP_WAITING, SideBoard, board_after


def crude_score(s: SideBoard) -> float:
    """A rough score of a side board for "me": pips, made points, hits and blots.

    No probabilities: every blot counts the same wherever it stands.
    """
    my_pips = 25 * (s[MY_BAR] + s[MY_WAITING])
    opp_pips = 25 * (s[OPP_BAR] + s[OPP_WAITING])
    made = blots = 0
    for p in range(1, 25):
        n = s[p]
        if n > 0:
            my_pips += n * p
            if n >= 2:
                made += 1
            else:
                blots += 1
        elif n < 0:
            opp_pips -= n * (25 - p)
    return (
        (opp_pips - my_pips) / 8
        + 1.5 * made
        - 1.0 * blots
        + 2.0 * s[OPP_BAR]
        - 2.0 * s[MY_BAR]
        + 0.5 * s[MY_OFF]
    )


class BeginnerBot(Bot):
    """Samples plays with probability proportional to ``exp(crude_score / temperature)``."""

    name = "beginner"

    def __init__(self, seed: int | None = None, *, temperature: float = 2.0) -> None:
        super().__init__(seed)
        self.temperature = temperature

    def _sample(self, scores: list[float]) -> int:
        top = max(scores)
        weights = [math.exp((s - top) / self.temperature) for s in scores]
        return self.random.choices(range(len(scores)), weights=weights)[0]

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
        scores = [100.0 if p.wins else crude_score(board_after(p)) for p in plays]
        return plays[self._sample(scores)]

    def choose_double(self, position: Position, allowed: list[int]) -> int:
        scores = []
        for d in allowed:
            plays = legal_plays(position, (d, d))
            scores.append(max(100.0 if p.wins else crude_score(board_after(p)) for p in plays))
        return allowed[self._sample(scores)]

    def choose_blot(self, position_after: Position, mover: Color) -> int | None:
        # Names a blot now and then, preferring those deep in the opponent's home board.
        blots = own_blots(position_after, mover)
        if not blots or self.random.random() < 0.7:
            return None
        return max(blots)
