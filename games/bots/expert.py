"""Level 3: a one-ply expectimax over the opponent's 21 rolls on the static evaluation."""

from __future__ import annotations

from games.engine import Color, Play, Position, absolute_point, allowed_doubles, legal_plays

from .base import own_blots
from .board import continues_turn, side_board
from .evaluate import ROLLS, Weights
from .heuristic import EvaluatingBot


class ExpertBot(EvaluatingBot):
    """Ranks the plays statically, then searches the best few one roll deeper.

    For each candidate the position after it is scored by the average, over the
    opponent's 21 rolls (weighted by their chances out of 36), of the opponent's statically
    best reply. An opposing 1-2 is followed through its best 1-2 play and the best double
    it can name. A 1-2 segment of our own is chosen by the best double each play leads to
    (statically, then the best two searched through every allowed double), the double
    itself by searching the best play of every allowed double, and a greek blot is named
    only when the search says forcing the hit is better than not naming.

    ``width`` is how many statically best plays are searched; plays whose static value
    lies more than ``margin`` below the best are not searched. ``acey_deucey_width`` 1-2
    plays are followed through every double, and ``blot_width`` namings searched.
    """

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        weights: Weights | None = None,
        *,
        width: int = 8,
        margin: float = 0.4,
        acey_deucey_width: int = 8,
        blot_width: int = 3,
    ) -> None:
        super().__init__(seed, weights)
        self.width = width
        self.margin = margin
        self.acey_deucey_width = acey_deucey_width
        self.blot_width = blot_width
        self._cache: dict[tuple[Position, Color], float] = {}

    # -- decisions ----------------------------------------------------------------------

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
        if len(self._cache) > 20_000:
            self._cache.clear()
        ranked = self.ranked(plays, named_double=named_double)
        mover = position.turn
        if not named_double and set(dice) == {1, 2}:
            return self._choose_acey_deucey(ranked, mover)
        top = ranked[0][0]
        candidates = [p for v, p in ranked[: self.width] if v >= top - self.margin]
        if len(candidates) == 1:
            return candidates[0]
        return max(candidates, key=lambda p: self.lookahead(p.result, mover))

    def choose_double(self, position: Position, allowed: list[int]) -> int:
        return self._searched_double(position, allowed)[1]

    def choose_blot(self, position_after: Position, mover: Color) -> int | None:
        blots = own_blots(position_after, mover)
        if not blots:
            return None
        # Search the few namings the static evaluation rates best (most divert the
        # opponent's shots from costlier blots), against not naming at all.
        s = side_board(position_after, mover)

        def static(blot: int) -> float:
            return self.evaluator.value(s, on_roll=False, named=blot)

        rated = sorted(blots, key=static, reverse=True)[: self.blot_width]
        best_value = self.lookahead(position_after, mover)
        best = None
        for blot in rated:
            named = position_after.with_named_blot(absolute_point(mover, blot))
            value = self.lookahead(named, mover)
            if value > best_value + 1e-9:
                best_value, best = value, blot
        return best

    # -- search -------------------------------------------------------------------------

    def lookahead(self, position: Position, me: Color) -> float:
        """``position``'s value for ``me``: the average over the next roll of the roller's
        statically best play (the roller is the opponent, or ``me`` after an american
        named double played in full)."""
        if position.is_game_over:
            return 1.0 if position.winner == me else -1.0
        key = (position, me)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        total = 0.0
        for a, b, weight in ROLLS:
            if a == 1 and b == 2:
                total += weight * self._acey_deucey_reply(position)
            else:
                plays = legal_plays(position, (a, b))
                total += weight * max(self.play_value(p, named_double=False) for p in plays)
        value = total / 36
        if position.turn != me:
            value = -value
        self._cache[key] = value
        return value

    def _acey_deucey_reply(self, position: Position) -> float:
        """The roller's value of a 1-2: its statically best 1-2 play, then the best double."""
        plays = legal_plays(position, (1, 2))
        value, play = self.ranked(plays, named_double=False)[0]
        if not continues_turn(play, named_double=False):
            return value
        return self._best_double_value(play.result)

    def _choose_acey_deucey(self, ranked: list[tuple[float, Play]], mover: Color) -> Play:
        """A 1-2 segment: the statically best few plays are followed through the best
        double each leads to (statically); the best two are then searched through every
        allowed double."""
        candidates = [p for _, p in ranked[: self.acey_deucey_width]]
        chained = sorted(candidates, key=self._acey_deucey_value, reverse=True)[:2]
        best_value, best = -2.0, chained[0]
        for play in chained:
            if continues_turn(play, named_double=False):
                after = play.result
                value = self._searched_double(after, allowed_doubles(after))[0]
            else:
                value = self.lookahead(play.result, mover)
            if value > best_value:
                best_value, best = value, play
        return best

    def _searched_double(self, position: Position, allowed: list[int]) -> tuple[float, int]:
        """The searched value of the best double to name, and that double."""
        mover = position.turn
        best_value, best = -2.0, allowed[0]
        for d in allowed:
            plays = legal_plays(position, (d, d), named_double=True)
            play = self.ranked(plays, named_double=True)[0][1]
            value = self.lookahead(play.result, mover)
            if value > best_value:
                best_value, best = value, d
        return best_value, best

    def _acey_deucey_value(self, play: Play) -> float:
        """A 1-2 segment play's value for its mover: the best double it leads to."""
        if not continues_turn(play, named_double=False):
            return self.play_value(play, named_double=False)
        return self._best_double_value(play.result)

    def _best_double_value(self, position: Position) -> float:
        return max(self.best_double_value(position, d) for d in allowed_doubles(position))
