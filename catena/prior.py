"""The learned move prior (issue 50): its weights, and how they are fitted.

A move's features (:mod:`catena._prior`: its neighbourhood up to symmetry, the ribbon it
makes, the claims it makes, the cells it takes away, its nearness to the last moves, to
the edge and to other stones) each have a weight; a move's strength is the sum of its
features' weights, and the prior's probability of a move is the softmax of the
strengths of a position's moves.  The weights are the logs of the gammas of a
generalized Bradley-Terry model fitted by Minorization-Maximization (Coulom 2007,
"Computing Elo Ratings of Move Patterns in the Game of Go"): each training position is a
competition its best move won against the other legal moves.

The training positions come from seeded, lightly randomised self-play on sides 4 to 6
(``MCTS`` at a few hundred iterations a move, the first two stones and a tenth of the
later ones random); a position with ``LEGAL`` legal cells is solved exactly and its best
move is the winner.  ``python -m catena train-prior`` reproduces the shipped weights
(``catena/data/prior-v1.npz``); docs/strength.md has its time and what the prior does
in the search (``MCTS(prior_weight=...)``).
"""

from __future__ import annotations

import argparse
import io
import random
import time
from importlib import resources
from typing import Any, Callable, Optional

import numpy

import catena
from catena import _prior
from catena._interrupt import noting_ctrl_c
from catena._validate import integer
from catena._validate import seed as checked_seed

SHIPPED = "prior-v1.npz"          # in catena/data: the weights MCTS(prior_weight=...) uses
SIDES = (4, 5, 6)
KOMI = {4: 9, 5: 2, 6: 2}         # about fair (docs/strength.md): games stay open into the endgame
LEGAL = (14, 24)                  # legal cells (the button aside) of the solved training positions
GAME_ITERATIONS = 1000            # MCTS iterations a move of the self-play games
NOISE = 0.1                       # share of random moves after the first two
SOLVER_NODES = 500_000            # a position the solver cannot finish in this many is left out
SWEEPS = 40                       # Minorization-Maximization passes over the groups


class PriorFileError(ValueError):
    """A weights file that does not fit this build's feature layout."""


def read_weights(data: bytes | str) -> numpy.ndarray:
    """The weights of a file (its bytes or its path), checked against the feature layout."""
    layout = _prior.layout()
    source = io.BytesIO(data) if isinstance(data, bytes) else data
    with numpy.load(source) as archive:
        if "version" not in archive or "weights" not in archive:
            raise PriorFileError("a prior file holds 'version' and 'weights'")
        version = int(archive["version"])
        weights = numpy.asarray(archive["weights"], dtype=numpy.float32)
    if version != layout["version"]:
        raise PriorFileError(f"the prior file has feature layout {version}, this build {layout['version']}")
    if weights.shape != (layout["features"],) or not numpy.all(numpy.isfinite(weights)):
        raise PriorFileError(f"the prior file's weights must be {layout['features']} finite numbers, "
                             f"not shape {weights.shape}")
    return weights


def write_weights(path: str, weights: numpy.ndarray) -> None:
    """Write ``weights`` with the feature layout's version (numpy's .npz)."""
    with open(path, "wb") as handle:
        numpy.savez(handle, version=numpy.int32(_prior.layout()["version"]),
                    weights=numpy.asarray(weights, dtype=numpy.float32))


def shipped_weights() -> numpy.ndarray:
    """The weights that ship in the package."""
    return read_weights(resources.files("catena").joinpath("data", SHIPPED).read_bytes())


# ---------------------------------------------------------------------------
# Training positions


def _legal_cells(pos: catena.Position) -> int:
    return len(pos.legal_moves()) - (pos.button is None)


def game_positions(size: int, seed: int, iterations: int = GAME_ITERATIONS,
                   legal: tuple[int, int] = LEGAL) -> list[catena.Position]:
    """The positions of one seeded self-play game with ``legal`` legal cells (inclusive)."""
    rng = random.Random(seed)
    pos = catena.Position(size=size, komi=KOMI.get(size, 0))
    mcts = catena.MCTS(seed=seed)
    found = []
    while not pos.is_game_over() and _legal_cells(pos) >= legal[0]:
        if _legal_cells(pos) <= legal[1]:
            found.append(pos.copy())
        if pos.ply < 2 or rng.random() < NOISE:
            move = rng.choice(pos.legal_moves())
        else:
            move = mcts.search(pos, iterations=iterations).best_move
        pos.push(move)
    return found


