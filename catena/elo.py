"""Elo difference, its 95% interval and the SPRT, from the scores of game pairs.

A match plays every opening twice, once with each engine as Black, so the two
games of a pair share their opening's bias.  As in fastchess and OpenBench the
statistics use the pair as the sample (the "pentanomial" model: a pair scores
0, 1/2, 1, 3/2 or 2 points for engine A): colour and opening luck cancel inside
a pair, and the variance between pairs is the honest one.

The Elo difference of a mean score ``s`` is ``400 log10(s / (1 - s))`` (the
logistic model).  The SPRT tests H0: Elo = ``elo0`` against H1: Elo = ``elo1``
with the normal approximation of the generalized SPRT (Van den Bergh): with the
pairs' mean score ``x``, their variance ``v`` and ``n`` pairs,
``LLR = n (s1 - s0) (2x - s0 - s1) / (2v)``, where ``s0`` and ``s1`` are the
scores of the two Elo values.  It accepts H1 once LLR >= log((1 - beta) / alpha)
and H0 once LLR <= log(beta / (1 - alpha)).

>>> stats = PairStats.from_pairs([2, 2, 1.5, 1, 2, 0.5, 2, 1.5])
>>> print(stats)
8 pairs, score 78.1%, Elo +221 (95% interval +56 to +699)
>>> sprt = Sprt(elo0=0, elo1=50, alpha=0.05, beta=0.05)
>>> round(sprt.llr(stats), 2), sprt.decision(stats)
(1.66, None)
>>> sprt.decision(PairStats.from_pairs([2, 2, 1.5, 1, 2, 0.5, 2, 1.5] * 4))
'H1'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Optional

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964
#: Added to every count of the five pair results when the variance is computed:
#: one pseudo-pair spread over the results, so that a few equal pairs (all wins,
#: say) do not make the variance zero and the SPRT decide at once.
_PRIOR = 0.2


def elo_of_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (0 to 1; +-inf at the ends).

    >>> round(elo_of_score(0.75), 1), elo_of_score(1.0)
    (190.8, inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_of_elo(elo: float) -> float:
    """The expected score of an engine ``elo`` points stronger (logistic model).

    >>> score_of_elo(0)
    0.5
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def format_elo(elo: float) -> str:
    """``+12``, ``-3``, ``+inf``."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.0f}"


@dataclass(frozen=True)
class PairStats:
    """Counts of the five pair results (A's points in a pair: 0, 1/2, 1, 3/2, 2).

    ``mean`` is A's mean score per game (0 to 1), ``variance`` the variance of a
    pair's score per game about that mean, with the regularizing prior.
    """

    counts: tuple[int, int, int, int, int]

    @classmethod
    def from_pairs(cls, points: Iterable[float]) -> "PairStats":
        """From A's points in each pair (0, 0.5, 1, 1.5 or 2)."""
        counts = [0] * 5
        for value in points:
            index = round(2 * value)
            if not 0 <= index <= 4 or abs(index - 2 * value) > 1e-9:
                raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {value}")
            counts[index] += 1
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def _moments(self) -> tuple[float, float]:
        values = [k / 4.0 for k in range(5)]          # a pair's score per game
        pairs = self.pairs
        mean = sum(c * v for c, v in zip(self.counts, values)) / pairs if pairs else 0.5
        weights = [count + _PRIOR for count in self.counts]
        variance = sum(w * (v - mean) ** 2 for w, v in zip(weights, values)) / sum(weights)
        return mean, variance

    @property
    def mean(self) -> float:
        return self._moments()[0]

    @property
    def variance(self) -> float:
        return self._moments()[1]

    @property
    def elo(self) -> float:
        return elo_of_score(self.mean)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the Elo difference (normal interval of the mean score)."""
        mean, variance = self._moments()
        half = Z95 * math.sqrt(variance / max(self.pairs, 1))
        return elo_of_score(mean - half), elo_of_score(mean + half)

    def __str__(self) -> str:
        if not self.pairs:
            return "no complete pairs yet"
        low, high = self.interval
        return (f"{self.pairs} pairs, score {self.mean:.1%}, Elo {format_elo(self.elo)} "
                f"(95% interval {format_elo(low)} to {format_elo(high)})")


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.

    ``alpha`` is the chance of accepting H1 when H0 holds, ``beta`` of accepting
    H0 when H1 holds.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, not {value}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT elo0 must be below elo1, not {self.elo0} and {self.elo1}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR at or below which H0 is accepted, and at or above which H1 is."""
        return math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)

    def llr(self, stats: PairStats) -> float:
        """The log-likelihood ratio of H1 against H0 after ``stats``."""
        if not stats.pairs:
            return 0.0
        mean, variance = stats._moments()
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return stats.pairs * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)

    def decision(self, stats: PairStats) -> Optional[str]:
        """"H0", "H1" or None while undecided."""
        llr = self.llr(stats)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def describe(self, stats: PairStats) -> str:
        lower, upper = self.bounds
        verdict = {"H1": f"H1 accepted (Elo >= {self.elo1:g})", "H0": f"H0 accepted (Elo <= {self.elo0:g})",
                   None: "undecided"}[self.decision(stats)]
        return (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}: "
                f"LLR {self.llr(stats):.2f} (bounds {lower:.2f}, {upper:.2f}), {verdict}")
