"""Perft: leaf counts of the legal-move tree, from tests/data/perft.txt.

Every line ``size game_type depth nodes`` is checked against ``catena.perft`` on
the empty board, and the small ones (at most REF_MAX_NODES leaves) also against a
perft computed with the reference rules checker (tests/reference.py through
tests/_fastref.py, which only memoises it; it has no undo, so each child is a deep
copy).  A mismatch prints the "divide" (perft of each child, core
and reference side by side) so the first bad move can be followed down.
"""

import copy
import os
import random
import sys

import pytest

import catena

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _fastref import FastRefPosition as RefPosition  # noqa: E402  (reference.py, memoised)

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "perft.txt")
REF_MAX_NODES = 20_000


def read_table(path=TABLE):
    entries = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            size, game_type, depth, nodes = line.split()
            entries.append((int(size), game_type, int(depth), int(nodes), lineno))
    return entries


ENTRIES = read_table()
SMALL = [e for e in ENTRIES if e[3] <= REF_MAX_NODES]


def entry_id(e):
    return f"{e[0]}-{e[1]}-d{e[2]}"


# ----------------------------------------------------------------- perft helpers

def core_divide(pos, depth):
    """{move name: perft of the child} with the core (push / perft / pop)."""
    out = {}
    for m in pos.legal_moves():
        pos.push(m)
        out[str(m)] = catena.perft(pos, depth - 1)
        pos.pop()
    return out


def ref_perft(ref, depth):
    """Perft with the reference: a finished game has no moves, so it counts 0."""
    if depth == 0:
        return 1
    moves = ref.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in sorted(moves):
        child = copy.deepcopy(ref)
        child.play(m)
        total += ref_perft(child, depth - 1)
    return total


def ref_divide(ref, depth):
    out = {}
    for m in sorted(ref.legal_moves()):
        child = copy.deepcopy(ref)
        child.play(m)
        out[m] = ref_perft(child, depth - 1)
    return out


def divide_text(core, ref=None):
    names = sorted(set(core) | set(ref or {}))
    rows = []
    for m in names:
        c = core.get(m, "-")
        if ref is None:
            rows.append(f"    {m:>7} core {c}")
        else:
            r = ref.get(m, "-")
            rows.append(f"    {m:>7} core {c!s:>10} reference {r!s:>10}{'   <-- differs' if c != r else ''}")
    return "\n".join(rows)


# ----------------------------------------------------------------- the table

def test_table_is_well_formed():
    assert ENTRIES, TABLE
    seen = set()
    for size, game_type, depth, nodes, lineno in ENTRIES:
        assert 1 <= size <= 10 and game_type in catena.GAME_TYPES and depth >= 0 and nodes >= 0, lineno
        assert (size, game_type, depth) not in seen, f"duplicate entry on line {lineno}"
        seen.add((size, game_type, depth))
    # what the table must cover: sides 1-6, all three game types
    for size in range(1, 7):
        for gt in catena.GAME_TYPES:
            assert max(d for s, g, d, _, _ in ENTRIES if (s, g) == (size, gt)) >= min(3, size + 1)
    assert len(SMALL) >= 30


def test_table_hand_checked_values():
    """A few entries that follow from the rules alone (F1, R13, R18, R19)."""
    table = {(s, g, d): n for s, g, d, n, _ in ENTRIES}
    assert table[(1, "komi", 1)] == 2            # F2: A1 or the button
    assert table[(1, "komi", 2)] == 1            # button, then White's A1
    assert table[(1, "komi", 3)] == 0            # nothing is left after two plies
    assert table[(6, "komi", 1)] == 92           # F1
    # any two stones are legal together; after a stone: 90 cells + button, after
    # the button: 91 cells
    assert table[(6, "komi", 2)] == 91 * 91 + 91
    assert table[(6, "nokomi", 2)] == 91 * 91    # R18: no button on P1's stone
    assert table[(6, "double", 2)] == 91 * 90    # R19: no button at all


@pytest.mark.parametrize("entry", ENTRIES, ids=entry_id)
def test_perft_core(entry):
    size, game_type, depth, nodes, lineno = entry
    pos = catena.Position(size=size, game_type=game_type)
    got = catena.perft(pos, depth)
    if got != nodes:
        msg = (f"perft.txt line {lineno}: perft(size={size}, {game_type!r}, depth={depth}) "
               f"is {got}, table says {nodes}")
        if depth >= 1:
            msg += "\n  core divide:\n" + divide_text(core_divide(pos, depth))
        pytest.fail(msg)
    assert pos.ply == 0 and pos.move_stack == [], "perft changed the position"


@pytest.mark.parametrize("entry", SMALL, ids=entry_id)
def test_perft_reference(entry):
    size, game_type, depth, nodes, lineno = entry
    ref = RefPosition(size, game_type, "standard", 0)
    got = ref_perft(ref, depth)
    if got != nodes:
        pos = catena.Position(size=size, game_type=game_type)
        msg = (f"perft.txt line {lineno}: reference perft(size={size}, {game_type!r}, "
               f"depth={depth}) is {got}, table (core) says {nodes}")
        if depth >= 1:
            msg += ("\n  divide (moves from the empty board):\n"
                    + divide_text(core_divide(pos, depth), ref_divide(ref, depth)))
        pytest.fail(msg)


# -------------------------------------------------- perft from mid-game positions

MIDGAME = [(size, gt, seed) for size in (3, 4, 5) for gt in catena.GAME_TYPES for seed in range(2)]


@pytest.mark.parametrize("size,game_type,seed", MIDGAME)
def test_perft_midgame_matches_reference(size, game_type, seed):
    """Perft 2-3 from random mid-game positions, where claims and R20 matter."""
    rng = random.Random(f"perft-{size}-{game_type}-{seed}")
    pos = catena.Position(size=size, game_type=game_type)
    ref = RefPosition(size, game_type, "standard", 0)
    moves = []
    target = rng.randint(len(catena.cells(size)) // 4, len(catena.cells(size)) // 2)
    while len(moves) < target and not pos.is_game_over():
        m = str(rng.choice(pos.legal_moves()))
        pos.push(m)
        ref.play(m)
        moves.append(m)
    depth = 3 if size <= 4 else 2
    got, want = catena.perft(pos, depth), ref_perft(ref, depth)
    assert got == want, (
        f"perft(depth={depth}) after {' '.join(moves)} (size {size}, {game_type}): core {got}, "
        f"reference {want}\n  divide:\n" + divide_text(core_divide(pos, depth), ref_divide(ref, depth)))
    assert [str(m) for m in pos.move_stack] == moves
