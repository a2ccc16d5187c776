"""Tests of the exact solver, ``catena.solve``, and of catena.solved (fair komi, tables).

The solver is checked through its results only (the solver key is not exposed):

* against an exhaustive minimax (tests/conftest.py: no table, no pruning) on the empty boards of
  sides 1 and 2 and on side-3/4 endgames reached by seeded random play;
* the best move keeps the value, the principal variation is legal and scores the value;
* positions that are images of each other under the 12 board symmetries, or that differ
  only in where the colours sit inside an unbounded ribbon (F4 of the rules), get equal
  values;
* node and time limits, progress callbacks, bounds proven before a stop;
* regression values of the empty boards of sides 1-3 and the fair komi;
* a side-6 endgame, agreement with MCTS, bad input and finished games.

Values are Black's score minus White's in points (komi and the button's half point
included); under longest-ribbon scoring only the winner, here written +1 / 0 / -1.
Rule numbers (R.., F4) refer to docs/rules.md.
"""

import dataclasses
import functools
import random
import threading
import time

import pytest

import catena
import catena.solved
from catena import Position
from catena.solved import fair_komi, komi_table, nokomi_table

from conftest import final_value, minimax_value

GAME_TYPES = ("komi", "nokomi", "double")
SCORINGS = ("standard", "longest", "square")
COMBOS = [(g, s) for g in GAME_TYPES for s in SCORINGS]
SIGN = {"black": 1, "white": -1, "draw": 0}
KOMI_MAX = {"standard": 15, "longest": 15, "square": 1000}       # R22
TT_MB = 16       # small tables: every position solved here is small
both_thread_counts = pytest.mark.usefixtures("solver_threads")


@pytest.fixture(params=[1, 2], ids=["threads1", "threads2"])
def solver_threads(request, monkeypatch):
    """A test of values runs with one search thread and with two sharing the table (the value
    must not depend on it); the other tests run once, with the default threads."""
    solve = functools.partial(catena.solver.solve, threads=request.param)
    monkeypatch.setattr(catena, "solve", solve)
    monkeypatch.setattr(catena.solved, "solve", solve)
    monkeypatch.setattr(catena.solver, "solve", solve)          # what solve_after calls
    return request.param


# ---------------------------------------------------------------- helpers

def solved_value(result, scoring):
    """The solver's value in the brute force's terms (the winner's sign under longest)."""
    assert result.solved, result
    if scoring == "longest":
        assert result.value is None, result
        return SIGN[result.winner]
    return result.value


def winner_of(value):
    return "black" if value > 0 else ("white" if value < 0 else "draw")


def check_result_shape(result, pos):
    """A solved result is self-consistent: winner from the value, bounds equal to it."""
    assert result.solved and result.stopped_by is None
    if pos.scoring == "longest":
        assert result.value is None
        assert result.winner in ("black", "white", "draw")
        assert result.lower == result.upper == SIGN[result.winner]
    else:
        assert result.winner == winner_of(result.value)
        assert result.lower == result.upper == result.value
        assert (2 * result.value) == int(2 * result.value)      # whole or half points
    assert result.nodes >= 0 and result.seconds >= 0


def random_endgame(size, game_type, scoring, seed, max_moves=8, komi=0, cells_only=False):
    """Seeded random play from the empty board until at most ``max_moves`` legal moves
    remain (``cells_only``: count cells, never take the button)."""
    rng = random.Random(seed)
    pos = Position(size, game_type, scoring, komi)

    def moves():
        found = pos.legal_moves()
        return [m for m in found if not m.is_button] if cells_only else found

    while not pos.is_game_over() and len(moves()) > max_moves:
        pos.push(rng.choice(moves()))
    return pos


def replay(size, game_type, scoring, komi, moves):
    """The position after ``moves`` from the empty board, or None if one is illegal."""
    pos = Position(size, game_type, scoring, komi)
    for move in moves:
        if not pos.is_legal(move):
            return None
        pos.push(move)
    return pos


def shown_colours(pos):
    return [pos.stone_at(c) for c in range(len(catena.cells(pos.size)))]


def placers(pos):
    """The colour that played each move of the history."""
    out = []
    q = Position(pos.size, pos.game_type, pos.scoring, pos.komi)
    for move in pos.move_stack:
        out.append(q.to_move)
        q.push(move)
    return out


def endgame_suite():
    """Side-3 and side-4 endgames (<= 8 legal moves) over every game type and scoring,
    komi games at several komis."""
    out = []
    for size, seeds in ((3, range(10)), (4, range(5))):
        for game_type, scoring in COMBOS:
            for seed in seeds:
                komi = 0
                if game_type == "komi":
                    komi = random.Random(seed).choice((0, 1, 3, 7, 15) if scoring != "square"
                                                      else (0, 2, 9, 40, 1000))
                pos = random_endgame(size, game_type, scoring, 1000 * size + seed, 8, komi)
                if not pos.is_game_over():
                    out.append(pos)
    return out


ENDGAMES = endgame_suite()


# ---------------------------------------------------------------- 1. brute force

@both_thread_counts
@pytest.mark.parametrize("size", [1, 2])
@pytest.mark.parametrize("game_type,scoring", COMBOS)
def test_empty_board_matches_brute_force(size, game_type, scoring):
    """solve() of the empty side-1/2 board equals the exhaustive minimax, for every game type and scoring."""
    pos = Position(size, game_type, scoring, 0)
    result = catena.solve(pos, tt_mb=TT_MB)
    check_result_shape(result, pos)
    assert solved_value(result, scoring) == minimax_value(pos)