def training_set(positions: int, seed: int, sides: tuple[int, ...] = SIDES,
                 solver_nodes: int = SOLVER_NODES,
                 progress: Optional[Callable[[int], object]] = None) -> list[tuple[numpy.ndarray, int]]:
    """``positions`` solved positions from self-play games seeded from ``seed`` (the sides
    in turn): per position its moves' features and the row of its best move.
    ``progress(n)`` is called after each solve, with 1 if the position was kept."""
    out: list[tuple[numpy.ndarray, int]] = []
    game = 0
    while len(out) < positions:
        size = sides[game % len(sides)]
        for pos in game_positions(size, seed * 100_003 + game):
            result = catena.solve(pos, max_nodes=solver_nodes, tt_mb=16, threads=1)
            solved = result.solved and result.best_move is not None
            if progress is not None:
                progress(int(solved))          # also after a position left out: a Ctrl-C is seen at once
            if not solved:
                continue
            moves, table = _prior.features(pos)
            out.append((table, moves.index(result.best_move.index)))
            if len(out) == positions:
                break
        game += 1
    return out


# ---------------------------------------------------------------------------
# Minorization-Maximization


def fit(data: list[tuple[numpy.ndarray, int]], sweeps: int = SWEEPS) -> numpy.ndarray:
    """Log-gammas of the generalized Bradley-Terry model of ``data`` (each position: its
    moves' feature rows and the row that won), by Coulom's MM with one virtual win and
    one virtual loss of each feature against a gamma of 1 (a feature never seen keeps 0)."""
    layout = _prior.layout()
    nfeatures, offsets = layout["features"], layout["offsets"]
    rows = numpy.concatenate([table for table, _ in data])
    position_of = numpy.concatenate([numpy.full(len(table), i) for i, (table, _) in enumerate(data)])
    starts = numpy.cumsum([0] + [len(table) for table, _ in data[:-1]])
    winners = rows[starts + numpy.array([best for _, best in data])]
    wins = numpy.bincount(winners.ravel(), minlength=nfeatures).astype(float)
    log_gamma = numpy.zeros(nfeatures)
    for _ in range(sweeps):
        for group in range(rows.shape[1]):
            strength = numpy.exp(log_gamma[rows].sum(axis=1))
            total = numpy.bincount(position_of, strength)
            column = rows[:, group]
            teammates = strength / numpy.exp(log_gamma[column]) / total[position_of]
            gamma = numpy.exp(log_gamma)
            denominator = numpy.bincount(column, teammates, minlength=nfeatures) + 2.0 / (gamma + 1.0)
            span = slice(offsets[group], offsets[group + 1])
            log_gamma[span] = numpy.log((wins[span] + 1.0) / denominator[span])
    return log_gamma


def evaluate(data: list[tuple[numpy.ndarray, int]], log_gamma: numpy.ndarray) -> dict[str, float]:
    """How the prior does on ``data``: the share of positions whose best move it ranks
    first, and the mean log-likelihood of the best move."""
    top, loglik = 0, 0.0
    for table, best in data:
        strength = log_gamma[table].sum(axis=1)
        top += int(numpy.argmax(strength) == best)
        shifted = strength - strength.max()
        loglik += shifted[best] - numpy.log(numpy.exp(shifted).sum())
    n = max(len(data), 1)
    return {"top1": top / n, "loglik": loglik / n}


def train(positions: int, seed: int, progress: Optional[Callable[[int], object]] = None,
          sides: tuple[int, ...] = SIDES) -> tuple[numpy.ndarray, dict[str, Any]]:
    """Weights fitted on ``positions`` training positions from ``seed``, and a summary:
    the prior's share of first-ranked best moves and mean log-likelihood on the first
    fifth of the positions held out, and a random move's."""
    data = training_set(positions, seed, sides, progress=progress)
    held = max(1, len(data) // 5) if len(data) > 1 else 0
    weights = fit(data[held:] or data)
    summary = {"positions": len(data), "held_out": held, **evaluate(data[:held], weights),
               "random_top1": float(numpy.mean([1.0 / len(t) for t, _ in data[:held]])) if held else 0.0}
    return weights.astype(numpy.float32), summary


# ---------------------------------------------------------------------------
# python -m catena train-prior


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--positions", type=int, default=1500,
                        help="solved training positions (default: 1500, a few minutes on two cores)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the self-play games (default: 1)")
    parser.add_argument("--out", default="prior.npz",
                        help=f"the weights file to write (default: prior.npz; the shipped one is "
                             f"catena/data/{SHIPPED}, made with the defaults)")


def main(args: argparse.Namespace) -> int:
    from catena.progress import bar
    positions = integer(args.positions, "--positions", 10, 10_000_000)
    seed = checked_seed(args.seed)
    start = time.perf_counter()
    with noting_ctrl_c() as ctrl_c, bar(positions, "positions", unit="position") as shown:
        def advance(count: int) -> None:
            if ctrl_c.happened:                 # MCTS and the solver end cleanly on Ctrl-C
                raise KeyboardInterrupt
            shown.update(count)
        weights, summary = train(positions, seed, advance)
    write_weights(args.out, weights)
    print(f"wrote {args.out}: {summary['positions']} positions in {time.perf_counter() - start:.0f} s; "
          f"on the {summary['held_out']} held out the prior ranks the best move first in "
          f"{summary['top1']:.0%} (a random move: {summary['random_top1']:.0%}), "
          f"mean log-likelihood {summary['loglik']:.2f}")
    return 0
