"""Progress of the long commands (solve, solved, selfplay, bench, match, analyse, the engine
thinking in ``play``): every bar is drawn by tqdm, on stderr, so stdout keeps only the
results, and only when stderr is a terminal (no carriage returns in a log).
Also how those commands notice Ctrl-C when a search has caught it (:func:`noting_ctrl_c`), and
SIGTERM made to stop them as Ctrl-C does (:func:`sigterm_as_ctrl_c`)."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterator, Optional

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


class Interrupted:
    """Whether Ctrl-C came while :func:`noting_ctrl_c` was active."""

    def __init__(self) -> None:
        self.happened = False


@contextlib.contextmanager
def noting_ctrl_c(on_interrupt: Optional[Callable[[], object]] = None) -> Iterator[Interrupted]:
    """Note Ctrl-C (and call ``on_interrupt``) before raising KeyboardInterrupt as usual.

    MCTS and the solver end a search cleanly on Ctrl-C and return what they found,
    so a command running several searches would go on; it checks ``happened``
    instead.  Nested, an outer one notes the Ctrl-C too (its handler runs after the
    inner one's).  Only in the main thread (elsewhere signals do not arrive anyway).

    >>> with noting_ctrl_c() as ctrl_c:
    ...     pass
    >>> ctrl_c.happened
    False
    """
    noted = Interrupted()
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def interrupted(signum: int, frame: Any) -> None:
        noted.happened = True
        if on_interrupt is not None:
            on_interrupt()
        if callable(previous) and previous is not signal.default_int_handler:
            previous(signum, frame)              # an outer noting_ctrl_c: it notes and raises
        raise KeyboardInterrupt

    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, interrupted)
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """While active, SIGTERM (sent by ``kill``, ``timeout`` and cluster schedulers) does what
    Ctrl-C does: a solve saves its checkpoint, a command reports what it finished.

    A job started in the background by a shell ignores SIGINT, so without this it
    could only be killed, losing the work since its last save.  The Ctrl-C handler
    in force when the signal comes runs (:func:`noting_ctrl_c`'s, say), or
    KeyboardInterrupt is raised if SIGINT is ignored.  Only in the main thread.

    >>> with sigterm_as_ctrl_c():
    ...     pass
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum: int, frame: Any) -> None:
        ctrl_c = signal.getsignal(signal.SIGINT)
        if callable(ctrl_c):
            ctrl_c(signal.SIGINT, frame)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
