"""Property tests (hypothesis) of the core on random games.

A game is drawn as: a board side 1..10, a game type, a scoring, a komi in range
(R22), a list of integers each mapped onto the current legal-move list
(``legal[k % len(legal)]``), and optionally a seed that plays the game on to its
end once the list runs out.  Rule numbers refer to docs/rules.md.

Properties, after every move:

* every group of stones is a ribbon (R4, R5), checked over ``to_array`` and
  ``catena.neighbours`` (the groups by the reference's flood fill), and the groups are
  exactly ``ribbons()``;
* the legal cells only shrink (R8); the button is a move exactly while untaken
  (R13, R18, R19) and leaves the list once taken;
* bounded ribbons are one colour and never change cells or colour afterwards
  (R10, R12); the last claims are bounded ribbons of their owner's colour;
* the game is over iff there is no legal move, and only then is there an outcome;

and on whole games: ``copy()``, pickle and ``copy.deepcopy`` round-trip and are
independent of the original; equal positions reached by different move orders
(transpositions) have equal Zobrist keys.  (That ``pop`` restores a position exactly
is checked at every ply of tests/test_differential.py.)
"""

import copy
import os
import pickle
import random
import sys
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import catena

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _fastref import ref  # noqa: E402  (tests/reference.py, its geometry memoised)
from conftest import position_state, state_changes  # noqa: E402

GAME_TYPES = ("komi", "nokomi", "double")
SCORINGS = ("standard", "longest", "square")
KOMI_MAX = {"standard": 15, "longest": 15, "square": 1000}      # R22
COLOUR = {1: "black", 2: "white"}

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@lru_cache(maxsize=None)
def nb_table(size):
    return tuple(catena.neighbours(c, size) for c in range(len(catena.cells(size))))


