"""How many points MCTS gives away: the points set of ``catena.points`` (10 side-3
openings and 31 endgames of 10-18 legal cells on each of sides 4, 5 and 6; game type
komi, standard scoring, komi 0; the exact value of every legal move), searched at
several iteration budgets with the default options and with parts turned off.

    python bench/points.py [--seed 1] [--iterations 1000 10000 100000]
"""

import argparse
import sys
import time

import catena
from catena.points import build_points_set, measure

VARIANTS = {
    "default": {},
    "no exact endgames (exact_cells=0)": {"exact_cells": 0},
    "win only (score_weight=0, exact_cells=0)": {"score_weight": 0, "exact_cells": 0},
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, nargs="+", default=[1000, 10_000, 100_000])
    args = parser.parse_args()
    start = time.perf_counter()
    points = build_points_set(seed=args.seed)
    print(f"{len(points)} positions with exact move values ({time.perf_counter() - start:.0f} s)")
    print("| search | iterations | optimal moves | points lost per move | results thrown | seconds per move |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, options in VARIANTS.items():
        for iterations in args.iterations:
            def choose(pos, options=options, iterations=iterations):
                return catena.MCTS(seed=len(pos.move_stack), **options).search(
                    pos, iterations=iterations).best_move
            begin = time.perf_counter()
            report = measure(points, choose)
            per_move = (time.perf_counter() - begin) / len(points)
            print(f"| {name} | {iterations:,} | {report.optimal:.1%} | {report.points_lost:.2f} | "
                  f"{report.thrown} | {per_move:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
