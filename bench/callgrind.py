"""Instructions per placement by callgrind: ``python bench/callgrind.py [--size 6]``."""

import sys

from catena._callgrind import main

if __name__ == "__main__":
    sys.exit(main())
