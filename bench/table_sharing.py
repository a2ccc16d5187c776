"""Nodes and wall time of a position's children solved at one null window by TableSolvers.

    python bench/table_sharing.py [--cells 28] [--seed 28000] [--beta 9] [--tt-mb 512]
                                  [--modes one shared separate] [--repeat 2]

The children of the side-4 position of bench/distributed_speedup.py (``--cells`` legal cells,
first seed at or after ``--seed``) are the units of a distributed solve split at depth 1; each
is asked "value >= beta?" (half points) as a Ray worker asks it.  ``one``: one solver takes
them in order; ``shared``: two solvers on two threads share one table (the workers of one
machine, ``TableSolver(share=...)``), each with its own history scores; ``separate``: two
solvers with a table each.  (A ``shared-history`` mode, one set of history scores for both,
measured worse and is gone: docs/side4.md.)  The node
counts are what docs/distributed.md compares: two workers can only beat one if they search
not many more nodes than one does.
"""

import argparse
import os
import queue
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from distributed_speedup import position  # noqa: E402  (bench/: the script's folder is on the path)

from catena._solver import TableSolver, solver_moves  # noqa: E402


def solvers(mode, tt_mb):
    if mode == "one":
        return [TableSolver(tt_mb=tt_mb)]
    first = TableSolver(tt_mb=tt_mb)
    if mode == "separate":
        return [first, TableSolver(tt_mb=tt_mb)]
    return [first, TableSolver(share=first)]


def run(children, beta, mode, tt_mb):
    """(nodes, seconds) of solving every child at the null window below ``beta``."""
    todo = queue.Queue()
    for child in children:
        todo.put(child)
    nodes = []

    def drain(solver):
        while True:
            try:
                child = todo.get_nowait()
            except queue.Empty:
                return
            nodes.append(solver.solve(child, window=(beta - 1, beta), guess=beta)[2])

    start = time.perf_counter()
    threads = [threading.Thread(target=drain, args=(solver,)) for solver in solvers(mode, tt_mb)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(nodes), time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=28)
    parser.add_argument("--seed", type=int, default=28000)
    parser.add_argument("--scoring", default="standard")
    parser.add_argument("--beta", type=int, default=9, help="the null window, in half points")
    parser.add_argument("--tt-mb", type=float, default=512)
    parser.add_argument("--modes", nargs="+", choices=("one", "shared", "separate"),
                        default=["one", "shared", "separate"])
    parser.add_argument("--repeat", type=int, default=2, help="runs of each mode (two threads vary)")
    args = parser.parse_args()
    pos, seed = position("komi", args.scoring, args.cells, args.seed)
    children = []
    for move in solver_moves(pos):
        child = pos.copy()
        child.push(move)
        children.append(child)
    print(f"komi/{args.scoring}/{args.cells}@{seed}: {len(children)} children, beta {args.beta}, "
          f"{args.tt_mb:g} MB")
    print("| mode | nodes | seconds |\n| --- | --- | --- |")
    for mode in args.modes:
        for _ in range(args.repeat):
            nodes, seconds = run(children, args.beta, mode, args.tt_mb)
            print(f"| {mode} | {nodes / 1e6:,.0f} M | {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
