"""Time per uniformly random game through each research adapter, next to random_playouts.

    python bench/adapters.py [--sizes 4 6] [--games 200]

Every row plays random games from the empty board of the komi game (standard scoring)
to the end, choosing uniformly among the legal actions: the core's random_playouts;
a Python loop over Position.legal_action_mask() and push(int); the same with an
observation tensor per move (what a learning loop reads); OpenSpiel's
legal_actions()/apply_action(); PettingZoo's env() (standard wrappers, an observation
and an action mask per step).  The ratio column is against random_playouts in the
same run.  The button is never taken in the core's playouts; elsewhere it is one
uniformly chosen legal action among the others.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable

import numpy

import catena


def _core(size: int, games: int, rng: random.Random) -> None:
    catena.random_playouts(catena.Position(size=size), games, seed=rng.getrandbits(64))


def _position(size: int, games: int, rng: random.Random, observe: bool = False) -> None:
    nprng = numpy.random.default_rng(rng.getrandbits(64))
    for _ in range(games):
        pos = catena.Position(size=size)
        while not pos.is_game_over():
            if observe:
                pos.observation_tensor()
            pos.push(int(nprng.choice(numpy.flatnonzero(pos.legal_action_mask()))))


def _openspiel(size: int, games: int, rng: random.Random) -> None:
    import pyspiel

    import catena.openspiel  # noqa: F401

    game = pyspiel.load_game("python_catena", {"size": size})
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))


def _pettingzoo(size: int, games: int, rng: random.Random) -> None:
    from catena.pettingzoo import env

    environment = env(size=size)
    nprng = numpy.random.default_rng(rng.getrandbits(64))
    for _ in range(games):
        environment.reset()
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(int(nprng.choice(numpy.flatnonzero(observation["action_mask"]))))


ROWS: list[tuple[str, Callable[..., None], int]] = [
    ("random_playouts (core)", _core, 1000),
    ("Position: mask + push(int)", _position, 1),
    ("Position: + observation_tensor", lambda s, g, r: _position(s, g, r, observe=True), 1),
    ("OpenSpiel python_catena", _openspiel, 1),
    ("PettingZoo env()", _pettingzoo, 1),
]


def measure(sizes: list[int], games: int) -> list[tuple[str, int, float, float]]:
    """(row, size, microseconds per game, ratio to random_playouts) for every row and size."""
    out = []
    for size in sizes:
        base = None
        for name, run, factor in ROWS:
            count = games * factor
            run(size, 1, random.Random(0))               # warm-up: imports, caches, registration
            rng = random.Random(size)
            start = time.process_time()
            run(size, count, rng)
            per_game = (time.process_time() - start) / count * 1e6
            base = base or per_game
            out.append((name, size, per_game, per_game / base))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    print(f"{'adapter':34} {'side':>4} {'us/game (CPU)':>14} {'x playouts':>11}")
    for name, size, per_game, ratio in measure(args.sizes, args.games):
        print(f"{name:34} {size:>4} {per_game:>14,.1f} {ratio:>11,.0f}")


if __name__ == "__main__":
    main()
