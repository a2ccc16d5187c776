"""Shared test set-up, the exhaustive minimax several test files check results with, and how
they wait for a child process's output.

Test modules import the helpers with ``from conftest import ...`` (pytest puts this
folder on the path).  The rules themselves are recomputed by tests/reference.py.
"""

import os
import signal
import threading

import pytest

# Tests send Ctrl-C (SIGINT) to child processes.  A test run started in the background of a
# non-interactive shell inherits SIGINT as ignored, and so would every child it starts, which
# would then never see the Ctrl-C.  A handler (unlike "ignored") is reset to the default in a
# child at exec, so installing Python's own handler here gives every child a normal Ctrl-C.
signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child_env():
    """The environment of a child Python that must import this checkout's catena (the one
    under test), whatever is installed."""
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=ROOT if not path else ROOT + os.pathsep + path)


_WINNER_SIGN = {"black": 1, "white": -1, None: 0}


# the rules the research adapters' tests play (tests/test_openspiel.py, tests/test_pettingzoo.py)
ADAPTER_VARIANTS = [
    {"size": 1},
    {"size": 2},
    {"size": 3, "game_type": "double"},
    {"size": 3, "game_type": "nokomi", "scoring": "longest"},
    {"size": 4, "scoring": "square", "komi": 30},
    {"size": 6, "game_type": "komi", "komi": 5},
]
WINNER_RETURNS = {"black": [1.0, -1.0], "white": [-1.0, 1.0], None: [0.0, 0.0]}     # the players' returns


