"""Machine instructions per placement in random playouts, counted by callgrind.

Runs the same script twice under ``valgrind --tool=callgrind`` with two numbers
of playouts and divides the difference in instructions by the difference in
placements, so start-up and import costs cancel.  Instruction counts do not move
with machine noise.

    python bench/callgrind.py [--size 6] [--playouts 2000]
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


def _run(size: int, playouts: int, workdir: str) -> tuple[int, int]:
    out_file = os.path.join(workdir, f"callgrind.{playouts}.out")
    script = os.path.join(workdir, "playouts.py")
    with open(script, "w") as handle:
        handle.write(SCRIPT)
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
         sys.executable, script, str(size), str(playouts)],
        capture_output=True, text=True, check=True)
    placements = int(re.search(r"PLACEMENTS (\d+)", proc.stdout).group(1))
    instructions = int(re.search(r"Collected : (\d+)", proc.stderr).group(1))
    return instructions, placements


def instructions_per_placement(size: int = 6, playouts: int = 2000) -> float | None:
    """Instructions per placement, or None when valgrind is not installed."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as workdir:
        low_instr, low_placed = _run(size, playouts // 10, workdir)
        high_instr, high_placed = _run(size, playouts, workdir)
    return (high_instr - low_instr) / (high_placed - low_placed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--playouts", type=int, default=2000)
    args = parser.parse_args()
    result = instructions_per_placement(args.size, args.playouts)
    if result is None:
        print("valgrind is not installed")
        return 1
    print(f"side {args.size}: {result:.0f} instructions per placement")
    return 0


if __name__ == "__main__":
    sys.exit(main())
