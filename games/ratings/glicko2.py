"""Glicko-2 ratings: pure Python, standard library only, no Django.

This follows Mark Glickman's "Example of the Glicko-2 system" (Boston University, 2013
revision, http://www.glicko.net/glicko/glicko2.pdf), step by step. Ratings are kept on the
familiar Glicko scale (1500 +/- 350) and converted to the Glicko-2 scale (mu, phi) only
inside the computation.

The paper's worked example: a player rated 1500 (RD 200, volatility 0.06) beats a 1400
(RD 30), then loses to a 1550 (RD 100) and to a 1700 (RD 300) in one rating period.

>>> player = Rating(1500, 200, 0.06)
>>> new = update(
...     player,
...     [
...         Result(Rating(1400, 30), 1),
...         Result(Rating(1550, 100), 0),
...         Result(Rating(1700, 300), 0),
...     ],
... )
>>> f"{new.rating:.4f} {new.rd:.4f} {new.volatility:.6f}"
'1464.0507 151.5165 0.059996'

The paper prints 1464.06, 151.52 and 0.05999 because it rounds as it goes (E to three
places, v = 1.7785 and mu' = -0.2069 to four), and 1500 + 173.7178 * -0.2069 = 1464.06.
Carried through exactly, mu' is -0.20694 and the rating 1464.0507.

A correspondence site rates each finished match as its own rating period, both players
from their ratings before the match:

>>> alice, bob = rate_match(Rating(), Rating(), a_won=True, points=5)
>>> round(alice.rating), round(bob.rating)
(1762, 1238)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Converts between the Glicko scale (1500 +/- 350) and the Glicko-2 scale (0 +/- 2.01).
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant: how much the volatility may change in one period (paper: 0.3-1.2).
DEFAULT_TAU = 0.5
#: An RD is never inflated past that of a player with no games at all.
MAX_RD = DEFAULT_RD
#: Above this RD a rating is provisional and shown with a "?".
PROVISIONAL_RD = 110.0
#: The paper's convergence tolerance for the volatility iteration (step 5).
CONVERGENCE_TOLERANCE = 0.000001
#: A safety net only: the Illinois iteration converges in a handful of steps.
_MAX_ITERATIONS = 100
_MIN_INFORMATION = 1e-12


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, its deviation (RD) and volatility, on the Glicko scale.

    >>> Rating()
    Rating(rating=1500.0, rd=350.0, volatility=0.06)
    >>> Rating(1500, 0)
    Traceback (most recent call last):
    ...
    ValueError: a rating deviation must be a positive number, not 0
    """

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        # Coerce ints so that reprs and comparisons are uniform.
        object.__setattr__(self, "rating", float(self.rating))
        object.__setattr__(self, "rd", float(self.rd))
        object.__setattr__(self, "volatility", float(self.volatility))
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating must be a finite number, not {self.rating:g}")
        if not (math.isfinite(self.rd) and self.rd > 0):
            raise ValueError(f"a rating deviation must be a positive number, not {self.rd:g}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"a volatility must be a positive number, not {self.volatility:g}")

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale (step 2 of the paper)."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The rating deviation on the Glicko-2 scale (step 2 of the paper)."""
        return self.rd / SCALE

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, volatility: float) -> Rating:
        """The rating whose Glicko-2 scale values are ``mu`` and ``phi`` (step 8 of the paper).

        >>> Rating.from_glicko2(0.0, 350 / SCALE, 0.06) == Rating()
        True
        """
        return cls(DEFAULT_RATING + SCALE * mu, SCALE * phi, volatility)


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a rating period, from the rated player's side.

    ``score`` is 1 for a win, 0.5 for a draw and 0 for a loss. ``weight`` says how much
    evidence the game is: each game's terms in the paper's ``v`` and ``delta`` (steps 3 and
    4) are multiplied by it. A match to N points tells more about the players than a single
    game, so it counts with a weight above 1; FIBS uses sqrt(N) (see :func:`match_weight`).

    >>> Result(Rating(), 2)
    Traceback (most recent call last):
    ...
    ValueError: a score must be between 0 and 1, not 2
    """

    opponent: Rating
    score: float
    weight: float = 1.0

    def __post_init__(self) -> None:
        if not 0 <= self.score <= 1:
            raise ValueError(f"a score must be between 0 and 1, not {self.score:g}")
        if not (math.isfinite(self.weight) and self.weight > 0):
            raise ValueError(f"a weight must be a positive number, not {self.weight:g}")


def update(player: Rating, results: Sequence[Result], *, tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period with these ``results``.

    ``tau`` is the system constant that limits how fast the volatility changes. With no
    results only the RD grows, by one period's volatility, as in the paper's step for a
    player who did not compete (and never past :data:`MAX_RD`, as in
    :func:`inflate_for_inactivity`).

    >>> idle = update(Rating(1500, 200), [])
    >>> idle.rating, round(idle.rd, 2), idle.volatility
    (1500.0, 200.27, 0.06)
    >>> equal = Rating(1500, 200)
    >>> round(update(equal, [Result(equal, 1)]).rating, 1)
    1578.8
    """
    if not (math.isfinite(tau) and tau > 0):
        raise ValueError(f"the system constant tau must be a positive number, not {tau:g}")
    if not results:
        return inflate_for_inactivity(player, 1)
    v, delta = _variance_and_improvement(player, results)
    volatility = _new_volatility(player.phi, player.volatility, v, delta, tau)
    phi_star = math.hypot(player.phi, volatility)
    phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu = player.mu + phi**2 * (delta / v)
    return Rating.from_glicko2(mu, phi, volatility)


