"""A points set: seeded positions with the exact margin of every legal move, and how
many points a player's choices lose on it.

Catena is a scoring game, so a move is judged by the final margin it keeps under best
play (``catena.solve`` after the move), not only by whether it keeps the win.  The set
mixes side-3 openings (the whole board is solvable) and endgames of sides 4 to 6 with
a given number of legal cells; game type komi, standard scoring.

>>> import catena
>>> from catena.points import build_points_set, measure
>>> points = build_points_set(seed=1, openings=1, endgames=1, sizes=(4,), legal=(8, 10))
>>> [(p.size, len(p.values)) for p in points][:1]
[(3, 20)]
>>> report = measure(points, lambda pos: catena.solve(pos).best_move)
>>> report.optimal, report.points_lost, report.thrown
(1.0, 0.0, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from catena._geometry import Move
from catena._position import Position
from catena.solver import solve_after


@dataclass(frozen=True)
class PointsPosition:
    """A position (by its moves from the empty board), the player to move, and the
    exact margin, Black minus White, after each legal move."""

    size: int
    moves: tuple[str, ...]
    komi: int
    to_move: str
    values: dict[str, float]

    def position(self) -> Position:
        pos = Position(self.size, "komi", "standard", self.komi)
        for name in self.moves:
            pos.push(name)
        return pos

    @property
    def mover_sign(self) -> int:
        """+1 when Black is to move, -1 when White is (margins are Black minus White)."""
        return 1 if self.to_move == "black" else -1

    @property
    def best(self) -> float:
        """The exact margin of the position for the player to move's best move."""
        sign = self.mover_sign
        return sign * max(sign * v for v in self.values.values())

    def lost(self, move: str) -> float:
        """Points ``move`` gives away against the best move (0 for an optimal move)."""
        return self.mover_sign * (self.best - self.values[move])

    def throws(self, move: str) -> bool:
        """Whether ``move`` turns the best result (win, or draw) into a worse one."""
        def result(margin: float) -> int:
            return (margin > 0) - (margin < 0)
        return self.mover_sign * result(self.values[move]) < self.mover_sign * result(self.best)


def exact_values(pos: Position, tt_mb: int = 16) -> dict[str, float]:
    """The exact margin (Black minus White) after each legal move of ``pos``."""
    values = {}
    for move, result in solve_after(pos, pos.legal_moves(), tt_mb=tt_mb):
        assert result.value is not None
        values[move.name] = result.value
    return values


def _endgame(size: int, legal: int, komi: int, rng: random.Random) -> Optional[Position]:
    """Random stones from the empty board until exactly ``legal`` cells are legal (None
    if a random game skips past that count or ends first)."""
    pos = Position(size, "komi", "standard", komi)
    while not pos.is_game_over():
        cells = len(pos.legal_moves()) - (pos.button is None)
        if cells == legal:
            return pos
        if cells < legal:
            return None
        pos.push(rng.choice([m for m in pos.legal_moves() if m.name != "button"]))
    return None


def build_points_set(seed: int = 0, openings: int = 10, endgames: int = 31,
                     sizes: Iterable[int] = (4, 5, 6), legal: tuple[int, int] = (10, 18),
                     komi: int = 0) -> list[PointsPosition]:
    """``openings`` side-3 positions (the empty board, then after one or two random
    moves) and, for each side in ``sizes``, ``endgames`` endgames whose legal cell
    count runs over ``legal`` (inclusive), each with the exact value of every move."""
    rng = random.Random(seed)
    found: list[Position] = []
    for i in range(openings):
        pos = Position(3, "komi", "standard", komi)
        for _ in range(min(i, 1 + i % 2)):
            pos.push(rng.choice(pos.legal_moves()))
        found.append(pos)
    low, high = legal
    for size in sizes:
        for i in range(endgames):
            wanted = low + i % (high - low + 1)
            pos = None
            while pos is None:
                pos = _endgame(size, wanted, komi, rng)
            found.append(pos)
    return [PointsPosition(pos.size, tuple(m.name for m in pos.move_stack), pos.komi, pos.to_move,
                           exact_values(pos)) for pos in found]


@dataclass(frozen=True)
class PointsReport:
    """How a player did on a points set: the share of optimal moves, the mean points
    lost per move, and how many moves threw the result away."""

    positions: int
    optimal: float
    points_lost: float
    thrown: int

    def __str__(self) -> str:
        return (f"{self.optimal:.1%} optimal, {self.points_lost:.2f} points lost per move, "
                f"{self.thrown} results thrown ({self.positions} positions)")


def measure(points: list[PointsPosition], choose: Callable[[Position], Move]) -> PointsReport:
    """Play ``choose(position)`` on every position of ``points`` and score the moves."""
    optimal = lost = 0.0
    thrown = 0
    for entry in points:
        move = choose(entry.position()).name
        loss = entry.lost(move)
        optimal += loss == 0
        lost += loss
        thrown += entry.throws(move)
    n = len(points)
    return PointsReport(positions=n, optimal=optimal / n, points_lost=lost / n, thrown=thrown)
