"""Threshold proofs (``window=``), MTD(f) guesses, search threads and checkpoints of ``catena.solve``.

Every answer is checked against a full solve of the same position (itself checked against
brute force in test_solver.py): a window proof must be a true bound on that value, the
value must not depend on the guess or on the number of threads, and a solve resumed from a
checkpoint must give the same value.  Values are in points (+1/0/-1 under longest ribbon).
"""

import math
import random

import pytest

import catena
from catena import Position
from catena._solver import SolverParams, TableSolver

TT_MB = 16
VARIANTS = [(g, s) for g in ("komi", "nokomi", "double") for s in ("standard", "longest", "square")]


def midgame(size, game_type, scoring, seed, legal_cells):
    """Seeded random play until at most ``legal_cells`` legal cells remain (never the button)."""
    rng = random.Random(seed)
    pos = Position(size, game_type, scoring, 0)
    while not pos.is_game_over():
        cells = [m for m in pos.legal_moves() if not m.is_button]
        if len(cells) <= legal_cells:
            break
        pos.push(rng.choice(cells))
    return pos


def cases():
    out = []
    for game_type, scoring in VARIANTS:
        for seed in range(2):
            pos = midgame(4, game_type, scoring, 77 * seed + 5, 13)
            if not pos.is_game_over():
                out.append(pos)
        out.append(Position(3, game_type, scoring, 0))
    return out


CASES = cases()
STEP = {"standard": 0.5, "square": 0.5, "longest": 1}


def value_of(result, scoring):
    assert result.solved, result
    return {"black": 1, "white": -1, "draw": 0}[result.winner] if scoring == "longest" else result.value


@pytest.fixture(scope="module")
def values():
    return [value_of(catena.solve(pos, tt_mb=TT_MB, threads=1), pos.scoring) for pos in CASES]


@pytest.mark.parametrize("threads", [1, 2])
def test_window_proofs_are_true_bounds(values, threads):
    """window=(lo, hi) proves value <= lo or value >= hi, or gives the exact value between."""
    for pos, value in zip(CASES, values):
        step = STEP[pos.scoring]
        for lo, hi in ((value - 2 * step, value - step), (value + step, value + 2 * step),
                       (value - step, value + step), (value, value), (value - step, value - step)):
            result = catena.solve(pos, tt_mb=TT_MB, threads=threads, window=(lo, hi))
            where = f"{pos!r} window ({lo}, {hi}), value {value}"
            if result.solved:
                assert value_of(result, pos.scoring) == value, where
                continue
            assert result.stopped_by == "window", where
            if result.upper is not None and result.upper <= lo:
                assert value <= result.upper, where
            else:
                assert result.lower is not None and result.lower >= hi, where
                assert value >= result.lower, where
            if lo < value < hi:
                pytest.fail(f"the value lies inside the window but was not found exactly: {where}")


def test_window_answers_who_wins():
    """A window at zero is the one null-window question "does Black win?", with its winner.
    One thread each: node counts of several threads vary from run to run."""
    for pos in (Position(3), Position(3, "double", "standard"), Position(3, "komi", "longest")):
        full = catena.solve(pos, tt_mb=TT_MB, threads=1)
        proof = catena.solve(pos, tt_mb=TT_MB, threads=1, window=(0, 0))
        assert proof.winner == full.winner
        assert proof.nodes <= full.nodes


@pytest.mark.parametrize("guess", [-100, -3, 0, 2.5, 40])
def test_value_does_not_depend_on_the_guess(values, guess):
    for pos, value in zip(CASES[::3], values[::3]):
        result = catena.solve(pos, tt_mb=TT_MB, guess=guess)
        assert value_of(result, pos.scoring) == value, f"{pos!r} guess {guess}"


@pytest.mark.parametrize("threads", [2, 3, 4])
def test_value_does_not_depend_on_the_threads(values, threads):
    for pos, value in zip(CASES, values):
        result = catena.solve(pos, tt_mb=TT_MB, threads=threads)
        assert value_of(result, pos.scoring) == value, f"{pos!r} threads {threads}"
        assert len(result.pv) > 0 and result.best_move == result.pv[0]