@both_thread_counts
@pytest.mark.parametrize("size", [1, 2])
@pytest.mark.parametrize("scoring", SCORINGS)
def test_komi_values_match_brute_force(size, scoring):
    """In game type komi, solve() equals the brute force at several komis; under standard/square margin(k) =
    margin(0) - k."""
    komis = (0, 1, 2, 3, 7, 8, 9, 15) if scoring != "square" else (0, 1, 2, 8, 9, 50, 1000)
    base = catena.solve(Position(size, "komi", scoring, 0), tt_mb=TT_MB)
    for komi in komis:
        pos = Position(size, "komi", scoring, komi)
        result = catena.solve(pos, tt_mb=TT_MB)
        check_result_shape(result, pos)
        assert solved_value(result, scoring) == minimax_value(pos), f"komi {komi}"
        if scoring != "longest":
            assert result.value == base.value - komi


@both_thread_counts
def test_endgames_match_brute_force():
    """Side-3/4 endgames from seeded random play (<= 8 legal moves, all game types and scorings) solve to the
    brute-force value."""
    assert len(ENDGAMES) >= 40
    kinds = {(p.size, p.game_type, p.scoring) for p in ENDGAMES}
    assert {(3, g, s) for g, s in COMBOS} <= kinds
    assert any(p.game_type == "double" for p in ENDGAMES)
    assert any(p.button is not None for p in ENDGAMES)        # some took the button
    for pos in ENDGAMES:
        expected = minimax_value(pos)
        where = f"{pos!r}"
        for sym_stones in (None, 0, len(catena.cells(pos.size))):
            result = catena.solve(pos, tt_mb=TT_MB, sym_stones=sym_stones)
            check_result_shape(result, pos)
            assert solved_value(result, pos.scoring) == expected, f"{where} sym_stones={sym_stones}"
        # a table of one bucket: every entry is overwritten all the time, the value stays
        tiny = catena.solve(pos, tt_mb=0.0001)
        assert solved_value(tiny, pos.scoring) == expected, f"{where} tt_mb=0.0001"


@both_thread_counts
def test_longer_endgames_match_brute_force():
    """Side-3/4 endgames with up to 10 legal moves also solve to the brute-force value."""
    checked = 0
    for size in (3, 4):
        for game_type, scoring in COMBOS:
            pos = random_endgame(size, game_type, scoring, 77 + size, 10)
            if pos.is_game_over():
                continue
            result = catena.solve(pos, tt_mb=TT_MB)
            assert solved_value(result, scoring) == minimax_value(pos), f"{pos!r}"
            checked += 1
    assert checked >= 12


# ---------------------------------------------------------------- 2. best move and pv

def check_best_move_and_pv(pos, result):
    """best_move keeps the value; the pv is legal, ends the game and scores the value."""
    scoring = pos.scoring
    target = solved_value(result, scoring)
    assert result.best_move in pos.legal_moves()
    assert result.pv and result.pv[0] == result.best_move
    child = pos.copy()
    child.push(result.best_move)
    assert solved_value(catena.solve(child, tt_mb=TT_MB), scoring) == target
    line = pos.copy()
    for move in result.pv:
        assert not line.is_game_over(), f"pv goes on after the end: {result.pv}"
        assert move in line.legal_moves(), f"{move} illegal in the pv {result.pv} of {pos!r}"
        line.push(move)
    assert line.is_game_over(), f"pv stops before the end: {result.pv}"
    assert final_value(line) == target
    if scoring == "longest":
        assert (line.outcome().winner or "draw") == result.winner


@both_thread_counts
def test_best_move_and_pv_empty_boards():
    """On the empty boards of sides 2 and 3 the best move keeps the value and the pv replays to exactly the value."""
    for size in (2, 3):
        for game_type, scoring in COMBOS:
            pos = Position(size, game_type, scoring, 0)
            before = pos.copy()
            result = catena.solve(pos, tt_mb=TT_MB)
            assert pos == before and pos.move_stack == before.move_stack      # not modified
            check_best_move_and_pv(pos, result)


@both_thread_counts
def test_best_move_and_pv_endgames():
    """On the brute-force endgames the best move keeps the value and the pv is legal and scores the value."""
    for pos in ENDGAMES:
        result = catena.solve(pos, tt_mb=TT_MB)
        check_best_move_and_pv(pos, result)
        # every move the brute force calls optimal has that value; best_move is one
        expected = minimax_value(pos)
        child = pos.copy()
        child.push(result.best_move)
        assert minimax_value(child) == expected, f"{pos!r}: {result.best_move} is not optimal"


# ---------------------------------------------------------------- 3. symmetry

def image(moves, sym, size):
    """The moves with each cell mapped through ``sym`` (the button stays)."""
    table = catena.cells(size)
    return [m if m.is_button else catena.Move(table[sym[m.cell]], size) for m in moves]


