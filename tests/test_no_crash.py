"""No crash, no hang: the four faults of issue 9 as scripts run in child processes, the
thread-safety contract (docs/robustness.md).  (Ctrl-C during perft and random playouts:
tests/test_interrupt.py.)

A reproducer must end cleanly: exit status 0 (a clear Python exception, caught and
checked by the script, counts as clean), within its time limit.  A segfault or a
hang fails the test instead of killing the test run.
"""

import copy
import pickle
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import catena
from catena import MCTS, Position

from conftest import child_env


def run_script(code, timeout=60):
    """Run ``code`` in a fresh interpreter; fail on a crash, a hang or an error exit."""
    try:
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                              text=True, timeout=timeout, env=child_env())
    except subprocess.TimeoutExpired:
        pytest.fail(f"the script hung (no end after {timeout} s)")
    assert proc.returncode == 0, (f"the script ended with status {proc.returncode}"
                                  f"{' (killed by a signal)' if proc.returncode < 0 else ''}:\n{proc.stderr}")
    return proc.stdout


# ---------------------------------------------------------------- fault 1: MCTS node arena overflow

def test_fault1_tree_nodes_beyond_the_arena_is_refused():
    out = run_script("""
        import catena
        for size in (6, 3):
            try:
                catena.MCTS(seed=1, tree_nodes=2**62).search(catena.Position(size=size), iterations=2000)
            except ValueError as exc:
                assert "tree_nodes" in str(exc), exc
                print("refused")
        # the largest accepted size: the arena either exists or the search says there is no room
        try:
            result = catena.MCTS(seed=1, tree_nodes=2**31 - 1).search(catena.Position(size=3), iterations=2000)
            assert result.iterations == 2000
        except MemoryError as exc:
            assert "tree_nodes" in str(exc)
        print("done")
    """)
    assert out.split() == ["refused", "refused", "done"]


# ---------------------------------------------------------------- fault 2: Move.__init__ on an interned move

def test_fault2_interned_moves_cannot_be_rewritten():
    out = run_script("""
        import catena
        move = catena.Position(size=3).legal_moves()[0]
        try:
            move.__init__("E5", 10)
        except AttributeError as exc:
            assert "immutable" in str(exc)
            print("refused")
        assert (move.name, move.index, move.size) == ("A1", 0, 3)
        for _ in range(20):
            pos = catena.Position(size=3)
            pos.push("A1")
            assert str(pos.peek()) == "A1" and pos._consistency_errors() == []
        print("done")
    """)
    assert out.split() == ["refused", "done"]


def test_a_move_with_a_foreign_index_is_checked_before_use():
    """Even a Move the position did not make is never trusted: its side and index are checked."""
    pos = Position(size=3)
    with pytest.raises(catena.IllegalMoveError, match="side 6"):
        pos.push(catena.Move("K6"))
    with pytest.raises(TypeError, match="uninitialised Move"):
        pos.push(catena.Move.__new__(catena.Move))
    assert not pos.is_legal(catena.Move.__new__(catena.Move))
    fresh = catena.Move("A1", 3)
    with pytest.raises(AttributeError, match="immutable"):
        fresh.__init__("C3", 3)
    assert pos.ply == 0 and pos._consistency_errors() == []


def test_an_uninitialised_position_reads_sound_memory():
    """Position.__new__ without __init__: every method answers or raises, none crashes."""
    out = run_script("""
        import catena
        pos = catena.Position.__new__(catena.Position)
        calls = [pos.legal_moves, pos.is_game_over, pos.outcome, pos.score, pos.pop, pos.peek,
                 pos.ribbons, pos.last_claims, pos.copy, pos._consistency_errors, pos.to_array,
                 lambda: repr(pos), lambda: str(pos), lambda: pos.move_stack, lambda: pos.zobrist,
                 lambda: pos.push("A1"), lambda: pos.stone_at(0), lambda: catena.perft(pos, 2),
                 lambda: catena.random_playouts(pos, 3), lambda: catena.solve(pos),
                 lambda: catena.MCTS().search(pos, iterations=10), lambda: catena.svg(pos)]
        for call in calls:
            try:
                call()
            except Exception:
                pass
        assert pos.legal_moves() == []
        pos.__init__(3)
        assert len(pos.legal_moves()) == 20
        print("done")
    """)
    assert out.split() == ["done"]


# ---------------------------------------------------------------- fault 3: one MCTS, two threads

def test_fault3_one_mcts_searched_from_threads_raises_instead_of_crashing():
    out = run_script("""
        import threading, catena
        mcts = catena.MCTS(seed=1)
        refused = []
        def work():
            for _ in range(15):
                try:
                    mcts.search(catena.Position(), iterations=3000)
                except RuntimeError as exc:
                    assert "another thread" in str(exc)
                    refused.append(1)
        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads: t.start()
        for t in threads: t.join()
        result = mcts.search(catena.Position(), iterations=100)     # still sound afterwards
        assert result.iterations == 100
        print("done")
    """)
    assert out.split() == ["done"]


