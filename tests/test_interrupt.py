"""Ctrl-C ends every long computation cleanly, and so does SIGTERM (what schedulers and
``kill`` send; a job a shell starts in the background ignores SIGINT):

* catena._interrupt.run_interruptibly, the thread-and-Ctrl-C loop of MCTS.search and solve;
* the library's searches return what they found, and the objects stay usable;
* every command stops with exit status 130 and one line, never a traceback, keeping
  what it can (bounds, a checkpoint, the game being played).

Ctrl-C in one subsystem's own machinery is tested with it: Ray start-up and workers
(test_distributed.py), checkpoints (test_checkpoint_faults.py), matches (test_match.py),
the web page (test_web.py) and self-play data (test_training.py)."""

import _thread
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import catena
from catena._interrupt import run_interruptibly

from conftest import TerminalChild, child_env

CATENA = [sys.executable, "-m", "catena"]


# ---------------------------------------------------------------- run_interruptibly

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


# ---------------------------------------------------------------- the library's searches

def _interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_ctrl_c_stops_mcts_and_returns_its_result():
    mcts = catena.MCTS(seed=1)
    pos = catena.Position(size=8)
    _interrupt_after(0.5)
    result = mcts.search(pos, seconds=60)
    assert 0.3 < result.seconds < 10
    assert result.iterations == sum(result.visits.values()) > 0
    assert result.best_move in pos.legal_moves()
    again = mcts.search(pos, iterations=100)          # the tree is reused and still sound
    assert again.iterations == 100
    assert sum(again.visits.values()) == result.iterations + 100


def test_ctrl_c_stops_the_solver_with_valid_bounds():
    pos = catena.Position(size=4)
    _interrupt_after(0.5)
    result = catena.solve(pos, tt_mb=16, max_seconds=600)
    assert not result.solved and result.stopped_by == "interrupt" and result.nodes > 0
    assert result.lower is None or result.upper is None or result.lower <= result.upper
    assert catena.solve(catena.Position(size=2)).value == 2.5


def test_ctrl_c_while_the_line_is_walked_keeps_the_proven_value(monkeypatch, capsys):
    """After a solve, its principal variation is walked one null window a move (minutes near
    the root of a long solve); Ctrl-C there raised KeyboardInterrupt out of solve(), losing the
    value the hours before had proven, and leaked the walk's position."""
    from catena import solver
    from catena.__main__ import INTERRUPTED, _print_solved

    pos = catena.Position.from_moves(["B2"], size=3)
    expected = catena.solve(pos, threads=1)
    walking = []

    def ctrl_c_in_the_walk(tasks, interrupt, *args, **kwargs):
        if getattr(getattr(tasks[0], "func", None), "__name__", "") == "principal_variation":
            walking.append(True)
            interrupt()                         # as the waiting thread does on Ctrl-C
        return run_interruptibly(tasks, interrupt, *args, **kwargs)

    monkeypatch.setattr(solver, "run_interruptibly", ctrl_c_in_the_walk)
    result = catena.solve(pos, threads=1)
    assert walking and result.solved and result.stopped_by is None
    assert (result.value, result.winner) == (expected.value, expected.winner)
    assert result.pv == () and result.best_move is None and expected.pv    # the walk stopped at once
    assert _print_solved(result, pos) == INTERRUPTED
    out = capsys.readouterr().out
    assert f"value {expected.value:+g}" in out and "best move" not in out
    assert "principal variation (its walk stopped by Ctrl-C): \n" in out
    monkeypatch.undo()
    assert catena.solve(pos, threads=1).pv == expected.pv          # nothing left behind


INTERRUPTED_CHILD = """
import sys, catena
which, size = sys.argv[1], int(sys.argv[2])
pos = catena.Position(size=size)
pos.push(catena.cells(size)[size])
def observed(pos):
    return (pos.zobrist, pos.ply, [str(m) for m in pos.legal_moves()], pos.to_array().tolist())
before = observed(pos)
print("ready", flush=True)
try:
    if which == "perft":
        catena.perft(pos, 9)                       # hours of work
    else:
        catena.random_playouts(pos, 10 ** 12, seed=1)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
assert observed(pos) == before and pos._consistency_errors() == []
pos.push(pos.legal_moves()[0]); pos.pop()
print("unchanged", flush=True)
"""


