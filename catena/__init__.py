"""catena: the board game Catena, with a Cython core.

>>> import catena
>>> pos = catena.Position()
>>> len(pos.legal_moves())      # F1: 91 cells and the button
92
>>> catena.__version__
'0.1.0'
"""

__version__ = "0.1.0"           # pyproject.toml reads it from here

from catena._geometry import Move, cell_name, cells, neighbours, parse_cell, symmetries
from catena._mcts import MCTS
from catena._position import GAME_TYPES, SCORINGS, Position, perft, position_bytes, random_playouts
from catena.analysis import Analysis, MoveValue, analyse
from catena.errors import CatenaError, CellError, IllegalMoveError, SetupError, TooMuchWorkError
from catena.game import Game, GameOutcome
from catena.observation import observation_shape
from catena.players import MCTSPlayer, RandomPlayer
from catena.record import GameRecord, RecordError, read_game, read_games, write_game
from catena.results import Claim, Outcome, PlayoutStats, Ribbon, SearchResult, SolveFocus, SolveResult
from catena.solved import fair_komi
from catena.solver import solve
from catena.svg import svg

__all__ = [
    "GAME_TYPES", "SCORINGS",
    "CatenaError", "CellError", "IllegalMoveError", "SetupError", "TooMuchWorkError",
    "Claim", "Outcome", "PlayoutStats", "Ribbon", "SearchResult", "SolveFocus", "SolveResult",
    "Move", "cell_name", "cells", "neighbours", "parse_cell", "symmetries",
    "Position", "perft", "position_bytes", "random_playouts",
    "Game", "GameOutcome", "MCTS", "MCTSPlayer", "RandomPlayer",
    "solve", "fair_komi", "GameRecord", "RecordError", "read_game", "read_games", "write_game", "svg",
    "analyse", "Analysis", "MoveValue", "observation_shape",
]
