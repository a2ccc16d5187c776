"""Machine instructions and simulated branch mispredicts per placement in random
playouts, counted by valgrind.

Runs the same script twice under ``valgrind --tool=cachegrind --branch-sim=yes``
with two numbers of playouts and divides the differences in instructions and
mispredicts by the difference in placements, so start-up and import costs cancel.
The fixed costs still vary from run to run (measured: 2,000 side-6 playouts gave 408
and 426 where 20,000 gave 437 and 439), so the default is 20,000 playouts, which keep
the figure within a few instructions.
These counts do not move with machine noise (callgrind counts the same
instructions; cachegrind also simulates a branch predictor).  Developer tooling,
so it lives in bench/ and not in the package; ``python bench/report.py`` adds its
rows to the benchmark table.

    python bench/callgrind.py [--size 6] [--playouts 20000]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SCRIPT = """
import sys, catena
size, n = int(sys.argv[1]), int(sys.argv[2])
stats = catena.random_playouts(catena.Position(size=size), n, seed=12345)
print("PLACEMENTS", stats.placements)
"""


def _count(label: str, text: str) -> int:
    return int(re.search(label + r":\s+([\d,]+)", text).group(1).replace(",", ""))


def _run(size: int, playouts: int, workdir: str) -> tuple[int, int, int]:
    script = os.path.join(workdir, "playouts.py")
    with open(script, "w") as handle:
        handle.write(SCRIPT)
    proc = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
         f"--cachegrind-out-file={os.path.join(workdir, 'cachegrind.out')}",
         sys.executable, script, str(size), str(playouts)],
        capture_output=True, text=True, check=True,
        env=dict(os.environ, PYTHONHASHSEED="0"))     # the same start-up work in both runs
    placements = int(re.search(r"PLACEMENTS (\d+)", proc.stdout).group(1))
    return _count("I +refs", proc.stderr), _count("Mispredicts", proc.stderr), placements


def placement_costs(size: int = 6, playouts: int = 20_000) -> dict[str, float] | None:
    """Instructions and simulated branch mispredicts per placement, or None when
    valgrind is not installed."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as workdir:
        low = _run(size, playouts // 10, workdir)
        high = _run(size, playouts, workdir)
    placed = high[2] - low[2]
    return {"instructions": (high[0] - low[0]) / placed, "mispredicts": (high[1] - low[1]) / placed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--playouts", type=int, default=20_000)
    args = parser.parse_args()
    costs = placement_costs(args.size, args.playouts)
    if costs is None:
        print("valgrind is not installed")
        return 1
    print(f"side {args.size}: {costs['instructions']:.0f} instructions and "
          f"{costs['mispredicts']:.2f} simulated branch mispredicts per placement")
    return 0


if __name__ == "__main__":
    sys.exit(main())