@pytest.mark.parametrize("which", ["perft", "playouts"])
@pytest.mark.parametrize("size", [3, 10])
def test_ctrl_c_stops_perft_and_playouts_promptly(which, size):
    """SIGINT to a child deep in perft or random_playouts: it stops within seconds (the
    check runs every few tens of milliseconds; the bound here is loose for busy machines)
    and the position is unchanged."""
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED_CHILD, which, str(size)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
    deadline = threading.Timer(60, child.kill)          # a child that ignores Ctrl-C fails, not hangs
    deadline.start()
    try:
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        first = child.stdout.readline()
        latency = time.monotonic() - sent
        second = child.stdout.readline()        # (communicate() would miss lines readline buffered)
        child.wait()
        err = child.stderr.read()
    finally:
        deadline.cancel()
        if child.poll() is None:
            child.kill()
            child.wait()
    assert first == "interrupted\n", f"no clean stop after Ctrl-C: {first!r} {err}"
    assert second == "unchanged\n" and child.returncode == 0, err
    assert latency < 5.0, f"Ctrl-C took {latency:.2f} s to stop {which}"


# ---------------------------------------------------------------- the commands: exit status 130 and one line

def _interrupt(child, after, wait=0.5):
    child.read_until(after)
    time.sleep(wait)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, shown = child.finish()
    return out, shown, time.monotonic() - sent


def _stop_lines(text):
    return [line for line in text.splitlines() if "stopped by Ctrl-C" in line]


def test_ctrl_c_stops_perft_without_a_traceback(tmp_path):
    child = TerminalChild(CATENA + ["perft", "--size", "6", "--depth", "9"], tmp_path, stdout_on_terminal=True)
    out, shown, _ = _interrupt(child, "perft(3)")
    assert child.returncode == 130, shown
    assert "Traceback" not in shown and "KeyboardInterrupt" not in shown
    assert _stop_lines(shown) == ["catena perft: stopped by Ctrl-C"], shown


def test_ctrl_c_stops_the_demo(tmp_path):
    child = TerminalChild(CATENA + ["demo", "--iterations", "100000000"], tmp_path, stdout_on_terminal=True)
    out, shown, latency = _interrupt(child, "Catena demo", wait=1.0)
    assert child.returncode == 130 and "Traceback" not in shown, shown
    assert len(_stop_lines(shown)) == 1 and "Outcome" not in shown
    assert latency < 30


def test_ctrl_c_during_play_saves_the_game_to_a_named_file(tmp_path):
    """Without --save, Ctrl-C while the engine thinks saves the game and names the file."""
    child = TerminalChild(CATENA + ["play", "--size", "4", "--seconds", "600"], tmp_path,
                          stdout_on_terminal=True, stdin=subprocess.PIPE)
    child.read_until("Choose the komi")
    child.proc.stdin.write(b"3\n")
    child.proc.stdin.flush()
    out, shown, latency = _interrupt(child, "thinking")
    assert child.returncode == 130 and "Traceback" not in shown, shown
    (line,) = _stop_lines(shown)
    saved = [name for name in os.listdir(tmp_path) if name.endswith(".catena")]
    assert len(saved) == 1 and line == f"stopped by Ctrl-C: the game is saved to {saved[0]}", shown
    record = catena.read_game((tmp_path / saved[0]).read_text())
    assert record.actions == [("komi", 3)]
    assert latency < 30


def test_ctrl_c_stops_gtp_with_one_line(tmp_path):
    child = TerminalChild(CATENA + ["gtp"], tmp_path, stdout_on_terminal=True, stdin=subprocess.PIPE)
    child.proc.stdin.write(b"name\n")
    child.proc.stdin.flush()
    out, shown, _ = _interrupt(child, "= catena")
    assert child.returncode == 130 and "Traceback" not in shown, shown
    assert _stop_lines(shown) == ["catena gtp: stopped by Ctrl-C"]


def test_ctrl_c_stops_bench(tmp_path):
    child = TerminalChild(CATENA + ["bench", "--quick"], tmp_path)
    out, shown, _ = _interrupt(child, "bench:")
    assert child.returncode == 130 and "Traceback" not in shown, shown
    assert out == "stopped by Ctrl-C\n"


