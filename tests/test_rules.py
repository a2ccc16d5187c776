"""Rule-by-rule tests of catena against docs/rules.md.

Every test names the rule (R1..R25) or worked fact (F1..F4) it checks.  What the
rules say is recomputed from the stones on the board by tests/reference.py, the
independent checker (flood fill, R7 by "is the group after the placement a ribbon",
R9 by trying every empty neighbour), not by the library's incremental core.
"""

import os
import random
import sys
from collections import Counter

import pytest

import catena
from catena import IllegalMoveError, Position

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402

BLACK, WHITE = "black", "white"
OTHER = {BLACK: WHITE, WHITE: BLACK}

# ---------------------------------------------------------------- the rules recomputed from the stones
# by tests/reference.py, the independent checker; these wrappers speak cell names where the
# reference speaks (column, row) pairs.


def nm(c, r):
    """The name of cell (c, r) (R2)."""
    return ref._name((c, r))


def all_cells(n):
    """Cell names by column, then row."""
    return ref.cell_names(n)


def _cell(n, name):
    return ref._parse(n, name)


def _cells(n, names):
    return {ref._parse(n, name) for name in names}


def _names(cells):
    return frozenset(ref._name(cell) for cell in cells)


def nbrs(n, name):
    """R3 neighbours of a cell, as a set of names."""
    return set(_names(ref._neighbours(n, _cell(n, name))))


def board(pos):
    """{cell name: shown colour} of every stone on the board."""
    return {name: pos.stone_at(name) for name in all_cells(pos.size) if pos.stone_at(name)}


def group_of(n, stones, start):
    """R4: the group of ``stones`` holding ``start``, by flood fill."""
    return _names(ref._group_of(n, _cells(n, stones), _cell(n, start)))


def groups(n, stones):
    """All groups, ordered by their first cell."""
    return [_names(group) for group in ref._groups(n, _cells(n, stones))]


def is_ribbon(n, group):
    """R4: an induced simple path."""
    return ref._is_ribbon(n, _cells(n, group))


def r7_legal(n, stones, cell):
    """R7 ("equivalently" form): after the placement the group holding it is a ribbon."""
    return ref._is_legal(n, _cells(n, stones), _cell(n, cell))


def legal_cells(n, stones):
    return set(_names(ref._legal_cells(n, _cells(n, stones))))


def r7_local(n, stones, cell):
    """R7 (first form, which the reference does not use): |S| <= 2, every stone of S an end,
    two stones in different ribbons."""
    if cell in stones:
        return False
    s = nbrs(n, cell) & set(stones)
    if len(s) > 2:
        return False
    if any(len(nbrs(n, t) & set(stones)) > 1 for t in s):
        return False
    if len(s) == 2:
        a, b = sorted(s)
        return b not in group_of(n, stones, a)
    return True


def is_bounded(n, stones, group):
    """R9: no empty cell next to a stone of the ribbon is a legal placement."""
    return ref._is_bounded(n, _cells(n, stones), _cells(n, group))


def bounded_set(n, stones):
    return {_names(group) for group in ref._bounded_ribbons(n, _cells(n, stones))}


def can_place_two(n, stones):
    """R20: a legal x after which a legal cell remains."""
    return ref.can_place_two(n, _cells(n, stones))


def majority(colours):
    """The colour of more of ``colours``, None on a tie (R12, R21)."""
    return ref._majority(dict(enumerate(colours)), range(len(colours)))


def cell_moves(pos):
    return {str(m) for m in pos.legal_moves() if str(m) != "button"}


def make(size, moves, **kw):
    pos = Position(size=size, **kw)
    for m in moves.split() if isinstance(moves, str) else moves:
        pos.push(m)
    return pos


def ribbon_sets(pos):
    return {frozenset(r.cells) for r in pos.ribbons()}


def check_ribbon_shapes(pos):
    """pos.ribbons(): the groups of the board, each listed end to end, counts right."""
    n = pos.size
    stones = board(pos)
    mine = set(groups(n, stones))
    assert ribbon_sets(pos) == mine
    for rib in pos.ribbons():
        assert rib.length == len(rib.cells) == len(set(rib.cells))
        for a, b in zip(rib.cells, rib.cells[1:]):
            assert b in nbrs(n, a)
        assert rib.black == sum(stones[c] == BLACK for c in rib.cells)
        assert rib.white == sum(stones[c] == WHITE for c in rib.cells)


def random_game(size, seed, game_type="komi", scoring="standard", komi=0, button_p=0.0,
                check=None):
    """Play uniformly random legal moves (random.Random(seed)) to the end.

    ``check(pos_before, move, pos_after)`` is called after every move."""
    rng = random.Random(seed)
    pos = Position(size=size, game_type=game_type, scoring=scoring, komi=komi)
    while not pos.is_game_over():
        moves = pos.legal_moves()
        cells_ = [m for m in moves if str(m) != "button"]
        if len(cells_) < len(moves) and rng.random() < button_p:
            move = moves[-1]
        else:
            move = rng.choice(cells_)
        before = pos.copy()
        pos.push(move)
        if check is not None:
            check(before, str(move), pos)
    return pos


def placer_colours(moves, game_type="komi"):
    """The colour of the player making each move, by move order (R13, R18, R19)."""
    out, mover, left = [], BLACK, 1
    for _ in moves:
        out.append(mover)
        if game_type == "double":
            left -= 1
            if left == 0:
                mover, left = OTHER[mover], 2
        else:
            mover = OTHER[mover]
    return out


def final_ribbons(pos):
    """(owner, length) of every ribbon of a finished game, from the shown stones."""
    stones = board(pos)
    out = []
    for g in groups(pos.size, stones):
        owners = {stones[c] for c in g}
        assert len(owners) == 1, "a ribbon is not one colour at the end"
        out.append((owners.pop(), len(g)))
    return out


def expected_scores(pos, ribs, square=False):
    """R16/R25 recomputed from (owner, length) ribbons, komi and the final button."""
    button = pos.outcome().button
    score = {BLACK: 0.0, WHITE: float(pos.komi)}
    for owner, length in ribs:
        score[owner] += length * length if square else length
    if button is not None:
        score[button] += 0.5
    b, w = score[BLACK], score[WHITE]
    return b, w, (BLACK if b > w else WHITE if w > b else None)


DIAGRAM = "C5 D5 E5 G5 H6 H7"
CLAIM_EXAMPLE = "A1 A2 A3 A4 C7 A5 D7 A6 E7 C2 C1"


# ================================================================ R1-R3: board, notation

def test_r1_cell_count_is_3n_n_minus_1_plus_1():
    """R1: side n (1..10) has 3n(n-1)+1 cells: 91 on side 6, 271 on 10, 19 on 3, 37 on 4."""
    for n in range(1, 11):
        assert len(catena.cells(n)) == 3 * n * (n - 1) + 1
        assert len(Position(size=n).legal_moves()) == 3 * n * (n - 1) + 2   # + the button
    assert [len(catena.cells(n)) for n in (6, 10, 3, 4)] == [91, 271, 19, 37]
    assert len(Position().legal_moves()) == 92          # default size is the standard 6


