"""catena: the board game Catena, with a Cython core.

>>> import catena
>>> pos = catena.Position()
>>> len(pos.legal_moves())      # F1: 91 cells and the button
92
"""

from catena.errors import CatenaError, CellError, IllegalMoveError, SetupError
from catena.results import Claim, Outcome, PlayoutStats, Ribbon
from catena._geometry import Move, cell_name, cells, neighbours, parse_cell, symmetries
from catena._position import (GAME_TYPES, SCORINGS, Position, perft, position_bytes,
                              random_playouts)
from catena.game import Game
from catena._mcts import MCTS
from catena._solver import solve
from catena.players import MCTSPlayer, RandomPlayer
from catena.results import SearchResult, SolveResult

__all__ = [
    "CatenaError", "CellError", "Claim", "GAME_TYPES", "Game", "IllegalMoveError", "MCTS", "MCTSPlayer", "Move",
    "Outcome", "PlayoutStats", "Position", "RandomPlayer", "Ribbon", "SCORINGS", "SearchResult", "SetupError", "cell_name",
    "cells", "neighbours", "parse_cell", "perft", "position_bytes", "random_playouts",
    "solve", "symmetries",
]
