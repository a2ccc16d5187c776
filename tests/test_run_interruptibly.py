"""catena._interrupt.run_interruptibly: the thread-and-Ctrl-C loop of MCTS.search and
solve (tests/test_interrupt.py sends real Ctrl-C to both)."""

import signal
import threading
import time

import pytest

from catena._interrupt import run_interruptibly


class Work:
    """Tasks that run until told to stop, counting how many are running."""

    def __init__(self):
        self.stop = threading.Event()
        self.running = 0
        self.most = 0
        self.guard = threading.Lock()

    def task(self, value):
        def run():
            with self.guard:
                self.running += 1
                self.most = max(self.most, self.running)
            self.stop.wait(10)
            with self.guard:
                self.running -= 1
            return value
        return run


def test_results_come_back_in_order_from_parallel_threads():
    work = Work()
    calls = []

    def poll():                                  # the tasks all run at once: let them end
        calls.append(1)
        if work.most == 3:
            work.stop.set()

    assert run_interruptibly([work.task(i) for i in range(3)], work.stop.set, poll, 0.01) == [0, 1, 2]
    assert work.most == 3 and work.running == 0 and calls


def test_ctrl_c_stops_the_tasks_and_returns_what_they_found():
    work = Work()

    def poll():
        if work.most == 2:
            raise KeyboardInterrupt

    assert run_interruptibly([work.task("a"), work.task("b")], work.stop.set, poll, 0.01) == ["a", "b"]
    assert work.stop.is_set() and work.running == 0


def test_a_second_ctrl_c_while_the_tasks_end_still_returns_what_they_found():
    """``timeout`` sends SIGTERM to the process and to its group, which catena turns into two
    Ctrl-C in a row: the second one, arriving while the stopped tasks end, must not cut the
    wait short (a solve would then lose its checkpoint)."""
    work = Work()
    finishing = threading.Event()

    def slow_task():
        work.stop.wait(10)
        finishing.set()
        time.sleep(0.3)                          # ends a little after being told to stop
        return "slow"

    def poll():
        raise KeyboardInterrupt

    def second_ctrl_c():
        finishing.wait(10)
        signal.raise_signal(signal.SIGINT)        # the main thread is waiting in stop() now

    sender = threading.Thread(target=second_ctrl_c)
    sender.start()
    try:
        results = run_interruptibly([slow_task, work.task("b")], work.stop.set, poll, 0.01)
    except KeyboardInterrupt:
        pytest.fail("the second Ctrl-C escaped while the stopped tasks were ending")
    finally:
        sender.join()
    assert results == ["slow", "b"]


def test_a_failing_poll_stops_the_tasks_and_is_raised():
    work = Work()

    def poll():
        raise ZeroDivisionError("progress callback failed")

    with pytest.raises(ZeroDivisionError, match="progress callback"):
        run_interruptibly([work.task(1)], work.stop.set, poll, 0.01)
    assert work.stop.is_set() and work.running == 0


def test_a_failing_task_is_raised_once_all_have_ended():
    work = Work()

    def broken():
        work.stop.set()                          # the other task ends too
        raise ValueError("task failed")

    with pytest.raises(ValueError, match="task failed"):
        run_interruptibly([work.task(1), broken], work.stop.set, interval=0.01)
    assert work.running == 0


def test_no_tasks():
    assert run_interruptibly([], lambda: None) == []


def test_a_ctrl_c_while_the_threads_start_never_returns_before_a_begun_task_ends():
    """A Ctrl-C landing inside Thread.start (the thread exists, its start not yet counted) made
    this return while that task still ran on the caller's C state: solve then freed the table
    under a running save (a crash).  Tasks that send the Ctrl-C as they begin, 30 times."""
    import os

    for _ in range(30):
        begun, ended = [], []

        def task(begun=begun, ended=ended):
            begun.append(1)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.02)
            ended.append(1)

        run_interruptibly([task, task, task], lambda: None, interval=0.01)
        assert len(ended) == len(begun) >= 1