def test_r1_sides_outside_1_to_10_rejected():
    """R1: 1 <= n <= 10; sides 0 and 11 are not boards."""
    for bad in (0, 11, -1):
        with pytest.raises(ValueError):
            Position(size=bad)
        with pytest.raises(ValueError):
            catena.cells(bad)


def test_r2_cells_on_board_iff_column_row_within_n_minus_1():
    """R2: (c, r), 1 <= c, r <= 2n-1, is on the board iff |c - r| <= n-1, named letter+row."""
    for n in range(1, 11):
        assert list(catena.cells(n)) == all_cells(n)
        for c in range(1, 2 * n):
            for r in range(1, 2 * n):
                name = nm(c, r)
                if abs(c - r) <= n - 1:
                    assert catena.cell_name(catena.parse_cell(name, n), n) == name
                else:
                    with pytest.raises(catena.CellError):
                        catena.parse_cell(name, n)


def test_r2_names_examples_and_case_insensitivity():
    """R2: A1, F6 (centre of side 6), K11; names read case-insensitively, written upper case."""
    names = catena.cells(6)
    assert names[0] == "A1" and names[-1] == "K11"
    assert catena.neighbours("F6", 6) and len(catena.neighbours("F6", 6)) == 6
    assert _cell(6, "F6") == (6, 6)
    assert catena.parse_cell("f6", 6) == catena.parse_cell("F6", 6)
    assert catena.parse_cell("k11", 6) == len(names) - 1
    assert str(catena.Move("f6")) == "F6"
    pos = Position()
    pos.push("f6")
    assert pos.stone_at("F6") == BLACK and pos.stone_at("f6") == BLACK
    assert [str(m) for m in pos.move_stack] == ["F6"]
    assert pos.is_legal("g6") and pos.is_legal("BUTTON")


def test_r3_neighbours_are_the_six_offsets_on_board():
    """R3: neighbours of (c, r) are (c±1, r), (c, r±1), (c+1, r+1), (c-1, r-1) on the board."""
    for n in range(1, 11):
        names = catena.cells(n)
        for i, name in enumerate(names):
            got = {names[j] for j in catena.neighbours(i, n)}
            assert got == nbrs(n, name)
            assert {names[j] for j in catena.neighbours(name, n)} == got


def test_r3_rule_text_diagram_b5_f5_legal_d6_g6_i6_illegal():
    """R3: with C5 D5 E5 G5 H6 H7, B5 and F5 are legal; D6, G6, I6 illegal, error names the cell."""
    pos = make(6, DIAGRAM)
    assert pos.is_legal("B5") and pos.is_legal("F5")
    for cell in ("D6", "G6", "I6"):
        assert not pos.is_legal(cell)
        assert cell not in cell_moves(pos)
        before = (pos.zobrist, pos.move_stack, pos.to_array().tolist())
        with pytest.raises(IllegalMoveError, match=cell):
            pos.push(cell)
        assert (pos.zobrist, pos.move_stack, pos.to_array().tolist()) == before
    for cell in ("B5", "F5"):
        q = pos.copy()
        q.push(cell)
        assert q.stone_at(cell) == BLACK
    q = pos.copy()
    q.push("F5")                          # joins C5-E5 and G5-H7 into one ribbon
    assert ribbon_sets(q) == {frozenset("C5 D5 E5 F5 G5 H6 H7".split())}


# ================================================================ R4-R6: groups, ribbons, ends

def test_r4_groups_connect_whatever_the_colours():
    """R4: adjacent stones of different colours are one group; a single stone is a ribbon."""
    pos = make(6, "C5 D5 H4")
    ribs = {frozenset(r.cells): r for r in pos.ribbons()}
    assert set(ribs) == {frozenset({"C5", "D5"}), frozenset({"H4"})}
    assert (ribs[frozenset({"C5", "D5"})].black, ribs[frozenset({"C5", "D5"})].white) == (1, 1)
    single = ribs[frozenset({"H4"})]
    assert single.cells == ("H4",) and single.length == 1 and single.black == 1


def test_r4_bent_ribbon_is_a_ribbon_but_triangle_and_branch_are_not():
    """R4: a bent chain is a ribbon; a third stone touching two adjacent ones or a middle one is refused."""
    pos = make(6, "C5 D5 E6")                       # bent: C5-D5-E6
    assert ribbon_sets(pos) == {frozenset({"C5", "D5", "E6"})}
    assert not pos.is_legal("D6")                   # D6 touches C5, D5 and E6
    assert not pos.is_legal("D4")                   # D4 touches D5, the middle stone (branch)
    assert not pos.is_legal("C4")                   # C4 touches C5 and D5 (triangle)


def test_r5_every_group_is_a_ribbon_along_random_games():
    """R5: at every moment every group on the board is a ribbon (pos.ribbons() lists them end to end)."""
    def check(before, move, after):
        stones = board(after)
        for g in groups(after.size, stones):
            assert is_ribbon(after.size, g)
        check_ribbon_shapes(after)

    for seed, (size, gt) in enumerate([(6, "komi"), (5, "nokomi"), (4, "double"), (6, "double")]):
        random_game(size, seed, game_type=gt, button_p=0.1 if gt != "double" else 0.0, check=check)


def test_r6_ends_are_the_stones_with_fewer_than_two_stone_neighbours():
    """R6: a ribbon's listed first and last cells are its ends (< 2 stone neighbours); a singleton is its own end."""
    def check(before, move, after):
        stones = set(board(after))
        n = after.size
        for rib in after.ribbons():
            degree = {c: len(nbrs(n, c) & stones) for c in rib.cells}
            ends = {c for c in rib.cells if degree[c] < 2}
            assert ends == {rib.cells[0], rib.cells[-1]}
            if rib.length == 1:
                assert degree[rib.cells[0]] == 0
            assert all(degree[c] == 2 for c in rib.cells[1:-1])

    random_game(6, 11, check=check)
    random_game(4, 12, check=check)


# ================================================================ R7-R8: legality

def test_r7_legal_cells_match_both_forms_of_the_rule_along_random_games():
    """R7: legal iff |S| <= 2, all ends, different ribbons; equivalently the new group is a ribbon."""
    def check(before, move, after):
        n = after.size
        stones = board(after)
        mine = legal_cells(n, stones)
        assert mine == {c for c in all_cells(n) if r7_local(n, stones, c)}
        if not after.is_game_over():
            assert cell_moves(after) == mine
            assert {c for c in all_cells(n) if after.is_legal(c)} == mine

    for seed, size in enumerate((6, 5, 4, 3, 7) * 3):
        random_game(size, 100 + seed, button_p=0.2, check=check)


def test_r7_ring_through_both_ends_is_illegal():
    """R7: a cell touching both ends of one ribbon (two stones, same ribbon) is illegal: it closes a ring."""
    pos = make(6, "G6 G7 F7 E6 E5")          # five of F6's six neighbours, a path G6..E5
    assert ribbon_sets(pos) == {frozenset("G6 G7 F7 E6 E5".split())}
    assert not pos.is_legal("F5")            # F5 touches E5 and G6, the two ends
    assert not pos.is_legal("F6")            # F6 touches all five
    with pytest.raises(IllegalMoveError, match="F5.*(ring|same ribbon)"):
        pos.push("F5")
    assert pos.is_legal("H6")                # extends the end G6
    assert pos.is_legal("E4")                # extends the end E5


