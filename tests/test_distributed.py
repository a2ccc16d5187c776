"""Distributed solving and self-play on a local Ray with 2 CPUs (catena.distributed), and the
warm-table solver its workers use (catena._solver.TableSolver).

Every distributed value is compared with catena.solve on the same position; self-play with
the serial run of the same seed.
"""

import importlib.util
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy
import pytest

import catena
from catena import distributed
from catena._solver import THREADS_LIMIT, UNBOUNDED, TableSolver, canonical_key, solver_moves
from catena.selfplay import selfplay_arrays

from conftest import TerminalChild

VARIANTS = [(g, s) for g in ("komi", "nokomi", "double") for s in ("standard", "longest", "square")]


# the tests of the driver's logic and of TableSolver need no Ray; the others skip without it
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="needs Ray (catena[distributed])")


@pytest.fixture(scope="session")
def local_ray():
    ray = pytest.importorskip("ray")
    os.environ.setdefault(distributed.NICENESS, "0")             # as distributed.solve's own local Ray
    ray.init(num_cpus=2, object_store_memory=80 * 1024 * 1024, include_dashboard=False,
             logging_level="ERROR")
    yield ray
    ray.shutdown()


def random_position(size, game_type, scoring, plies, seed, komi=0):
    rng = random.Random(seed)
    pos = catena.Position(size, game_type, scoring, komi)
    for _ in range(plies):
        if pos.is_game_over():
            break
        pos.push(rng.choice(pos.legal_moves()))
    return pos


def legal_cells(pos):
    return sum(1 for m in pos.legal_moves() if not m.is_button)


def side4_position(game_type, scoring, cells, seed):
    """Seeded random play on side 4 until ``cells`` legal cells remain (as bench/solver_side4.py)."""
    while True:
        rng = random.Random(seed)
        pos = catena.Position(4, game_type, scoring, 0)
        while not pos.is_game_over() and legal_cells(pos) > cells:
            pos.push(rng.choice(pos.legal_moves()))
        if not pos.is_game_over() and legal_cells(pos) == cells:
            return pos
        seed += 1


def assert_same_result(got, expected, pos):
    assert got.solved and expected.solved
    assert (got.value, got.winner) == (expected.value, expected.winner)
    line = pos.copy()                          # the principal variation is legal and reaches the value
    for move in got.pv:
        line.push(move)
    assert line.is_game_over()
    outcome = line.outcome()
    if pos.scoring == "longest":
        assert (outcome.winner or "draw") == expected.winner
    else:
        assert outcome.black_score - outcome.white_score == expected.value


# ---------------------------------------------------------------------------
# TableSolver


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game_type,scoring", VARIANTS)
def test_table_solver_values_equal_solve(game_type, scoring, threads):
    solver = TableSolver(tt_mb=4, threads=threads)
    for seed in range(4):
        pos = random_position(3, game_type, scoring, 6 + seed, seed)
        if pos.is_game_over():
            continue
        lower, upper, _, stopped = solver.solve(pos)
        expected = catena.solve(pos, threads=1)
        units = 1 if scoring == "longest" else 2
        assert stopped is None and lower == upper == round(units * expected.lower)


def test_table_solver_keeps_its_table_and_forgets_other_games():
    pos = random_position(3, "komi", "standard", 4, 1)
    solver = TableSolver(tt_mb=8)
    first = solver.solve(pos)
    again = solver.solve(pos)
    assert again[:2] == first[:2] and again[2] < first[2] / 4       # the warm table answers at once
    other = catena.Position(3, "komi", "standard", 3)                # another komi: another game
    for move in pos.move_stack:
        other.push(move)
    expected = catena.solve(other, threads=1)
    assert solver.solve(other)[:2] == (round(2 * expected.value),) * 2
    assert solver.solve(pos)[:2] == first[:2]


@pytest.mark.parametrize("threads", [1, 2])
def test_table_solver_windows_limits_and_principal_variation(threads):
    pos = random_position(3, "double", "square", 5, 2)
    value = round(2 * catena.solve(pos, threads=1).value)
    solver = TableSolver(tt_mb=4, threads=threads)
    lower, upper, _, stopped = solver.solve(pos, window=(value - 1, value))
    assert stopped is None and lower >= value and upper == UNBOUNDED
    lower, upper, _, _ = TableSolver(tt_mb=4, threads=threads).solve(pos, window=(value, value + 1))
    assert upper <= value and lower == -UNBOUNDED
    lower, upper, nodes, stopped = TableSolver(tt_mb=4, threads=threads).solve(catena.Position(size=4),
                                                                               max_nodes=5000)
    # the limit is on every thread's nodes, checked by each thread every 1024 of its own
    assert stopped == "nodes" and lower < upper and 5000 <= nodes < 5000 + 2048 * threads
    line = solver.principal_variation(pos, value)
    end = pos.copy()
    for move in line:
        end.push(move)
    assert end.is_game_over() and round(2 * (end.outcome().black_score - end.outcome().white_score)) == value
    with pytest.raises(ValueError, match="not the value"):
        solver.principal_variation(pos, value + 2)