def test_busy_mcts_refuses_search_advance_and_reinit():
    mcts = MCTS(seed=2)
    pos = Position(size=6)
    started = threading.Event()
    box = []

    def search():
        started.set()
        box.append(mcts.search(pos, seconds=1.5))

    thread = threading.Thread(target=search)
    thread.start()
    started.wait()
    time.sleep(0.3)
    try:
        for action in (lambda: mcts.search(pos, iterations=10), lambda: mcts.advance("F6"),
                       lambda: mcts.__init__(seed=3)):
            with pytest.raises(RuntimeError, match="another thread"):
                action()
    finally:
        thread.join()
    assert box[0].iterations > 0 and box[0].best_move in pos.legal_moves()
    mcts.advance(box[0].best_move)                  # free again once the search is over


def test_copies_of_an_mcts_are_independent():
    settings = dict(seed=5, threads=2, rave=False, c=0.5, expand_visits=2, tree_nodes=100_000, score_weight=0.5,
                    exact_cells=3)
    mcts = MCTS(**settings)
    mcts.search(Position(size=4), iterations=500)
    sizes = mcts.tree_size
    for other in (copy.copy(mcts), copy.deepcopy(mcts), pickle.loads(pickle.dumps(mcts))):
        assert other is not mcts and other.tree_size == []
        assert (other.seed, other.c, other.threads, other.rave, other.rave_k, other.expand_visits,
                other.tree_nodes, other.score_weight, other.exact_cells) == (5, 0.5, 2, False, mcts.rave_k, 2,
                                                                             100_000, 0.5, 3)
        other.search(Position(size=5), iterations=300)
        assert mcts.tree_size == sizes
    # the same seed gives the copy the same search as a new object
    assert (copy.copy(mcts).search(Position(size=4), iterations=400).visits
            == MCTS(**settings).search(Position(size=4), iterations=400).visits)


def test_copies_search_in_parallel_threads():
    mcts = MCTS(seed=1)
    engines = [copy.copy(mcts) for _ in range(3)]
    results = [None] * 3

    def work(i):
        results[i] = engines[i].search(Position(size=5), iterations=3000)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.iterations == 3000 for r in results)
    assert results[0].visits == results[1].visits == results[2].visits      # same seed, own trees


# ---------------------------------------------------------------- fault 4: playouts while another thread pushes

def test_fault4_random_playouts_while_another_thread_pushes():
    out = run_script("""
        import threading, catena
        pos = catena.Position()
        stop = False
        def churn():
            while not stop:
                for name in ["C5", "D5", "E5", "G5", "H6", "H7", "F5"]:
                    pos.push(name)
                for _ in range(7):
                    pos.pop()
        thread = threading.Thread(target=churn)
        thread.start()
        try:
            for seed in range(8):
                stats = catena.random_playouts(pos, 10000, seed=seed)
                assert stats.games == 10000
                catena.perft(pos, 2)
                catena.solve(pos.copy(), max_nodes=2000)
        finally:
            stop = True
            thread.join()
        assert pos.ply == 0 and pos._consistency_errors() == []
        print("done")
    """)
    assert out.split() == ["done"]


def test_a_position_shared_by_threads_never_breaks():
    """Misuse: four threads push and pop one position.  Each call is whole (the GIL is
    held through a push or pop), so calls may fail but the position stays sound."""
    pos = Position(size=4)
    errors = []

    def churn(seed):
        import random
        rng = random.Random(seed)
        for _ in range(3000):
            try:
                if pos.ply and rng.random() < 0.45:
                    pos.pop()
                else:
                    moves = pos.legal_moves()
                    if moves:
                        pos.push(rng.choice(moves))
            except (catena.IllegalMoveError, IndexError):
                pass
            except Exception as exc:            # anything else is a bug
                errors.append(exc)

    threads = [threading.Thread(target=churn, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert pos._consistency_errors() == []
    replay = Position(size=4)
    for move in pos.move_stack:
        replay.push(move)
    assert replay == pos


# ---------------------------------------------------------------- command line: bad numbers refused up front

@pytest.mark.parametrize("args,words", [
    (["perft", "--depth", "-1"], "--depth"),
    (["selfplay", "--games", "-1"], "--games"),
    (["selfplay", "--games", "0"], "--games"),
    (["play", "--seconds", "-1"], "--seconds"),
    (["play", "--seconds", "nan"], "--seconds"),
    (["demo", "--iterations", "0"], "--iterations"),
    (["solve", "--size", "2", "--max-nodes", "0"], "--max-nodes"),
    (["solve", "--size", "2", "--max-seconds", "-2"], "--seconds"),          # --seconds's old name
    (["solve", "--size", "2", "--tt-mb", "0"], "--tt-mb"),
    (["perft", "--size", "0"], "board size"),
    (["solved", "--sizes", "2", "11"], "board size"),
])
def test_cli_refuses_bad_numbers_up_front(args, words, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "catena", *args], input="", capture_output=True,
                          text=True, timeout=60, cwd=tmp_path, env=child_env())
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == "", proc.stdout                      # nothing ran: no board, no setup
    assert proc.stderr.startswith("catena: ") and words in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