def test_r7_triangle_with_two_adjacent_stones_is_illegal():
    """R7: two adjacent stones are in the same ribbon, so the cells touching both are illegal."""
    pos = make(6, "F6 G6")
    common = nbrs(6, "F6") & nbrs(6, "G6")
    assert common == {"G7", "F5"}
    for cell in common:
        assert not pos.is_legal(cell)
    assert pos.is_legal("H6") and pos.is_legal("E6")


def test_r7_joining_two_ribbons_and_two_singletons_is_legal():
    """R7: a stone touching ends of two different ribbons is legal and joins them."""
    pos = make(6, "E6 G6")                 # two singletons with F6 between them
    assert pos.is_legal("F6")
    pos.push("F6")
    assert ribbon_sets(pos) == {frozenset({"E6", "F6", "G6"})}


def test_r7_legality_is_the_same_for_both_colours():
    """R7: the same stones give the same legal cells whichever colours they are and whoever moves."""
    a = make(6, DIAGRAM)                         # black to move, C5 black
    b = make(6, "button " + DIAGRAM)             # colours swapped, white to move
    assert a.to_move != b.to_move
    assert [a.stone_at(c) for c in DIAGRAM.split()] == [OTHER[b.stone_at(c)] for c in DIAGRAM.split()]
    assert cell_moves(a) == cell_moves(b)


def test_r8_legality_only_shrinks_along_random_games():
    """R8: a cell illegal once never becomes legal again, claims included."""
    for seed, (size, gt) in enumerate([(6, "komi"), (5, "komi"), (4, "nokomi"), (6, "double"),
                                       (4, "double"), (3, "komi")]):
        rng = random.Random(1000 + seed)
        pos = Position(size=size, game_type=gt)
        seen_illegal = set()
        prev = set(all_cells(size))
        while not pos.is_game_over():
            moves = pos.legal_moves()
            pos.push(rng.choice([m for m in moves if str(m) != "button"]))
            now = legal_cells(size, board(pos))
            assert now <= prev
            seen_illegal |= set(all_cells(size)) - now
            if gt != "double" and not pos.is_game_over():
                lib = cell_moves(pos)
                assert lib <= prev and not (lib & seen_illegal)
            prev = now


def test_r8_claims_do_not_change_legality():
    """R8: colour changes (claims) never affect legality: a claim leaves the legal cells as the stones say."""
    pos = make(6, CLAIM_EXAMPLE)
    pos.push("C8")
    assert pos.last_claims()                              # the A1-A6 ribbon was claimed
    assert cell_moves(pos) == legal_cells(6, board(pos))
    other = make(6, "button " + CLAIM_EXAMPLE)            # same stones, colours swapped
    other.push("C8")
    assert cell_moves(pos) == cell_moves(other)


# ================================================================ R9-R12: bounded ribbons, claims

def test_r9_bounded_flag_matches_brute_force():
    """R9: a ribbon is bounded iff no empty cell next to one of its stones is a legal placement."""
    def check(before, move, after):
        n = after.size
        stones = board(after)
        for rib in after.ribbons():
            assert rib.bounded == is_bounded(n, stones, frozenset(rib.cells))

    for seed, size in enumerate((6, 5, 4, 3)):
        random_game(size, 200 + seed, check=check)


def test_r9_only_cells_next_to_ends_can_be_legal():
    """R9: an empty cell next to a non-end stone of a ribbon is never legal."""
    def check(before, move, after):
        n = after.size
        stones = board(after)
        for rib in after.ribbons():
            for middle in rib.cells[1:-1]:
                for y in nbrs(n, middle) - set(stones):
                    assert not r7_legal(n, stones, y) and not after.is_legal(y)

    random_game(6, 300, check=check)


def test_r10_bounded_ribbon_never_changes_again():
    """R10: once bounded, a ribbon keeps its cells and its colours to the end of the game."""
    for seed, size in enumerate((6, 5, 4)):
        frozen = {}
        def check(before, move, after, frozen=frozen):
            ribs = {frozenset(r.cells): r for r in after.ribbons()}
            for cells_, colours in frozen.items():
                assert cells_ in ribs and ribs[cells_].bounded
                assert {c: after.stone_at(c) for c in cells_} == colours
            for cells_, r in ribs.items():
                if r.bounded and cells_ not in frozen:
                    frozen[cells_] = {c: after.stone_at(c) for c in cells_}
        random_game(size, 400 + seed, check=check)
        assert frozen


def test_r11_claim_example_ribbon_bounded_away_from_the_stone():
    """R11: White's C8 takes B7, the last growth cell of A1-A6 (not next to C8): A1-A6 is newly bounded."""
    pos = make(6, CLAIM_EXAMPLE)
    rib = frozenset("A1 A2 A3 A4 A5 A6".split())
    assert rib in ribbon_sets(pos)
    for cell in ("B1", "B2", "B6"):
        assert not pos.is_legal(cell)
    growth = {y for s in rib for y in nbrs(6, s) if pos.is_legal(y)}
    assert growth == {"B7"}
    assert not nbrs(6, "C8") & rib                     # C8 touches no stone of the ribbon
    assert pos.to_move == WHITE
    pos.push("C8")
    assert not pos.is_legal("B7")
    assert [frozenset(c.cells) for c in pos.last_claims()] == [rib]
    assert {frozenset(r.cells): r.bounded for r in pos.ribbons()}[rib]


def test_r11_ribbon_three_cells_from_the_stone_is_newly_bounded():
    """R11: B1 joins B2, which stops being an end, so A2 and B3 die and the singleton A3 (3 cells away) is bounded."""
    pos = make(3, "B2 C5 C4 A3 C3")
    assert not is_bounded(3, board(pos), frozenset({"A3"}))
    pos.push("B1")                                     # White
    assert [(c.cells, c.owner) for c in pos.last_claims()] == [(("A3",), WHITE)]
    (c1, r1), (c2, r2) = _cell(3, "B1"), _cell(3, "A3")
    assert max(abs(c1 - c2), abs(r1 - r2), abs((c1 - r1) - (c2 - r2))) == 3


def test_r11_new_stone_bounds_its_own_joined_ribbon():
    """R11: the ribbon holding the new stone, just made by joining two ribbons, can be newly bounded."""
    pos = make(3, "E5 C5 C4")
    assert ribbon_sets(pos) == {frozenset({"E5"}), frozenset({"C5", "C4"})}
    pos.push("D4")                                      # joins C5-C4 and E5
    assert [frozenset(c.cells) for c in pos.last_claims()] == [frozenset("C5 C4 D4 E5".split())]


def test_r11_cell_touching_both_ends_bounds_the_ribbon():
    """R11: Black's B4 makes A2...B4 a ribbon whose last growth cell A3 now touches both its ends: bounded."""
    pos = make(3, "C3 A2 B2 C4")
    assert pos.is_legal("A3")
    pos.push("B4")
    stones = board(pos)
    rib = frozenset("B4 C4 C3 B2 A2".split())
    assert nbrs(3, "A3") & set(stones) == {"A2", "B4"}          # exactly the two ends
    assert not pos.is_legal("A3") and not r7_legal(3, stones, "A3")
    assert [(frozenset(c.cells), c.owner) for c in pos.last_claims()] == [(rib, BLACK)]   # 3-2 black


