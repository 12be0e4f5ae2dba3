"""Scoring and match play (RULES.md R9): games to N points, resignation and timeout."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalActionError
from .game import DiceSource, Game, SystemDice
from .position import BLACK, WHITE, Color, Pair, Position, Variant, opponent, variant_named


class Ending(StrEnum):
    """How a game (and so perhaps the match) ended."""

    BORNE_OFF = "borne_off"  # the winner bore off all 15 checkers
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class GameResult:
    winner: Color
    points: int
    ending: Ending


def game_points(position: Position, winner: Color) -> int:
    """R9: what ``winner`` scores if ``position`` stands as the game's final position.

    american: one point per opposing checker not borne off (a shutout scores 15);
    greek: 1.

    >>> game_points(Position.initial("american"), "white")
    15
    >>> game_points(Position.initial("greek"), "black")
    1
    """
    return position.variant.game_points(position.off.of(opponent(winner)))


class Match:
    """A match to ``length`` points: games follow one another until a player reaches it.

    Players keep their colours for the whole match; each game opens with R1's roll.
    """

    def __init__(
        self, variant: str | Variant, length: int = 1, dice: DiceSource | None = None
    ) -> None:
        if not isinstance(length, int) or length < 1:
            raise IllegalActionError("a match is played to 1 point or more")
        self.variant = variant_named(variant) if isinstance(variant, str) else variant
        self.length = length
        self.dice_source = dice if dice is not None else SystemDice()
        self.results: list[GameResult] = []
        self.games: list[Game] = [Game(self.variant, self.dice_source)]
        self.forfeit: GameResult | None = None

    @property
    def game(self) -> Game:
        """The game in progress (or the last one, once the match is over)."""
        return self.games[-1]

    @property
    def score(self) -> Pair:
        white = sum(r.points for r in self.results if r.winner == WHITE)
        black = sum(r.points for r in self.results if r.winner == BLACK)
        return Pair(white, black)

    @property
    def winner(self) -> Color | None:
        if self.forfeit is not None:
            return self.forfeit.winner
        score = self.score
        if score.white >= self.length:
            return WHITE
        if score.black >= self.length:
            return BLACK
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def record_game_end(self) -> GameResult | None:
        """After a play that ended the current game: score it, then open the next game.

        Returns the game's result, or ``None`` if the current game is still on.
        """
        game = self.game
        if game.winner is None or len(self.results) == len(self.games):
            return None
        result = GameResult(game.winner, game.points, Ending.BORNE_OFF)
        score = self.score.of(game.winner) + game.points
        if score < self.length:
            # Open the next game before recording anything, so that a failing dice source
            # leaves the match as it was.
            self.games.append(Game(self.variant, self.dice_source))
        self.results.append(result)
        return result

    def resign(self, loser: Color) -> GameResult:
        """``loser`` resigns: they lose the whole match (R9)."""
        return self._forfeit(loser, Ending.RESIGNATION)

    def timeout(self, loser: Color) -> GameResult:
        """``loser``'s move deadline passed: they lose the whole match (R9)."""
        return self._forfeit(loser, Ending.TIMEOUT)

    def _forfeit(self, loser: Color, ending: Ending) -> GameResult:
        if self.is_over:
            raise IllegalActionError("the match is already over")
        if self.game.winner is not None and len(self.results) < len(self.games):
            raise IllegalActionError("the game is won: record its end before anything else")
        winner = opponent(loser)
        result = GameResult(winner, game_points(self.game.position, winner), ending)
        self.results.append(result)
        self.forfeit = result
        return result
