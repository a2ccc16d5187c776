"""How the solver's work grows with the legal cells left: the model behind catena.effort.

    python bench/solver_growth.py [--cells 14 16 ... 30] [--per 6] [--tt-mb 256] [--threads 1]

Side-4 positions of game type komi, standard scoring, from seeded random play until ``k``
legal cells remain (as in bench/solver_side4.py), each solved exactly from an empty table.
Prints the median nodes and seconds per ``k`` (a Markdown table for docs/side4.md) and the
least-squares fit ``nodes = NODES_AT_14 * GROWTH ** (k - 14)`` of the medians.
"""

import argparse
import math
import statistics
import time

import catena

from solver_side4 import position


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, nargs="+", default=list(range(14, 31, 2)))
    parser.add_argument("--per", type=int, default=6, help="positions per legal-cell count")
    parser.add_argument("--tt-mb", type=int, default=256)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    print("| legal cells k | positions | median nodes | median seconds | slowest seconds |")
    print("| --- | --- | --- | --- | --- |")
    medians = []
    for cells in args.cells:
        nodes, seconds, seed = [], [], 1000 * cells
        while len(nodes) < args.per:
            pos, seed = position("komi", "standard", cells, seed)
            seed += 1
            start = time.perf_counter()
            result = catena.solve(pos, tt_mb=args.tt_mb, threads=args.threads)
            seconds.append(time.perf_counter() - start)
            nodes.append(result.nodes)
        medians.append((cells, statistics.median(nodes)))
        print(f"| {cells} | {len(nodes)} | {statistics.median(nodes):,.0f} | {statistics.median(seconds):.2f} | "
              f"{max(seconds):.2f} |", flush=True)
    xs = [cells - 14 for cells, _ in medians]
    ys = [math.log(nodes) for _, nodes in medians]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / sum((x - mean_x) ** 2 for x in xs)
    print(f"\nfit: NODES_AT_14 = {math.exp(mean_y - slope * mean_x):,.0f}, GROWTH = {math.exp(slope):.2f}")


if __name__ == "__main__":
    main()