def test_r11_newly_bounded_ribbons_match_brute_force():
    """R11: the ribbons claimed after a placement are exactly those bounded now and not bounded before."""
    def check(before, move, after):
        if move == "button":
            assert after.last_claims() == []               # the button bounds nothing
            return
        n = after.size
        was = bounded_set(n, board(before))
        now = bounded_set(n, board(after))
        assert {frozenset(c.cells) for c in after.last_claims()} == now - was
        assert len(after.last_claims()) == len(now - was)

    configs = [(6, "komi"), (5, "komi"), (4, "komi"), (3, "komi"), (5, "double"), (4, "nokomi"),
               (6, "double"), (7, "komi")] * 3
    for seed, (size, gt) in enumerate(configs):
        random_game(size, 500 + seed, game_type=gt, button_p=0.05 if gt != "double" else 0,
                    check=check)


def test_r12_claim_example_majority_takes_all_six_stones():
    """R12: A1-A6 (4 white, 2 black) bounded by White's C8 is claimed by White: all six stones white."""
    pos = make(6, CLAIM_EXAMPLE)
    rib = "A1 A2 A3 A4 A5 A6".split()
    assert [pos.stone_at(c) for c in rib] == [BLACK, WHITE, BLACK, WHITE, WHITE, WHITE]
    pos.push("C8")
    claims = pos.last_claims()
    assert len(claims) == 1 and set(claims[0].cells) == set(rib) and claims[0].owner == WHITE
    assert [pos.stone_at(c) for c in rib] == [WHITE] * 6
    assert pos.stone_at("C8") == WHITE and pos.stone_at("C7") == BLACK   # C7-E7-C8 untouched
    r = {frozenset(x.cells): x for x in pos.ribbons()}[frozenset(rib)]
    assert (r.black, r.white, r.bounded) == (0, 6, True)


def test_r12_tie_goes_to_opponent_of_placer_even_on_own_move():
    """R12: White's D4 bounds C5-C4-D4-E5 (2-2): the tie goes to Black, White's own stones turn black."""
    pos = make(3, "E5 C5 C4")
    assert pos.to_move == WHITE
    pos.push("D4")
    claims = pos.last_claims()
    assert len(claims) == 1 and claims[0].owner == BLACK
    assert set(claims[0].cells) == {"C5", "C4", "D4", "E5"}
    assert all(pos.stone_at(c) == BLACK for c in ("C5", "C4", "D4", "E5"))


def test_r12_two_ribbons_bounded_by_one_stone_claimed_independently():
    """R12: White's C1 bounds C1-C2-C3-B3-A3 (3W 2B, white) and the singleton A1 (black, stays black)."""
    pos = make(3, "C2 C3 A3 B3 A1")
    pos.push("C1")
    claims = {frozenset(c.cells): c.owner for c in pos.last_claims()}
    assert claims == {frozenset("C1 C2 C3 B3 A3".split()): WHITE, frozenset({"A1"}): BLACK}
    assert all(pos.stone_at(c) == WHITE for c in "C1 C2 C3 B3 A3".split())
    assert pos.stone_at("A1") == BLACK


def test_r12_tie_and_majority_in_one_placement_are_independent():
    """R12: Black's C1 bounds C1 (black majority, black) and D3-E3 (1-1 tie, to White) at once."""
    pos = make(3, "B2 A1 E3 D3 D5 C4")
    assert pos.to_move == BLACK
    pos.push("C1")
    claims = {frozenset(c.cells): c.owner for c in pos.last_claims()}
    assert claims == {frozenset({"C1"}): BLACK, frozenset({"D3", "E3"}): WHITE}
    assert pos.stone_at("C1") == BLACK
    assert pos.stone_at("D3") == WHITE and pos.stone_at("E3") == WHITE


def test_r12_claim_colours_match_brute_force_along_random_games():
    """R12: each newly bounded ribbon becomes its majority colour, a tie the placer's opponent; nothing else changes."""
    def check(before, move, after):
        if move == "button":
            assert board(after) == board(before)
            return
        placer = before.to_move
        was = board(before)
        was[move] = placer
        now = board(after)
        claimed = set()
        for claim in after.last_claims():
            expect = majority([was[c] for c in claim.cells]) or OTHER[placer]
            assert claim.owner == expect
            assert all(now[c] == expect for c in claim.cells)
            claimed |= set(claim.cells)
        if not (after.game_type == "double" and after.is_game_over()):   # R21 repaints at the end
            assert {c: now[c] for c in now if c not in claimed} == {c: was[c] for c in was if c not in claimed}

    configs = [(6, "komi"), (5, "komi"), (4, "komi"), (3, "komi"), (5, "double"), (4, "double"),
               (5, "nokomi"), (6, "double")] * 3
    for seed, (size, gt) in enumerate(configs):
        random_game(size, 600 + seed, game_type=gt, button_p=0.1 if gt != "double" else 0, check=check)


# ================================================================ R13-R16: turns, button, end, score

def test_r13_black_moves_first_and_may_take_the_button():
    """R13: Black moves first; taking the button is a whole turn and places no stone."""
    pos = Position(size=4)
    assert pos.to_move == BLACK and pos.button is None
    assert "button" in {str(m) for m in pos.legal_moves()}
    pos.push("button")
    assert pos.button == BLACK and pos.to_move == WHITE and pos.ply == 1
    assert not board(pos) and len(cell_moves(pos)) == 37
    assert "button" not in {str(m) for m in pos.legal_moves()}


def test_r13_button_cannot_be_taken_twice():
    """R13: the button can be taken only if nobody has yet, by either player."""
    pos = make(4, "D4 button C2")               # White took it
    assert pos.button == WHITE
    assert not pos.is_legal("button")
    with pytest.raises(IllegalMoveError, match="button"):
        pos.push("button")
    pos.push("E5")                               # White again is fine with a stone
    assert not pos.is_legal("button")
    with pytest.raises(IllegalMoveError, match="button"):
        pos.push("button")
    assert pos.button == WHITE


def test_r13_no_pass_only_stones_or_the_button():
    """R13: every legal move is a legal cell or the untaken button; there is no other pass."""
    pos = make(5, "E5 F6")
    moves = [str(m) for m in pos.legal_moves()]
    assert moves[-1] == "button" and set(moves[:-1]) == legal_cells(5, board(pos))
    assert moves[:-1] == [c for c in catena.cells(5) if c in set(moves)]   # cells in index order
    for bad in ("none", "skip"):
        with pytest.raises(IllegalMoveError):
            pos.push(bad)
    pos.push("pass")                          # GTP's name of the button: taking it, not passing
    assert pos.peek().is_button
    for bad in ("pass", "PASS", "button"):    # once taken, nothing is left to pass with
        with pytest.raises(IllegalMoveError):
            pos.push(bad)


def test_r14_game_ends_exactly_when_no_cell_is_legal():
    """R14: the game is over as soon as no empty cell is a legal placement, button or not."""
    def check(before, move, after):
        legal = legal_cells(after.size, board(after))
        assert after.is_game_over() == (not legal)
        if after.is_game_over():
            assert after.legal_moves() == [] and after.outcome() is not None
        else:
            assert after.outcome() is None

    for seed, (size, gt, bp) in enumerate([(4, "komi", 0.0), (4, "komi", 0.5), (5, "nokomi", 0.3),
                                           (3, "komi", 0.0), (2, "komi", 0.5), (6, "komi", 0.05)]):
        random_game(size, 700 + seed, game_type=gt, button_p=bp, check=check)