@both_thread_counts
def test_symmetric_positions_have_equal_values():
    """On side 3, positions that are images under each of the 12 symmetries get equal values (and winners)."""
    syms = catena.symmetries(3)
    assert len(syms) == 12 and len(set(syms)) == 12
    for sym in syms:
        assert sorted(sym) == list(range(19))
    checked = 0
    for index, (game_type, scoring) in enumerate(2 * COMBOS):
        rng = random.Random(index)
        pos = Position(3, game_type, scoring, 0)
        for _ in range(rng.randint(1, 5)):
            pos.push(rng.choice(pos.legal_moves()))
        assert not pos.is_game_over()
        base = catena.solve(pos, tt_mb=TT_MB)
        for k, sym in enumerate(syms):
            twin = replay(3, game_type, scoring, 0, image(pos.move_stack, sym, 3))
            assert twin is not None, f"image {k} of {pos!r} is not a legal history"
            assert (sorted(len(r.cells) for r in twin.ribbons())
                    == sorted(len(r.cells) for r in pos.ribbons()))
            # every other one without symmetric keys in the table
            result = catena.solve(twin, tt_mb=TT_MB, sym_stones=0 if k % 2 else None)
            assert (result.value, result.winner) == (base.value, base.winner), \
                f"symmetry {k}: {pos!r} vs {twin!r}"
            # the image of an optimal move is optimal in the image
            if not base.best_move.is_button:
                moved = twin.copy()
                moved.push(image([base.best_move], sym, 3)[0])
                after = catena.solve(moved, tt_mb=TT_MB)
                assert (after.value, after.winner) == (base.value, base.winner)
            checked += 1
    assert checked == 12 * 2 * len(COMBOS)


# ---------------------------------------------------------------- 4. F4

def ribbon_signature(pos):
    """What F4 says determines the value: the unbounded ribbons (cells and black count),
    the bounded ones (cells and shown colours), the turn, the button, the stone of the turn."""
    ribbons = []
    for r in pos.ribbons():
        if r.bounded:
            ribbons.append(("bounded", r.cells, r.black, r.white))
        else:
            ribbons.append(("open", frozenset(r.cells), r.black, r.white))
    return (sorted(ribbons, key=repr), pos.to_move, pos.button, pos.stones_left)


def f4_twin(pos):
    """A legal history with the same cells as ``pos``'s, where a black and a white move
    swap cells, giving the same ribbons and counts but other colours; or None."""
    moves = pos.move_stack
    who = placers(pos)
    stones = [i for i, m in enumerate(moves) if not m.is_button]
    target = ribbon_signature(pos)
    colours = shown_colours(pos)
    for a in stones:
        for b in stones:
            if a < b and who[a] != who[b]:
                swapped = list(moves)
                swapped[a], swapped[b] = swapped[b], swapped[a]
                twin = replay(pos.size, pos.game_type, pos.scoring, pos.komi, swapped)
                if (twin is not None and not twin.is_game_over()
                        and ribbon_signature(twin) == target and shown_colours(twin) != colours):
                    return twin
    return None


@both_thread_counts
def test_f4_colour_arrangement_inside_unbounded_ribbons():
    """F4: positions with the same occupied cells, unbounded ribbons and black counts but colours arranged
    differently get the same value."""
    pairs = 0
    kinds = set()
    for size in (3, 4):
        for game_type, scoring in COMBOS:
            found = 0
            for seed in range(40):
                if found == 2:
                    break
                pos = random_endgame(size, game_type, scoring, 500 + seed, 9)
                if pos.is_game_over():
                    continue
                twin = f4_twin(pos)
                if twin is None:
                    continue
                # both histories are legal, on the same cells, with equal ribbons and counts
                occupied = {c for c, colour in enumerate(shown_colours(pos)) if colour}
                assert occupied == {c for c, colour in enumerate(shown_colours(twin)) if colour}
                assert ribbon_signature(pos) == ribbon_signature(twin)
                assert [str(m) for m in pos.legal_moves()] == [str(m) for m in twin.legal_moves()]
                # the colours differ inside an unbounded ribbon, and only there
                differ = {c for c, (x, y) in enumerate(zip(shown_colours(pos), shown_colours(twin)))
                          if x != y}
                names = catena.cells(size)
                open_cells = {names.index(c) for r in pos.ribbons() if not r.bounded for c in r.cells}
                assert differ and differ <= open_cells
                one = catena.solve(pos, tt_mb=TT_MB)
                two = catena.solve(twin, tt_mb=TT_MB)
                assert (one.value, one.winner) == (two.value, two.winner), f"{pos!r} vs {twin!r}"
                assert solved_value(one, scoring) == minimax_value(pos) == minimax_value(twin)
                found += 1
                pairs += 1
                kinds.add((game_type, scoring))
    assert pairs >= 20 and len(kinds) == len(COMBOS)


