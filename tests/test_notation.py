"""Position strings (catena.notation) and integer action ids.

A string read back gives a position equal to the original (rules, stones shown,
turn, button, ply, last placer), with the same Zobrist key, legal moves and
outcome, a sound incremental state (``_consistency_errors``), and the same future:
play goes on identically from both.  Malformed or impossible strings raise
ValueError saying what is wrong.
"""

import pickle
import random

import numpy
import pytest

import catena
from catena import Move, Position


def random_positions(count, seed, sizes=range(1, 8)):
    """Positions part-way through random games of every variant, the button taken now and then."""
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice(list(sizes))
        game_type = rng.choice(catena.GAME_TYPES)
        scoring = rng.choice(catena.SCORINGS)
        komi = rng.choice([0, 4, 15]) if game_type == "komi" else 0
        pos = Position(size, game_type, scoring, komi)
        for _ in range(rng.randrange(3 * size * size + 2)):
            if pos.is_game_over():
                break
            moves = pos.legal_moves()
            stones = [m for m in moves if not m.is_button]
            pos.push(moves[-1] if moves[-1].is_button and rng.random() < 0.15 else rng.choice(stones))
        yield rng, pos


def test_round_trip_is_exact_and_the_future_is_the_same():
    tied = set()             # owners of bounded ribbons with as many black as white stones
    for rng, pos in random_positions(1500, "round trip"):
        text = pos.to_string()
        back = Position.from_string(text)
        assert back == pos, text
        assert back.to_string() == text
        assert back._consistency_errors() == [], text
        assert (back.zobrist, back.ply, back.outcome(), back.score()) == \
            (pos.zobrist, pos.ply, pos.outcome(), pos.score())
        assert back.legal_moves() == pos.legal_moves()
        assert back.move_stack == []
        placed = pos._cell_layers()[0]
        for ribbon in pos.ribbons():
            black = sum(placed[catena.parse_cell(c, pos.size)] == 1 for c in ribbon.cells)
            if ribbon.bounded and 2 * black == ribbon.length:
                tied.add(pos.stone_at(ribbon.cells[0]))
        for _ in range(3):
            if pos.is_game_over():
                break
            move = rng.choice(pos.legal_moves())
            pos.push(move)
            back.push(move)
            assert back == pos and back.zobrist == pos.zobrist and back.to_string() == pos.to_string()
            assert back._consistency_errors() == []
        assert pickle.loads(pickle.dumps(back)) == back
        assert back.copy().to_string() == back.to_string()
    assert tied == {"black", "white"}       # R12's tie rule both ways, read from the shown colours


def test_strings_of_the_empty_boards():
    assert Position(size=1).to_string() == "1 komi standard 0 1 b - 1 -"
    assert Position(size=6).to_string() == "6 komi standard 0 6/7/8/9/10/11/10/9/8/7/6 b - 1 -"
    assert Position(3, "double", "square").to_string() == "3 double square 0 3/4/5/4/3 b - 1 -"
    assert Position(4, "komi", "longest", 7).to_string().startswith("4 komi longest 7 ")


def test_claimed_stones_are_written_in_upper_case():
    pos = Position(size=2)
    for move in ["B2", "button", "A1", "C3"]:        # C3 white joins two black stones: bounded, black
        pos.push(move)
    assert pos.to_string() == "2 komi standard 0 b1/1b1/1B b w 1 w"
    assert pos.stone_at("C3") == "black"