def test_r14_untaken_button_is_no_move_after_the_end():
    """R14: a finished game offers no move, not even the untaken button."""
    pos = make(3, "D4 C2 B2 C4 D3 A1 C5 A3")
    assert pos.is_game_over() and pos.button is None
    assert pos.legal_moves() == [] and not pos.is_legal("button")
    with pytest.raises(IllegalMoveError, match="over"):
        pos.push("button")


def test_r14_every_ribbon_bounded_and_one_colour_at_the_end():
    """R14: at the end every ribbon is bounded and claimed (one colour)."""
    for seed, size in enumerate((2, 3, 4, 5, 6)):
        pos = random_game(size, 800 + seed, button_p=0.2)
        stones = board(pos)
        for rib in pos.ribbons():
            assert rib.bounded and is_bounded(size, stones, frozenset(rib.cells))
            assert rib.black == 0 or rib.white == 0


def test_r15_untaken_button_goes_to_who_did_not_place_the_last_stone():
    """R15: with the button untaken it goes at the end to the player who did not place the last stone."""
    seen = set()
    for seed in range(40):
        pos = random_game(3 + seed % 3, 900 + seed)
        last_placer = placer_colours(pos.move_stack)[-1]
        assert pos.button is None
        assert pos.outcome().button == OTHER[last_placer]
        seen.add(last_placer)
    assert seen == {BLACK, WHITE}


def test_r15_taken_button_stays_with_its_taker():
    """R15/R13: a taken button is the taker's at the end, whoever placed the last stone."""
    seen = set()
    for seed in range(60):
        pos = random_game(3, 1000 + seed, button_p=0.5)
        if pos.button is not None:
            assert pos.outcome().button == pos.button
            seen.add((pos.button, placer_colours(pos.move_stack)[-1]))
    assert len(seen) == 4                    # each taker, each last placer


def test_r16_standard_score_stones_half_button_komi():
    """R16: own stones + 1/2 for the button holder + komi for White; higher wins, never a tie."""
    for seed in range(30):
        komi = seed % 16
        pos = random_game(3 + seed % 3, 1100 + seed, komi=komi, button_p=0.2)
        out = pos.outcome()
        colours = Counter(board(pos).values())
        b = colours[BLACK] + (0.5 if out.button == BLACK else 0)
        w = colours[WHITE] + komi + (0.5 if out.button == WHITE else 0)
        assert (out.black_score, out.white_score) == (b, w)
        assert out.winner == (BLACK if b > w else WHITE)


# ================================================================ R17-R18: setup through Game

def test_r17_komi_game_setup_komi_then_colour_then_black_moves():
    """R17: P1 chooses the komi, then P2 a colour; play starts with Black to move, button untaken."""
    game = catena.Game(size=4)
    assert (game.phase, game.to_act) == ("komi", "P1")
    with pytest.raises(catena.SetupError):
        game.choose_colour("black")                  # P2 may not choose before the komi
    with pytest.raises(catena.SetupError):
        game.push("D4")
    assert (game.phase, game.to_act, game.komi) == ("komi", "P1", None)
    game.choose_komi(5)
    assert (game.phase, game.to_act) == ("colour", "P2")
    with pytest.raises(catena.SetupError):
        game.choose_komi(3)                          # komi is chosen once
    with pytest.raises(catena.SetupError):
        game.push("D4")
    assert game.komi == 5 and game.phase == "colour"
    game.choose_colour("black")                      # P2 plays Black
    assert game.colour_of("P2") == BLACK and game.colour_of("P1") == WHITE
    assert (game.phase, game.to_act) == ("play", "P2")
    assert game.position.to_move == BLACK and game.position.button is None
    assert game.position.komi == 5 and game.position.ply == 0
    with pytest.raises(catena.SetupError):
        game.choose_colour("white")                  # colour is chosen once
    game.push("D4")
    assert game.to_act == "P1" and game.position.stone_at("D4") == BLACK


def test_r17_p2_choosing_white_leaves_p1_black_and_komi_to_white():
    """R17: if P2 chooses White, P1 is Black and moves first; the komi counts for White (P2)."""
    game = catena.Game(size=1)
    game.choose_komi(1)
    game.choose_colour("white")
    assert game.to_act == "P1" and game.player_of(BLACK) == "P1"
    game.push("A1")                                  # Black 1, White 0 + 1 + 1/2 button
    out = game.outcome()
    assert game.phase == "over" and game.to_act is None
    assert (out.outcome.black_score, out.outcome.white_score) == (1, 1.5)
    assert out.winner == WHITE and out.winner_player == "P2" and out.p1_colour == BLACK
    assert str(out) == "P2 (white) wins: black 1, white 1.5"


def test_game_outcome_sentence_for_a_draw_and_for_longest_ribbon_scoring():
    """The outcome sentence (terminal, command line and record errors all print it) names no
    winner in a draw and no scores where R24 gives none."""
    draw = catena.GameOutcome(catena.Outcome(None, 3.0, 3.0, None), BLACK, None)
    assert str(draw) == "a draw: black 3, white 3"
    game = catena.Game(size=1, game_type="double", scoring="longest")
    game.push("A1")
    assert str(game.outcome()) == "P1 (black) wins"


def test_r18_nokomi_first_move_must_be_a_stone_then_white_moves():
    """R18: no komi: the first move is a Black stone on any cell, not the button; then White moves."""
    pos = Position(size=4, game_type="nokomi")
    assert pos.komi == 0
    moves = [str(m) for m in pos.legal_moves()]
    assert "button" not in moves and len(moves) == 37
    with pytest.raises(IllegalMoveError, match="button"):
        pos.push("button")
    assert pos.ply == 0 and pos.button is None
    pos.push("D4")
    assert pos.stone_at("D4") == BLACK and pos.to_move == WHITE and pos.button is None
    assert pos.is_legal("button")


def test_r18_nokomi_setup_through_game():
    """R18: P1 places the black stone, P2 then chooses Black (taking it) or White; White to move, komi 0."""
    for choice, white_player in (("black", "P1"), ("white", "P2")):
        game = catena.Game(size=4, game_type="nokomi")
        assert (game.phase, game.to_act, game.komi) == ("first_stone", "P1", 0)
        for action in (lambda game=game: game.choose_komi(0),
                       lambda game=game, choice=choice: game.choose_colour(choice)):
            with pytest.raises(catena.SetupError):
                action()
        with pytest.raises(IllegalMoveError):
            game.push("button")
        assert game.position.ply == 0 and game.phase == "first_stone"
        game.push("D4")
        assert (game.phase, game.to_act) == ("colour", "P2")
        with pytest.raises(catena.SetupError):
            game.push("C2")
        assert game.position.ply == 1
        game.choose_colour(choice)
        assert game.phase == "play" and game.position.to_move == WHITE
        assert game.to_act == white_player and game.player_of(WHITE) == white_player
        assert game.player_of(BLACK) == {"P1": "P2", "P2": "P1"}[white_player]
        assert game.position.button is None and game.position.is_legal("button")