@st.composite
def games(draw, max_side=10):
    size = draw(st.sampled_from(range(1, max_side + 1)))    # uniform, unlike integers()
    game_type = draw(st.sampled_from(GAME_TYPES))
    scoring = draw(st.sampled_from(SCORINGS))
    komi = draw(st.integers(0, KOMI_MAX[scoring])) if game_type == "komi" else 0
    choices = draw(st.lists(st.integers(0, 2 ** 16 - 1), max_size=3 * len(catena.cells(size)) // 2))
    # usually play on to the end (shrinks towards stopping where the choices stop)
    finish_seed = (draw(st.integers(0, 2 ** 32 - 1))
                   if draw(st.sampled_from((True, True, True, False))) else None)
    return size, game_type, scoring, komi, choices, finish_seed


def moves_of(pos, choices, finish_seed):
    """Yield the moves of the drawn game, one at a time, as ``pos`` is played."""
    for k in choices:
        legal = pos.legal_moves()
        if not legal:
            return
        yield str(legal[k % len(legal)])
    if finish_seed is not None:
        rng = random.Random(finish_seed)
        while True:
            legal = pos.legal_moves()
            if not legal:
                return
            yield str(rng.choice(legal))


def new_position(game):
    size, game_type, scoring, komi = game[:4]
    return catena.Position(size, game_type, scoring, komi)


def play(game):
    """The drawn game played to its end of choices; returns the position."""
    pos = new_position(game)
    for move in moves_of(pos, game[4], game[5]):
        pos.push(move)
    return pos


@lru_cache(maxsize=None)
def ref_cells(size):
    """The reference's cells in index order, and the index of each."""
    cells = ref._cells(size)
    return cells, {cell: i for i, cell in enumerate(cells)}


@lru_cache(maxsize=None)
def name_index(size):
    return {name: i for i, name in enumerate(catena.cells(size))}


def groups_of(board, size):
    """The groups of stones (R4) as lists of cell indices, by tests/reference.py's flood fill
    (its cells come in catena's index order: test_differential checks the names agree)."""
    cells, index = ref_cells(size)
    stones = {cells[i] for i, colour in enumerate(board) if colour}
    return [sorted(index[cell] for cell in group) for group in ref._groups(size, stones)]


def check_ribbons(pos, ctx):
    """R4/R5: every group is an induced simple path, and ribbons() lists exactly them."""
    size = pos.size
    names = catena.cells(size)
    nbs = nb_table(size)
    board = pos.to_array().tolist()
    assert len(board) == len(names), ctx
    groups = groups_of(board, size)
    for group in groups:
        degree = {c: sum(1 for d in nbs[c] if board[d]) for c in group}
        assert max(degree.values()) <= 2, (f"a stone with {max(degree.values())} stone neighbours "
                                           f"(R5) in {[names[c] for c in group]}", ctx)
        assert sum(degree.values()) == 2 * (len(group) - 1), (
            f"a group with a cycle (R5): {[names[c] for c in group]}", ctx)
    ribbons = pos.ribbons()
    assert sorted(sorted(r.cells) for r in ribbons) == sorted(sorted(names[c] for c in g) for g in groups), ctx
    index = name_index(size)
    for r in ribbons:
        cells = [index[c] for c in r.cells]
        assert r.length == len(cells) == len(set(cells)), (r, ctx)
        # listed from one end to the other (R6): consecutive cells adjacent
        assert all(b in nbs[a] for a, b in zip(cells, cells[1:])), (r, ctx)
        shown = [COLOUR[board[c]] for c in cells]
        assert (r.black, r.white) == (shown.count("black"), shown.count("white")), (r, ctx)
        if r.bounded:
            assert len(set(shown)) == 1, (f"bounded ribbon of two colours (R12): {r}", ctx)


def button_expected(pos):
    """R13 / R18 / R19: the button is a move while untaken, in komi and no-komi games,
    except on P1's opening stone of a no-komi game, and not once the game is over."""
    return (pos.game_type != "double" and pos.button is None and not pos.is_game_over()
            and not (pos.game_type == "nokomi" and pos.ply == 0))


@settings(max_examples=1000, **SETTINGS)
@given(games())
def test_invariants_along_a_game(game):
    pos = new_position(game)
    ctx = f"game {game[:4]}, moves: "
    bounded = {}                                # frozenset(cells) -> colour, once bounded
    prev_cells = set(catena.cells(pos.size))
    check_ribbons(pos, ctx)
    for move in moves_of(pos, game[4], game[5]):
        pos.push(move)
        ctx += move + " "
        check_ribbons(pos, ctx)

        # R8: legal cells only go from legal to illegal; the button as R13/R18/R19 say
        legal = [str(m) for m in pos.legal_moves()]
        cells = {m for m in legal if m != "button"}
        assert cells <= prev_cells, (f"cells became legal again (R8): {sorted(cells - prev_cells)}", ctx)
        assert move not in cells, ctx
        prev_cells = cells
        assert ("button" in legal) == button_expected(pos), (legal, ctx)
        if move == "button":
            assert pos.button is not None and "button" not in legal, ctx

        # the end
        assert pos.is_game_over() == (not legal), ctx
        assert (pos.outcome() is None) == (not pos.is_game_over()), ctx

        # R10/R12: bounded ribbons stay, with the same cells and colour
        shown = {frozenset(r.cells): r for r in pos.ribbons()}
        for cells_, colour in bounded.items():
            r = shown.get(cells_)
            assert r is not None and r.bounded, (f"bounded ribbon {sorted(cells_)} changed", ctx)
            now = "black" if r.black else "white"
            assert now == colour and (r.black == 0 or r.white == 0), (
                f"bounded ribbon {sorted(cells_)} changed colour", ctx)
        for r in pos.ribbons():
            if r.bounded:
                bounded.setdefault(frozenset(r.cells), "black" if r.black else "white")

        # R11/R12: what the move claimed is bounded now and shows its owner's colour
        for claim in pos.last_claims():
            r = shown.get(frozenset(claim.cells))
            assert r is not None and r.bounded, (claim, ctx)
            assert (r.black if claim.owner == "black" else r.white) == r.length, (claim, r, ctx)
        if move == "button":
            assert pos.last_claims() == [], ctx

    if pos.is_game_over():
        # R14: at the end of komi / no-komi games every ribbon is bounded and claimed;
        # R21: in double placement every ribbon is one colour at the end anyway
        for r in pos.ribbons():
            assert r.black == 0 or r.white == 0, (r, ctx)
            if pos.game_type != "double":
                assert r.bounded, (r, ctx)


def assert_same(a, b, what):
    sa, sb = position_state(a), position_state(b)
    assert sa == sb, (what, state_changes(sa, sb))
    assert a == b, what
    assert (a.size, a.game_type, a.scoring, a.komi) == (b.size, b.game_type, b.scoring, b.komi), what


def check_independent(original, clone, what):
    """Moves on the clone leave the original alone, and the other way round."""
    before = position_state(original)
    if clone.legal_moves():
        clone.push(clone.legal_moves()[-1])
        assert position_state(original) == before, f"{what}: push on the copy changed the original"
        clone.pop()
    if clone.ply:
        last = clone.pop()
        assert position_state(original) == before, f"{what}: pop on the copy changed the original"
        clone.push(last)
    clone_before = position_state(clone)
    if original.legal_moves():
        original.push(original.legal_moves()[0])
        assert position_state(clone) == clone_before, f"{what}: push on the original changed the copy"
        original.pop()
    assert position_state(original) == before, what


@settings(max_examples=300, **SETTINGS)
@given(games(), st.integers(0, 10 ** 6))
def test_copy_pickle_deepcopy_round_trip(game, cut):
    full = play(game)
    # a position somewhere along the game, and the end of it
    mid = new_position(game)
    for move in [str(m) for m in full.move_stack][: cut % (full.ply + 1)]:
        mid.push(move)
    for pos in (mid, full):
        clones = {
            "copy()": pos.copy(),
            "copy.copy": copy.copy(pos),
            "copy.deepcopy": copy.deepcopy(pos),
            "pickle": pickle.loads(pickle.dumps(pos)),
            f"pickle protocol {pickle.HIGHEST_PROTOCOL}": pickle.loads(
                pickle.dumps(pos, protocol=pickle.HIGHEST_PROTOCOL)),
        }
        for what, clone in clones.items():
            assert clone is not pos
            assert_same(pos, clone, what)
            # the copy keeps its history: it can be unwound like the original
            assert [str(m) for m in clone.move_stack] == [str(m) for m in pos.move_stack], what
            check_independent(pos, clone, what)
            assert_same(pos, clone, what + " (after the independence checks)")


def _replay(game, moves):
    pos = new_position(game)
    claimed = False
    for m in moves:
        if not pos.is_legal(m):
            return None, claimed
        pos.push(m)
        claimed = claimed or bool(pos.last_claims())
    return pos, claimed


@settings(max_examples=1000, **SETTINGS)
@given(games(), st.integers(0, 10 ** 6), st.integers(0, 10 ** 6), st.integers(0, 10 ** 6))
def test_transpositions_have_equal_zobrist(game, i, j, cut):
    """Swap two placements by the same colour; if the swapped order is legal and the
    stones shown agree, the Zobrist keys agree.  When neither order made a claim the
    stones shown must agree (each stone keeps the colour it was placed with)."""
    full = play(game)
    moves = [str(m) for m in full.move_stack]
    moves = moves[: len(moves) - cut % (len(moves) + 1) // 2]     # often stop mid-game
    placer = []                                  # colour of each ply's mover
    walk = new_position(game)
    for m in moves:
        placer.append(walk.to_move)
        walk.push(m)
    slots = [k for k, m in enumerate(moves) if m != "button"]
    if not slots:
        return
    a = slots[i % len(slots)]
    partners = [k for k in slots if k != a and placer[k] == placer[a]]
    if not partners:
        return
    b = partners[j % len(partners)]
    swapped = list(moves)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    one, claimed_one = _replay(game, moves)
    two, claimed_two = _replay(game, swapped)
    if two is None:
        return                                   # the other order is not a legal game
    same = (one.to_array().tobytes() == two.to_array().tobytes() and one.to_move == two.to_move
            and one.button == two.button and one.stones_left == two.stones_left)
    if not claimed_one and not claimed_two and not one.is_game_over():
        assert same, (game[:4], moves, swapped)
    if same and not (one.game_type == "double" and one.is_game_over()):
        # (a finished double-placement game shows R21's end claims, which the key,
        # a key of the position in play, does not include)
        assert one.zobrist == two.zobrist, (game[:4], moves, swapped)
    if not same and one.is_game_over() == two.is_game_over() and not one.is_game_over():
        assert one.zobrist != two.zobrist, (game[:4], moves, swapped)


@settings(max_examples=300, **SETTINGS)
@given(games(max_side=6))
def test_zobrist_matches_a_fresh_replay(game):
    """The incrementally kept key equals the key of the same moves replayed, at every
    ply, including after pops back to that ply."""
    pos = play(game)
    moves = [str(m) for m in pos.move_stack]
    keys = []
    fresh = new_position(game)
    keys.append(fresh.zobrist)
    for m in moves:
        fresh.push(m)
        keys.append(fresh.zobrist)
    for k in range(len(moves), -1, -1):
        assert pos.zobrist == keys[k], (game[:4], moves[:k])
        if k:
            pos.pop()
