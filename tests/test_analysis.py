"""catena.analyse: every legal move's search statistics and, where solvable, exact value.

The exact values are checked against the solver on side-3 positions and against a
brute-force minimax of the final margin on side 2 (independent of the solver).
"""

import random
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import catena
from catena.analysis import analyse

from conftest import final_value, minimax_value


def random_position(size, plies, seed, game_type="komi", scoring="standard"):
    rng = random.Random(seed)
    pos = catena.Position(size=size, game_type=game_type, scoring=scoring)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
        if pos.is_game_over():
            pos.pop()
            break
    return pos


def solver_margin(pos):
    result = catena.solve(pos)
    assert result.solved
    return result.value if result.value is not None else result.lower


def check_sorted_best_first(analysis):
    sign = 1 if analysis.to_move == "black" else -1
    margins = [sign * line.margin for line in analysis.moves]
    assert margins == sorted(margins, reverse=True)


SIDE3 = [(plies, seed, game_type, scoring)
         for plies, seed in ((1, 1), (3, 2), (5, 3), (8, 4))
         for game_type, scoring in (("komi", "standard"), ("nokomi", "square"), ("double", "standard"),
                                    ("komi", "longest"))]


@pytest.mark.parametrize("plies, seed, game_type, scoring", SIDE3)
def test_agrees_with_solve_on_side_3(plies, seed, game_type, scoring):
    pos = random_position(3, plies, seed, game_type, scoring)
    before = pos.copy()
    analysis = analyse(pos, iterations=300, exact=True, seed=seed)
    assert pos == before and pos.move_stack == before.move_stack
    assert {line.move for line in analysis.moves} == set(pos.legal_moves())
    assert len(analysis.moves) == len(pos.legal_moves())
    for line in analysis.moves:
        assert line.proven
        pos.push(line.move)
        assert line.exact == line.margin == solver_margin(pos), line.move
        pos.pop()
    assert analysis.proven and analysis.exact == solver_margin(pos)
    assert analysis.moves[0].margin == analysis.exact
    check_sorted_best_first(analysis)
    # the pv is a legal line from the best move to the end, and it keeps the exact value
    line = pos.copy()
    for move in analysis.pv:
        line.push(move)
    assert analysis.pv[0] == analysis.best_move and line.is_game_over()
    assert final_value(line) == analysis.exact


@pytest.mark.parametrize("game_type, scoring", [("komi", "standard"), ("double", "square"),
                                                ("nokomi", "longest")])
@pytest.mark.parametrize("plies, seed", [(0, 0), (1, 5), (2, 6)])
def test_exact_values_equal_brute_force_on_side_2(plies, seed, game_type, scoring):
    pos = random_position(2, plies, seed, game_type, scoring)
    analysis = analyse(pos, iterations=200, seed=seed)            # small: solved by default
    assert analysis.proven
    for line in analysis.moves:
        pos.push(line.move)
        assert line.exact == minimax_value(pos), line.move
        pos.pop()
    assert analysis.exact == minimax_value(pos)


def test_search_statistics_are_the_searchs():
    pos = random_position(6, 6, 11)
    analysis = analyse(pos, iterations=3000, seed=4)
    result = catena.MCTS(seed=4).search(pos, iterations=3000)
    assert analysis.iterations == result.iterations
    for line in analysis.moves:
        assert line.visits == result.visits.get(line.move, 0)
        assert line.win_rate == result.values.get(line.move, 0.0)
    assert analysis.best_move == result.best_move and analysis.pv == result.pv
    visits = [line.visits for line in analysis.moves[1:]]
    assert visits == sorted(visits, reverse=True)


def test_large_position_is_not_solved_by_default():
    pos = catena.Position(size=6)
    pos.push("F6")
    analysis = analyse(pos, iterations=2000, seed=1)
    assert analysis.exact is None and not analysis.proven
    assert all(line.exact is None and not line.proven for line in analysis.moves)
    assert len(analysis.moves) == len(pos.legal_moves())
    assert all(-91 <= line.margin <= 91 for line in analysis.moves)


def test_exact_false_solves_nothing_and_takes_margins_from_the_search():
    pos = catena.Position(size=1)                 # F2: A1 ends the game 1 - 0.5; the button, 0.5 - 1
    analysis = analyse(pos, iterations=50, exact=False, seed=1)
    assert not analysis.proven and analysis.exact is None
    assert analysis["A1"].margin == 0.5 and analysis["button"].margin == -0.5
    solved = analyse(pos, iterations=50, seed=1)
    assert solved.proven and solved.exact == 0.5 and str(solved.best_move) == "A1"