def inflate_for_inactivity(rating: Rating, periods: float) -> Rating:
    """The rating after ``periods`` rating periods without games: only its RD grows.

    On the Glicko-2 scale phi' = sqrt(phi^2 + periods * sigma^2), capped at
    :data:`MAX_RD` (a rating is never less known than a newcomer's; an RD already above the
    cap is left alone). The caller decides how long a period is: 30 days suits
    correspondence play. ``periods`` may be fractional.

    >>> away_a_year = inflate_for_inactivity(Rating(1700, 60), 12)
    >>> away_a_year.rating, round(away_a_year.rd, 2), away_a_year.volatility
    (1700.0, 70.03, 0.06)
    >>> inflate_for_inactivity(Rating(1700, 300), 1000).rd
    350.0
    """
    if not (math.isfinite(periods) and periods >= 0):
        raise ValueError(f"a number of periods must be zero or more, not {periods:g}")
    rd = SCALE * math.sqrt(rating.phi**2 + periods * rating.volatility**2)
    rd = max(rating.rd, min(rd, MAX_RD))
    return Rating(rating.rating, rd, rating.volatility)


def is_provisional(rating: Rating, threshold_rd: float = PROVISIONAL_RD) -> bool:
    """Whether the rating is still uncertain (RD above ``threshold_rd``) and shown with "?".

    >>> [is_provisional(Rating(1500, rd)) for rd in (350, 110.5, 110, 60)]
    [True, True, False, False]
    """
    return rating.rd > threshold_rd


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to take from one game against ``opponent``.

    Both players' deviations widen the prediction (Glickman's Glicko paper: g of the
    combined RD), so ``expected_score(a, b) + expected_score(b, a) == 1``. The update itself
    uses the paper's E, which weighs only the opponent's deviation.

    >>> expected_score(Rating(1500, 50), Rating(1500, 300))
    0.5
    >>> round(expected_score(Rating(1700, 50), Rating(1500, 50)), 3)
    0.755
    """
    return _expected(player.mu, opponent.mu, math.hypot(player.phi, opponent.phi))


def match_weight(points: int) -> float:
    """How much a match to ``points`` points counts, as a weight for :class:`Result`: sqrt(N).

    >>> match_weight(1), match_weight(9)
    (1.0, 3.0)
    """
    if points < 1:
        raise ValueError(f"a match is played to at least 1 point, not {points}")
    return math.sqrt(points)


def rate_match(
    a: Rating, b: Rating, a_won: bool, *, points: int = 1, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """Both players' ratings after one finished match, as ``(a, b)``.

    The match is one rating period of its own; each player is updated from both players'
    ratings before it, weighted by :func:`match_weight` of the match length.

    >>> winner, loser = rate_match(Rating(1500, 200), Rating(1500, 200), a_won=True)
    >>> round(winner.rating - 1500, 6) == round(1500 - loser.rating, 6)
    True
    """
    weight = match_weight(points)
    a_score = 1.0 if a_won else 0.0
    new_a = update(a, [Result(b, a_score, weight)], tau=tau)
    new_b = update(b, [Result(a, 1.0 - a_score, weight)], tau=tau)
    return new_a, new_b


def _g(phi: float) -> float:
    """The paper's g(phi): how much an opponent's uncertainty dampens a result."""
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _expected(mu: float, opponent_mu: float, phi: float) -> float:
    """The paper's E(mu, mu_j, phi_j), written so that it cannot overflow."""
    exponent = -_g(phi) * (mu - opponent_mu)
    if exponent > 0:
        small = math.exp(-exponent)
        return small / (1 + small)
    return 1 / (1 + math.exp(exponent))


def _variance_and_improvement(player: Rating, results: Sequence[Result]) -> tuple[float, float]:
    """The paper's v and delta (steps 3 and 4), each game's terms scaled by its weight."""
    information = 0.0
    improvement = 0.0
    for result in results:
        g = _g(result.opponent.phi)
        expected = _expected(player.mu, result.opponent.mu, result.opponent.phi)
        information += result.weight * g**2 * expected * (1 - expected)
        improvement += result.weight * g * (result.score - expected)
    # A near-certain result carries almost no information, and v would run to infinity.
    # Within ratings 0-4000 the information never falls this low; the floor keeps
    # delta squared finite for anything beyond.
    information = max(information, _MIN_INFORMATION)
    v = 1 / information
    return v, v * improvement


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """The paper's step 5: sigma' by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= CONVERGENCE_TOLERANCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # "<=" rather than "<": a root hit exactly would otherwise stall the bracket.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