@pytest.mark.parametrize("phase", ["search", "solving"])
def test_ctrl_c_stops_analyse_exact_at_once_in_every_phase(tmp_path, phase):
    """Issue 47: the search took the interrupt and analyse went on to solve every move.
    Here each move takes the solver seconds, all of them a minute or more."""
    budget = ["--seconds", "600"] if phase == "search" else ["--iterations", "1000"]
    child = TerminalChild(CATENA + ["analyse", "--size", "4", "D4", "A1", "A2", "E3", "A3", "E6", "--exact",
                                    "--seed", "1"] + budget, tmp_path, stdout_on_terminal=True)
    # the solving's bar shows the nodes of the move being solved
    out, shown, latency = _interrupt(child, "to move" if phase == "search" else "nodes on this one", wait=1.0)
    assert child.returncode == 130 and "Traceback" not in shown, shown
    (line,) = _stop_lines(shown)
    assert re.fullmatch(r"stopped by Ctrl-C after [\d.]+ s: [\d,]+ search iterations?, \d+ of 30 moves proven",
                        line), shown
    assert "move     visits" not in shown                 # no table of a half-done analysis
    assert latency < 20


def test_ctrl_c_stops_solve_with_the_bounds_shown_as_while_running(tmp_path):
    child = TerminalChild(CATENA + ["solve", "--size", "4", "--seconds", "120"], tmp_path)
    child.read_until("value in [")
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    out, shown = child.finish()
    assert child.returncode == 130, shown
    assert "Traceback" not in shown
    assert "unsolved (stopped by interrupt): value in [" in out and "None" not in out


def test_sigterm_stops_a_background_solve_as_ctrl_c_does_and_saves_its_checkpoint(tmp_path):
    """A job a shell starts in the background ignores SIGINT; schedulers and ``kill`` send SIGTERM.
    The solve stops with its bounds and writes its checkpoint, which the same command resumes."""
    ignore_ctrl_c = lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)     # noqa: E731
    child = TerminalChild(CATENA + ["solve", "--size", "4", "--seconds", "120", "--tt-mb", "16",
                                    "--checkpoint", "run.ckpt"], tmp_path, preexec_fn=ignore_ctrl_c)
    child.read_until("value in [")
    time.sleep(0.5)
    assert not (tmp_path / "run.ckpt").exists()          # nothing saved yet: the first save is the stop's
    child.send_signal(signal.SIGTERM)
    out, shown = child.finish()
    assert child.returncode == 130 and "Traceback" not in shown, shown
    assert "unsolved (stopped by interrupt): value in [" in out
    assert (tmp_path / "run.ckpt").stat().st_size > 0


def test_ctrl_c_stops_selfplay_between_moves(tmp_path):
    child = TerminalChild(CATENA + ["selfplay", "--size", "6", "--games", "50", "--iterations", "20000",
                                    "--out", "games"], tmp_path)
    child.read_until("selfplay:")
    time.sleep(1.0)
    start = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, shown = child.finish()
    assert time.monotonic() - start < 10
    assert child.returncode == 130 and "Traceback" not in shown, shown
    assert "stopped by Ctrl-C after 0 of 50 games" in out


def test_ctrl_c_during_solved_writes_nothing(tmp_path):
    child = TerminalChild(CATENA + ["solved", "--sizes", "1", "2", "3", "3", "3", "--out", "values.md"], tmp_path)
    child.read_until("side 3")
    child.send_signal(signal.SIGINT)
    out, shown = child.finish()
    assert child.returncode == 130 and "Traceback" not in shown, shown
    assert out == "stopped by Ctrl-C: values.md not written\n" and not (tmp_path / "values.md").exists()


def test_ctrl_c_stops_train_prior_with_one_line(tmp_path):
    child = TerminalChild(CATENA + ["train-prior", "--positions", "100000"], tmp_path)
    child.read_until("positions")
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    out, shown = child.finish()
    assert child.returncode == 130 and "Traceback" not in shown, shown
    assert [line for line in shown.splitlines() if "Ctrl-C" in line] == ["catena train-prior: stopped by Ctrl-C"]
    assert not list(tmp_path.iterdir())