@pytest.mark.parametrize("text, reason", [
    ("", "9 fields"),
    ("2 komi standard 0 2/3/2 b - 1", "9 fields"),
    ("11 komi standard 0 2/3/2 b - 1 -", "size"),
    ("2 chess standard 0 2/3/2 b - 1 -", "game type"),
    ("2 komi standard 16 2/3/2 b - 1 -", "komi"),
    ("2 komi standard x 2/3/2 b - 1 -", "whole numbers"),
    ("2 komi standard 0 2/3 b - 1 -", "3 columns"),
    ("2 komi standard 0 2/4/2 b - 1 -", "column B"),
    ("2 komi standard 0 2/1x1/2 b - 1 -", "column B"),
    ("2 komi standard 0 2/3/2 x - 1 -", "side to move"),
    ("2 komi standard 0 2/3/2 b - 2 -", "double placement"),
    ("2 komi standard 0 2/3/2 w - 1 -", "black is to move"),
    ("2 komi standard 0 2/1w1/2 w - 1 w", "alternate"),
    ("2 komi standard 0 2/1b1/2 w - 1 -", "last placer"),
    ("3 komi standard 0 3/1bw1/2b2/4/3 w - 1 b", "ribbon"),           # a triangle B2 B3 C3
    ("2 komi standard 0 2/1W1/2 w - 1 b", "claims"),                 # an unbounded stone shown claimed
    ("2 komi standard 0 b1/1b1/1w b w 1 w", "claims"),
    ("2 nokomi standard 0 2/3/2 w b 1 -", "R18"),
    ("3 double standard 0 3/1b2/5/4/3 b - 2 b", "double placement"),
])
def test_bad_strings_raise_saying_why(text, reason):
    with pytest.raises(ValueError, match=reason):
        Position.from_string(text)


def test_a_string_is_not_a_position_of_another_type():
    with pytest.raises(TypeError):
        Position.from_string(b"1 komi standard 0 1 b - 1 -")


def test_a_finished_game_read_back_is_over_with_the_same_outcome():
    pos = Position(size=3, game_type="double")
    rng = random.Random(3)
    while not pos.is_game_over():
        pos.push(rng.choice(pos.legal_moves()))
    back = Position.from_string(pos.to_string())
    assert back.is_game_over() and back.outcome() == pos.outcome()
    assert back.legal_moves() == [] and not back.legal_action_mask().any()


# ---------------------------------------------------------------- action ids

def test_action_ids_are_move_indices_and_the_button_is_the_cell_count():
    for size in (1, 3, 6, 10):
        ncells = len(catena.cells(size))
        assert Move.from_index(ncells, size) == Move("button", size)
        for index in (0, ncells // 2, ncells - 1):
            move = Move.from_index(index, size)
            assert move.index == index and move == Move(catena.cells(size)[index], size)
        assert Move.from_index(numpy.int64(0), size) is Move.from_index(0, size)


def test_push_and_is_legal_take_action_ids_like_moves():
    for rng, pos in random_positions(200, "ids", sizes=(2, 4, 6)):
        mask = pos.legal_action_mask()
        assert mask.dtype == numpy.bool_ and mask.shape == (len(catena.cells(pos.size)) + 1,)
        assert [int(i) for i in numpy.flatnonzero(mask)] == [m.index for m in pos.legal_moves()]
        assert all(pos.is_legal(i) == bool(mask[i]) for i in range(len(mask)))
        if pos.is_game_over():
            continue
        action = int(rng.choice(numpy.flatnonzero(mask)))
        twin = pos.copy()
        pos.push(action)
        twin.push(Move.from_index(action, pos.size))
        assert pos == twin and pos.peek() == Move.from_index(action, pos.size)
        illegal = numpy.flatnonzero(~pos.legal_action_mask())
        if len(illegal):
            with pytest.raises(catena.IllegalMoveError):
                pos.push(int(illegal[0]))


def test_bools_are_not_action_ids():
    pos = Position(size=2)
    with pytest.raises(TypeError):
        pos.push(True)
    with pytest.raises(TypeError):
        Move.from_index(True, 2)
    assert pos.is_legal(True) is False and pos.is_legal(numpy.bool_(True)) is False
    assert pos.ply == 0


@pytest.mark.parametrize("size", range(1, 11))
def test_coordinates_are_the_letter_and_number_of_each_cell_name(size):
    """The drawings place cells by catena._geometry.cell_coordinates; they must say what the names say (R1, R2)."""
    from catena._geometry import cell_coordinates

    pairs = cell_coordinates(size)
    assert len(pairs) == len(catena.cells(size))
    for name, (column, row) in zip(catena.cells(size), pairs):
        assert name == f"{chr(64 + column)}{row}"
        assert abs(column - row) < size and 1 <= column <= 2 * size - 1 and 1 <= row <= 2 * size - 1
