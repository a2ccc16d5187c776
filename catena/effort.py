"""How much work an exact solve will take, so that hopeless ones are refused up front.

The estimate comes from the side-4 measurements in docs/side4.md (``python
bench/solver_growth.py``): positions with ``k`` legal cells needed a median of about
2,700 solver nodes at k = 14, and the work grew about 1.85 times per extra legal cell
up to k = 30.  It is an order of magnitude, not a promise: other board sides, game
types and scorings follow the same trend only roughly.  Those positions came from
random play, whose lopsided values make null windows close fast; a position of an
even game takes more (the empty side-4 board, 37 legal cells, took more than 2 x 10^10 nodes
against the 4 x 10^9 estimated here), so beyond the measured k = 30 the estimate is
a lower bound and says so.  Square scoring's values spread over hundreds of half points,
so MTD(f) needs more windows: the empty side-3 board took 2.2 times standard scoring's nodes
and the empty side-4 board more than 3.6 times (docs/side4.md), so its estimate is four times
as much.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from catena.errors import TooMuchWorkError

if TYPE_CHECKING:
    from catena._position import Position

NODES_AT_14 = 2_700          # median solver nodes at 14 legal cells (docs/side4.md)
GROWTH = 1.85                # work factor per extra legal cell
SQUARE_FACTOR = 4            # square scoring's work over standard scoring's
NODES_PER_SECOND = 3e6       # solver speed on small boards (docs/benchmarks.md)
REFUSE_SECONDS = 1800.0      # without a limit, refuse a solve estimated to run longer: the
                             # empty side-4 board (estimated 21 minutes) solves in 15 (docs/side4.md)


def legal_cells(pos: Position) -> int:
    """The empty cells a stone may go on now (the button not counted)."""
    return sum(1 for move in pos.legal_moves() if not move.is_button)


def solve_nodes(pos: Position) -> float:
    """Estimated solver nodes to solve ``pos`` exactly.

    >>> import catena
    >>> _power(solve_nodes(catena.Position(size=4)))
    '4 x 10^9'
    """
    factor = SQUARE_FACTOR if pos.scoring == "square" else 1
    return factor * NODES_AT_14 * GROWTH ** (legal_cells(pos) - 14)


def duration(seconds: float) -> str:
    """A rough length of time in words: '40 seconds', '3 hours', '10^6 years'.

    >>> duration(7200), duration(3e13), duration(1e17)
    ('2 hours', '10^6 years', '3 x 10^9 years')
    """
    for unit, length in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 1.5 * length:
            return f"{_magnitude(seconds / length)} {unit}"
    return f"{max(1, round(seconds))} seconds"


def _magnitude(amount: float) -> str:
    return f"{amount:.0f}" if amount < 1e4 else _power(amount)


def _power(amount: float) -> str:
    """'2 x 10^10' below 10^12, '10^25' above (the estimate is no finer)."""
    exponent = math.floor(math.log10(amount))
    mantissa = round(amount / 10 ** exponent)
    if mantissa == 10:
        mantissa, exponent = 1, exponent + 1
    if amount >= 1e12 or mantissa == 1:
        return f"10^{exponent}"
    return f"{mantissa} x 10^{exponent}"


def check_solvable(pos: Position, what: str = "solving this position exactly",
                   limit_hint: str = "give max_seconds or max_nodes to search with a limit and get "
                                     "proven bounds") -> None:
    """Raise TooMuchWorkError, with the estimate, if an unlimited exact solve of
    ``pos`` would run for more than REFUSE_SECONDS."""
    nodes = solve_nodes(pos)
    seconds = nodes / NODES_PER_SECOND
    if seconds <= REFUSE_SECONDS:
        return
    square = f", {SQUARE_FACTOR} times more under square scoring" if pos.scoring == "square" else ""
    # refused estimates all lie beyond the measured range (34 legal cells and more), so lower bounds
    raise TooMuchWorkError(
        f"{what} would take at least of the order of {_power(nodes)} nodes, more than {duration(seconds)} "
        f"at {NODES_PER_SECOND / 1e6:g} million nodes a second ({legal_cells(pos)} legal cells; the work "
        f"grows about {GROWTH:.1f} times per legal cell, faster in an even game{square}, docs/side4.md): {limit_hint}")
