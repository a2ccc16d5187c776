"""Long computations are safe: hopeless exact solves are refused with an estimate, and
every long command shows its progress (a tqdm bar on stderr).  (That it stops cleanly on Ctrl-C:
tests/test_interrupt.py.)"""

import os
import re
import subprocess
import sys
import time

import pytest

import catena
from catena import benchmark, effort
from catena.errors import TooMuchWorkError

from conftest import TerminalChild

CATENA = [sys.executable, "-m", "catena"]


def run(args, cwd, timeout=300):
    return subprocess.run([sys.executable, "-m", "catena", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


def test_estimate_grows_with_the_legal_cells():
    pos = catena.Position(size=4)
    before = effort.solve_nodes(pos)
    pos.push("D4")
    assert effort.legal_cells(pos) < 37
    assert effort.solve_nodes(pos) < before / 1.5     # one legal cell fewer: 1.85 times less work
    assert 1e9 < before < 1e10                         # the side-4 order of docs/side4.md
    square = catena.Position(4, "komi", "square", 0)
    assert effort.solve_nodes(square) == effort.SQUARE_FACTOR * before    # more windows


def test_solve_refuses_hours_of_work_at_once_and_says_how_long():
    start = time.perf_counter()
    # beyond the 30 legal cells the growth was measured at, so a lower bound
    with pytest.raises(TooMuchWorkError, match=r"at least of the order of 2 x 10\^10 nodes, more than 84 minutes"
                                               r".*faster in an even game, 4 times more under square scoring"
                                               r".*max_seconds or max_nodes"):
        catena.solve(catena.Position(4, "komi", "square", 0))
    effort.check_solvable(catena.Position(size=4))      # standard scoring: 21 minutes, solved in 15
    with pytest.raises(TooMuchWorkError, match=r"10\^\d+ years"):
        catena.solve(catena.Position(size=10))
    assert time.perf_counter() - start < 2
    limited = catena.solve(catena.Position(size=4), max_nodes=10_000)     # with a limit it runs
    assert not limited.solved and limited.stopped_by == "nodes"
    assert catena.solve(catena.Position(size=3)).solved                  # small work: no refusal


def test_solve_accepts_an_endgame_of_a_large_board():
    pos = catena.Position(size=6)
    rng = __import__("random").Random(3)
    while effort.legal_cells(pos) > 14:
        pos.push(rng.choice([m for m in pos.legal_moves() if not m.is_button]))
    assert catena.solve(pos).solved


def test_fair_komi_refuses_large_boards_or_takes_a_limit():
    start = time.perf_counter()
    with pytest.raises(TooMuchWorkError, match=r"fair_komi\(7\) solves the empty side-7 board .* years"):
        catena.fair_komi(7)
    assert time.perf_counter() - start < 2
    with pytest.raises(TooMuchWorkError, match="side-5 board was not solved in the time given"):
        catena.fair_komi(5, max_seconds=0.3)
    assert catena.fair_komi(2, max_seconds=60) == catena.fair_komi(2) == 2


def test_cli_solve_refuses_without_a_limit(tmp_path):
    proc = run(["solve", "--size", "4", "--scoring", "square"], tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("catena: solving this position exactly would take")
    assert "--seconds or --max-nodes" in proc.stderr


def test_cli_solve_shows_a_progress_bar_with_bounds(tmp_path):
    child = TerminalChild(CATENA + ["solve", "--size", "4", "--max-nodes", "3000000"], tmp_path)
    out, shown = child.finish()
    assert child.returncode == 1
    assert "solving:" in shown and "nodes" in shown and "value in [" in shown
    assert re.search(r"testing >= [+-]\d+(\.5)? at [A-G]\d \d+/38", shown)   # where a long solve is
    assert "unsolved (stopped by nodes): value in [" in out and "None" not in out


def test_progress_bars_only_on_a_terminal(tmp_path):
    """Bars on a terminal; none in a log (stderr a file or a pipe: no carriage returns)."""
    proc = run(["solve", "--size", "4", "--max-nodes", "300000"], tmp_path)
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    assert "unsolved (stopped by nodes)" in proc.stdout
    proc = run(["selfplay", "--size", "2", "--games", "2", "--iterations", "50", "--seed", "1"], tmp_path)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_selfplay_progress(tmp_path):
    child = TerminalChild(CATENA + ["selfplay", "--size", "2", "--games", "3", "--iterations", "50", "--seed", "1"],
                          tmp_path)
    out, shown = child.finish()
    assert child.returncode == 0, shown
    assert "3/3" in shown and "P1 " in shown


def test_bench_progress_counts_every_step(stubbed_bench, capsys):
    lines = []
    benchmark.report(quick=True, callgrind=lambda size, playouts: None, out=lines.append, progress=True)
    err = capsys.readouterr().err
    assert "bench: 100%" in err and "18/18" in err
    assert any(line.startswith("signature") for line in lines)
    assert any(line.startswith("instructions/placement") and "no valgrind" in line for line in lines)


@pytest.mark.parametrize("script", ["report.py", "callgrind.py"])
def test_bench_scripts_find_the_valgrind_runner(script):
    """The valgrind runner lives in bench/ (developer tooling); its scripts import it from there."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.run([sys.executable, os.path.join(root, "bench", script), "--help"], capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, PYTHONPATH=root))
    assert proc.returncode == 0, proc.stderr
    assert ("--quick" if script == "report.py" else "--playouts") in proc.stdout
    assert not os.path.exists(os.path.join(root, "catena", "_callgrind.py"))

def test_solved_checks_the_output_folder_first_and_shows_progress(tmp_path):
    start = time.perf_counter()
    proc = run(["solved", "--sizes", "3", "--out", "docs/solved.md"], tmp_path)     # no docs/ folder here
    assert proc.returncode == 2 and "cannot write docs/solved.md" in proc.stderr
    assert time.perf_counter() - start < 20                      # refused before solving
    child = TerminalChild(CATENA + ["solved", "--sizes", "1", "--out", "values.md"], tmp_path)
    out, shown = child.finish()
    assert child.returncode == 0, shown
    assert "15/15" in shown and out == "wrote values.md\n"
    assert (tmp_path / "values.md").read_text().startswith("# Solved values")
