"""Tests of the slow reference implementation (tests/reference.py) on the worked
facts and hand-checked positions of docs/rules.md (R1..R25, F1..F4)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from reference import RefPosition, cell_names  # noqa: E402


def play_all(pos, moves):
    for m in moves:
        pos.play(m)
    return pos


def ribbon_map(pos):
    return {cells: bounded for cells, bounded in pos.ribbons()}


# ------------------------------------------------------------------ board (R1-R3)

@pytest.mark.parametrize("n", range(1, 11))
def test_R1_cell_count(n):
    """R1: a hexhex board of side n has 3n(n-1)+1 cells."""
    names = cell_names(n)
    assert len(names) == 3 * n * (n - 1) + 1
    assert len(set(names)) == len(names)


def test_R2_cell_names_and_order():
    """R2: names are column letter + row, listed by column then row."""
    assert cell_names(1) == ["A1"]
    assert cell_names(2) == ["A1", "A2", "B1", "B2", "B3", "C2", "C3"]
    assert "F6" in cell_names(6) and "K11" in cell_names(6) and "A7" not in cell_names(6)
    assert cell_names(10)[-1] == "S19"


def test_R2_names_case_insensitive():
    """R2: names are read case-insensitively and written in upper case."""
    pos = RefPosition(6)
    pos.play("f6")
    assert pos.colours() == {"F6": "black"}
    with pytest.raises(ValueError):
        pos.play("F6")          # occupied
    with pytest.raises(ValueError):
        pos.play("A7")          # off the board (|1-7| > 5)


# ------------------------------------------------------------------ F1

def test_F1_empty_board_moves():
    """F1 / R13 / R18 / R19: side 6 has 91 cells; 92 moves with the button (komi),
    91 in nokomi (first move is P1's stone) and double placement (no button)."""
    assert len(cell_names(6)) == 91
    komi = RefPosition(6).legal_moves()
    assert len(komi) == 92 and "button" in komi
    assert komi - {"button"} == set(cell_names(6))
    assert RefPosition(6, "nokomi").legal_moves() == set(cell_names(6))
    assert RefPosition(6, "double").legal_moves() == set(cell_names(6))


# ------------------------------------------------------------------ F2

def test_F2_side1_black_places():
    """F2 / R12 / R15 / R16: Black places A1, the singleton is bounded and Black's;
    the button goes to White, who did not place the last stone: 1 to 0.5."""
    pos = RefPosition(1)
    pos.play("A1")
    assert pos.last_claims() == [(frozenset({"A1"}), "black")]
    assert pos.is_over() and pos.legal_moves() == set()
    assert pos.button() is None           # not taken; awarded only in the score
    assert pos.outcome() == ("black", 1.0, 0.5)


def test_F2_side1_black_takes_button():
    """F2 / R13: Black takes the button, White places A1: Black 0.5, White 1."""
    pos = RefPosition(1)
    pos.play("button")
    assert pos.button() == "black" and pos.to_move() == "white"
    assert pos.last_claims() == []
    assert pos.legal_moves() == {"A1"}    # button already taken
    pos.play("A1")
    assert pos.is_over()
    assert pos.colours() == {"A1": "white"}
    assert pos.outcome() == ("white", 0.5, 1.0)


def test_R18_R15_nokomi_side1():
    """R18 / R15: in nokomi P1's first stone is a Black placement (no button); if it
    ends the game the button goes to White."""
    pos = RefPosition(1, "nokomi")
    assert pos.legal_moves() == {"A1"}
    pos.play("A1")
    assert pos.is_over()
    assert pos.outcome() == ("black", 1.0, 0.5)


def test_R18_nokomi_button_after_first_stone():
    """R18: after P1's Black stone White moves and may take the button."""
    pos = RefPosition(6, "nokomi")
    with pytest.raises(ValueError):
        pos.play("button")
    pos.play("F6")
    assert pos.to_move() == "white"
    assert "button" in pos.legal_moves()
    pos.play("button")
    assert pos.button() == "white" and pos.to_move() == "black"
    assert "button" not in pos.legal_moves()


# ------------------------------------------------------------------ F3 / R7

def test_F3_R7_legality_examples():
    """F3 / R3 / R7: with stones on C5 D5 E5 G5 H6 H7 (side 6), B5 and F5 are legal;
    D6 (triangle), G6 (three neighbours) and I6 (branch at H6) are illegal."""
    pos = play_all(RefPosition(6), ["C5", "D5", "E5", "G5", "H6", "H7"])
    legal = pos.legal_moves()
    assert {"B5", "F5"} <= legal
    assert not ({"D6", "G6", "I6"} & legal)
    for bad in ("D6", "G6", "I6"):
        with pytest.raises(ValueError):
            pos.play(bad)
    pos.play("F5")        # joins the two ribbons (R7)
    assert ribbon_map(pos).keys() == {frozenset({"C5", "D5", "E5", "F5", "G5", "H6", "H7"})}


# ------------------------------------------------------------------ claims (R11-R12)

def test_R11_R12_bounded_by_a_move_elsewhere():
    """R11 / R12: side 3, Black C5, White A3, Black D4, White B3, Black E5.
    C5's neighbours are B4, C4, D5.  After B3, B4 touches A3 B3 C5 and C4 touches
    B3 D4 C5 (three stones each: illegal); D5 touches C5 and D4 (two ends of two
    ribbons: legal).  E5 is not next to C5 but makes D5 touch C5 D4 E5: C5's last
    growth cell is gone, so the singleton is newly bounded and Black's (1-0)."""
    pos = play_all(RefPosition(3), ["C5", "A3", "D4", "B3"])
    assert ribbon_map(pos)[frozenset({"C5"})] is False
    pos.play("E5")
    assert pos.last_claims() == [(frozenset({"C5"}), "black")]
    rib = ribbon_map(pos)
    assert rib[frozenset({"C5"})] is True
    assert rib[frozenset({"D4", "E5"})] is False


def test_R12_tie_goes_to_opponent_of_placer():
    """R11 / R12: side 3, Black B2, White A1, Black D3, White C1, Black C4.
    Ribbon A1-B2 (1 Black, 1 White): A2 and B1 touch both its stones, C2 touches
    B2 C1 D3 and C3 touches B2 D3 C4 (illegal); only B3 (touching B2 and C4) is legal.
    White's A3, not next to the ribbon, makes B3 touch A3 B2 C4: the ribbon is newly
    bounded, a 1-1 tie, so it goes to Black, the opponent of the placer."""
    pos = play_all(RefPosition(3), ["B2", "A1", "D3", "C1", "C4"])
    assert ribbon_map(pos)[frozenset({"A1", "B2"})] is False
    assert pos.colours()["A1"] == "white"
    pos.play("A3")
    assert pos.last_claims() == [(frozenset({"A1", "B2"}), "black")]
    assert pos.colours()["A1"] == "black" and pos.colours()["B2"] == "black"
    assert pos.colours()["A3"] == "white"     # A3 itself is not bounded (B4 legal)


def test_R10_claimed_ribbon_is_not_reclaimed():
    """R10 / R11: a bounded ribbon stays bounded and is not claimed again later."""
    pos = play_all(RefPosition(3), ["C5", "A3", "D4", "B3", "E5"])
    pos.play("A1")
    assert all(frozenset({"C5"}) != cells for cells, _ in pos.last_claims())
    assert pos.last_claims() == []


# ------------------------------------------------------------------ scoring (R14-R16, R23-R25)

# Side 3, 8 stones, no button taken: Black B3, White C2, Black C4, White E3,
# Black D4, White B2, Black C1, White E5.  Final position: ribbon
# C1-C2-B2-B3-C4-D4-E5 (4 Black, 3 White as placed, so Black's, 7 stones) and the
# White singleton E3.  Every empty cell (A1 A2 A3 B1 B4 C3 C5 D2 D3 D5 E4) touches a
# middle stone or three stones, so the game is over (R14).  White placed the last
# stone, so the button goes to Black (R15).
SIDE3_GAME = ["B3", "C2", "C4", "E3", "D4", "B2", "C1", "E5"]


def test_R14_R15_R16_standard_side3():
    """R14 / R15 / R16 / R23: Black 7 + 1/2 button, White 1 + komi."""
    pos = play_all(RefPosition(3), SIDE3_GAME)
    assert pos.is_over() and pos.legal_moves() == set()
    assert ribbon_map(pos) == {frozenset({"C1", "C2", "B2", "B3", "C4", "D4", "E5"}): True,
                               frozenset({"E3"}): True}
    assert pos.outcome() == ("black", 7.5, 1.0)
    assert play_all(RefPosition(3, komi=7), SIDE3_GAME).outcome() == ("white", 7.5, 8.0)


def test_R25_square_side3():
    """R25: squares of ribbon lengths, komi to White, 1/2 to the button holder."""
    assert play_all(RefPosition(3, scoring="square"), SIDE3_GAME).outcome() == ("black", 49.5, 1.0)
    pos = play_all(RefPosition(3, scoring="square", komi=49), SIDE3_GAME)
    assert pos.outcome() == ("white", 49.5, 50.0)


@pytest.mark.parametrize("komi,winner", [(0, "black"), (5, "black"), (6, "black"), (7, "white")])
def test_R24_longest_ribbon_side3(komi, winner):
    """R24: Black has [7], White [1]; komi goes onto White's 1.  komi 5: 7 vs 6,
    Black.  komi 6: 7 vs 7 cancel, nothing remains, the button holder (Black by R15)
    wins.  komi 7: 8 vs 7, White."""
    pos = play_all(RefPosition(3, scoring="longest", komi=komi), SIDE3_GAME)
    assert pos.outcome() == (winner, None, None)


def test_R22_komi_validation():
    """R22: komi ranges; komi is 0 in nokomi and double placement."""
    RefPosition(6, "komi", "standard", 15)
    RefPosition(6, "komi", "square", 1000)
    for args in [("komi", "standard", 16), ("komi", "longest", -1), ("komi", "square", 1001),
                 ("nokomi", "standard", 1), ("double", "standard", 1)]:
        with pytest.raises(ValueError):
            RefPosition(6, *args)


# ------------------------------------------------------------------ double placement (R19-R21)

def test_R19_R20_double_side2_full_game():
    """R19 / R20 / R12 / R21, side 2 (cells A1 A2 B1 B2 B3 C2 C3, B2 the centre).
    Black A1 (one stone).  White B1, C2: ribbon A1-B1-C2 (B2 now touches three
    stones); A2 and C3 stay legal, B3 is free.  Black B3: A2 (touching ends A1 and B3
    of two ribbons) and C3 (ends C2 and B3) are legal, nothing bounded.  Black A2:
    ribbon B3-A2-A1-B1-C2 with ends B3 and C2; C3 touches both ends (ring) and B2 five
    stones, so it is bounded: 3 Black vs 2 White, Black claims all five.  White
    cannot place even one stone, the game ends: Black 5, White 0, no button."""
    pos = RefPosition(2, "double")
    assert "button" not in pos.legal_moves()
    pos.play("A1")
    assert pos.to_move() == "white" and not pos.is_over()
    pos.play("B1")
    assert pos.to_move() == "white"              # second stone of White's turn
    assert pos.legal_moves() == {"C2", "A2", "B3", "C3"}
    pos.play("C2")
    assert pos.to_move() == "black" and pos.last_claims() == []
    pos.play("B3")
    assert pos.to_move() == "black" and pos.legal_moves() == {"A2", "C3"}
    pos.play("A2")
    assert pos.last_claims() == [(frozenset({"A1", "A2", "B1", "B3", "C2"}), "black")]
    assert pos.is_over() and pos.legal_moves() == set()
    assert pos.to_move() == "white"
    assert pos.button() is None
    assert pos.outcome() == ("black", 5.0, 0.0)
    assert set(pos.colours().values()) == {"black"}


def test_R20_double_side1():
    """R20: side 1, Black's single first stone fills the board; White cannot place
    two stones at the start of the next turn, so the game is over: 1-0."""
    pos = RefPosition(1, "double")
    pos.play("A1")
    assert pos.is_over() and pos.outcome() == ("black", 1.0, 0.0)


def test_R20_first_stone_must_leave_a_legal_cell():
    """R20: side 3 after Black D4; White C4 C1; Black C2 A2; White A1 D3 the ribbons
    are A1-A2 and C1-C2-D3-D4-C4, and the legal cells are A3 B3 B4 C5.  B3 joins them
    into A1-A2-B3-C4-D4-D3-C2-C1 (ends A1, C1), after which every empty cell touches a
    middle stone or both ends (e.g. B1 touches A1 and C1): no legal cell is left.  So
    B3 may not be Black's first stone; B3 is still legal as a second stone."""
    moves = ["D4", "C4", "C1", "C2", "A2", "A1", "D3"]
    plain = play_all(RefPosition(3), moves)
    assert plain.legal_moves() == {"A3", "B3", "B4", "C5", "button"}
    pos = play_all(RefPosition(3, "double"), moves)
    assert pos.to_move() == "black"
    assert pos.legal_moves() == {"A3", "B4", "C5"}
    with pytest.raises(ValueError):
        pos.play("B3")
    pos.play("A3")          # second stone: B4 (ends A3 and C4) or C5 (end C4)
    assert pos.legal_moves() == {"B4", "C5"}


def test_R21_end_claim_tie_goes_to_player_to_move():
    """R20 / R21: side 3, Black C2; White C4 B4; Black D3 B1; White D4 A2.
    Ribbons: B1-C2-D3-D4-C4-B4 (3 Black B1 C2 D3, 3 White D4 C4 B4) and White A2.
    Legal cells: only A1 (touching A2 and B1) and A3 (A2 and B4); every other empty
    cell touches three stones, a middle stone, or both ends of one ribbon.  Either
    one makes the other touch both ends of the new ribbon, so Black cannot place two
    stones: the game ends.  Nothing is bounded; R21: A2 is White's (0-1); the long
    ribbon is a 3-3 tie and goes to Black, the player who could not move: 6 to 1."""
    pos = play_all(RefPosition(3, "double"), ["C2", "C4", "B4", "D3", "B1", "D4", "A2"])
    assert pos.is_over() and pos.to_move() == "black" and pos.legal_moves() == set()
    long_rib = frozenset({"B1", "C2", "D3", "D4", "C4", "B4"})
    assert ribbon_map(pos) == {long_rib: False, frozenset({"A2"}): False}
    colours = pos.colours()
    assert all(colours[c] == "black" for c in long_rib) and colours["A2"] == "white"
    assert pos.last_claims() == []               # R21 claims are not placement claims
    assert pos.outcome() == ("black", 6.0, 1.0)
    sq = play_all(RefPosition(3, "double", "square"), ["C2", "C4", "B4", "D3", "B1", "D4", "A2"])
    assert sq.outcome() == ("black", 36.0, 1.0)


def test_R13_illegal_moves_raise():
    """R13: only listed moves may be played; the button only once."""
    pos = RefPosition(2)
    pos.play("button")
    with pytest.raises(ValueError):
        pos.play("button")
    with pytest.raises(ValueError):
        pos.play("Z9")
    with pytest.raises(ValueError):
        RefPosition(2, "double").play("button")
    with pytest.raises(ValueError):
        RefPosition(2).outcome()                 # game not over
