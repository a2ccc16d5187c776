"""Simple players for :meth:`catena.Game.play`: a uniform random player and a
flat Monte Carlo player (random playouts after each move, run in the core)."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Optional

from catena._geometry import Move
from catena._position import KOMI_RANGES, Position, random_playouts
from catena._validate import integer, optional_integer, optional_real
from catena._validate import seed as checked_seed
from catena.errors import CatenaError

if TYPE_CHECKING:
    from catena.game import Game
    from catena.results import SearchResult


class RandomPlayer:
    """Chooses uniformly among the legal moves; komi 0 and colour black in the setup.

    >>> import catena
    >>> player = RandomPlayer(seed=1)
    >>> pos = catena.Position(size=2)
    >>> player.choose_move(pos) in pos.legal_moves()
    True
    """

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(checked_seed(seed))

    def choose_komi(self, game: Game) -> int:
        return 0

    def choose_colour(self, game: Game) -> str:
        return self._rng.choice(("black", "white"))

    def choose_move(self, position: Position) -> Move:
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
        self.playouts = integer(playouts, "playouts", minimum=1)
        self._rng = random.Random(checked_seed(seed))

    def _win_rate(self, position: Position, colour: str) -> float:
        """Share of random playouts from ``position`` won by ``colour`` (draws count half)."""
        outcome = position.outcome()
        if outcome is not None:
            winner = outcome.winner
            return 0.5 if winner is None else float(winner == colour)
        stats = random_playouts(position, self.playouts, seed=self._rng.getrandbits(64))
        wins = stats.black_wins if colour == "black" else stats.white_wins
        return (wins + 0.5 * stats.draws) / stats.games

    def choose_move(self, position: Position) -> Move:
        mover = position.to_move
        best, best_rate = position.legal_moves()[0], -1.0
        for move in position.legal_moves():
            position.push(move)
            rate = self._win_rate(position, mover)
            position.pop()
            if rate > best_rate:
                best, best_rate = move, rate
        return best

    def _colour_rates(self, game: Game, komi: int) -> dict[str, float]:
        start = Position(game.size, game.game_type, game.scoring, komi)
        if game.game_type == "nokomi" and game.position is not None:
            start = game.position.copy()
        black = self._win_rate(start, "black")
        return {"black": black, "white": 1.0 - black}

    def choose_komi(self, game: Game) -> int:
        high = 1000 if game.scoring == "square" else 15
        candidates = range(0, high + 1, max(1, (high + 1) // 16))
        return max(candidates, key=lambda k: min(self._colour_rates(game, k).values()))

    def choose_colour(self, game: Game) -> str:
        rates = self._colour_rates(game, game.komi or 0)
        return max(rates, key=lambda colour: rates[colour])


PLAYER_LEAF_PLAYOUTS = 2   # MCTSPlayer's MCTS(leaf_playouts=) unless given: it wins more (docs/strength.md)


class MCTSPlayer:
    """A player for :meth:`catena.Game.play` that searches with :class:`catena.MCTS`.

    ``iterations`` and/or ``seconds`` is the budget per decision; other keywords
    go to MCTS.  The tree is kept between moves (the moves played since the last
    search are replayed on it).  The setup decisions use the search's expected
    margin (Black minus White), or the win rate under longest-ribbon scoring,
    which has no margin.  As P1 it chooses the komi whose worse colour is best
    for it: komi only moves the margin (White gains it point for point), so one
    search of the empty board at komi 0 gives the margin m and the bid is the
    largest komi below m (Black still wins, by the least), as ``fair_komi`` does
    with exact values; under longest ribbon the komi that brings Black's win
    rate nearest one half, by bisection.  In a no-komi game its opening stone is
    the one whose margin (win rate) is nearest an even game; as P2 it takes the
    colour the margin (win rate) favours.

    >>> import catena
    >>> player = MCTSPlayer(iterations=300, seed=1)
    >>> pos = catena.Position(size=3)
    >>> player.choose_move(pos) in pos.legal_moves()
    True
    >>> MCTSPlayer(iterations=-1)
    Traceback (most recent call last):
      ...
    ValueError: iterations must be at least 1, not -1
    """

    def __init__(self, iterations: int | None = 2000, seconds: float | None = None, seed: int | None = None,
                 **mcts_options: Any):
        from catena._mcts import MCTS

        if iterations is None and seconds is None:
            raise ValueError("give a budget: iterations and/or seconds")
        self.iterations = optional_integer(iterations, "iterations", minimum=1)
        self.seconds = optional_real(seconds, "seconds", positive=True, finite=True)
        mcts_options.setdefault("leaf_playouts", PLAYER_LEAF_PLAYOUTS)
        self.mcts = MCTS(seed=seed, **mcts_options)
        self._searched: Optional[list[str]] = None   # moves of the position at the tree's root

    def _search(self, position: Position) -> SearchResult:
        stack = [m.name for m in position.move_stack]
        if self._searched is not None and stack[:len(self._searched)] == self._searched:
            try:
                for name in stack[len(self._searched):]:
                    self.mcts.advance(name)
            except CatenaError:
                pass                  # not the same game after all: search afresh
        result = self.mcts.search(position, iterations=self.iterations, seconds=self.seconds)
        self._searched = stack
        return result

    def choose_move(self, position: Position) -> Move:
        result = self._search(position)
        move = result.best_move
        if position.game_type == "nokomi" and position.ply == 0:
            # P1's opening stone: P2 will take the better colour, so aim for balance
            visited = [m for m, n in result.visits.items() if n >= max(1, result.iterations // 200)]
            if result.scores:
                move = min(visited or result.scores, key=lambda m: abs(result.scores[m]))
            else:
                move = min(visited or result.visits, key=lambda m: abs(result.values[m] - 0.5))
        return move

    def _black_value(self, position: Position) -> float:
        result = self._search(position)
        return float(result.value) if position.to_move == "black" else 1.0 - result.value

    def _black_margin(self, position: Position) -> Optional[float]:
        """Black's expected margin in points (None under longest ribbon)."""
        return self._search(position).score

    def choose_komi(self, game: Game) -> int:
        low, high = KOMI_RANGES[game.scoring]
        margin = self._black_margin(Position(game.size, game.game_type, game.scoring, 0))
        if margin is not None:
            return max(low, min(high, math.ceil(margin) - 1))

        def black_value(komi: int) -> float:
            return self._black_value(Position(game.size, game.game_type, game.scoring, komi))

        # Black's value falls as komi rises: bisect for the crossing of one half
        while high - low > 1:
            mid = (low + high) // 2
            if black_value(mid) > 0.5:
                low = mid
            else:
                high = mid
        return min((low, high), key=lambda k: abs(black_value(k) - 0.5))

    def choose_colour(self, game: Game) -> str:
        assert game.position is not None
        margin = self._black_margin(game.position)
        if margin is not None and margin != 0:
            return "black" if margin > 0 else "white"
        black = self._black_value(game.position)
        return "black" if black >= 0.5 else "white"
