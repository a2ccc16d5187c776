"""Print the benchmark table: ``python bench/report.py [--quick] [--no-callgrind]``
(the same as ``python -m catena bench``)."""

import sys

from catena.__main__ import main

if __name__ == "__main__":
    sys.exit(main(["bench"] + sys.argv[1:]))