def test_table_solver_move_order_is_what_its_searches_learnt():
    pos = random_position(3, "komi", "standard", 4, 3)
    solver = TableSolver(tt_mb=4)
    assert solver.move_order(pos) == solver_moves(pos)        # nothing learnt yet: the generator's order
    lower, upper, _, _ = solver.solve(pos)
    order = solver.move_order(pos)
    assert sorted(order) == sorted(solver_moves(pos)) and order != solver_moves(pos)
    assert order[0] == solver.principal_variation(pos, lower)[0]     # the table's best move first
    over = random_position(2, "komi", "standard", 99, 9)
    assert over.is_game_over()
    with pytest.raises(ValueError, match="game is over"):
        solver.move_order(over)


def test_table_solver_bad_input_and_threads():
    solver = TableSolver(tt_mb=1)
    with pytest.raises(TypeError, match="catena.Position"):
        solver.solve("B2")
    with pytest.raises(TypeError, match="window"):
        solver.solve(catena.Position(size=2), window=5)
    with pytest.raises(ValueError, match="max_nodes"):
        solver.solve(catena.Position(size=2), max_nodes=0)
    with pytest.raises(ValueError, match="tt_mb"):
        TableSolver(tt_mb=-1)
    with pytest.raises(ValueError, match="threads"):
        TableSolver(threads=0)
    with pytest.raises(TypeError, match="threads"):
        TableSolver(threads=1.5)
    with pytest.raises(RuntimeError, match="inside solve"):           # a thread's loop has no position yet
        TableSolver(threads=2)._work(1)
    over = random_position(2, "komi", "standard", 40, 0)
    assert over.is_game_over()
    with pytest.raises(ValueError, match="over"):
        solver.solve(over)
    # a second thread while one solves: RuntimeError, and interrupt() stops the first (and its helper)
    big = TableSolver(tt_mb=16, threads=2)
    pos = catena.Position(size=4)
    results = []
    worker = threading.Thread(target=lambda: results.append(big.solve(pos)))
    worker.start()
    time.sleep(0.3)
    with pytest.raises(RuntimeError, match="another thread"):
        big.solve(pos)
    big.interrupt()
    worker.join(10)
    assert not worker.is_alive() and results[0][3] == "interrupt"
    assert big.solve(catena.Position(size=2))[:2] == (5, 5)           # usable afterwards


