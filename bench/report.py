"""Print the benchmark table with valgrind's instruction counts:
``python bench/report.py [--quick] [--no-callgrind]``.

The table is ``python -m catena bench``'s; the rows of instructions and branch
mispredicts per placement come from bench/callgrind.py, developer tooling kept
out of the installed package.
"""

import argparse
import sys

from catena.benchmark import report

from callgrind import placement_costs  # bench/callgrind.py: the script's folder is on the path


def main() -> int:
    parser = argparse.ArgumentParser(description="the benchmark table with valgrind's instruction counts")
    parser.add_argument("--quick", action="store_true", help="fewer games: a smoke test")
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    args = parser.parse_args()
    try:
        report(quick=args.quick, callgrind=None if args.no_callgrind else placement_costs)
    except KeyboardInterrupt:
        print("stopped by Ctrl-C")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
