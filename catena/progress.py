"""Progress of the long commands (solve, solved, selfplay, bench, match, analyse, the engine
thinking in ``play``): every bar is drawn by tqdm, on stderr, so stdout keeps only the
results, and only when stderr is a terminal (no carriage returns in a log).  How they
notice Ctrl-C is :mod:`catena._interrupt`'s."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import Any, Iterator, Optional

from tqdm import tqdm

from catena.results import SolveFocus


def bar(total: Optional[float] = None, desc: str = "", unit: str = "it", **options: Any) -> tqdm:
    """A tqdm bar on stderr with the settings every command shares: by default shown only
    when its file is a terminal (tqdm's ``disable=None``; ``disable=False`` always shows it).

    >>> import io
    >>> with bar(3, "games", unit="game", file=io.StringIO()) as games:     # not a terminal
    ...     games.update(3)
    >>> games.disable
    True
    >>> with bar(3, "games", unit="game", file=io.StringIO(), disable=False) as games:
    ...     games.update(3)
    >>> games.n
    3
    """
    options.setdefault("file", sys.stderr)
    options.setdefault("dynamic_ncols", True)
    options.setdefault("disable", None)          # None: only when the file is a terminal
    return tqdm(total=total, desc=desc, unit=unit, **options)


def bounds_text(lower: Optional[float], upper: Optional[float]) -> str:
    """Proven bounds of a value, an unproven side as infinity: the same while a search
    runs and after it stopped.

    >>> bounds_text(None, 2.5), bounds_text(-1, None)
    ('[-inf, +2.5]', '[-1, +inf]')
    """
    low = "-inf" if lower is None else f"{lower:+g}"
    high = "+inf" if upper is None else f"{upper:+g}"
    return f"[{low}, {high}]"


def focus_text(focus: Optional[SolveFocus]) -> str:
    """Where a solve is, for its progress line: the null window and the line near the root.

    >>> import catena
    >>> focus_text(SolveFocus(testing=0.5, line=((catena.Move("D4", size=4), 1, 38),
    ...                                           (catena.Move("A4", size=4), 4, 37))))
    '; testing >= +0.5 at D4 1/38, A4 4/37'
    """
    if focus is None or focus.testing is None:
        return ""
    text = f"; testing >= {focus.testing:+g}"
    if focus.line:
        text += " at " + ", ".join(f"{move} {index}/{count}" for move, index, count in focus.line)
    return text


class SolveProgress:
    """The ``progress`` callback of :func:`catena.solve` as a bar of nodes with the
    proven bounds; counts towards ``max_nodes`` when there is such a limit, and
    names ``max_seconds``.

    >>> import catena
    >>> with SolveProgress(disable=True) as progress:
    ...     result = catena.solve(catena.Position(size=2), progress=progress)
    >>> result.value
    2.5
    """

    def __init__(self, max_nodes: Optional[int] = None, max_seconds: Optional[float] = None,
                 **options: Any):
        desc = "solving" if max_seconds is None else f"solving (at most {max_seconds:g} s)"
        self.bar = bar(max_nodes, desc, unit=" nodes", unit_scale=True, **options)
        self.bar.set_postfix_str("value in " + bounds_text(None, None), refresh=False)

    def __call__(self, nodes: int, seconds: float, lower: Optional[float], upper: Optional[float],
                 focus: Optional[SolveFocus] = None) -> None:
        self.bar.set_postfix_str("value in " + bounds_text(lower, upper) + focus_text(focus), refresh=False)
        self.bar.update(nodes - self.bar.n)

    def __enter__(self) -> "SolveProgress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.close()


@contextlib.contextmanager
def thinking(seconds: Optional[float] = None, desc: str = "the engine is thinking",
             **options: Any) -> Iterator[tqdm]:
    """Show the time spent while the block runs (a bar up to ``seconds`` when that is
    the budget); for searches that release the GIL, as MCTS does, while this thread
    waits.  By default shown only on a terminal, and removed when done.

    >>> with thinking(0.2, disable=True):
    ...     time.sleep(0.05)
    """
    options.setdefault("leave", False)
    shape = "{desc}: {bar} {elapsed} of {total:.0f} s" if seconds else "{desc}: {elapsed}"
    shown = bar(seconds, desc, unit="s", bar_format=shape, **options)
    done = threading.Event()
    start = time.monotonic()

    def tick() -> None:
        while not done.wait(0.1):
            elapsed = time.monotonic() - start
            shown.update(min(elapsed, seconds or elapsed) - shown.n)

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield shown
    finally:
        done.set()
        ticker.join()
        shown.close()
