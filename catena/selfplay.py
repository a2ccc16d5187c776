"""Seeded self-play: the games of ``python -m catena selfplay`` (records) and of
``selfplay --npz`` (training arrays), one game at a time, so that
:mod:`catena.distributed` plays the same games on Ray workers.

Game ``index`` of a run seeded ``seed`` depends on nothing but the two
(:func:`game_seed`): no random stream runs from one game into the next, so the same
seed gives the same games however they are spread over processes.

>>> from catena.record import read_game
>>> game, outcome = selfplay_game(0, seed=5, size=2, iterations=30)
>>> again, _ = selfplay_game(0, seed=5, size=2, iterations=30)
>>> text = record_text(game, 30)
>>> text == record_text(again, 30), read_game(text).game().position.is_game_over()
(True, True)

Training games start at the play phase (the komi given, no colour choice, as in the
OpenSpiel and PettingZoo adapters).  Before every move MCTS searches the
position; the move is drawn from the root's visit counts during the first
``sample_plies`` moves (for varied openings) and is the best move afterwards.
One sample per move, as numpy arrays with a leading axis of samples:

==============  =========  =====================================================
``observation`` float32    ``Position.observation_tensor()`` (mover's view)
``policy``      float32    MCTS root visits over the action ids, summing to 1 (one-hot
                           on the best move when the root was solved before any iteration)
``player``      int8       the mover: 0 Black, 1 White
``game``        int32      index of the game the sample comes from
``margin``      float32    the game's final score, Black minus White (NaN under
                           longest-ribbon scoring, which has no score, R24)
``result``      int8       the game's result: 1 Black won, -1 White won, 0 draw
``position``    str        the position string (``Position.to_string()``)
==============  =========  =====================================================

The same seed gives the same arrays: game ``index`` draws from its own stream,
seeded by ``game_seed(seed, index)``.  A value target for the mover is
``result * (1 - 2 * player)``.

>>> data = selfplay_arrays(games=2, size=2, iterations=50, seed=7)
>>> data["observation"].shape[1:], data["policy"].shape[1], sorted(set(data["game"].tolist()))
((10, 3, 3), 8, [0, 1])
>>> bool(numpy.allclose(data["policy"].sum(axis=1), 1.0))
True
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

import numpy

import catena
from catena._geometry import Move
from catena._interrupt import Interrupted, noting_ctrl_c
from catena._mcts import MCTS
from catena._position import Position
from catena._validate import integer
from catena.players import MCTSPlayer

COLUMNS = ("observation", "policy", "player", "game", "margin", "result", "position")


def game_seed(seed: Optional[int], index: int) -> Optional[int]:
    """The seed of game ``index`` (from 0) of a run seeded ``seed``; None when unseeded.

    The two players of a game use it and the next number, so games never share seeds.

    >>> game_seed(10, 0), game_seed(10, 3), game_seed(None, 3)
    (10, 16, None)
    """
    return None if seed is None else seed + 2 * index


def seeded_players(iterations: int, seed: Optional[int]) -> tuple[MCTSPlayer, MCTSPlayer]:
    """Two MCTS players for engine-against-engine games, seeded apart when seeded.

    >>> [player.iterations for player in seeded_players(100, 4)]
    [100, 100]
    """
    return (MCTSPlayer(iterations=iterations, seed=seed),
            MCTSPlayer(iterations=iterations, seed=None if seed is None else seed + 1))


def selfplay_game(index: int, seed: Optional[int] = None, size: int = 6, game_type: str = "komi",
              scoring: str = "standard", iterations: int = 2000, on_action=None):
    """Play game ``index`` of a self-play run seeded ``seed``: (the Game, its GameOutcome).

    ``on_action`` is passed to :meth:`catena.Game.play` (it may raise to stop the game).
    """
    game = catena.Game(size=size, game_type=game_type, scoring=scoring)
    outcome = game.play(*seeded_players(iterations, game_seed(seed, index)), on_action=on_action)
    return game, outcome


def record_text(game, iterations: int) -> str:
    """The record of a self-play game (catena.record), both players named by their budget."""
    from catena.record import write_game

    return write_game(game, P1=f"catena MCTS {iterations}", P2=f"catena MCTS {iterations}")

def selfplay_arrays(games: int, size: int = 6, game_type: str = "komi", scoring: str = "standard",
                    komi: int = 0, iterations: int = 800, seed: Optional[int] = None,
                    sample_plies: Optional[int] = None,
                    progress: Optional[Callable[[int, int], None]] = None) -> dict[str, numpy.ndarray[Any, Any]]:
    """Play ``games`` self-play games and return their samples (see the module's text).

    ``sample_plies`` defaults to a quarter of the cells.  ``progress(done, games)``
    is called after each game.  On Ctrl-C the games finished so far are returned
    (at least the interrupted one is dropped), so a long run can be cut short.
    """
    start = Position(size, game_type, scoring, komi)         # checks the rules' arguments
    games = integer(games, "games", minimum=0)
    iterations = integer(iterations, "iterations", minimum=1)
    plies = sampled_plies(start, sample_plies)
    played = []
    with noting_ctrl_c() as interrupted:
        try:
            for index in range(games):
                played.append(training_game(start, index, iterations, plies, seed, interrupted))
                if progress is not None:
                    progress(index + 1, games)
        except KeyboardInterrupt:
            pass
    return training_arrays(played, start)


def sampled_plies(start: Position, sample_plies: Optional[int]) -> int:
    """How many opening moves are sampled: ``sample_plies``, by default a quarter of the cells."""
    return (len(start.legal_action_mask()) - 1) // 4 if sample_plies is None else sample_plies


def training_game(start: Position, index: int, iterations: int, plies: int, seed: Optional[int],
                  interrupted: Optional[Interrupted] = None) -> dict[str, list[Any]]:
    """Training game ``index`` of a run seeded ``seed`` from ``start``: its samples, column by
    column (:data:`COLUMNS`); ``plies`` opening moves are sampled (:func:`sampled_plies`).
    Raises KeyboardInterrupt when ``interrupted`` notes a Ctrl-C during a search."""
    rng = numpy.random.default_rng(game_seed(seed, index))
    pos = start.copy()
    mcts = MCTS(seed=int(rng.integers(2**63)))
    samples = []
    while not pos.is_game_over():
        result = mcts.search(pos, iterations=iterations)
        if interrupted is not None and interrupted.happened:
            raise KeyboardInterrupt
        visits = numpy.zeros(len(pos.legal_action_mask()), dtype=numpy.float64)
        for move, count in result.visits.items():
            visits[move.index] = count
        if visits.sum() == 0:           # the root was solved exactly before any iteration
            visits[result.best_move.index] = 1.0
        visits /= visits.sum()
        samples.append((pos.observation_tensor(), visits.astype(numpy.float32),
                        0 if pos.to_move == "black" else 1, pos.to_string()))
        if pos.ply < plies:
            action = int(rng.choice(len(visits), p=visits))
        else:
            action = result.best_move.index
        pos.push(action)
        if not pos.is_game_over():
            mcts.advance(Move.from_index(action, pos.size))
    outcome = pos.outcome()
    assert outcome is not None
    margin = (float("nan") if outcome.black_score is None or outcome.white_score is None
              else outcome.black_score - outcome.white_score)
    won = {"black": 1, "white": -1, None: 0}[outcome.winner]
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    for observation, policy, player, text in samples:
        columns["observation"].append(observation)
        columns["policy"].append(policy)
        columns["player"].append(player)
        columns["game"].append(index)
        columns["margin"].append(margin)
        columns["result"].append(won)
        columns["position"].append(text)
    return columns


def training_arrays(games: Iterable[dict[str, list[Any]]], start: Position) -> dict[str, numpy.ndarray[Any, Any]]:
    """The arrays of :func:`selfplay_arrays` from the samples of training games (in game order)
    played from ``start``."""
    from catena.observation import observation_shape

    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    for game in games:
        for name in COLUMNS:
            columns[name].extend(game[name])
    nactions = len(start.legal_action_mask())
    observations = numpy.asarray(columns["observation"], dtype=numpy.float32)
    policies = numpy.asarray(columns["policy"], dtype=numpy.float32)
    return {
        "observation": observations.reshape((-1,) + observation_shape(start.size)),
        "policy": policies.reshape(-1, nactions),
        "player": numpy.asarray(columns["player"], dtype=numpy.int8),
        "game": numpy.asarray(columns["game"], dtype=numpy.int32),
        "margin": numpy.asarray(columns["margin"], dtype=numpy.float32),
        "result": numpy.asarray(columns["result"], dtype=numpy.int8),
        "position": numpy.asarray(columns["position"], dtype=numpy.str_),
    }


def write_npz(path: Any, data: dict[str, numpy.ndarray[Any, Any]]) -> None:
    """Write ``data`` to ``path`` as a compressed .npz file (numpy.load reads it back).

    >>> import io
    >>> buffer = io.BytesIO()
    >>> write_npz(buffer, selfplay_arrays(games=1, size=1, iterations=10, seed=1))
    >>> sorted(numpy.load(io.BytesIO(buffer.getvalue())).files)
    ['game', 'margin', 'observation', 'player', 'policy', 'position', 'result']
    """
    numpy.savez_compressed(path, **data)  # type: ignore[arg-type]
