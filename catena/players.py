"""Simple players for :meth:`catena.Game.play`: a uniform random player and a
flat Monte Carlo player (random playouts after each move, run in the core)."""

from __future__ import annotations

import random

from catena._position import Position, random_playouts


class RandomPlayer:
    """Chooses uniformly among the legal moves; komi 0 and colour black in the setup."""

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)

    def choose_komi(self, game) -> int:
        return 0

    def choose_colour(self, game) -> str:
        return self._rng.choice(("black", "white"))

    def choose_move(self, position: Position):
        return self._rng.choice(position.legal_moves())


class FlatMonteCarloPlayer:
    """Plays the move whose random playouts win most often for the mover.

    ``playouts`` random games are run after each candidate move.  As P1 it picks
    the komi whose worse colour scores best for it; as P2 the better colour.

    >>> import catena
    >>> player = FlatMonteCarloPlayer(playouts=20, seed=3)
    >>> pos = catena.Position(size=2)
    >>> player.choose_move(pos) in pos.legal_moves()
    True
    """

    def __init__(self, playouts: int = 200, seed: int | None = None):
        self.playouts = playouts
        self._rng = random.Random(seed)

    def _win_rate(self, position: Position, colour: str) -> float:
        """Share of random playouts from ``position`` won by ``colour`` (draws count half)."""
        if position.is_game_over():
            winner = position.outcome().winner
            return 0.5 if winner is None else float(winner == colour)
        stats = random_playouts(position, self.playouts, seed=self._rng.getrandbits(64))
        wins = stats.black_wins if colour == "black" else stats.white_wins
        return (wins + 0.5 * stats.draws) / stats.games

    def choose_move(self, position: Position):
        mover = position.to_move
        best, best_rate = None, -1.0
        for move in position.legal_moves():
            position.push(move)
            rate = self._win_rate(position, mover)
            position.pop()
            if rate > best_rate:
                best, best_rate = move, rate
        return best

    def _colour_rates(self, game, komi: int) -> dict[str, float]:
        start = Position(game.size, game.game_type, game.scoring, komi)
        if game.game_type == "nokomi":
            start = game.position.copy()
        black = self._win_rate(start, "black")
        return {"black": black, "white": 1.0 - black}

    def choose_komi(self, game) -> int:
        high = 1000 if game.scoring == "square" else 15
        candidates = range(0, high + 1, max(1, (high + 1) // 16))
        return max(candidates, key=lambda k: min(self._colour_rates(game, k).values()))

    def choose_colour(self, game) -> str:
        rates = self._colour_rates(game, game.komi)
        return max(rates, key=rates.get)
