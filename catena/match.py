"""Matches between players, for measuring strength.

Games are played in the play phase with a fixed komi, the two players taking
Black in alternate games, so colour advantage cancels out.  The win rate comes
with a 95% Wilson score interval.
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from catena._position import Position


@dataclass(frozen=True)
class MatchResult:
    """Games, wins of the first player (draws count half) and its 95% interval.

    >>> print(MatchResult(games=400, wins=329, draws=0))
    329/400 = 82.2% (95% interval 78.2% to 85.7%, 0 draws)
    """

    games: int
    wins: float
    draws: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        z, n, p = 1.959964, self.games, self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    def __str__(self) -> str:
        low, high = self.interval
        return (f"{self.wins:g}/{self.games} = {self.win_rate:.1%} "
                f"(95% interval {low:.1%} to {high:.1%}, {self.draws} draws)")


def play_game(first, second, size: int = 6, game_type: str = "komi", scoring: str = "standard",
              komi: int = 0, first_is_black: bool = True) -> float:
    """One game from the empty board; returns the first player's score (1, 0.5, 0)."""
    pos = Position(size, game_type, scoring, komi)
    black, white = (first, second) if first_is_black else (second, first)
    while not pos.is_game_over():
        player = black if pos.to_move == "black" else white
        pos.push(player.choose_move(pos.copy()))
    winner = pos.outcome().winner
    if winner is None:
        return 0.5
    return 1.0 if (winner == "black") == first_is_black else 0.0


def _one(args) -> float:
    make_first, make_second, index, options = args
    return play_game(make_first(index), make_second(index), first_is_black=index % 2 == 0, **options)


def play_match(make_first, make_second, games: int, workers: int = 1, **options) -> MatchResult:
    """``games`` games between players made by ``make_first(i)`` and ``make_second(i)``
    (picklable callables, so games can run in ``workers`` processes)."""
    jobs = [(make_first, make_second, i, options) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            scores = list(pool.map(_one, jobs, chunksize=4))
    else:
        scores = [_one(job) for job in jobs]
    return MatchResult(games=games, wins=sum(scores), draws=sum(1 for s in scores if s == 0.5))
