"""Run the core's searches in threads so that Ctrl-C still reaches Python.

A search releases the GIL and runs for seconds or hours; signals are handled only
in the main thread, and only between Python bytecodes.  So the calling thread
starts the work in threads and waits in short steps: Ctrl-C (and a progress
report) runs there, tells the work to stop, and waits until it has.  Used by
``MCTS.search`` and ``solve``.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional, Sequence


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
