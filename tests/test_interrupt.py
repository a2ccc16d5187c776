"""Ctrl-C during a long search ends it cleanly with what was found, and the objects stay usable."""

import _thread
import threading

import catena


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