def test_r18_nokomi_p1_stone_ending_the_game_gives_white_the_button():
    """R18: on side 1 P1's stone ends the game; it is a Black placement, so the button goes to White."""
    pos = Position(size=1, game_type="nokomi")
    pos.push("A1")
    out = pos.outcome()
    assert pos.is_game_over()
    assert out == catena.Outcome(winner=BLACK, black_score=1, white_score=0.5, button=WHITE)
    game = catena.Game(size=1, game_type="nokomi")
    game.push("A1")
    assert game.phase == "colour"
    game.choose_colour("black")                          # P2 takes the black stone
    g = game.outcome()
    assert game.phase == "over" and g.outcome.button == WHITE
    assert g.winner == BLACK and g.winner_player == "P2" and g.p1_colour == WHITE


# ================================================================ R19-R21: double placement

def test_r19_double_turns_one_stone_then_two_of_the_movers_colour():
    """R19: Black's first turn is one stone; every later turn is two stones of the mover's colour; no button."""
    pos = Position(size=5, game_type="double")
    expected = [(BLACK, 1), (WHITE, 2), (WHITE, 1), (BLACK, 2), (BLACK, 1), (WHITE, 2), (WHITE, 1)]
    for move, (colour, left) in zip(["E5", "A1", "I9", "A5", "I5", "E9", "E1"], expected):
        assert (pos.to_move, pos.stones_left) == (colour, left)
        assert "button" not in {str(m) for m in pos.legal_moves()}
        pos.push(move)
        assert pos.stone_at(move) == colour
    assert (pos.to_move, pos.stones_left) == (BLACK, 2)
    with pytest.raises(IllegalMoveError, match="button"):
        pos.push("button")
    assert pos.button is None


def test_r19_double_no_colour_choice_p1_black_no_komi():
    """R19: double placement: P1 is Black, no colour choice, no komi, play starts at once."""
    game = catena.Game(size=3, game_type="double")
    assert game.phase == "play" and game.to_act == "P1" and game.komi == 0
    assert game.colour_of("P1") == BLACK
    for action in (lambda: game.choose_colour("white"), lambda: game.choose_komi(0)):
        with pytest.raises(catena.SetupError):
            action()
    assert game.colour_of("P1") == BLACK and game.position.ply == 0
    with pytest.raises(catena.CatenaError):
        Position(size=3, game_type="double", komi=1)


def test_r19_claims_after_each_stone_tie_to_opponent_of_placer():
    """R19: claims follow each single stone; Black's first stone D4 ties C5-C4-D4-E5 2-2, so White gets it."""
    pos = make(3, "E5 C5 C4", game_type="double")
    assert (pos.to_move, pos.stones_left) == (BLACK, 2)
    pos.push("D4")                                     # first stone of Black's turn
    claims = pos.last_claims()
    assert len(claims) == 1 and claims[0].owner == WHITE
    assert set(claims[0].cells) == {"C5", "C4", "D4", "E5"}
    assert all(pos.stone_at(c) == WHITE for c in ("C5", "C4", "D4", "E5"))
    assert (pos.to_move, pos.stones_left) == (BLACK, 1)


def test_r20_first_of_two_must_leave_a_cell():
    """R20: at a two-stone turn a legal cell after which no legal cell remains is refused."""
    pos = make(3, "D2 B3 E3 B1 C4 B2 E4", game_type="double")
    assert (pos.to_move, pos.stones_left) == (BLACK, 2)
    stones = board(pos)
    r7 = legal_cells(3, stones)
    allowed = {x for x in r7 if legal_cells(3, set(stones) | {x})}
    assert "D4" in r7 and "D4" not in allowed
    assert cell_moves(pos) == allowed
    assert not pos.is_legal("D4")
    before = (pos.zobrist, pos.move_stack, pos.to_array().tolist(), pos.stones_left)
    with pytest.raises(IllegalMoveError, match="D4"):
        pos.push("D4")
    assert (pos.zobrist, pos.move_stack, pos.to_array().tolist(), pos.stones_left) == before
    x = sorted(allowed)[0]
    pos.push(x)                                        # a good first stone: D4 may still follow
    assert cell_moves(pos) == legal_cells(3, board(pos)) and cell_moves(pos)


def test_r20_refusal_message_gives_the_r20_reason():
    """R20: refusing D4 (legal by R7, joining C4 and E4 of different ribbons) must say R20, not "ring"."""
    pos = make(3, "D2 B3 E3 B1 C4 B2 E4", game_type="double")
    stones = board(pos)
    assert group_of(3, stones, "C4") != group_of(3, stones, "E4")
    with pytest.raises(IllegalMoveError) as info:
        pos.push("D4")
    message = str(info.value)
    assert "D4" in message and "R20" in message and "ring" not in message


def test_r20_first_stone_of_the_game_is_not_filtered():
    """R20/R19: Black's single opening stone needs no second cell: on side 1 A1 is legal, then the game ends."""
    pos = Position(size=1, game_type="double")
    assert [str(m) for m in pos.legal_moves()] == ["A1"]
    pos.push("A1")
    assert pos.is_game_over()
    assert pos.outcome() == catena.Outcome(winner=BLACK, black_score=1, white_score=0, button=None)


def test_r20_game_ends_when_mover_cannot_place_two_with_a_cell_left():
    """R20: the game ends at a turn start when the mover cannot place two, even with one legal cell left."""
    pos = make(3, "C4 B2 D4 D3 A1 B3", game_type="double")
    assert not pos.is_game_over()
    pos.push("E3")
    assert pos.is_game_over() and pos.to_move == BLACK
    stones = board(pos)
    assert legal_cells(3, stones) == {"C1"} and not can_place_two(3, stones)
    assert pos.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        pos.push("C1")


def test_r20_filter_and_end_match_brute_force_along_random_games():
    """R20: two-stone turns offer exactly the cells leaving a cell; the game ends iff the mover cannot place two."""
    def check(before, move, after):
        n = after.size
        stones = board(after)
        r7 = legal_cells(n, stones)
        if after.is_game_over():
            assert after.stones_left == 2 and not can_place_two(n, stones)
            return
        if after.stones_left == 2:
            assert can_place_two(n, stones)
            assert cell_moves(after) == {x for x in r7 if legal_cells(n, set(stones) | {x})}
        else:
            assert r7 and cell_moves(after) == r7

    for seed, size in enumerate((2, 3, 3, 4, 4, 5) * 4):
        random_game(size, 1200 + seed, game_type="double", check=check)


def test_r21_unbounded_tie_goes_to_the_player_who_could_not_move():
    """R21: at the end the unbounded 3-3 ribbon A3-B3-C4-D4-D3-C2 goes to Black, who could not move."""
    pos = make(3, "D4 C4 B3 A3 D3 A1", game_type="double")
    placed = {c: pos.stone_at(c) for c in "D4 C4 B3 A3 D3 A1".split()}
    pos.push("C2")                                     # White's second stone
    placed["C2"] = WHITE
    assert pos.is_game_over() and pos.to_move == BLACK
    stones = board(pos)
    rib = frozenset("A3 B3 C4 D4 D3 C2".split())
    assert rib in set(groups(3, stones)) and not is_bounded(3, stones, rib)
    assert majority([placed[c] for c in rib]) is None
    assert all(pos.stone_at(c) == BLACK for c in rib)
    assert pos.stone_at("A1") == WHITE                # unbounded singleton: its majority
    ribs = {frozenset(r.cells): r for r in pos.ribbons()}
    assert not ribs[rib].bounded and not ribs[frozenset({"A1"})].bounded
    out = pos.outcome()
    assert out == catena.Outcome(winner=BLACK, black_score=6, white_score=1, button=None)