def serve_until_ctrl_c(args, cwd=None):
    """Start ``python -m catena serve`` (``args`` after the command name) on a free port without a
    browser, fetch its page, stop it with Ctrl-C: (exit status, stdout, stderr)."""
    import re
    import subprocess
    import sys

    import httpx2

    proc = subprocess.Popen([sys.executable, "-m", "catena", "serve", *args, "--port", "0", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line + proc.stderr.read()
        assert 'id="board"' in httpx2.get(url.group(0), timeout=60).text
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out, err


def read_until(proc, text, timeout=60):
    """Read the child's stderr until ``text`` appears (returns what was read).  A child that has
    not written it after ``timeout`` seconds is killed, so the test fails instead of hanging in
    a read that never returns."""
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    seen = b""
    try:
        while text.encode() not in seen:
            chunk = os.read(proc.stderr.fileno(), 4096)
            assert chunk, seen
            seen += chunk
    finally:
        killer.cancel()
    return seen


class TerminalChild:
    """A child process whose stderr is a terminal (a pseudo-terminal of 120 columns), as
    when a person runs a command: progress bars show only there.  ``read_until(text)``
    waits for ``text`` on that terminal; ``finish()`` waits for the end and returns
    (stdout, what the terminal showed), both as text; with ``stdout_on_terminal`` stdout
    goes to the terminal too (line-buffered, as a person sees it).  The child is killed at the latest
    after ``timeout`` seconds, so a test fails instead of hanging."""

    def __init__(self, args, cwd, timeout=300, stdout_on_terminal=False, **options):
        import fcntl
        import pty
        import struct
        import subprocess
        import termios

        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        options.setdefault("stdin", subprocess.DEVNULL)
        self.proc = subprocess.Popen(args, stdout=slave if stdout_on_terminal else subprocess.PIPE, stderr=slave,
                                     cwd=cwd, **options)
        os.close(slave)
        self.master = master
        self.shown = b""
        self.out = b""
        self._killer = threading.Timer(timeout, self.proc.kill)
        self._killer.start()
        self._stdout = threading.Thread(target=self._drain_stdout, daemon=True)
        self._stdout.start()

    def _drain_stdout(self):
        if self.proc.stdout is not None:
            for chunk in iter(lambda: self.proc.stdout.read1(4096), b""):
                self.out += chunk

    def _read(self):
        try:
            chunk = os.read(self.master, 4096)
        except OSError:                       # EIO: the child closed the terminal
            chunk = b""
        self.shown += chunk
        return chunk

    def read_until(self, text):
        while text.encode() not in self.shown:
            assert self._read(), self.shown
        return self.shown.decode(errors="replace")

    def send_signal(self, signum):
        self.proc.send_signal(signum)

    def finish(self):
        while self._read():
            pass
        self.proc.wait()
        self._stdout.join()
        self._killer.cancel()
        os.close(self.master)
        return self.out.decode(errors="replace"), self.shown.decode(errors="replace")

    @property
    def returncode(self):
        return self.proc.returncode


def final_value(pos):
    """A finished game's value for Black: the margin (Black's score minus White's), or
    +1 / 0 / -1 for a win / draw / loss under longest-ribbon scoring, which has no score (R24)."""
    outcome = pos.outcome()
    assert outcome is not None, "the game is not over"
    if outcome.black_score is None:
        return _WINNER_SIGN[outcome.winner]
    return outcome.black_score - outcome.white_score


def minimax_value(pos, memo=None):
    """The value of ``pos`` for Black under best play (Black maximises, White minimises, by
    ``to_move`` at every node, so a double-placement turn needs no special case).

    Exhaustive: every legal move of every node is searched (no pruning), by push and pop,
    so ``pos`` is left as it was.  ``memo`` (a dict, for one root position at a time)
    shares the value of equal positions: the key is the stones shown, the side to move,
    the button and the stone of the turn.  That is the whole future: legality and
    boundedness depend on the occupied cells only (R7, R9), bounded ribbons are shown in
    their owner's colour (R12), and the last placer of R15/R21 is decided by moves still
    to come (a game cannot end on a button move, R14).
    """
    if pos.is_game_over():
        return final_value(pos)
    if memo is not None:
        key = (pos.to_array().tobytes(), pos.to_move, pos.button, pos.stones_left)
        if key in memo:
            return memo[key]
    values = []
    for move in pos.legal_moves():
        pos.push(move)
        values.append(minimax_value(pos, memo))
        pos.pop()
    value = max(values) if pos.to_move == "black" else min(values)
    if memo is not None:
        memo[key] = value
    return value


def minimax_winner(pos, memo=None):
    """The winner of ``pos`` under best play: "black", "white" or None for a draw (the sign
    of :func:`minimax_value`: the result only rises with the margin)."""
    value = minimax_value(pos, memo)
    return "black" if value > 0 else "white" if value < 0 else None


def position_state(pos):
    """Everything observable about a position, by name (its text drawing is made from these):
    for the checks that a pop, a copy or a refused call leaves a position exactly as it was."""
    return {
        "zobrist": pos.zobrist,
        "stones": pos.to_array().tobytes(),
        "legal_moves": [str(m) for m in pos.legal_moves()],
        "to_move": pos.to_move,
        "button": pos.button,
        "stones_left": pos.stones_left,
        "ply": pos.ply,
        "is_game_over": pos.is_game_over(),
        "outcome": pos.outcome(),
        "ribbons": pos.ribbons(),
        "last_claims": pos.last_claims(),
        "move_stack": [str(m) for m in pos.move_stack],
        "score": pos.score(),
    }


def state_changes(before, after):
    """{name: (before, after)} of what differs between two :func:`position_state` results."""
    return {name: (before[name], after[name]) for name in before if before[name] != after[name]}


@pytest.fixture
def stubbed_bench(monkeypatch):
    """catena.benchmark with every measurement answering at once (1 of everything), for the
    tests of its table and progress; the README's `bench --quick` runs the real ones."""
    from catena import benchmark
    monkeypatch.setattr(benchmark, "playout_rates", lambda size, games, repeat: dict.fromkeys(
        ("playouts_wall", "playouts_cpu", "placements_wall", "placements_cpu"), 1.0))
    monkeypatch.setattr(benchmark, "perft_rate", lambda pos, depth, repeat=3: 1.0)
    monkeypatch.setattr(benchmark, "mcts_rate", lambda *args, **kwargs: 1.0)
    monkeypatch.setattr(benchmark, "solver_rate", lambda size, limit: 1.0)
    monkeypatch.setattr(benchmark, "python_call_costs", lambda number: dict.fromkeys(
        ("legal_moves", "push_pop", "copy"), 1.0))
    monkeypatch.setattr(benchmark, "signature", lambda: {"perft_nodes": 1, "placements": 2})
    return benchmark