def test_nodes_count_every_thread():
    """A finished solve reports every thread's nodes, as its progress reports do (it once
    reported the main thread's alone: the walk of the line after the solve ran on one)."""
    for legal_cells in range(26, 31):                  # reports come about five times a second:
        reported = []                                    # a larger position if the solve was quicker
        pos = midgame(4, "komi", "standard", 0, legal_cells)
        result = catena.solve(pos, tt_mb=TT_MB, threads=2,
                              progress=lambda nodes, seconds, lower, upper, seen=reported: seen.append(nodes))
        if reported:
            break
    assert result.solved and reported, "the solve must run long enough for a progress report"
    assert result.nodes >= max(reported)


@pytest.mark.parametrize("step, parity", [(2, 1), (2, 0), (1, 0)])
def test_null_windows_reach_far_values_in_few_steps(step, parity):
    """MTD(f)'s schedule of null windows (next_window, shared by the threads and the Ray driver):
    each window proves something new, the value is found from a guess of 0 whatever the search's
    fail-soft values, and a value n steps away takes about 2 log2(n) windows, not n (square
    scoring's values lie hundreds of half points from the guess)."""
    from catena._solver import UNBOUNDED as INF
    from catena._solver import next_window
    for value in (v for v in range(-1001, 1002) if v % step == parity):
        for soft in (False, True):          # the least a search proves, or the exact value
            lower, upper, g, run, windows = -INF, INF, 0, 0, 0
            while lower < upper:
                beta = next_window(lower, upper, g, run, step)
                assert lower < beta <= upper, (value, lower, upper, beta)
                windows += 1
                if value >= beta:
                    g = lower = value if soft else beta + (parity - beta) % step
                    run = max(run, 0) + 1
                else:
                    g = upper = value if soft else beta - 1 - (beta - 1 - parity) % step
                    run = min(run, 0) - 1
            assert lower == value
            assert windows <= 2 * math.log2(abs(value) / step + 1) + 8, (value, soft, windows)


def test_tiny_shared_table_keeps_values(values):
    """Two threads on a table of a few buckets (constant replacement, torn entries) stay exact."""
    for pos, value in zip(CASES[:8], values[:8]):
        assert value_of(catena.solve(pos, tt_mb=0.001, threads=2), pos.scoring) == value


