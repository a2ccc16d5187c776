"""Wall-time speed-up of catena.distributed.solve with 2 workers against 1, on a local Ray.

    python bench/distributed_speedup.py [--cells 28 30] [--per 2] [--tt-mb 256] [--depth D] [--threads K]
                                        [--repeat N] [--check] [--only SEED ...] [--windows]

Positions come from seeded random play on side 4 until ``k`` legal cells remain (the method of
bench/solver_side4.py, komi game, standard and square scoring).  Each is solved with 1 worker,
then with 2 (a fresh Ray of 2 CPUs for the whole run, the worker tables fresh for each solve;
``--threads 2``: the two workers search one unit together, default a unit each);
the values must agree (``--check`` also compares catena.solve's).  Wall times on the 2-core machine
vary by 20-40% between runs of one solve: ``--repeat N`` runs both N times, alternating, and
compares the medians.  Prints a Markdown table (docs/distributed.md), where the searchers' time
went (searching units that answered, searching units then cancelled, idle), and the unit counts and
times behind the 100-worker projection.
Run it on an otherwise idle machine: the ratio is wall time.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import catena  # noqa: E402
from catena import distributed  # noqa: E402

from solver_side4 import position  # noqa: E402  (bench/: the script's folder is on the path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, nargs="+", default=[28, 30])
    parser.add_argument("--per", type=int, default=2, help="positions per cell count and scoring")
    parser.add_argument("--scorings", nargs="+", default=["standard", "square"])
    parser.add_argument("--tt-mb", type=float, default=256)
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="solves of each kind per position (medians compared)")
    parser.add_argument("--check", action="store_true", help="also solve with catena.solve and compare")
    parser.add_argument("--threads", type=int, default=1, help="search threads a unit (2: both workers on one)")
    parser.add_argument("--only", type=int, nargs="+", default=None, help="solve only the positions of these seeds")
    parser.add_argument("--windows", action="store_true",
                        help="also print each solve's null windows: beta, answer, seconds, answers")
    args = parser.parse_args()
    import ray

    os.environ.setdefault(distributed.NICENESS, "0")           # as distributed.solve's own local Ray
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    rows, ratios, all_units, all_seconds, shares = [], [], 0, [], []
    for cells in args.cells:
        for scoring in args.scorings:
            seed = 1000 * cells
            for _ in range(args.per):
                pos, seed = position("komi", scoring, cells, seed)
                label = f"komi/{scoring}/{cells}@{seed}"
                seed += 1
                if args.only is not None and seed - 1 not in args.only:
                    continue
                runs = {1: [], 2: []}
                for _ in range(args.repeat):
                    for workers in (1, 2):
                        stats = {}
                        start = time.perf_counter()
                        result = distributed.solve(pos, workers=workers, tt_mb=args.tt_mb, depth=args.depth,
                                                   threads=args.threads, stats=stats)
                        runs[workers].append((result, time.perf_counter() - start, stats))
                results = [result for kind in runs.values() for result, _, _ in kind]
                assert all(r.solved and r.lower == results[0].lower for r in results), label
                if args.check:
                    expected = catena.solve(pos, tt_mb=args.tt_mb, threads=1)
                    assert expected.lower == results[0].lower, (label, expected, results[0])
                one, two = (statistics.median(seconds for _, seconds, _ in runs[w]) for w in (1, 2))
                ratios.append(one / two)
                nodes = [statistics.median(solve_stats["nodes"] for _, _, solve_stats in runs[w]) / 1e9
                         for w in (1, 2)]
                two_workers = runs[2][-1][2]
                all_units += two_workers["answers"]
                all_seconds += two_workers["unit_seconds"]
                times = "" if args.repeat == 1 else " (" + "; ".join(
                    ", ".join(f"{seconds:.0f}" for _, seconds, _ in runs[w]) for w in (1, 2)) + ")"
                rows.append(f"| {label} | {results[0].lower:g} | {two_workers['depth']} | {two_workers['units']} | "
                            f"{runs[1][-1][2]['answers']} / {two_workers['answers']} | "
                            f"{nodes[0]:.2f} / {nodes[1]:.2f} | {one:.1f} | {two:.1f} | {one / two:.2f}x{times} |")
                print(rows[-1], flush=True)
                shares.append(f"{label}: " + "; ".join(f"{w} w {searcher_time(solve_stats)}"
                                                        for w in (1, 2) for _, _, solve_stats in runs[w]))
                if args.windows:
                    for w in (1, 2):
                        for _, seconds, solve_stats in runs[w]:
                            print(f"  {label} {w} w {seconds:.1f} s: {window_costs(solve_stats)}", flush=True)
    print()
    print("| position | value | depth | units | answers 1 w / 2 w | G nodes 1 w / 2 w | 1 worker s | 2 workers s "
          "| speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print(f"\ngeometric mean speed-up {statistics.geometric_mean(ratios):.2f}x, least {min(ratios):.2f}x "
          f"over {len(ratios)} positions")
    print("\nsearcher time (answered / cancelled / idle), each solve:")
    print("\n".join(shares))
    print(f"2-worker answers: {all_units}, unit seconds: median {statistics.median(all_seconds):.3f}, "
          f"mean {statistics.mean(all_seconds):.3f}, max {max(all_seconds):.2f}")


def window_costs(stats):
    """Each null window of a solve: ``>=beta answer seconds/answers (cancelled seconds)``, in the order
    asked."""
    return ", ".join(f">={w['beta']:g} {w['answer']} {w['seconds']:.1f}/{w['answers']} ({w['cancelled_seconds']:.1f})"
                     for w in stats["windows"])


def searcher_time(stats):
    """Shares of the searchers' wall time: searching units that answered, searching units that were
    then cancelled (by why: a cutoff, a split, or needed work preempting speculation), and idle
    (waiting for the driver, or for want of work)."""
    total = stats["searchers"] * stats["seconds"]
    answered, cancelled = sum(stats["unit_seconds"]), stats["cancelled_seconds"]
    why = ", ".join(f"{reason} {seconds / total:.0%}" for reason, seconds in sorted(stats["cancelled_by"].items()))
    return (f"{answered / total:.0%} / {cancelled / total:.0%} ({why}) / "
            f"{1 - (answered + cancelled) / total:.0%}")


if __name__ == "__main__":
    main()
