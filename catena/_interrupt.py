"""Ctrl-C, the one home of its handling (no dependency beyond the standard library, so data
code can use it without the progress bars).

:func:`run_interruptibly` runs the core's searches in threads so that Ctrl-C still
reaches Python: a search releases the GIL and runs for seconds or hours; signals are
handled only in the main thread, and only between Python bytecodes.  So the calling
thread starts the work in threads and waits in short steps: Ctrl-C (and a progress
report) runs there, tells the work to stop, and waits until it has.  Used by
``MCTS.search`` and ``solve``.  :func:`noting_ctrl_c` lets a command that runs several
searches notice a Ctrl-C one of them caught; :func:`sigterm_as_ctrl_c` makes SIGTERM
stop a command as Ctrl-C does.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any, Callable, Iterator, Optional, Sequence


def run_interruptibly(tasks: Sequence[Callable[[], Any]], interrupt: Callable[[], None],
                      poll: Optional[Callable[[], None]] = None, interval: float = 0.1) -> list[Any]:
    """Run each of ``tasks`` in a thread of its own and return their results in order.

    While they run, ``poll()`` (if given) is called every ``interval`` seconds.
    Ctrl-C in the waiting thread calls ``interrupt()``, which must make the tasks
    end soon, waits for them (a second Ctrl-C meanwhile changes nothing) and
    returns their results (what they found before the stop); any other
    exception, from ``poll`` say, stops them the same way and is raised again.
    An exception raised by a task is raised here once every task has ended.  No
    task is ever left running behind the caller's back, whose C state the tasks
    use.

    >>> run_interruptibly([lambda: 1, lambda: 2], interrupt=lambda: None)
    [1, 2]
    """
    results: list[Any] = [None] * len(tasks)
    failures: list[BaseException] = []
    # Each thread claims a task when it begins, so the waiting thread never needs to know which
    # threads have begun: a Ctrl-C can land inside Thread.start, after the thread exists but
    # before its start is counted, and counting there let this return while that task still
    # ran on the caller's C state.  Once stopped, a thread that begins late claims nothing.
    claimed = [0]                                # tasks claimed by a thread
    running = [0]                                # claimed tasks not yet ended
    closed = [False]                             # no more claims (stopped)
    guard = threading.Lock()
    finished = threading.Event()
    if not tasks:
        finished.set()

    def settle() -> None:                        # with guard held
        if running[0] == 0 and (closed[0] or claimed[0] == len(tasks)):
            finished.set()

    def run() -> None:
        with guard:
            if closed[0] or claimed[0] == len(tasks):
                return
            index = claimed[0]
            claimed[0] += 1
            running[0] += 1
        try:
            results[index] = tasks[index]()
        except BaseException as exc:             # handed to the waiting thread below
            failures.append(exc)
        finally:
            with guard:
                running[0] -= 1
                settle()

    def stop() -> None:
        with guard:
            closed[0] = True
        interrupt()
        with guard:
            settle()
        while True:
            try:
                finished.wait()
                return
            except KeyboardInterrupt:            # a second Ctrl-C while the tasks end (or `timeout`'s
                interrupt()                      # SIGTERM, sent twice): they end in moments anyway

    # an Event, not Thread.join: an interrupted join may report a live thread as ended
    try:
        for _ in range(len(tasks)):
            threading.Thread(target=run, daemon=True).start()
        while not finished.wait(interval):
            if poll is not None:
                poll()
    except KeyboardInterrupt:                    # Ctrl-C: stop cleanly, return what was found
        stop()
    except BaseException:                        # e.g. the progress callback failed
        stop()
        raise
    finally:
        if not finished.is_set():                # a second Ctrl-C inside the handlers
            interrupt()
    if failures:
        raise failures[0]
    return results


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