@both_thread_counts
def test_f4_hand_built_pair():
    """F4 on a hand-built side-4 pair: B-W-B versus B-B-W in an open three-stone ribbon get the same value."""
    # Black C3, White D4, Black E5 (komi game, standard): an open ribbon C3-D4-E5 with 2 black.
    one = replay(4, "komi", "standard", 0, ["C3", "D4", "E5"])
    # Black C3, White E5, Black D4: the same ribbon, black at C3 D4 and white at E5.
    two = replay(4, "komi", "standard", 0, ["C3", "E5", "D4"])
    assert one is not None and two is not None
    assert ribbon_signature(one) == ribbon_signature(two)
    assert shown_colours(one) != shown_colours(two)
    # play on to an endgame the same way in both, keeping that ribbon open (unbounded)
    rng = random.Random(4)
    while len(one.legal_moves()) > 9:
        moves = [m for m in one.legal_moves() if not m.is_button]
        rng.shuffle(moves)
        for move in moves:
            one.push(move)
            two.push(move)
            if (not one.is_game_over() and ribbon_signature(one) == ribbon_signature(two)
                    and one.stone_at("D4") != two.stone_at("D4")):
                break
            one.pop()
            two.pop()
        else:
            break
    assert len(one.legal_moves()) <= 9 and not one.is_game_over()
    assert ribbon_signature(one) == ribbon_signature(two)
    assert one.stone_at("D4") != two.stone_at("D4")
    a, b = catena.solve(one, tt_mb=TT_MB), catena.solve(two, tt_mb=TT_MB)
    assert (a.value, a.winner) == (b.value, b.winner)
    assert a.value == minimax_value(one) == minimax_value(two)


# ---------------------------------------------------------------- 5. limits

def check_bounds(result, longest=False):
    assert result.lower is None or result.upper is None or result.lower <= result.upper
    if longest:
        assert result.lower in (None, -1, 0, 1) and result.upper in (None, -1, 0, 1)


def test_max_nodes_stops_the_search():
    """A side-4 empty board with max_nodes=20000 stops unsolved, by nodes, with no value and valid bounds."""
    result = catena.solve(Position(4), max_nodes=20000, tt_mb=TT_MB)
    assert not result.solved
    assert result.stopped_by == "nodes"
    assert result.value is None and result.winner is None
    assert result.best_move is None and result.pv == ()
    assert 20000 <= result.nodes <= 20000 + 10000
    check_bounds(result)


def test_max_seconds_stops_the_search():
    """A side-4 empty board with max_seconds=0.2 stops unsolved, by seconds, within about a second."""
    start = time.perf_counter()
    result = catena.solve(Position(4), max_seconds=0.2, tt_mb=TT_MB)
    wall = time.perf_counter() - start
    assert not result.solved
    assert result.stopped_by == "seconds"
    assert result.value is None and result.winner is None and result.best_move is None
    assert wall < 1.0, wall
    assert 0.15 <= result.seconds < 1.0
    assert result.nodes > 0
    check_bounds(result)


def test_progress_callback():
    """progress(nodes, seconds, lower, upper) is called several times with increasing node counts and seconds."""
    calls = []
    result = catena.solve(Position(4, "komi", "standard", 0), max_seconds=1, tt_mb=TT_MB,
                          progress=lambda *args: calls.append(args))
    assert result.stopped_by == "seconds"
    assert len(calls) >= 2, calls
    for args in calls:
        assert len(args) == 4
        nodes, seconds, lower, upper = args
        assert isinstance(nodes, int) and nodes >= 0
        assert 0 <= seconds <= 1.5
        assert lower is None or upper is None or lower <= upper
    nodes = [c[0] for c in calls]
    assert nodes == sorted(nodes) and nodes[-1] > nodes[0]
    assert [c[1] for c in calls] == sorted(c[1] for c in calls)
    assert result.nodes >= nodes[-1]


@pytest.mark.parametrize("threads", [1, 2])
def test_progress_focus_names_the_null_window_and_the_line_being_searched(threads):
    """A callback with a ``focus`` parameter also gets a SolveFocus: the null window's threshold
    (a half point: the values of standard scoring) and the main thread's moves near the root,
    each legal where it is played, with its place in that node's move list."""
    seen = []

    def progress(nodes, seconds, lower, upper, focus):
        seen.append(focus)

    root = Position(4, "komi", "standard", 0)
    result = catena.solve(root, max_seconds=1, tt_mb=TT_MB, threads=threads, progress=progress)
    assert result.stopped_by == "seconds" and len(seen) >= 2
    root_moves = set(root.legal_moves())
    lines = 0
    for focus in seen:
        assert isinstance(focus, catena.SolveFocus)
        assert focus.testing is not None and (2 * focus.testing) == int(2 * focus.testing)
        assert len(focus.line) <= 4
        for ply, (move, index, count) in enumerate(focus.line):
            assert 1 <= index <= count <= len(root_moves)
            if ply == 0:
                assert move in root_moves and count == len(root_moves)
        if len(focus.line) >= 2:
            lines += 1
            after = root.copy()
            after.push(focus.line[0][0])
            # read while the search moves on, so the two plies may come from neighbouring moments
            assert focus.line[1][0] in set(after.legal_moves()) | root_moves
    assert lines >= 1


@pytest.mark.parametrize("size, centre", [(4, "D4"), (5, "E5")])
def test_the_empty_board_is_searched_from_the_centre_the_move_that_keeps_every_symmetry(size, centre):
    """The root's first move holds the main thread for a whole null window; near the opening the
    moves whose position keeps the most symmetries go first (fewest distinct replies)."""
    firsts = set()

    def progress(nodes, seconds, lower, upper, focus):
        if focus.line:
            firsts.add(str(focus.line[0][0]))

    catena.solve(Position(size=size), max_seconds=0.6, tt_mb=TT_MB, threads=1, progress=progress)
    assert firsts == {centre}


def test_progress_callback_longest_bounds():
    """Under longest ribbon, progress bounds are None or -1/0/+1."""
    calls = []
    catena.solve(Position(4, "komi", "longest", 0), max_seconds=0.6, tt_mb=TT_MB,
                 progress=lambda *args: calls.append(args))
    assert calls
    for _, _, lower, upper in calls:
        assert lower in (None, -1, 0, 1) and upper in (None, -1, 0, 1)


