"""What a shrunk checkpoint costs a resumed solve, in nodes (docs/side4.md).

    python bench/shrunk_checkpoint.py [--cells 28] [--seeds 28000 28001] [--stops 0.5 0.9]
                                      [--min-nodes 4096 65536 1048576] [--tt-mb 256]

Each side-4 position (seeded random play until ``k`` legal cells remain, as in
bench/solver_side4.py) is solved from an empty table, then solved again with a checkpoint and
stopped after a fraction of the fresh solve's nodes.  The solve is resumed from that checkpoint
as it is and from copies shrunk by ``catena.solver.shrink_checkpoint``; the table gives each
resume's nodes as a share of the fresh solve's (a perfect resume needs ``1 - stop``).  One
thread, so node counts repeat from run to run and a busy machine does not change them.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import catena  # noqa: E402
from catena.solver import shrink_checkpoint  # noqa: E402

from solver_side4 import position  # noqa: E402  (bench/: the script's folder is on the path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=28)
    parser.add_argument("--seeds", type=int, nargs="+", default=[28000, 28001])
    parser.add_argument("--stops", type=float, nargs="+", default=[0.5, 0.9])
    parser.add_argument("--min-nodes", type=int, nargs="+", default=[1 << 12, 1 << 16, 1 << 20])
    parser.add_argument("--tt-mb", type=int, default=256)
    args = parser.parse_args()
    header = " | ".join(["whole file"] + [f">= {n:,} nodes" for n in args.min_nodes])
    print(f"| position | nodes fresh | stop | {header} |")
    print("| --- | --- | --- |" + " --- |" * (1 + len(args.min_nodes)))
    with tempfile.TemporaryDirectory() as folder:
        for seed in args.seeds:
            pos, seed = position("komi", "standard", args.cells, seed)
            fresh = catena.solve(pos, tt_mb=args.tt_mb, threads=1)
            for stop in args.stops:
                whole = os.path.join(folder, "whole.ckpt")
                if os.path.exists(whole):
                    os.remove(whole)
                catena.solve(pos, tt_mb=args.tt_mb, threads=1, max_nodes=int(fresh.nodes * stop),
                             checkpoint=whole)
                cells = []
                for min_nodes in [1] + args.min_nodes:
                    copy = os.path.join(folder, "copy.ckpt")     # resuming writes to its file: a copy each
                    kept, _ = shrink_checkpoint(whole, copy, min_nodes)
                    resumed = catena.solve(pos, tt_mb=args.tt_mb, threads=1, checkpoint=copy)
                    assert resumed.value == fresh.value, (seed, stop, min_nodes)
                    cells.append(f"{resumed.nodes / fresh.nodes:.2f} ({kept:,} entries)")
                print(f"| komi/standard/{args.cells}@{seed} | {fresh.nodes / 1e6:.1f} M | {stop:g} | "
                      + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