def test_checkpoint_saves_and_resumes(tmp_path):
    pos = Position(3)
    path = tmp_path / "side3.ckpt"
    fresh = catena.solve(pos, tt_mb=TT_MB, threads=1)
    first = catena.solve(pos, tt_mb=TT_MB, threads=1, max_nodes=fresh.nodes * 2 // 3, checkpoint=path)
    assert not first.solved and path.exists()
    resumed = catena.solve(pos, tt_mb=TT_MB, threads=1, max_nodes=1, checkpoint=path)
    # the bounds proven before the stop come back from the file even when nothing more is searched
    assert (resumed.lower, resumed.upper) == (first.lower, first.upper)
    done = catena.solve(pos, tt_mb=TT_MB, threads=1, checkpoint=str(path))
    assert done.solved and done.value == fresh.value == 10.5
    assert done.nodes < fresh.nodes                       # the saved entries spare work
    again = catena.solve(pos, tt_mb=TT_MB, threads=1, checkpoint=path)
    assert again.value == 10.5 and again.nodes < done.nodes


def test_checkpoint_of_another_position_of_the_same_game(tmp_path):
    """Saved entries hold for every position of the same game; the root bounds only for their root."""
    path = tmp_path / "c.ckpt"
    catena.solve(Position(3), tt_mb=TT_MB, checkpoint=path)
    pos = Position(3)
    pos.push("C3")
    assert catena.solve(pos, tt_mb=TT_MB, checkpoint=path).value == catena.solve(pos, tt_mb=TT_MB).value


def test_checkpoint_refuses_other_games_and_other_files(tmp_path):
    path = tmp_path / "c.ckpt"
    catena.solve(Position(2), tt_mb=TT_MB, checkpoint=path)
    for other in (Position(3), Position(2, komi=1), Position(2, "double"), Position(2, scoring="square")):
        with pytest.raises(ValueError, match="checkpoint of another game"):
            catena.solve(other, tt_mb=TT_MB, checkpoint=path)
    junk = tmp_path / "junk"
    junk.write_bytes(b"not a checkpoint\n")
    with pytest.raises(ValueError, match="not a catena solver checkpoint"):
        catena.solve(Position(2), checkpoint=junk)
    from catena.solver import CHECKPOINT_MAGIC
    for header in (b"{not json\n", b"[1, 2]\n"):
        junk.write_bytes(CHECKPOINT_MAGIC + header)
        with pytest.raises(ValueError, match="header is damaged"):
            catena.solve(Position(2), checkpoint=junk)
    with pytest.raises(TypeError, match="checkpoint must be a path, not 3"):
        catena.solve(Position(2), checkpoint=3)


@pytest.mark.parametrize("kwargs, error", [
    ({"window": (1, 0)}, ValueError),
    ({"window": (0,)}, TypeError),
    ({"window": 3}, TypeError),
    ({"window": ("a", 1)}, TypeError),
    ({"window": (float("nan"), 1)}, TypeError),
    ({"guess": "x"}, TypeError),
    ({"threads": 0}, ValueError),
    ({"threads": 65}, ValueError),
    ({"threads": 1.5}, TypeError),
    ({"threads": True}, TypeError),
    ({"checkpoint_seconds": 0}, ValueError),
])
def test_bad_arguments(kwargs, error):
    with pytest.raises(error):
        catena.solve(Position(2), **kwargs)


def test_big_table_with_near_leaf_table(values):
    """Above 64 MB nodes near the leaves use a small table of their own: the values stay."""
    for pos, value in list(zip(CASES, values))[::4]:
        assert value_of(catena.solve(pos, tt_mb=96, threads=2), pos.scoring) == value


@pytest.mark.parametrize("setting", [{"near_max": -1}, {"near_max": 20, "near_mb": 1}, {"history_malus": 0},
                                     {"abdada_min": 0}, {"replies_beside": False}])
def test_tuned_searches_keep_values(values, setting):
    """The search's tunables (SolverParams, measured in docs/side4.md) change its speed, not its values."""
    params = SolverParams(**setting)
    for pos, value in list(zip(CASES, values))[::2]:
        for threads in (1, 2):
            result = catena.solve(pos, tt_mb=96, threads=threads, params=params)
            assert value_of(result, pos.scoring) == value, f"{pos!r} {setting} threads {threads}"


@pytest.mark.parametrize("params, error", [("fast", TypeError), ({"history_malus": 8}, TypeError)])
def test_bad_params(params, error):
    with pytest.raises(error):
        catena.solve(Position(2), params=params)
    with pytest.raises(error):
        TableSolver(tt_mb=1, params=params)


@pytest.mark.parametrize("setting, error", [({"history_malus": -1}, ValueError), ({"near_max": 1.5}, TypeError),
                                            ({"near_mb": 0}, ValueError), ({"abdada_min": "12"}, TypeError),
                                            ({"replies_beside": 1}, TypeError)])
def test_bad_solver_params(setting, error):
    with pytest.raises(error):
        SolverParams(**setting)


def test_table_solver_params():
    """A TableSolver keeps its params; one sharing a table takes its owner's unless given its own."""
    params = SolverParams(history_malus=2, near_max=-1)
    owner = TableSolver(tt_mb=1, params=params)
    assert owner.params == params and TableSolver(share=owner).params == params
    assert TableSolver(share=owner, params=SolverParams()).params == SolverParams()
    assert owner.solve(Position(size=2))[:2] == (5, 5)


def test_command_line_checkpoint_and_window(tmp_path):
    """`python -m catena solve` with --checkpoint (saved, then resumed) and --window."""
    import subprocess
    import sys

    def run(*args):
        return subprocess.run([sys.executable, "-m", "catena", "solve", "--size", "3", *args],
                              capture_output=True, text=True, cwd=tmp_path, timeout=300)

    first = run("--checkpoint", "s3.ckpt", "--max-nodes", "10000", "--threads", "1")
    assert first.returncode == 1 and "unsolved" in first.stdout, first.stdout + first.stderr
    assert (tmp_path / "s3.ckpt").exists()
    done = run("--checkpoint", "s3.ckpt", "--threads", "2")
    assert done.returncode == 0 and "value +10.5" in done.stdout, done.stdout + done.stderr
    proof = run("--window", "0", "0")
    assert proof.returncode == 0 and "proven: value >= " in proof.stdout and "winner black" in proof.stdout, \
        proof.stdout + proof.stderr
    bad = run("--threads", "0")
    assert bad.returncode != 0 and "threads" in bad.stderr and "Traceback" not in bad.stderr


def test_shrunk_checkpoint_keeps_the_bounds_and_the_expensive_proofs(tmp_path):
    """A checkpoint shrunk to its expensive entries resumes with the same bounds and value, and
    spares work; the cheap subtrees are searched again."""
    from catena.solver import shrink_checkpoint

    pos = Position(3)
    fresh = catena.solve(pos, tt_mb=TT_MB, threads=1)
    path, small = tmp_path / "side3.ckpt", tmp_path / "small.ckpt"
    first = catena.solve(pos, tt_mb=TT_MB, threads=1, max_nodes=fresh.nodes * 2 // 3, checkpoint=path)
    kept, read = shrink_checkpoint(path, small, min_nodes=1 << 12)
    assert 0 < kept < read
    assert small.stat().st_size < path.stat().st_size
    resumed = catena.solve(pos, tt_mb=TT_MB, threads=1, max_nodes=1, checkpoint=small)
    assert (resumed.lower, resumed.upper) == (first.lower, first.upper)
    full = catena.solve(pos, tt_mb=TT_MB, threads=1, checkpoint=path)
    shrink_checkpoint(path, small, min_nodes=1 << 12)           # the finished solve's file, shrunk again
    done = catena.solve(pos, tt_mb=TT_MB, threads=1, checkpoint=small)
    assert done.value == full.value == fresh.value
    assert done.nodes < fresh.nodes                             # the kept proofs spare work
    kept_all, read_all = shrink_checkpoint(path, small, min_nodes=1)
    assert kept_all == read_all                                 # everything kept: a plain copy


def test_shrink_checkpoint_refuses_bad_input(tmp_path):
    from catena.solver import shrink_checkpoint

    junk = tmp_path / "junk.ckpt"
    junk.write_bytes(b"not a checkpoint\n")
    with pytest.raises(ValueError, match="not a catena solver checkpoint"):
        shrink_checkpoint(junk, tmp_path / "out.ckpt")
    assert not (tmp_path / "out.ckpt").exists()
    path = tmp_path / "side2.ckpt"
    catena.solve(Position(2), tt_mb=TT_MB, checkpoint=path)
    with pytest.raises(ValueError, match="min_nodes"):
        shrink_checkpoint(path, tmp_path / "out.ckpt", min_nodes=0)
    with pytest.raises(TypeError, match="checkpoint must be a path"):
        shrink_checkpoint(path, 3)
    with pytest.raises(FileNotFoundError):
        shrink_checkpoint(tmp_path / "missing.ckpt", tmp_path / "out.ckpt")


def test_command_line_shrink_checkpoint(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "s3.ckpt"
    catena.solve(Position(3), tt_mb=TT_MB, threads=1, checkpoint=path)
    done = subprocess.run([sys.executable, "-m", "catena", "shrink-checkpoint", "s3.ckpt", "small.ckpt",
                           "--min-nodes", "5000"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0 and "small.ckpt: kept" in done.stdout and "4,096 nodes" in done.stdout, \
        done.stdout + done.stderr
    resumed = subprocess.run([sys.executable, "-m", "catena", "solve", "--size", "3", "--checkpoint", "small.ckpt"],
                             capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert resumed.returncode == 0 and "value +10.5" in resumed.stdout, resumed.stdout + resumed.stderr
    bad = subprocess.run([sys.executable, "-m", "catena", "shrink-checkpoint", "s3.ckpt", "x.ckpt",
                          "--min-nodes", "0"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert bad.returncode == 2 and "min-nodes" in bad.stderr and "Traceback" not in bad.stderr


# ---------------------------------------------------------------------------
# Bounds under every limit (issue 49.3): never None, and true bounds

def static_cases():
    """Every variant (komi 0 and 3 where there is komi): the empty side-2 and side-3 boards, and
    positions of random play on sides 3 and 4 from the start to the end (finished ones too)."""
    rng = random.Random(49)
    out = []
    for game_type, scoring in VARIANTS:
        for komi in ((0, 3) if game_type == "komi" else (0,)):
            out += [Position(2, game_type, scoring, komi), Position(3, game_type, scoring, komi)]
            for size, legal_cells in ((3, 0), (3, 0), (4, 12), (4, 0)):
                pos = Position(size, game_type, scoring, komi)
                while not pos.is_game_over() and len(list(pos.legal_moves())) > legal_cells:
                    pos.push(rng.choice(list(pos.legal_moves())))
                    if size == 3 or len(list(pos.legal_moves())) <= 12:
                        out.append(pos.copy())
    return out


def test_static_bounds_hold_the_exact_value():
    """The bounds a stopped solve reports at least (what either side can still score) contain
    the exact value of each position: about 350 positions of every variant, exact values by
    solving (themselves checked against brute force in test_solver.py)."""
    from catena.solver import static_bounds

    from conftest import final_value

    checked = 0
    for pos in static_cases():
        lo, hi = static_bounds(pos)
        if pos.is_game_over():
            value = final_value(pos)
        else:
            value = value_of(catena.solve(pos, tt_mb=TT_MB, threads=1), pos.scoring)
        value2 = value if pos.scoring == "longest" else round(2 * value)
        assert lo <= value2 <= hi, (pos.to_string(), pos.game_type, pos.scoring, pos.komi, lo, value2, hi)
        checked += 1
    assert checked > 300


def assert_proven_side4_bounds(result):
    assert not result.solved and result.stopped_by in ("nodes", "seconds")
    assert result.lower is not None and result.upper is not None
    assert -37.5 <= result.lower <= 9.5 <= result.upper <= 37.5          # side 4's value is +9.5


@pytest.mark.parametrize("limit", [{"max_nodes": 1}, {"max_nodes": 30_000}])
def test_a_limited_solve_reports_proven_bounds_never_none(limit):
    """`catena.solve(catena.Position(size=4), max_seconds=3)` returned lower=None, upper=None (the
    three seconds are tested beside the command line's, below)."""
    assert_proven_side4_bounds(catena.solve(Position(4), threads=1, **limit))
    for scoring in ("longest", "square"):
        other = catena.solve(Position(4, scoring=scoring), threads=1, max_nodes=1)
        assert other.lower is not None and other.upper is not None and other.lower <= other.upper


def test_an_interrupted_solve_reports_bounds_never_none():
    import _thread
    import threading

    calls = []

    def ctrl_c(*args):                            # Ctrl-C in the solve's thread at its first report
        if not calls:
            calls.append(args)
            threading.Timer(0, _thread.interrupt_main).start()

    result = catena.solve(Position(4), threads=1, max_seconds=60, progress=ctrl_c)
    assert result.stopped_by == "interrupt" and result.lower is not None and result.upper is not None
    assert calls[0][2:] == (-37.5, 37.5)          # progress reports the same bounds


def test_the_command_line_prints_the_bounds_the_api_returns(tmp_path):
    """The CLI words for a stopped solve, with the API's bounds (threads 1: the same search)."""
    import subprocess
    import sys

    commands = {limit[0]: subprocess.Popen([sys.executable, "-m", "catena", "solve", "--size", "4", "--threads", "1",
                                            *limit], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                           cwd=tmp_path)
                for limit in (["--max-nodes", "30000"], ["--seconds", "3"])}
    assert_proven_side4_bounds(catena.solve(Position(4), threads=1, max_seconds=3))   # while the commands run
    api = catena.solve(Position(4), threads=1, max_nodes=30_000)
    for limit, command in commands.items():
        stdout, stderr = command.communicate(timeout=300)
        assert command.returncode == 1, stderr
        assert "inf" not in stdout and "None" not in stdout
        if limit == "--max-nodes":
            assert f"unsolved (stopped by nodes): value in [{api.lower:+g}, {api.upper:+g}] after {api.nodes:,} " \
                "nodes" in stdout, stdout
        else:
            assert "unsolved (stopped by seconds): value in [" in stdout


def test_the_command_line_names_the_side_a_window_proof_is_on(tmp_path):
    """With bounds never None, the words of a window proof come from the window: value <= LO or
    value >= HI (side 3's value is +10.5)."""
    import subprocess
    import sys

    for window, words in ((("20", "30"), "proven: value <= "), (("0", "0"), "proven: value >= ")):
        proc = subprocess.run([sys.executable, "-m", "catena", "solve", "--size", "3", "--window", *window],
                              capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert proc.returncode == 0 and words in proc.stdout, proc.stdout + proc.stderr
        bound = float(proc.stdout.split(words)[1].split()[0])
        assert (bound <= 20 and bound >= 10.5) if words.endswith("<= ") else 0 < bound <= 10.5