@pytest.mark.parametrize("game_type,scoring", [("komi", "standard"), ("komi", "longest"),
                                               ("double", "square"), ("double", "longest"),
                                               ("nokomi", "square")])
def test_bounds_after_a_stop_hold(game_type, scoring, solver_threads):
    """Bounds proven before a node-limit stop on the side-3 empty board contain the value of the full solve."""
    pos = Position(3, game_type, scoring, 0)
    full = catena.solve(pos, tt_mb=TT_MB)
    value = solved_value(full, scoring)
    proven = 0
    # the last null window can be most of the work (double/longest: 97%), so limits near the end too;
    # the limit is checked every 1024 nodes
    for max_nodes in (1, 1000, 5000, full.nodes // 8, full.nodes // 4, full.nodes // 2,
                      (3 * full.nodes) // 4, full.nodes - 2048, full.nodes - 1100):
        result = catena.solve(pos, max_nodes=max_nodes, tt_mb=TT_MB)
        if result.solved:           # a limit above the nodes the search needs
            assert solved_value(result, scoring) == value
            continue
        assert result.stopped_by == "nodes" and result.value is None
        check_bounds(result, scoring == "longest")
        if result.lower is not None:
            assert result.lower <= value, (max_nodes, result)
            proven += 1
        if result.upper is not None:
            assert value <= result.upper, (max_nodes, result)
            proven += 1
    # with two threads a node limit counts both threads' nodes, and how far they got depends on timing
    assert proven >= 1 or solver_threads > 1


def test_limits_large_enough_solve():
    """Generous max_nodes / max_seconds do not stop the search: the result is solved."""
    pos = Position(3, "double", "standard", 0)
    full = catena.solve(pos, tt_mb=TT_MB)
    for kwargs in ({"max_nodes": 10 * full.nodes + 10000}, {"max_seconds": 60},
                   {"max_seconds": 60.0, "max_nodes": 10 ** 9}):
        result = catena.solve(pos, tt_mb=TT_MB, **kwargs)
        assert result.solved and result.stopped_by is None
        assert result.value == full.value


def test_solved_under_a_node_limit_has_a_full_pv():
    """When max_nodes lets the search finish, the solved result still has an optimal best move and a pv to the end."""
    positions = [replay(3, "komi", "standard", 0, ["D4", "D3", "C2", "C5"]),
                 replay(4, "komi", "standard", 0, "E7 C4 G5 A4 button D1 G7 E3 D4 G6 F3 E4 A1 A3 B3".split()),
                 replay(3, "nokomi", "longest", 0, ["C1"]),
                 replay(3, "komi", "standard", 0, ["B2"]),
                 replay(3, "double", "square", 0, ["A1", "C3", "E5"])]
    problems = []
    for pos in positions:
        full = catena.solve(pos, tt_mb=TT_MB)
        target = solved_value(full, pos.scoring)
        first = max(1024, (full.nodes // 1024 - 6) * 1024)
        for max_nodes in range(first, full.nodes + 1025, 1024):
            result = catena.solve(pos, max_nodes=max_nodes, tt_mb=TT_MB)
            if not result.solved:
                assert result.stopped_by == "nodes"
                continue
            assert solved_value(result, pos.scoring) == target
            line = pos.copy()
            for move in result.pv:
                line.push(move)
            if result.best_move is None or not line.is_game_over() or final_value(line) != target:
                problems.append(f"{pos!r} max_nodes={max_nodes}: solved, value {target}, "
                                f"best_move {result.best_move}, pv of {len(result.pv)} moves "
                                f"{'ends' if line.is_game_over() else 'stops before the end'} "
                                f"(full solve: {full.nodes} nodes, pv of {len(full.pv)})")
    assert not problems, "\n".join(problems)


def test_progress_exception_stops_the_search():
    """An exception raised by the progress callback propagates out of solve() and the search thread stops."""
    before = set(threading.enumerate())

    def boom(*args):
        raise RuntimeError("progress says stop")

    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="progress says stop"):
        catena.solve(Position(4), max_seconds=3, tt_mb=TT_MB, progress=boom)
    extra = []
    while time.perf_counter() - start < 1.0:
        extra = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not extra:
            break
        time.sleep(0.02)
    running = bool(extra)
    for thread in extra:              # max_seconds=3 ends it anyway: do not disturb later tests
        thread.join()
    assert not running, "the search thread went on searching after solve() raised"


# ---------------------------------------------------------------- 6. regression values

# Empty-board values of the play phase at komi 0: (value, winner); value None under longest
# ribbon.  Computed with catena.solve; sides 1-2 are checked against the brute force below, the
# side-3 values agree with a memoised full minimax (over the shown colours, turn, button and
# stone of the turn) run outside the test suite.  They are also in docs/solved.md.
EMPTY_BOARD = {
    (1, "komi", "standard"): (0.5, "black"),
    (1, "komi", "longest"): (None, "black"),
    (1, "komi", "square"): (0.5, "black"),
    (1, "nokomi", "standard"): (0.5, "black"),
    (1, "nokomi", "longest"): (None, "black"),
    (1, "nokomi", "square"): (0.5, "black"),
    (1, "double", "standard"): (1.0, "black"),
    (1, "double", "longest"): (None, "black"),
    (1, "double", "square"): (1.0, "black"),
    (2, "komi", "standard"): (2.5, "black"),
    (2, "komi", "longest"): (None, "black"),
    (2, "komi", "square"): (8.5, "black"),
    (2, "nokomi", "standard"): (2.5, "black"),
    (2, "nokomi", "longest"): (None, "black"),
    (2, "nokomi", "square"): (8.5, "black"),
    (2, "double", "standard"): (-3.0, "white"),
    (2, "double", "longest"): (None, "white"),
    (2, "double", "square"): (-9.0, "white"),
    (3, "komi", "standard"): (10.5, "black"),
    (3, "komi", "longest"): (None, "black"),
    (3, "komi", "square"): (120.5, "black"),
    (3, "nokomi", "standard"): (10.5, "black"),
    (3, "nokomi", "longest"): (None, "black"),
    (3, "nokomi", "square"): (120.5, "black"),
    (3, "double", "standard"): (-5.0, "white"),
    (3, "double", "longest"): (None, "white"),
    (3, "double", "square"): (-39.0, "white"),
}

# fair_komi(size, scoring): the largest komi at which Black still wins (game type komi).  Under
# longest ribbon Black wins at every komi up to 15 on sides 1-3 (side 3 at komi 15 also checked
# with the memoised minimax outside the suite; sides 1-2 by the brute force above).
FAIR_KOMI = {
    (1, "standard"): 0, (1, "longest"): 15, (1, "square"): 0,
    (2, "standard"): 2, (2, "longest"): 15, (2, "square"): 8,
    (3, "standard"): 10, (3, "longest"): 15, (3, "square"): 120,
}


@both_thread_counts
@pytest.mark.parametrize("key", sorted(EMPTY_BOARD))
def test_empty_board_regression(key):
    """The empty-board value and winner of sides 1-3 for every game type and scoring are the recorded ones."""
    size, game_type, scoring = key
    pos = Position(size, game_type, scoring, 0)
    result = catena.solve(pos, tt_mb=TT_MB)
    check_result_shape(result, pos)
    assert (result.value, result.winner) == EMPTY_BOARD[key]


@both_thread_counts
def test_recorded_small_values_are_the_brute_force_ones():
    """The recorded side-1/2 values are the brute force's, so the table is not just the solver's word."""
    for (size, game_type, scoring), (value, winner) in EMPTY_BOARD.items():
        if size <= 2:
            expected = minimax_value(Position(size, game_type, scoring, 0))
            assert (SIGN[winner] if scoring == "longest" else value) == expected


@both_thread_counts
@pytest.mark.parametrize("size", [1, 2, 3])
@pytest.mark.parametrize("scoring", SCORINGS)
def test_fair_komi(size, scoring):
    """fair_komi is the recorded one; Black wins at it and loses one point above it (when in range), as
    komi_table says."""
    fair = fair_komi(size, scoring, tt_mb=TT_MB)
    assert fair == FAIR_KOMI[size, scoring]
    rows = {row.komi: row for row in komi_table(size, scoring, tt_mb=TT_MB)}
    low, high = 0, KOMI_MAX[scoring]
    assert sorted(rows) == list(range(low, high + 1))
    assert rows[fair].winner == "black" and rows[fair].p2_choice == "black"
    at_fair = catena.solve(Position(size, "komi", scoring, fair), tt_mb=TT_MB)
    assert at_fair.winner == "black"
    if fair + 1 <= high:
        above = catena.solve(Position(size, "komi", scoring, fair + 1), tt_mb=TT_MB)
        assert above.winner == "white"
        assert rows[fair + 1].winner == "white" and rows[fair + 1].p2_choice == "white"
    for komi, row in rows.items():
        if scoring != "longest":
            assert row.margin == EMPTY_BOARD[size, "komi", scoring][0] - komi
            assert row.winner == winner_of(row.margin)
        else:
            assert row.margin is None
        if komi > fair:
            assert row.winner != "black"


def test_fair_komi_default_table():
    """fair_komi(2) with the default table size is 2 (its doctest)."""
    assert fair_komi(2) == 2


def proven_positions():
    """Every proven value of catena.solved as (its position, its entry)."""
    out = [(Position(size, game_type, scoring, 0), entry)
           for (size, game_type, scoring), entry in sorted(catena.solved.PROVEN.items())]
    out += [(Position(size, "komi", scoring, komi), entry)
            for (size, scoring, komi), entry in sorted(catena.solved.PROVEN_KOMI.items())]
    out += [(Position.from_moves([cell], size, "nokomi", scoring), entry)
            for (size, scoring, cell), entry in sorted(catena.solved.PROVEN_FIRST_STONES.items())]
    return [pytest.param(pos, entry, id=f"{pos.size}-{pos.game_type}-{pos.scoring}-komi{pos.komi}-"
                                        f"{'_'.join(map(str, pos.move_stack)) or 'empty'}") for pos, entry in out]


@both_thread_counts
@pytest.mark.parametrize("pos,entry", proven_positions())
def test_proven_value_holds_along_its_principal_variation(pos, entry):
    """A proven value (minutes to hours to prove) checked where it is cheap: its principal
    variation is a legal whole game ending at that value, and fresh solves from the line
    after 8 to 14 moves (21 to 9 legal cells) give the same value (docs/side4.md reports
    deeper fresh solves)."""
    pos, start = pos.copy(), pos.ply                 # (the parameter serves both thread counts)
    for move in entry.pv:
        pos.push(move)
        if 8 <= pos.ply - start <= 14:
            value = solved_value(catena.solve(pos, tt_mb=TT_MB), pos.scoring)
            assert value == entry.value, f"after {pos.ply - start} moves"
    assert pos.is_game_over() and final_value(pos) == entry.value


def test_a_no_komi_value_follows_from_the_komi_game():
    """The no-komi game is the komi game at komi 0 once the first stone is down: where the komi
    game's best first move is a stone, proven_value gives its value for the no-komi game too,
    and never where it is the button or unproven."""
    for (size, game_type, scoring), entry in catena.solved.PROVEN.items():
        if game_type == "komi" and (size, "nokomi", scoring) not in catena.solved.PROVEN:
            derived = catena.solved.proven_value(size, "nokomi", scoring)
            assert derived == (None if entry.pv[0] == "button" else entry.value)
    assert catena.solved.proven_value(4, "nokomi", "standard") == 9.5
    assert catena.solved.proven_entry(4, "nokomi", "standard", komi=3) is None
    assert catena.solved.proven_value(5, "nokomi", "standard") is None


def test_a_first_stone_value_follows_from_the_komi_games_best_first_move(monkeypatch):
    """proven_first_stone: the komi game's value stands for the no-komi game after its best
    first stone, and after any stone symmetric to it, never after another stone."""
    for (size, game_type, scoring), entry in catena.solved.PROVEN.items():
        if game_type == "komi" and entry.pv[0] != "button":
            own = catena.solved.PROVEN_FIRST_STONES.get((size, scoring, entry.pv[0]))
            found = catena.solved.proven_first_stone(size, scoring, entry.pv[0])
            assert found is (own or entry) and found.value == entry.value     # its own solve first
    played = catena.solved.PROVEN[4, "komi", "standard"]
    monkeypatch.setitem(catena.solved.PROVEN, (4, "komi", "standard"),
                        dataclasses.replace(played, pv=("G4",) + played.pv[1:]))   # a corner
    monkeypatch.setattr(catena.solved, "PROVEN_FIRST_STONES", {})                  # no own solves
    assert catena.solved.proven_first_stone(4, "standard", "A1").pv[0] == "G4"
    assert catena.solved.proven_first_stone(4, "standard", "A2") is None
    assert catena.solved.proven_first_stone(4, "standard", "D4") is None


@pytest.mark.parametrize("size", [2, 3])
def test_longest_ribbon_komis_black_wins_come_first(size):
    """The premise of proven_longest_winner: more komi never turns a White win into a Black one
    (every komi of sides 2 and 3 solved; on random finished side-4 games too)."""
    winners = [row.winner for row in komi_table(size, "longest", tt_mb=TT_MB)]
    assert winners == sorted(winners)                       # "black" ... then "white"
    rng = random.Random(size)
    for _ in range(200):
        pos = Position(4, "komi", "longest", 0)
        while not pos.is_game_over():
            pos.push(rng.choice(pos.legal_moves()))
        moves = [str(m) for m in pos.move_stack]
        ends = [Position.from_moves(moves, 4, "komi", "longest", komi).outcome().winner for komi in range(16)]
        assert ends == sorted(ends), (moves, ends)


def test_a_longest_ribbon_komi_follows_from_a_proven_one(monkeypatch):
    entry = catena.solved.PROVEN[4, "komi", "longest"]
    white = dataclasses.replace(entry, value=-1)
    monkeypatch.setattr(catena.solved, "PROVEN_KOMI", {(4, "longest", 5): entry, (4, "longest", 9): white})
    winners = [catena.solved.proven_longest_winner(4, komi) for komi in range(16)]
    assert winners == ["black"] * 6 + [None] * 3 + ["white"] * 7
    assert not catena.solved._komi_is_proven(4, "longest")


def test_fair_komi_of_a_proven_board_needs_no_solve(monkeypatch):
    """fair_komi(4) and komi_table(4) come from PROVEN at once: no solve, no refusal; the margin is
    the proven value minus the komi, and the fair komi the last komi with a positive margin."""
    def no_solve(*args, **kwargs):
        raise AssertionError("solve() called for a proven board")

    monkeypatch.setattr(catena.solved, "solve", no_solve)
    value = catena.solved.proven_value(4, "komi", "standard")
    assert value == catena.solved.PROVEN[4, "komi", "standard"].value
    rows = komi_table(4)
    assert [row.margin for row in rows] == [value - komi for komi in range(KOMI_MAX["standard"] + 1)]
    assert fair_komi(4) == max(row.komi for row in rows if row.margin > 0) == 9
    assert fair_komi(4, "longest") == 8                       # every komi proven (docs/side4.md)
    for scoring in SCORINGS:
        if catena.solved._komi_is_proven(4, scoring):
            rows = komi_table(4, scoring)
            assert fair_komi(4, scoring) == max((row.komi for row in rows if row.winner == "black"), default=0)


@both_thread_counts
@pytest.mark.parametrize("scoring", SCORINGS)
def test_nokomi_table_matches_brute_force(scoring):
    """nokomi_table(2): one row per symmetry class of first stones, each margin/winner the brute force's."""
    rows = nokomi_table(2, scoring, tt_mb=TT_MB)
    assert sum(row.equivalent for row in rows) == 7
    for row in rows:
        pos = Position(2, "nokomi", scoring, 0)
        pos.push(row.cell)
        expected = minimax_value(pos)
        if scoring == "longest":
            assert row.margin is None and SIGN[row.winner] == expected
        else:
            assert row.margin == expected and row.winner == winner_of(expected)
        assert row.p2_choice == ("either" if row.winner == "draw" else row.winner)


# ---------------------------------------------------------------- 7. side 6

def test_side6_endgame_solves_quickly():
    """Side-6 endgames (komi game, standard) with 10-13 legal cells solve in seconds, best move and pv consistent."""
    report = []
    for seed in range(4):
        pos = random_endgame(6, "komi", "standard", 600 + seed, 13, cells_only=True)
        cells = sum(1 for m in pos.legal_moves() if not m.is_button)
        assert 10 <= cells <= 13 and not pos.is_game_over()
        start = time.perf_counter()
        result = catena.solve(pos, tt_mb=TT_MB)
        wall = time.perf_counter() - start
        check_result_shape(result, pos)
        check_best_move_and_pv(pos, result)
        report.append(f"seed {600 + seed}: {cells} cells, value {result.value:+g}, "
                      f"{result.nodes:,} nodes, {wall:.3f} s")
        if cells <= 11:
            assert result.value == minimax_value(pos)
    print("\n" + "\n".join(report))


# ---------------------------------------------------------------- 8. MCTS

def mcts_positions():
    out = [Position(size, g, s, 0) for size in (1, 2) for g, s in COMBOS]
    for size in (2, 3):
        for game_type, scoring in COMBOS:
            for seed in range(2):
                pos = random_endgame(size, game_type, scoring, 900 + seed, 10)
                if not pos.is_game_over():
                    out.append(pos)
    return out


def test_mcts_agrees_with_the_solver():
    """Where the solver says the mover wins, MCTS proves that winner or picks a winning move; a proven MCTS
    winner is the solver's."""
    winning = 0
    for pos in mcts_positions():
        exact = catena.solve(pos, tt_mb=TT_MB)
        found = catena.MCTS(seed=1).search(pos, iterations=20000)
        if found.proven:
            assert found.winner == exact.winner, f"{pos!r}: MCTS proved {found.winner}, solver {exact.winner}"
        if exact.winner != pos.to_move:
            continue
        winning += 1
        child = pos.copy()
        child.push(found.best_move)
        after = catena.solve(child, tt_mb=TT_MB)
        assert (found.proven and found.winner == exact.winner) or after.winner == pos.to_move, \
            f"{pos!r}: MCTS plays {found.best_move}, which the solver says does not win"
    assert winning >= 10


# ---------------------------------------------------------------- 9. bad input, finished games

@pytest.mark.parametrize("bad", [None, "F6", 3, [], catena.Game()])
def test_solve_rejects_non_positions(bad):
    """solve() of something that is not a Position raises TypeError."""
    with pytest.raises(TypeError, match="Position"):
        catena.solve(bad)


@pytest.mark.parametrize("kwargs,error", [
    ({"max_seconds": 0}, ValueError),
    ({"max_seconds": -1}, ValueError),
    ({"max_seconds": -0.5}, ValueError),
    ({"max_seconds": float("nan")}, ValueError),
    ({"max_seconds": "1"}, TypeError),
    ({"max_seconds": True}, TypeError),
    ({"max_nodes": 0}, ValueError),
    ({"max_nodes": -5}, ValueError),
    ({"max_nodes": 1.5}, TypeError),
    ({"max_nodes": "100"}, TypeError),
    ({"max_nodes": True}, TypeError),
    ({"tt_mb": 0}, ValueError),
    ({"tt_mb": -1}, ValueError),
    ({"tt_mb": "64"}, TypeError),
])
def test_solve_rejects_bad_limits(kwargs, error):
    """Bad max_seconds / max_nodes / tt_mb raise a clear TypeError or ValueError naming the argument."""
    pos = Position(2)
    before = pos.copy()
    with pytest.raises(error, match=next(iter(kwargs))):
        catena.solve(pos, **kwargs)
    assert pos == before


def test_solve_huge_max_nodes():
    """A max_nodes too large for the core either solves (as no limit) or raises a clear error, never a silent
    unsolved result."""
    pos = Position(2)
    try:
        result = catena.solve(pos, max_nodes=2 ** 70)
    except (ValueError, OverflowError):
        return
    assert result.solved and result.value == 2.5, result


@pytest.mark.parametrize("game_type,scoring", COMBOS)
def test_solve_finished_game(game_type, scoring):
    """solve() of a finished game is solved with the final margin (winner under longest), no best move and an
    empty pv."""
    for seed in range(3):
        pos = random_endgame(3, game_type, scoring, seed, 0)
        assert pos.is_game_over()
        result = catena.solve(pos)
        outcome = pos.outcome()
        assert result.solved and result.stopped_by is None
        assert result.best_move is None and result.pv == ()
        assert result.winner == (outcome.winner or "draw")
        if scoring == "longest":
            assert result.value is None
            assert result.lower == result.upper == SIGN[result.winner]
        else:
            assert result.value == outcome.black_score - outcome.white_score
            assert result.lower == result.upper == result.value
