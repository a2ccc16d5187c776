"""Names and messages (issue 51 item 4): "pass" read as the button wherever a move name is
read, messages that name the button and columns by letters, GTP naming a bad cell before
the turn, a short repr of SearchResult; and analysis that agrees with itself (item 5): a
proven move's win rate follows its exact value, a root solved before any search says so;
Ctrl-C stops analyse in every phase (issue 47 item 8)."""

import _thread
import subprocess
import sys
import threading
import time

import pytest

import catena
from catena.analysis import SOLVED_EXACTLY, _exact_win_rate
from catena.gtp import GtpEngine
from catena.players import MCTSPlayer

# ---------------------------------------------------------------- "pass" is the button


def test_pass_is_the_button_in_moves_positions_and_records():
    assert catena.Move("pass", size=3) == catena.Move("button", size=3)
    assert catena.Move(" PASS ").is_button
    pos = catena.Position(size=2)
    pos.push("B2")
    pos.push("Pass")
    assert pos.peek().is_button and pos.button == "white"
    text = '[Size "2"]\n[GameType "komi"]\n[Scoring "standard"]\n\nkomi 1 colour white 1. B2 pass 2. C3\n'
    record = catena.read_game(text)
    assert ("move", "button") in record.actions
    assert "button" in catena.write_game(record) and " pass" not in catena.write_game(record)


def test_a_bad_move_name_names_the_button_among_the_examples():
    with pytest.raises(catena.IllegalMoveError, match=r"like 'F6', or 'button' \(or 'pass'\) for the button$"):
        catena.Position().push("x")
    with pytest.raises(catena.CellError, match=r"like 'F6'$"):     # a cell, where the button is no answer
        catena.parse_cell("x")


def test_an_off_board_cell_names_its_column_by_letter():
    with pytest.raises(catena.IllegalMoveError) as caught:
        catena.Position(size=6).push("Z9")
    message = str(caught.value)
    assert "columns run A to K and rows 1 to 11" in message and "here column Z, row 9" in message
    assert "26" not in message
    with pytest.raises(catena.CellError, match="here column A, row 7"):
        catena.parse_cell("A7", 6)


def test_gtp_reports_a_bad_cell_before_the_turn():
    engine = GtpEngine(size=6, player=MCTSPlayer(iterations=10, seed=1))
    answer = engine.execute("play white Z9")             # black is to move
    assert answer.startswith("? illegal move: 'Z9' is not on the board"), answer
    assert engine.execute("play white B2") == "? illegal move: it is black's turn, not white's\n\n"
    assert engine.execute("play black pass") == "=\n\n" and engine.position.peek().is_button


def test_search_result_repr_shows_the_best_few_moves():
    result = catena.MCTS(seed=1).search(catena.Position(size=6), iterations=3000)
    text = repr(result)
    assert len(result.visits) == 92 and len(text) < 500, len(text)
    assert text.startswith(f"SearchResult(best_move={result.best_move!r}, iterations=3000")
    assert text.count(" visits ") == 5 and "... 87 more" in text
    assert f"{result.best_move} {result.visits[result.best_move]} visits" in text


# ---------------------------------------------------------------- analysis that agrees with itself


def _side3_after_b2_d4():
    pos = catena.Position(size=3)
    pos.push("B2")
    pos.push("D4")
    return pos


def test_a_proven_move_has_the_win_rate_of_its_exact_value():
    """Side 3 after B2 D4, Black to move: every move but the button wins for Black (the
    issue's case listed B3, C2, C4 and D3 as proven wins with win rate 0.000)."""
    analysis = catena.analyse(_side3_after_b2_d4(), iterations=500, seed=1)
    assert analysis.proven
    for line in analysis.moves:
        assert line.win_rate == (1.0 if line.margin > 0 else 0.0), line
    assert analysis["B3"].win_rate == 1.0 and analysis["button"].win_rate == 0.0


def test_win_rates_of_exact_values_are_for_the_player_to_move():
    pos = catena.Position(size=2)
    pos.push("B2")                                      # White to move
    analysis = catena.analyse(pos, iterations=300, seed=1)
    for line in analysis.moves:
        assert line.proven and line.win_rate == (1.0 if line.margin < 0 else 0.0 if line.margin > 0 else 0.5)
    assert (_exact_win_rate(2.5, "black"), _exact_win_rate(2.5, "white"), _exact_win_rate(0.0, "white")) == \
        (1.0, 0.0, 0.5)


def test_a_root_solved_before_any_search_says_so(tmp_path):
    analysis = catena.analyse(_side3_after_b2_d4(), iterations=500, seed=1)
    assert analysis.iterations == 0 and analysis.solved_exactly
    assert analysis.table().splitlines()[-1] == SOLVED_EXACTLY and "solved exactly" in SOLVED_EXACTLY
    searched = catena.analyse(catena.Position(size=4), iterations=300, seed=1, exact=False)
    assert not searched.solved_exactly and SOLVED_EXACTLY not in searched.table()
    proc = subprocess.run([sys.executable, "-m", "catena", "analyse", "--size", "3", "B2", "D4", "--iterations",
                           "500", "--seed", "1"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "0 search iterations" not in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("solved exactly (no search needed), ")


@pytest.mark.parametrize("phase", ["search", "solving"])
def test_ctrl_c_stops_analyse_in_every_phase_with_what_it_found(phase):
    """The search returns on Ctrl-C; analyse must not go on to solve every move."""
    pos = catena.Position(size=4)
    for move in ("D4", "A1", "A2", "E3", "A3", "E6"):    # each move takes the solver seconds
        pos.push(move)
    budget = {"seconds": 60} if phase == "search" else {"iterations": 200}
    solving = threading.Event()
    timer = threading.Timer(0.5, _thread.interrupt_main)
    if phase == "search":
        timer.start()
    else:                                                  # interrupt once the solving has begun
        def progress(done, moves, nodes):
            if not solving.is_set():
                solving.set()
                timer.start()
    start = time.monotonic()
    analysis = catena.analyse(pos, exact=True, seed=1, progress=None if phase == "search" else progress, **budget)
    assert time.monotonic() - start < 20
    assert analysis.stopped_by == "interrupt" and not analysis.proven and not analysis.solved_exactly
    assert len(analysis.moves) == 30 and (analysis.iterations > 0)
    assert str(pos) == str(analysis.position)             # the position is left as it was


def test_ctrl_c_during_a_hint_still_ends_the_terminal_game():
    """analyse notes Ctrl-C itself; the terminal game, which notes it around the hint's
    search, must see it too (nested handlers both note it) and end with status 130."""
    import io

    from catena.terminal import TerminalGame

    pos_game = catena.Game(size=6)
    pos_game.choose_komi(3)
    pos_game.choose_colour("white")                      # the engine is P1, Black: the person plays White
    pos_game.push("F6")
    answers = iter(["hint"])
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    status = TerminalGame(pos_game, MCTSPlayer(iterations=None, seconds=60, seed=1), human="P2",
                          read=lambda prompt: next(answers, None), out=io.StringIO()).run()
    assert status == 130 and time.monotonic() - start < 20
