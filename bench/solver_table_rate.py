"""Steady node rate of the solver on one thread by table size (docs/side4.md's table rows).

    python bench/solver_table_rate.py TT_MB SECONDS [NEAR_MAX]

Solves the empty side-4 board for SECONDS of wall time and prints the nodes per CPU second
between the first progress report past 3 million nodes (the table is then being used, its
pages faulted in) and the end.  CPU seconds, because on a shared machine wall time mostly
measures the others.  NEAR_MAX (-1: no near-leaf table) is ``SolverParams(near_max=)``.
Run with PYTHONPATH set to the build.
"""

import sys
import time

import catena

mb, wall = int(sys.argv[1]), float(sys.argv[2])
options = {"threads": 1} if "threads" in catena.solve.__doc__ else {}
if len(sys.argv) > 3:
    options["params"] = catena._solver.SolverParams(near_max=int(sys.argv[3]))
marks = []
start_cpu = time.process_time()


def progress(nodes, seconds, lower, upper):
    marks.append((nodes, time.process_time()))


result = catena.solve(catena.Position(4), tt_mb=mb, max_seconds=wall, progress=progress, **options)
end = (result.nodes, time.process_time())
first = next((m for m in marks if m[0] > 3_000_000), None)
rate = (end[0] - first[0]) / (end[1] - first[1]) / 1e6 if first and end[1] > first[1] else float("nan")
print(f"tt_mb={mb} {' '.join(sys.argv[3:])}: {result.nodes:,} nodes in {end[1] - start_cpu:.1f} CPU s; "
      f"steady {rate:.2f} M nodes/CPU-s")
