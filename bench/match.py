"""Strength match of MCTS with RAVE against plain UCT at equal iterations.

    python bench/match.py [--games 400] [--iterations 2000] [--size 6] [--komi 3] [--workers 2]
"""

import argparse
import functools
import sys
import time

from catena.match import play_match
from catena.players import MCTSPlayer


def make_player(index, iterations, rave, seed_base):
    return MCTSPlayer(iterations=iterations, seed=seed_base + index, rave=rave)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--komi", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rave = functools.partial(make_player, iterations=args.iterations, rave=True, seed_base=1_000)
    plain = functools.partial(make_player, iterations=args.iterations, rave=False, seed_base=2_000)
    start = time.perf_counter()
    result = play_match(rave, plain, args.games, workers=args.workers, size=args.size, komi=args.komi)
    print(f"MCTS+RAVE vs plain UCT, {args.iterations} iterations per move, side {args.size}, "
          f"komi {args.komi}: RAVE scores {result} ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
