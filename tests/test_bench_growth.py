"""bench/solver_growth.py, the growth curves of docs/side4.md and docs/side5.md: its options
for the side, the source of the positions and the per-solve limits."""

import json
import os
import subprocess
import sys

import catena

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "bench", "solver_growth.py")


def run(tmp_path, *args):
    proc = subprocess.run([sys.executable, SCRIPT, *args, "--tt-mb", "16", "--json", str(tmp_path / "solves.json")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [
                              ROOT, os.environ.get("PYTHONPATH")]))))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, json.loads((tmp_path / "solves.json").read_text())


def test_mcts_positions_of_the_side_and_cells_asked_solved_exactly(tmp_path):
    out, solves = run(tmp_path, "--side", "3", "--source", "mcts", "--cells", "6", "8", "--per", "2",
                      "--mcts-iterations", "50", "--project", "19")
    assert [solve["cells"] for solve in solves] == [6, 6, 8, 8]
    assert len({solve["label"] for solve in solves}) == 4
    for solve in solves:
        pos = catena.Position(3, "komi", "standard", 0)
        for move in solve["moves"]:
            pos.push(move)
        assert sum(1 for move in pos.legal_moves() if not move.is_button) == solve["cells"]
        assert solve["value"] == catena.solve(pos, tt_mb=16, threads=1).value
        assert solve["stopped_by"] is None
    rows = [line for line in out.splitlines() if line.startswith("| 6 |") or line.startswith("| 8 |")]
    assert len(rows) == 2 and ">=" not in "".join(rows)
    assert "fit of the exact medians (6, 8 legal cells): NODES_AT_6 = " in out
    assert "at 19 legal cells: " in out


def test_a_solve_stopped_by_the_limit_is_a_lower_bound_left_out_of_the_fit(tmp_path):
    out, solves = run(tmp_path, "--side", "4", "--cells", "24", "26", "--per", "1", "--max-nodes", "1000")
    assert all(solve["stopped_by"] == "nodes" and solve["value"] is None for solve in solves)
    assert all(solve["lower"] is not None and solve["upper"] is not None for solve in solves)
    assert "| 24 | 1 | >= " in out and "| 26 | 1 | >= " in out
    assert "fit: fewer than two exact medians" in out


def test_cells_beyond_the_board_are_refused_not_searched_for_forever():
    proc = subprocess.run([sys.executable, SCRIPT, "--side", "3", "--cells", "8", "20"], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 2 and "--cells must lie between 1 and the 19 cells of side 3" in proc.stderr