def test_values_and_heatmap():
    pos = catena.Position(size=3)
    pos.push("B2")
    analysis = analyse(pos, iterations=500, seed=3)
    margins = analysis.values("margin")
    assert set(margins) == set(pos.legal_moves())
    assert all(margins[line.move] == -line.margin for line in analysis.moves)     # White to move
    assert analysis.values() == margins                                            # all proven
    assert analysis.values("visits")[analysis.best_move] == analysis.moves[0].visits
    with pytest.raises(ValueError, match="kind"):
        analysis.values("colour")
    root = ET.fromstring(analysis._repr_svg_())
    cells = {e.get("data-cell"): float(e.get("data-value"))
             for e in root.iter() if e.get("class") == "value"}
    assert cells == {m.name: v for m, v in margins.items()}
    orders = [e.get("data-cell") for e in root.iter() if e.get("class") == "pv"]
    assert orders == [m.name for m in analysis.pv[:5]]
    caption = [e.text for e in root.iter() if e.get("class") == "legend-caption"]
    assert caption == ["exact margin for white (white - black), points"]


@pytest.mark.parametrize("args, kwargs, error, words", [
    (("F6",), {}, TypeError, "catena.Position"),
    ((catena.Position(size=3),), {"exact": "yes"}, TypeError, "exact"),
    ((catena.Position(size=3),), {"iterations": 0}, ValueError, "iterations"),
    ((catena.Position(size=3),), {"seconds": -1.0}, ValueError, "seconds"),
])
def test_bad_input(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        analyse(*args, **kwargs)


def test_finished_game():
    pos = catena.Position(size=1)
    pos.push("A1")
    with pytest.raises(ValueError, match="game is over"):
        analyse(pos)


def test_command_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "catena", "analyse", "--size", "3", "B2", "D4",
                           "--iterations", "2000", "--seed", "1", "--svg", "heat.svg"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("move")))
    end = lines.index(next(line for line in lines if line.startswith("exact value")))
    rows = [line.split() for line in lines[header + 1:end] if not line.startswith("solved exactly")]
    pos = catena.Position(size=3)
    pos.push("B2")
    pos.push("D4")
    assert sorted(row[0] for row in rows) == sorted(m.name for m in pos.legal_moves())
    assert all(row[-1] == "proven" for row in rows)
    margins = [float(row[3]) for row in rows]
    assert margins == sorted(margins, reverse=True)                     # Black to move: best first
    assert "exact value +9.5" in proc.stdout
    root = ET.fromstring((tmp_path / "heat.svg").read_text())
    assert len([e for e in root.iter() if e.get("class") == "value"]) == len(rows)
    bad = subprocess.run([sys.executable, "-m", "catena", "analyse", "--size", "3", "Z9"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert bad.returncode == 2 and "Z9" in bad.stderr and "Traceback" not in bad.stderr


def test_terminal_hint_shows_the_top_three_with_values():
    import io

    from catena.players import MCTSPlayer
    from catena.terminal import TerminalGame

    game = catena.Game(size=3)
    answers = iter(["0", "B2", "hint", "quit"])
    out = io.StringIO()
    TerminalGame(game, MCTSPlayer(iterations=400, seed=5), human="P1",
                 read=lambda prompt: next(answers, None), out=out).run()
    hint = next(line for line in out.getvalue().splitlines() if "suggests" in line)
    analysis = analyse(game.position, iterations=400, seed=5)
    sign = 1 if game.position.to_move == "black" else -1
    for line in analysis.moves[:3]:
        assert f"{line.move} (win rate {line.win_rate:.0%}, margin {sign * line.margin:+.1f} for" in hint
    assert hint.count("proven") == 3


def test_progress_while_solving():
    pos = random_position(3, 2, 8)
    calls = []
    analysis = analyse(pos, iterations=200, exact=True, progress=lambda *a: calls.append(a))
    moves = len(pos.legal_moves())
    done = [call[0] for call in calls]
    assert done == sorted(done) and set(range(1, moves + 1)) <= set(done) and done[-1] == moves
    assert all(total == moves and nodes >= 0 for _, total, nodes in calls)
    assert analysis.proven


def test_win_rate_heatmap_leaves_out_untried_moves():
    pos = catena.Position(size=6)
    analysis = analyse(pos, iterations=40, exact=False, seed=1)      # fewer iterations than moves
    tried = {line.move for line in analysis.moves if line.visits}
    assert 0 < len(tried) < len(analysis.moves)
    assert set(analysis.values()) == tried == set(analysis.values("win_rate"))
    assert set(analysis.values("margin")) == {line.move for line in analysis.moves}


def test_jupyter_shows_the_heatmap():
    """IPython's display machinery (what a notebook uses) renders an Analysis as SVG."""
    from IPython.core.formatters import DisplayFormatter

    pos = catena.Position(size=3)
    pos.push("B2")
    analysis = analyse(pos, iterations=300, seed=1)
    data, _ = DisplayFormatter().format(analysis)
    assert data["image/svg+xml"] == str(analysis.svg())
    board, _ = DisplayFormatter().format(catena.svg(pos, values=analysis.values()))
    assert 'class="value"' in board["image/svg+xml"]