def test_r21_unbounded_majority_regardless_of_mover():
    """R21: unbounded E5-D5-C4-B3-B2-C2-D2 (4 white, 3 black) goes to White although Black is the one stuck."""
    moves = "E5 D5 B3 C2 B2 D2 C4".split()
    pos = make(3, moves, game_type="double")
    assert pos.is_game_over() and pos.to_move == BLACK
    placed = dict(zip(moves, placer_colours(moves, "double")))
    rib = frozenset(moves)
    stones = board(pos)
    assert groups(3, stones) == [rib] and not is_bounded(3, stones, rib)
    assert Counter(placed.values()) == {WHITE: 4, BLACK: 3}
    assert all(pos.stone_at(c) == WHITE for c in moves)
    assert pos.outcome() == catena.Outcome(WHITE, 0, 7, None)


def test_r21_end_claims_along_random_games():
    """R21: at the end bounded ribbons keep their colours; unbounded ones take majority, tie the stuck mover."""
    for seed, size in enumerate((2, 3, 3, 4, 4, 5, 5, 6) * 4):
        rng = random.Random(1300 + seed)
        pos = Position(size=size, game_type="double")
        placed = {}
        while True:
            before = board(pos)
            mover = pos.to_move
            move = str(rng.choice(pos.legal_moves()))
            placed[move] = mover
            pos.push(move)
            if pos.is_game_over():
                break
        stones = board(pos)
        before[move] = placed[move]
        for claim in pos.last_claims():                # claims of the last stone itself
            for c in claim.cells:
                before[c] = claim.owner
        for g in groups(size, stones):
            if is_bounded(size, stones, g):
                assert {c: stones[c] for c in g} == {c: before[c] for c in g}
            else:
                owner = majority([placed[c] for c in g]) or pos.to_move
                assert {stones[c] for c in g} == {owner}
        b, w, winner = expected_scores(pos, final_ribbons(pos))
        assert pos.outcome() == catena.Outcome(winner, b, w, None)


def test_r21_double_placement_never_ends_level():
    """R21: ties would be draws, but every double game ends after an odd number of stones, so none ties."""
    for seed in range(40):
        size = 2 + seed % 4
        moves = random_game(size, 1400 + seed, game_type="double").move_stack
        assert len(moves) % 2 == 1
        for scoring in ("standard", "square", "longest"):
            out = make(size, moves, game_type="double", scoring=scoring).outcome()
            assert out.winner in (BLACK, WHITE) and out.button is None
            if scoring != "longest":
                assert out.black_score != out.white_score
                assert out.winner == (BLACK if out.black_score > out.white_score else WHITE)


# ================================================================ R22-R25: komi and scoring

def test_r22_komi_ranges():
    """R22: komi 0..15 in standard and longest, 0..1000 in square; 0 only in nokomi and double."""
    for scoring, top in (("standard", 15), ("longest", 15), ("square", 1000)):
        for komi in (0, 1, top):
            assert Position(size=3, scoring=scoring, komi=komi).komi == komi
        for komi in (-1, top + 1):
            with pytest.raises(catena.CatenaError, match=str(komi)):
                Position(size=3, scoring=scoring, komi=komi)
        for gt in ("nokomi", "double"):
            assert Position(size=3, game_type=gt, scoring=scoring, komi=0).komi == 0
            with pytest.raises(catena.CatenaError, match="0"):
                Position(size=3, game_type=gt, scoring=scoring, komi=1)
        game = catena.Game(size=3, scoring=scoring)
        for komi in (-1, top + 1):
            with pytest.raises(catena.CatenaError):
                game.choose_komi(komi)
            assert game.phase == "komi" and game.komi is None
        game.choose_komi(top)
        assert game.position.komi == top


def test_r23_standard_scoring_by_hand():
    """R23: standard = R16: A1-B2-C2-D3-D4-C4-C5 black (7) + button, A3 white (1) + komi."""
    moves = "D4 C2 B2 C4 D3 A1 C5 A3"
    for komi, winner in ((0, BLACK), (6, BLACK), (7, WHITE), (15, WHITE)):
        pos = make(3, moves, komi=komi)
        assert sorted(final_ribbons(pos)) == [(BLACK, 7), (WHITE, 1)]
        assert pos.outcome() == catena.Outcome(winner, 7.5, 1.0 + komi, BLACK)  # White placed last


def test_r24_komi_is_added_to_whites_longest_ribbon():
    """R24: Black 7 vs White 1: komi 0 Black; komi 6 makes 7-7, a pair, none remains: button (Black); komi 7 White."""
    moves = "D4 C2 B2 C4 D3 A1 C5 A3"
    for komi, winner in ((0, BLACK), (5, BLACK), (6, BLACK), (7, WHITE), (15, WHITE)):
        pos = make(3, moves, scoring="longest", komi=komi)
        out = pos.outcome()
        assert (out.winner, out.black_score, out.white_score, out.button) == (winner, None, None, BLACK)
        assert ref.longest_winner(final_ribbons(pos), komi, BLACK) == winner


def test_r24_pairs_of_equal_length_are_removed():
    """R24: Black [2,1,1,1] vs White [2,2]: the 2-2 pair goes, White's other 2 is the longest left: White wins."""
    pos = make(3, "D3 C5 A3 C4 E5 B2 C1 A1 E3", scoring="longest")
    ribs = final_ribbons(pos)
    assert sorted(length for owner, length in ribs if owner == BLACK) == [1, 1, 1, 2]
    assert sorted(length for owner, length in ribs if owner == WHITE) == [2, 2]
    assert pos.outcome().winner == WHITE
    assert make(3, "D3 C5 A3 C4 E5 B2 C1 A1 E3").outcome().winner == BLACK   # standard 5 vs 4.5


def test_r24_none_remains_button_holder_wins():
    """R24: all ribbons cancel in pairs: the button holder wins (taken by Black, or given to White by R15)."""
    taken = make(3, "button D4 C4 B1 B2 D3 E3 A3 C5 C1 A2", scoring="longest")
    assert sorted(final_ribbons(taken)) == [(BLACK, 5), (WHITE, 5)]
    assert taken.outcome().winner == BLACK and taken.outcome().button == BLACK
    given = make(3, "C4 E5 D4 C1 B3 C2 A3 A1 E3", scoring="longest", komi=3)
    ribs = final_ribbons(given)
    assert sorted(ribs) == [(BLACK, 1), (BLACK, 5), (WHITE, 1), (WHITE, 2)]   # komi 3: White's 2 -> 5
    assert given.outcome().button == WHITE                                     # Black placed last
    assert given.outcome().winner == WHITE == ref.longest_winner(ribs, 3, WHITE)
    assert make(3, "C4 E5 D4 C1 B3 C2 A3 A1 E3", scoring="longest", komi=2).outcome().winner == BLACK