def test_table_solvers_sharing_a_table():
    owner = TableSolver(tt_mb=8)
    sharer = TableSolver(share=owner)
    positions = [random_position(3, "komi", "standard", 3 + seed, seed) for seed in range(4)]
    expected = [round(2 * catena.solve(pos, threads=1).value) for pos in positions]
    first = owner.solve(positions[0])
    again = sharer.solve(positions[0])
    assert again[:2] == first[:2] and again[2] < first[2] / 4       # it finds what the owner stored
    answers = {}

    def solve_all(solver, name):
        answers[name] = [solver.solve(pos)[:2] for pos in positions]

    threads = [threading.Thread(target=solve_all, args=(solver, name))
               for solver, name in ((owner, "owner"), (sharer, "sharer"),
                                    (TableSolver(share=sharer, threads=2), "third"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(answers[name] == [(v, v) for v in expected] for name in ("owner", "sharer", "third"))
    with pytest.raises(TypeError, match="share"):
        TableSolver(share="table")


def test_a_shared_table_serves_one_game_at_a_time():
    owner = TableSolver(tt_mb=16)
    sharer = TableSolver(share=owner)
    results = []
    worker = threading.Thread(target=lambda: results.append(owner.solve(catena.Position(size=4))))
    worker.start()
    time.sleep(0.3)
    other_game = random_position(3, "komi", "square", 4, 3)
    with pytest.raises(RuntimeError, match="another game"):       # it would empty the table under the owner
        sharer.solve(other_game)
    owner.interrupt()
    worker.join(10)
    assert not worker.is_alive() and results[0][3] == "interrupt"
    value = round(2 * catena.solve(other_game, threads=1).value)
    assert sharer.solve(other_game)[:2] == (value, value)           # free again, the table emptied


def test_each_sharer_empties_its_own_near_leaf_table_for_a_new_game():
    owner = TableSolver(tt_mb=65)                 # over 64 MB: a near-leaf table, one per solver
    sharer = TableSolver(share=owner)
    for seed in range(3):
        games = {scoring: random_position(3, "komi", scoring, 4, seed) for scoring in ("standard", "square")}
        values = {scoring: round(2 * catena.solve(pos, threads=1).value) for scoring, pos in games.items()}
        for solver, scoring in ((sharer, "standard"), (owner, "square"), (sharer, "square"),
                                (sharer, "standard"), (owner, "standard")):
            assert solver.solve(games[scoring])[:2] == (values[scoring],) * 2, (seed, scoring)


def test_canonical_key_and_solver_moves():
    pos = catena.Position(size=3)
    keys = {}
    for move in solver_moves(pos):
        pos.push(move)
        keys.setdefault(canonical_key(pos), []).append(move)
        pos.pop()
    # side 3: 19 cells fall into 4 classes under the 12 symmetries (centre, inner ring, corners,
    # edge middles), the button is a fifth
    assert len(keys) == 5
    assert sorted(solver_moves(pos)) == sorted(m.index for m in pos.legal_moves())


# ---------------------------------------------------------------------------
# distributed.solve


def test_work_units_cover_the_tree():
    for game_type, scoring in VARIANTS:
        pos = catena.Position(3, game_type, scoring)
        plan = distributed.work_units(pos, 2)
        total = sum(1 for leaf in plan.leaves)
        assert total == catena.perft(pos, 2) and len(plan.units) < total


@pytest.mark.parametrize("game_type,scoring", VARIANTS)
def test_side3_values_equal_solve(local_ray, game_type, scoring):
    pos = random_position(3, game_type, scoring, 2, 7)
    expected = catena.solve(pos, threads=1)
    assert_same_result(distributed.solve(pos, workers=2), expected, pos)


@pytest.mark.parametrize("game_type,scoring,cells,threads", [("komi", "square", 24, 1), ("double", "longest", 24, 1),
                                                              ("komi", "longest", 26, 1), ("komi", "standard", 24, 2),
                                                              ("double", "square", 24, 2)])
def test_side4_values_equal_solve(local_ray, game_type, scoring, cells, threads):
    pos = side4_position(game_type, scoring, cells, 1000 * cells)
    expected = catena.solve(pos, tt_mb=128)
    stats = {}
    got = distributed.solve(pos, workers=2, tt_mb=128, threads=threads, stats=stats)
    assert_same_result(got, expected, pos)
    assert stats["units"] >= 8 and stats["answers"] >= 1 and stats["searchers"] == 2 // threads
    windows = stats["windows"]                 # each null window's answer agrees with the value
    assert windows and all(w["answer"] == ("yes" if expected.lower >= w["beta"] else "no")
                           for w in windows)
    assert sum(w["answers"] for w in windows) == stats["answers"] and sum(w["nodes"] for w in windows) == stats["nodes"]
    assert 0 < sum(w["seconds"] for w in windows) <= stats["seconds"]


def test_seats_fill_one_machine_after_another():
    assert distributed._seats([2], 2) == [2]
    assert distributed._seats([2, 2], 3) == [2, 1]
    assert distributed._seats([4, 4], 1) == [1, 0]
    assert distributed._seats([2], 3) == [3]                         # more workers than CPUs: they share
    assert distributed._seats([1, 2], 5) == [2, 3]


def test_a_machines_workers_form_searchers_of_threads():
    assert distributed._searchers(2, 1) == [1, 1]                    # default: a unit each
    assert distributed._searchers(2, 2) == [2]
    assert distributed._searchers(5, 2) == [2, 2, 1]
    assert distributed._searchers(3, 8) == [3]
    with pytest.raises(ValueError, match="threads"):
        distributed.solve(catena.Position(size=2), threads=0)


def test_split_unit_keeps_its_bounds_and_adds_its_children():
    pos = catena.Position(size=3)
    plan = distributed.work_units(pos, 1)
    key = next(iter(plan.units))
    cache = {key: [-3, 5]}
    distributed._split(plan, pos, key)
    node = next(child for child in plan.root.children if child.key == key)
    assert len(node.children) == len(solver_moves(catena.Position(size=3))) - 1
    assert all(child in plan.leaves for child in node.children) and node not in plan.leaves
    assert distributed._bounds(node, cache) == (-3, 5)               # the unit's own proof still counts
    for child in node.children:
        cache[child.key] = [-10, 10]
    assert distributed._bounds(node, cache) == (-3, 5)               # children cannot widen it ...
    for child in node.children:
        cache[child.key] = [1, 2]
    assert distributed._bounds(node, cache) == (1, 2)                # ... and narrow it
    wanted = {}
    distributed._undecided(plan.root, {}, 0, True, wanted)
    assert key not in wanted and set(child.key for child in node.children) <= set(wanted)


def test_a_split_unit_takes_its_children_in_the_order_its_searches_learnt():
    pos = catena.Position(size=3)
    plan = distributed.work_units(pos, 1)
    key = next(iter(plan.units))
    asked = []

    def reversed_order(moves):
        asked.append(moves)
        p = pos.copy()
        for move in moves:
            p.push(move)
        return solver_moves(p)[::-1]

    distributed._split(plan, pos, key, reversed_order)
    nodes = [child for child in plan.root.children if child.key == key]    # symmetric first moves
    assert len(nodes) > 1 and asked == [node.moves for node in nodes]      # each its own order
    for node in nodes:
        assert [child.moves[-1] for child in node.children] == reversed_order(node.moves)


def _units_below(node):
    return {node.key} if not node.children else set().union(*(_units_below(child) for child in node.children))


@pytest.mark.parametrize("expect_yes", [True, False])
def test_speculation_counts_the_cut_nodes_an_elder_brother_may_decide(expect_yes):
    # Black to move: "value >= 0?" answered yes by one good first move (its replies all needed), no
    # by every first move failing (each refuted by one reply).
    plan = distributed.work_units(catena.Position(size=3), 2)
    assert plan.root.maximising and not plan.root.children[0].maximising
    wanted = {}
    distributed._undecided(plan.root, {}, 0, expect_yes, wanted)
    assert set(wanted) == set(plan.units) and set(wanted.values()) == {0, 1}
    if expect_yes:
        needed = _units_below(plan.root.children[0])
    else:
        needed = {child.children[0].key for child in plan.root.children}
    assert {key for key, speculation in wanted.items() if speculation == 0} == needed


def test_a_proven_bound_makes_a_child_the_eldest():
    # The child with the best proven bound is searched first, so it is the one a cut node needs.
    plan = distributed.work_units(catena.Position(size=3), 2)
    best = plan.root.children[-1]
    cache = {key: [-2, 2] for key in _units_below(best)}            # undecided at beta 1, but bounded
    wanted = {}
    distributed._undecided(plan.root, cache, 1, True, wanted)
    assert {key for key, speculation in wanted.items() if speculation == 0} == _units_below(best)


@pytest.mark.parametrize("game_type,scoring,cells", [("komi", "standard", 24), ("double", "square", 24)])
def test_values_hold_when_units_are_split(local_ray, monkeypatch, game_type, scoring, cells):
    # A unit is split when a searcher idles while it runs: here at once, and with one window at a
    # time (no second window to keep the other searcher busy), so every window's last unit is split.
    # Two searchers of one thread each (threads=1): a machine's workers as one searcher never idle.
    monkeypatch.setattr(distributed, "SPLIT_SECONDS", 0.0)
    monkeypatch.setattr(distributed, "_second_window", lambda *args: None)
    pos = side4_position(game_type, scoring, cells, 1000 * cells + 7)
    expected = catena.solve(pos, tt_mb=128)
    stats = {}
    assert_same_result(distributed.solve(pos, workers=2, tt_mb=64, threads=1, stats=stats), expected, pos)
    assert stats["splits"] >= 1 and stats["searchers"] == 2
    # A searcher runs one unit at a time, so its answered and cancelled searches fit in the wall time.
    busy = sum(stats["unit_seconds"]) + stats["cancelled_seconds"]
    assert (stats["cancelled_seconds"] > 0) == (stats["cancelled"] > 0)
    assert 0 < busy <= stats["searchers"] * stats["seconds"]
    # Every cancelled second has one reason, and the windows share them out.
    assert set(stats["cancelled_by"]) <= {"cutoff", "split", "preempt"}
    assert sum(stats["cancelled_by"].values()) == pytest.approx(stats["cancelled_seconds"])
    assert sum(w["cancelled_seconds"] for w in stats["windows"]) == pytest.approx(stats["cancelled_seconds"])


def test_value_grid_holds_for_solved_values():
    # The second window a second worker tests is placed on this grid; a wrong grid would not give a
    # wrong value (it is speculation), only wasted work, so the grid is checked here directly.
    for game_type in ("komi", "nokomi", "double"):
        for scoring in ("standard", "square", "longest"):
            for seed in range(6):
                pos = random_position(3, game_type, scoring, seed % 3, seed)
                value = catena.solve(pos, threads=1).lower
                units = round(value if scoring == "longest" else 2 * value)
                step, parity = distributed._value_grid(pos)
                assert units % step == parity % step, (game_type, scoring, seed, value)


def test_second_window_is_the_next_distinct_question():
    odd, whole, inf = (2, 1), (1, 0), distributed.INF
    unbounded = dict(lower=-inf, upper=inf, run=0, lo2=-inf, hi2=inf)
    assert distributed._second_window(0, grid=odd, **unbounded) == 2      # v >= 0 is v >= 1; next v >= 3
    assert distributed._second_window(1, grid=odd, **unbounded) == 2
    assert distributed._second_window(4, grid=(2, 0), **unbounded) == 5   # even values: v >= 4, then v >= 6
    assert distributed._second_window(9, -inf, 11, -1, -inf, inf, odd) == 7  # after a "no": below
    assert distributed._second_window(9, -inf, 9, -1, -inf, inf, odd) is None  # v = 9 expected: all asked
    assert distributed._second_window(0, grid=whole, **unbounded) == 1
    assert distributed._second_window(3, 1, 3, 0, -inf, inf, odd) is None  # decides it all
    assert distributed._second_window(0, -inf, inf, 0, 0, 0, odd) is None  # past the window
    # The steps double once the answers go one way a few times (v >= 3 after three: next v >= 7),
    # and once both bounds are far apart the windows halve the gap: v >= 171 expected to fail, so v >= 85.
    assert distributed._second_window(3, 1, inf, 1, -inf, inf, odd) == 4
    assert distributed._second_window(3, 1, inf, 3, -inf, inf, odd) == 7
    assert distributed._second_window(171, 1, 341, -1, -inf, inf, odd) == 85


def test_the_bet_is_the_last_answer_or_the_fail_soft_bound():
    inf = distributed.INF
    assert distributed._expects_yes(0, inf, 0)          # the first window
    assert distributed._expects_yes(5, inf, 2)          # rising: again "yes"
    assert not distributed._expects_yes(5, 9, -1)       # falling: again "no"
    # beta at the upper bound a "no" just proved asks whether the value is that bound: MTD(f)'s
    # usual last window, which 32@32001 answers "yes" (docs/distributed.md)
    assert distributed._expects_yes(9, 9, -1)


def test_work_is_queued_needed_first():
    # Ranks: speculation, plus one for the second window (beta 5).
    ranks = {(11, 3): 0, (12, 3): 1, (13, 3): 0, (11, 5): 1, (14, 5): 1, (15, 5): 2}
    queue = distributed._work_queue(ranks, busy={(11, 3)})
    assert queue == [(13, 3), (12, 3), (11, 5), (14, 5), (15, 5)]
    assert [item for _, item in distributed._assign(queue, {}, {0, 1}, [0, 0])] == [(13, 3), (12, 3)]
    assert distributed._work_queue(ranks, busy=set(ranks)) == []


def test_speculation_makes_way_for_needed_work():
    inflight = {"a": (11, 3, 0, 10.0), "b": (12, 3, 1, 11.0), "c": (14, 5, 2, 9.0), "d": (15, 5, 3, 12.0)}
    ranks = {(11, 3): 0, (12, 3): 1, (14, 5): 1, (15, 5): 2}
    assert distributed._most_speculative(inflight, set(), ranks, 2, 1) == ["d", "b"]   # most speculative, youngest
    assert distributed._most_speculative(inflight, {"d"}, ranks, 5, 1) == ["b", "c"]   # never a needed one
    assert distributed._most_speculative(inflight, set(), ranks, 0, 1) == []
    # Half the searchers may go on speculating: of four, two (one needed, three speculating).
    assert distributed._most_speculative(inflight, set(), ranks, 5, 4) == ["d"]
    assert distributed._most_speculative(inflight, {"d"}, ranks, 5, 4) == []
    assert distributed._most_speculative({"b": inflight["b"]}, set(), ranks, 1, 2) == []   # two: one may


def test_the_unit_to_split_is_the_longest_needed_one(monkeypatch):
    plan = distributed.work_units(catena.Position(size=3), 1)
    old, young, speculative = list(plan.units)[:3]
    assert not any(plan.maximising.values())                     # White to move after Black's first move
    now = time.perf_counter()
    inflight = {"a": (old, 1, 0, now - 5), "b": (young, 1, 1, now - 1), "c": (speculative, 1, 2, now - 60)}
    ranks = {(old, 1): 0, (young, 1): 0, (speculative, 1): 1}
    # A searcher idle: any running search, the least speculative first.
    assert distributed._split_due(inflight, set(), plan, ranks, None) == (old, 0.0)
    assert distributed._split_due(inflight, {"a", "b"}, plan, ranks, None) == (speculative, 0.0)
    # The others speculating: only a needed unit that needs every child.  White to move there, so
    # "value >= beta?" expected "yes" needs all White's replies; expected "no", one refutes it.
    assert distributed._split_due(inflight, set(), plan, ranks, True) == (old, 0.0)
    assert distributed._split_due(inflight, set(), plan, ranks, False) == (None, 0.5)
    assert distributed._split_due(inflight, {"a", "b"}, plan, ranks, True) == (None, 0.5)
    plan.split.add(old)
    assert distributed._split_due(inflight, set(), plan, ranks, True) == (young, 0.0)
    monkeypatch.setattr(distributed, "SPLIT_SECONDS", 1.3)
    key, wait = distributed._split_due(inflight, set(), plan, ranks, True)
    assert key is None and 0.1 < wait <= 0.3                     # the young one is due in 0.3 s
    monkeypatch.setattr(distributed, "SPLIT_SECONDS", 60.0)
    assert distributed._split_due(inflight, set(), plan, ranks, None) == (None, 0.5)


def test_a_solve_frees_its_workers_cpus(local_ray):
    # Left to garbage collection, the actors held their CPUs into the next solve, which then ran
    # on fewer workers than asked (it made the 2-worker benchmark as slow as the 1-worker one).
    pos = random_position(3, "komi", "standard", 2, 5)
    distributed.solve(pos, workers=2)
    deadline = time.monotonic() + 10
    while local_ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert local_ray.available_resources().get("CPU", 0) == 2


def test_every_split_depth_gives_the_value(local_ray):
    pos = random_position(3, "komi", "standard", 3, 4)
    expected = catena.solve(pos, threads=1)
    for depth in (0, 1, 3):
        assert_same_result(distributed.solve(pos, workers=2, depth=depth), expected, pos)


def test_ctrl_c_during_the_principal_variation_keeps_the_value(local_ray, monkeypatch):
    """Ctrl-C while a worker walks its unit's line: the proven value is kept with the top
    tree's part of the line (as catena.solve keeps the line walked so far)."""
    pos = random_position(3, "komi", "standard", 3, 4)
    expected = catena.solve(pos, threads=1)

    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(distributed, "_unit_line", interrupted)
    result = distributed.solve(pos, workers=2, depth=1)
    assert result.value == expected.value and result.stopped_by is None
    assert len(result.pv) == 1                    # the top tree's move; the unit's line was cut
    assert result.pv[0] in pos.legal_moves()


def test_window_proofs(local_ray):
    for game_type, scoring in [("komi", "standard"), ("double", "square"), ("nokomi", "longest")]:
        pos = random_position(3, game_type, scoring, 3, 11)
        value = catena.solve(pos, threads=1).lower
        step = 1 if scoring == "longest" else 0.5
        above = distributed.solve(pos, workers=2, window=(value - step, value - step))
        assert above.stopped_by == "window" and not above.solved and above.lower >= value - step / 2
        below = distributed.solve(pos, workers=2, window=(value + step, value + step))
        assert below.stopped_by == "window" and below.upper <= value + step / 2
        around = distributed.solve(pos, workers=2, window=(value - 2, value + 2))
        assert around.solved and around.lower == value
    pos = random_position(3, "komi", "standard", 3, 11)
    expected = catena.solve(pos, threads=1, window=(0, 0))
    got = distributed.solve(pos, workers=2, window=(0, 0))
    assert got.winner == expected.winner and got.stopped_by == expected.stopped_by


def test_checkpoint_resumes(local_ray, tmp_path):
    # One worker throughout: with two, the order of answers (and so how many a solve needs) varies
    # from run to run, and a solve cut after k answers would not be the first k answers of another.
    pos = random_position(3, "komi", "square", 1, 3)
    expected = catena.solve(pos, threads=1)
    fresh_stats: dict = {}
    assert_same_result(distributed.solve(pos, workers=1, stats=fresh_stats), expected, pos)
    path = tmp_path / "unit-bounds.json"
    cut = distributed.solve(pos, workers=1, checkpoint=path, max_units=3 * fresh_stats["answers"] // 4)
    assert not cut.solved and cut.stopped_by == "units" and path.exists()
    assert not (tmp_path / "unit-bounds.json.tmp").exists()
    resumed_stats: dict = {}
    resumed = distributed.solve(pos, workers=1, checkpoint=path, stats=resumed_stats)
    assert_same_result(resumed, expected, pos)
    # The file holds three quarters of the work; the search order and warm tables it does not hold
    # cost a little (measured: 35-73 answers against 240-258 on three positions).
    assert resumed_stats["answers"] < fresh_stats["answers"] // 2
    again: dict = {}                # two workers would split deeper; a resume keeps the file's depth
    assert_same_result(distributed.solve(pos, workers=2, checkpoint=path, stats=again), expected, pos)
    assert again["answers"] == 0 and again["depth"] == resumed_stats["depth"]   # every bound is in the file


def test_bad_input_raises_before_any_work(tmp_path):
    pos = catena.Position(size=3)
    with pytest.raises(TypeError, match="catena.Position"):
        distributed.solve("B2")
    with pytest.raises(TypeError, match="window"):
        distributed.solve(pos, window=3)
    with pytest.raises(ValueError, match="lo <= hi"):
        distributed.solve(pos, window=(2, 1))
    with pytest.raises(ValueError, match="depth"):
        distributed.solve(pos, depth=9)
    with pytest.raises(ValueError, match="max_units"):
        distributed.solve(pos, max_units=0)
    with pytest.raises(ValueError, match="tt_mb"):
        distributed.solve(pos, tt_mb=0)
    with pytest.raises(TypeError, match="address"):
        distributed.solve(pos, address=6379, max_units=1)
    with pytest.raises(ValueError, match="workers"):
        distributed.solve(pos, workers=0)
    with pytest.raises(ValueError, match="threads"):
        distributed.solve(pos, threads=THREADS_LIMIT + 1)    # what TableSolver would refuse
    with pytest.raises(ValueError, match="threads"):
        TableSolver(threads=THREADS_LIMIT + 1)
    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    with pytest.raises(ValueError, match="not a catena distributed-solve checkpoint"):
        distributed.solve(pos, checkpoint=junk)
    other = tmp_path / "other.json"
    distributed._write_checkpoint(str(other), catena.Position(size=2), {}, 1)
    with pytest.raises(ValueError, match="another game"):
        distributed.solve(pos, checkpoint=other)
    deep = tmp_path / "deep.json"
    distributed._write_checkpoint(str(deep), pos, {}, distributed.MAX_DEPTH + 1)
    with pytest.raises(ValueError, match="split depth"):
        distributed.solve(pos, checkpoint=deep)
    with pytest.raises(ValueError, match="n_games"):
        distributed.selfplay(-1)
    with pytest.raises(ValueError, match="size"):
        distributed.selfplay(1, size=11)
    with pytest.raises(ValueError, match="iterations"):
        distributed.selfplay(1, iterations=0)


# ---------------------------------------------------------------------------
# distributed.selfplay


def test_selfplay_records_equal_serial(local_ray, tmp_path):
    serial = subprocess.run([sys.executable, "-m", "catena", "selfplay", "--size", "3", "--games", "6",
                             "--iterations", "80", "--seed", "21", "--out", "serial"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert serial.returncode == 0, serial.stderr
    summary = distributed.selfplay(6, seed=21, out=tmp_path / "ray", size=3, iterations=80)
    assert summary["games"] == 6 and summary["P1"] + summary["P2"] + summary["draws"] == 6
    names = sorted(p.name for p in (tmp_path / "serial").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "ray").iterdir()) and len(names) == 6
    for name in names:
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "serial" / name).read_text()
    assert f"P1 {summary['P1']}, P2 {summary['P2']}" in serial.stdout


def test_selfplay_arrays_equal_serial(local_ray, tmp_path):
    expected = selfplay_arrays(4, size=3, game_type="double", scoring="square", iterations=40, seed=5)
    summary = distributed.selfplay(4, seed=5, npz=tmp_path / "ray.npz", size=3, game_type="double",
                                   scoring="square", iterations=40)
    saved = numpy.load(tmp_path / "ray.npz")
    for name, column in expected.items():
        assert numpy.array_equal(summary["arrays"][name], column, equal_nan=column.dtype.kind == "f")
        assert numpy.array_equal(saved[name], column, equal_nan=column.dtype.kind == "f")
    assert summary["black"] + summary["white"] + summary["draws"] == 4


@needs_ray
def test_sigterm_stops_a_ray_solve_as_ctrl_c_does(tmp_path):
    """ray.init sets a SIGTERM handler of its own that exits at once; the command line's, which stops
    as Ctrl-C does (the bounds reported, the checkpoint written), stays in force."""
    child = TerminalChild([sys.executable, "-m", "catena", "solve", "--size", "4", "G4", "E6", "D7", "E7", "D5",
                           "--ray", "--workers", "1", "--tt-mb", "16", "--checkpoint", "run.json"], tmp_path,
                          timeout=420)                  # the progress bar shows on a terminal only
    child.read_until("value in [")                      # the first units answered: the solve is under way
    child.send_signal(signal.SIGTERM)
    out, err = child.finish()
    assert child.returncode == 130 and "Traceback" not in err, err
    assert "unsolved (stopped by interrupt): value in [" in out
    assert json.loads((tmp_path / "run.json").read_text())["format"] == distributed.CHECKPOINT_FORMAT


def descendants(root):
    """The processes started by ``root``, its children's children included (from /proc)."""
    children: dict = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the worker processes in /proc")
def test_a_killed_worker_is_started_again_and_the_value_holds(local_ray):
    """A worker killed during the solve ended it with ActorDiedError and a traceback."""
    pos = random_position(3, "komi", "standard", 2, 4)
    expected = catena.solve(pos, threads=1)
    killed = []

    def kill_the_workers(*progress):
        if not killed:                  # the first answer is in: the rest is asked of a dead worker
            for pid in descendants(os.getpid()):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                        if b"_UnitSolver" in cmdline.read():
                            os.kill(pid, signal.SIGKILL)
                            killed.append(pid)
                except OSError:
                    pass

    stats: dict = {}
    got = distributed.solve(pos, workers=2, progress=kill_the_workers, stats=stats)
    assert killed and stats["lost"] >= 1
    assert_same_result(got, expected, pos)


@needs_ray
def test_an_address_where_nothing_listens_fails_at_once(tmp_path):
    """ray.init waited on 127.0.0.1:1 for as long as anyone watched (300 s and more)."""
    with socket.socket() as probe:                      # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for address in (f"127.0.0.1:{port}", "127.0.0.1:1"):
        proc = subprocess.run([sys.executable, "-m", "catena", "solve", "--size", "3", "--ray", address],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert f"no Ray cluster answers at {address}" in proc.stderr and "ray start --head" in proc.stderr


def session_processes(sid):
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.getsid(int(name)) == sid and running(int(name)):
                    found.append(int(name))
            except OSError:
                pass
    return found


@needs_ray
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds Ray's processes in /proc")
def test_ctrl_c_while_ray_starts_stops_cleanly_and_leaves_nothing(tmp_path):
    """Ctrl-C while Ray started printed a traceback, left Ray's processes running, or crashed (SIGSEGV)."""
    child = TerminalChild([sys.executable, "-m", "catena", "solve", "--size", "3", "B2", "--ray", "--workers", "1"],
                          tmp_path, timeout=300, start_new_session=True)   # the bar shows on a terminal only
    pid = child.proc.pid
    try:
        child.read_until("solving")                       # Ray is being imported and started
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, err = child.finish()
        assert child.returncode == 130 and "Traceback" not in err, err
        assert "unsolved (stopped by interrupt)" in out
        deadline = time.monotonic() + 10
        while session_processes(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not session_processes(pid), "Ray's processes outlived the solve"
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
        for leftover in session_processes(pid):
            os.kill(leftover, signal.SIGKILL)


def test_cli_solve_and_selfplay_on_ray(local_ray, tmp_path):
    """solve starts a Ray of its own; selfplay joins the running one by its address."""
    solved = subprocess.run([sys.executable, "-m", "catena", "solve", "--size", "3", "B2", "C3",
                             "--ray", "--workers", "2", "--threads", "2"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)
    assert solved.returncode == 0, solved.stderr
    pos = catena.Position(size=3)
    pos.push("B2")
    pos.push("C3")
    assert f"value {catena.solve(pos).value:+g}" in solved.stdout
    played = subprocess.run([sys.executable, "-m", "catena", "selfplay", "--size", "2", "--games", "2",
                             "--iterations", "30", "--seed", "1", "--out", "games",
                             "--ray", local_ray.get_runtime_context().gcs_address, "--workers", "2"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    assert "2 games" in played.stdout and len(list((tmp_path / "games").iterdir())) == 2
    bad = subprocess.run([sys.executable, "-m", "catena", "solve", "--size", "3", "--ray", "--workers", "0"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--workers" in bad.stderr and "Traceback" not in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "catena", "solve", "--size", "3", "--ray", "--threads", "0"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "threads" in bad.stderr and "Traceback" not in bad.stderr
