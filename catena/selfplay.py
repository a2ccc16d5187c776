"""Seeded self-play, one game at a time: what ``python -m catena selfplay`` and
:func:`catena.distributed.selfplay` both play, so the same seed gives the same games
however they are spread over processes.

Game ``index`` of a run seeded ``seed`` depends on nothing but the two
(:func:`game_seed`): no random stream runs from one game into the next.

>>> from catena.record import read_game
>>> game, outcome = play_game(0, seed=5, size=2, iterations=30)
>>> again, _ = play_game(0, seed=5, size=2, iterations=30)
>>> text = record_text(game, 30)
>>> text == record_text(again, 30), read_game(text).game().position.is_game_over()
(True, True)
"""

from __future__ import annotations

from typing import Optional

import catena
from catena.players import MCTSPlayer


def game_seed(seed: Optional[int], index: int) -> Optional[int]:
    """The seed of game ``index`` (from 0) of a run seeded ``seed``; None when unseeded.

    The two players of a game use it and the next number, so games never share seeds.

    >>> game_seed(10, 0), game_seed(10, 3), game_seed(None, 3)
    (10, 16, None)
    """
    return None if seed is None else seed + 2 * index


def engines(iterations: int, seed: Optional[int]) -> tuple[MCTSPlayer, MCTSPlayer]:
    """Two MCTS players for engine-against-engine games, seeded apart when seeded.

    >>> [player.iterations for player in engines(100, 4)]
    [100, 100]
    """
    return (MCTSPlayer(iterations=iterations, seed=seed),
            MCTSPlayer(iterations=iterations, seed=None if seed is None else seed + 1))


def record_name(index: int) -> str:
    """The file name of game ``index``'s record in a self-play folder.

    >>> record_name(0)
    'game-0001.catena'
    """
    return f"game-{index + 1:04d}.catena"


def play_game(index: int, seed: Optional[int] = None, size: int = 6, game_type: str = "komi",
              scoring: str = "standard", iterations: int = 2000, on_action=None):
    """Play game ``index`` of a self-play run seeded ``seed``: (the Game, its GameOutcome).

    ``on_action`` is passed to :meth:`catena.Game.play` (it may raise to stop the game).
    """
    game = catena.Game(size=size, game_type=game_type, scoring=scoring)
    outcome = game.play(*engines(iterations, game_seed(seed, index)), on_action=on_action)
    return game, outcome


def record_text(game, iterations: int) -> str:
    """The record of a self-play game (catena.record), both players named by their budget."""
    from catena.record import write_game

    return write_game(game, P1=f"catena MCTS {iterations}", P2=f"catena MCTS {iterations}")