def test_r24_komi_goes_to_only_one_of_whites_longest():
    """R24: Black [7,3,1], White [3,3], komi 4: one 3 becomes 7, pairs 7-7 and 3-3 cancel, Black's 1 wins."""
    moves = "E3 D5 D1 A3 A1 F7 B5 D7 B2 F4 C2 G6 G4 F6 B4 D3 D6"
    pos = make(4, moves, scoring="longest", komi=4)
    ribs = final_ribbons(pos)
    assert sorted(ribs) == [(BLACK, 1), (BLACK, 3), (BLACK, 7), (WHITE, 3), (WHITE, 3)]
    assert pos.outcome().winner == BLACK == ref.longest_winner(ribs, 4, pos.outcome().button)


def test_r24_no_white_ribbon_komi_dropped():
    """R24: if White has no ribbon, komi is dropped: side 1, Black's A1 wins even with komi 15."""
    pos = make(1, "A1", scoring="longest", komi=15)
    assert pos.outcome() == catena.Outcome(BLACK, None, None, WHITE)


def test_r24_longest_matches_recomputation_along_random_games():
    """R24: the winner under longest-ribbon scoring equals the rule recomputed from the final ribbons."""
    for seed in range(40):
        size = 2 + seed % 4
        komi = (seed * 7) % 16
        pos = random_game(size, 1500 + seed, scoring="longest", komi=komi, button_p=0.15)
        out = pos.outcome()
        assert out.black_score is None and out.white_score is None
        assert out.winner == ref.longest_winner(final_ribbons(pos), komi, out.button)
    for seed in range(20):
        pos = random_game(2 + seed % 4, 1600 + seed, game_type="double", scoring="longest")
        assert pos.outcome().winner == ref.longest_winner(final_ribbons(pos), 0, None)


def test_r25_square_scoring_by_hand():
    """R25: 7-ribbon black = 49 + 1/2 button, 1-ribbon white = 1 + komi: komi 48 Black, 49 White."""
    moves = "D4 C2 B2 C4 D3 A1 C5 A3"
    for komi, winner in ((0, BLACK), (48, BLACK), (49, WHITE), (1000, WHITE)):
        pos = make(3, moves, scoring="square", komi=komi)
        assert pos.outcome() == catena.Outcome(winner, 49.5, 1.0 + komi, BLACK)


def test_r25_square_matches_recomputation_along_random_games():
    """R25: each ribbon adds length squared to its owner; komi to White, 1/2 to the button holder."""
    for seed in range(30):
        size = 2 + seed % 4
        komi = (seed * 37) % 1001
        pos = random_game(size, 1700 + seed, scoring="square", komi=komi, button_p=0.15)
        b, w, winner = expected_scores(pos, final_ribbons(pos), square=True)
        assert pos.outcome() == catena.Outcome(winner, b, w, pos.outcome().button)
    for seed in range(20):
        pos = random_game(2 + seed % 4, 1800 + seed, game_type="double", scoring="square")
        b, w, winner = expected_scores(pos, final_ribbons(pos), square=True)
        assert pos.outcome() == catena.Outcome(winner, b, w, None)


# ================================================================ F1-F4: worked facts

def test_f1_side_6_has_91_cells_and_92_moves():
    """F1: side 6 has 91 cells; on the empty board all are legal and the button makes 92 moves."""
    pos = Position()
    moves = [str(m) for m in pos.legal_moves()]
    assert len(catena.cells(6)) == 91 and len(moves) == 92
    assert moves == list(catena.cells(6)) + ["button"]
    assert len(Position(game_type="nokomi").legal_moves()) == 91       # no button on P1's stone
    assert len(Position(game_type="double").legal_moves()) == 91       # no button at all


def test_f2_side_1_black_places_a1():
    """F2: side 1, komi 0: Black's A1 is bounded and Black's; button to White: Black 1, White 0.5."""
    pos = Position(size=1)
    pos.push("A1")
    assert pos.is_game_over()
    assert [(c.cells, c.owner) for c in pos.last_claims()] == [(("A1",), BLACK)]
    assert pos.outcome() == catena.Outcome(winner=BLACK, black_score=1, white_score=0.5, button=WHITE)


def test_f2_side_1_black_takes_button_white_places_a1():
    """F2: side 1: Black takes the button, White places A1 (White's): Black 0.5, White 1."""
    pos = Position(size=1)
    pos.push("button")
    pos.push("A1")
    assert pos.is_game_over() and pos.stone_at("A1") == WHITE
    assert pos.outcome() == catena.Outcome(winner=WHITE, black_score=0.5, white_score=1, button=BLACK)


def test_f3_diagram_with_any_colours():
    """F3: stones (any colours) on C5 D5 E5 G5 H6 H7: B5, F5 legal; D6, G6, I6 illegal."""
    orders = ["C5 D5 E5 G5 H6 H7", "button C5 D5 E5 G5 H6 H7", "H7 G5 C5 E5 D5 H6",
              "C5 A1 D5 K11 E5 A6 G5 K6 H6 F1 H7"]
    for order in orders:
        pos = make(6, order)
        for cell in ("B5", "F5"):
            assert pos.is_legal(cell)
        for cell in ("D6", "G6", "I6"):
            assert not pos.is_legal(cell)
            with pytest.raises(IllegalMoveError, match=cell):
                pos.copy().push(cell)


def test_f4_symmetric_positions_play_alike():
    """F4: the 12 board symmetries keep adjacency, so mirrored games have mirrored legal cells and equal results."""
    for size in (3, 4, 6):
        names = catena.cells(size)
        syms = catena.symmetries(size)
        assert len(set(syms)) == 12
        for sym in syms:
            for i in range(len(names)):
                assert {names[sym[j]] for j in catena.neighbours(i, size)} == nbrs(size, names[sym[i]])
        game = random_game(size, 1900 + size, button_p=0.1)
        moves = [str(m) for m in game.move_stack]
        for sym in syms:
            image = Position(size=size)
            for k, m in enumerate(moves):
                image.push(m if m == "button" else names[sym[names.index(m)]])
                if k == len(moves) // 2:
                    prefix = make(size, moves[:k + 1])
                    assert cell_moves(image) == {names[sym[names.index(c)]] for c in cell_moves(prefix)}
            assert image.outcome() == game.outcome()


def test_f4_colour_arrangement_inside_unbounded_ribbon_does_not_matter():
    """F4: same stones, same colour counts per unbounded ribbon, other arrangement: same legal moves and results."""
    a = make(4, "C3 D4 E5")              # C3-D4-E5 is black, white, black
    b = make(4, "D4 C3 E5")              # white, black, black: same counts, other order
    assert [a.stone_at(c) for c in ("C3", "D4", "E5")] != [b.stone_at(c) for c in ("C3", "D4", "E5")]
    assert set(board(a)) == set(board(b)) and a.to_move == b.to_move
    assert cell_moves(a) == cell_moves(b)
    assert catena.perft(a, 3) == catena.perft(b, 3)
    for seed in range(20):
        rng = random.Random(2000 + seed)
        x, y = a.copy(), b.copy()
        while not x.is_game_over():
            assert [str(m) for m in x.legal_moves()] == [str(m) for m in y.legal_moves()]
            move = rng.choice(x.legal_moves())
            x.push(move)
            y.push(move)
        assert y.is_game_over() and x.outcome() == y.outcome()
