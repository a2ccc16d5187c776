"""Training data from seeded MCTS self-play: what ``python -m catena selfplay --npz`` writes.

Each game starts at the play phase (the komi given, no colour choice, as in the
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
seeded by ``catena.selfplay.game_seed(seed, index)``, so a run spread over
processes (:func:`catena.distributed.selfplay`) gives them too.  A value target for the mover is
``result * (1 - 2 * player)``.

>>> data = selfplay_arrays(games=2, size=2, iterations=50, seed=7)
>>> data["observation"].shape[1:], data["policy"].shape[1], sorted(set(data["game"].tolist()))
((10, 3, 3), 8, [0, 1])
>>> bool(numpy.allclose(data["policy"].sum(axis=1), 1.0))
True
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy

from catena._geometry import Move
from catena._mcts import MCTS
from catena._position import Position
from catena._validate import integer
from catena.progress import Interrupted, noting_ctrl_c
from catena.selfplay import game_seed


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
    plies = _sampled_plies(start, sample_plies)
    columns = _new_columns()
    with noting_ctrl_c() as interrupted:
        try:
            for index in range(games):
                _play_one(start, index, iterations, plies, seed, columns, interrupted)
                if progress is not None:
                    progress(index + 1, games)
        except KeyboardInterrupt:
            pass
    return _as_arrays(columns, start)


def _sampled_plies(start: Position, sample_plies: Optional[int]) -> int:
    """How many opening moves are sampled: ``sample_plies``, by default a quarter of the cells."""
    return (len(start.legal_action_mask()) - 1) // 4 if sample_plies is None else sample_plies


def _new_columns() -> dict[str, list[Any]]:
    return {name: [] for name in ("observation", "policy", "player", "game", "margin", "result", "position")}


def _play_one(start: Position, index: int, iterations: int, plies: int, seed: Optional[int],
              columns: dict[str, list[Any]], interrupted: Optional[Interrupted] = None) -> None:
    """Game ``index``; its samples join ``columns`` only once it is finished."""
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
    for observation, policy, player, text in samples:
        columns["observation"].append(observation)
        columns["policy"].append(policy)
        columns["player"].append(player)
        columns["game"].append(index)
        columns["margin"].append(margin)
        columns["result"].append(won)
        columns["position"].append(text)


def _as_arrays(columns: dict[str, list[Any]], start: Position) -> dict[str, numpy.ndarray[Any, Any]]:
    from catena.observation import observation_shape

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
