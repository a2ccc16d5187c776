"""Numbers and names at the Python boundary are checked the same way everywhere
(catena/_validate.py, and one ASCII cell-name syntax in catena/_geometry.pyx):
an integer is never a bool, a number is never a str, bytes or NaN, and a cell name
is ASCII letters and digits only."""

from fractions import Fraction

import numpy
import pytest

import catena
from catena import MCTS, Game, Move, Position
from catena._validate import boolean, choice, integer, real, seed
from catena.observation import observation_tensor
from catena.players import FlatMonteCarloPlayer, MCTSPlayer, RandomPlayer

from conftest import position_state

# ---------------------------------------------------------------- the helper itself

def test_the_helper_examples_run():
    import doctest

    import catena._validate
    result = doctest.testmod(catena._validate)
    assert result.failed == 0 and result.attempted > 0


def test_integers_accept_ints_and_numpy_ints_only():
    assert integer(5, "n") == 5 and type(integer(numpy.int64(5), "n")) is int
    for bad in (True, False, 5.0, "5", b"5", None, Fraction(5), numpy.float64(5), numpy.bool_(True)):
        with pytest.raises(TypeError, match="n must be an int"):
            integer(bad, "n")
    with pytest.raises(ValueError, match="at least 1"):
        integer(0, "n", minimum=1)
    with pytest.raises(ValueError, match="1 to 3"):
        integer(4, "n", 1, 3)


def test_reals_accept_real_numbers_only():
    assert real(1, "x") == 1.0 and real(Fraction(1, 2), "x") == 0.5 and real(numpy.float32(2), "x") == 2.0
    for bad in (True, "1", b"1", bytearray(b"1"), None, 1j, [1]):
        with pytest.raises(TypeError, match="x must be a number"):
            real(bad, "x")
    with pytest.raises(ValueError, match="NaN"):
        real(float("nan"), "x")
    with pytest.raises(ValueError, match="positive"):
        real(0.0, "x", positive=True)
    with pytest.raises(ValueError, match="too large"):
        real(10 ** 400, "x")


def test_seeds_are_ints_or_none():
    assert seed(None) is None and seed(2 ** 64 + 3) == 3 and seed(numpy.uint64(7)) == 7
    with pytest.raises(ValueError, match="seed must be at least 0"):
        seed(-1)
    for bad in (True, 1.5, "3", b"3"):
        with pytest.raises(TypeError, match="seed"):
            seed(bad)



def test_booleans_are_true_or_false():
    assert boolean(False, "flag") is False and boolean(None, "flag", optional=True) is None
    for bad in (0, 1, None, "True", numpy.bool_(True)):
        with pytest.raises(TypeError, match="flag must be True or False, not"):
            boolean(bad, "flag")


def test_choices_are_matched_by_type_and_value():
    options = ("black", "white", None)
    assert choice("white", "colour", options) == "white" and choice(None, "colour", options) is None
    with pytest.raises(ValueError, match="colour must be 'black', 'white' or None, not 'red'"):
        choice("red", "colour", options)
    for bad in (1, b"black", numpy.array(["black", "white"])):        # never compared element-wise
        with pytest.raises(TypeError, match="colour must be 'black', 'white' or None, not"):
            choice(bad, "colour", options)
    with pytest.raises(TypeError):
        choice(True, "flag", (1, 0))                               # True == 1, but it is not an int


@pytest.mark.parametrize("call, error, words", [
    (lambda: observation_tensor(Position(2), "red"), ValueError, "perspective must be"),
    (lambda: observation_tensor(Position(2), 1), TypeError, "perspective must be"),
    (lambda: catena.svg(Position(2), legal=1), TypeError, "svg\\(\\): legal must be True or False, not int"),
    (lambda: catena.svg(Position(2), size=0), ValueError, "svg\\(\\): size \\(pixels\\) must be at least 1"),
    (lambda: catena.svg(Position(2), values={"B2": numpy.float32(0.5)}).count("<svg"), None, None),
    (lambda: catena.analyse(Position(2), exact=1), TypeError, "exact must be True, False or None"),
])
def test_entry_points_check_flags_and_choices_with_the_helper(call, error, words):
    if error is None:
        assert call() == 1                                          # a NumPy float is a number too
        return
    with pytest.raises(error, match=words):
        call()


# ---------------------------------------------------------------- every entry point that takes a number

REAL_ARGUMENTS = [
    ("button_probability", lambda v: catena.random_playouts(Position(3), 2, seed=1, button_probability=v)),
    ("c", lambda v: MCTS(c=v)),
    ("rave_k", lambda v: MCTS(rave_k=v)),
    ("seconds", lambda v: MCTS(seed=1).search(Position(3), seconds=v)),
    ("seconds", lambda v: MCTSPlayer(seconds=v)),
    ("max_seconds", lambda v: catena.solve(Position(2), max_seconds=v)),
    ("tt_mb", lambda v: catena.solve(Position(2), tt_mb=v)),
]

INTEGER_ARGUMENTS = [
    ("board size", lambda v: Position(v)),
    ("board size", lambda v: Game(v)),
    ("board size", lambda v: catena.cells(v)),
    ("komi", lambda v: Position(3, komi=v)),
    ("komi", lambda v: _komi_game().choose_komi(v)),
    ("cell index", lambda v: catena.cell_name(v, 3)),
    ("cell", lambda v: Position(3).stone_at(v)),
    ("cell", lambda v: catena.neighbours(v, 3)),
    ("depth", lambda v: catena.perft(Position(3), v)),
    ("n", lambda v: catena.random_playouts(Position(3), v, seed=1)),
    ("threads", lambda v: MCTS(threads=v)),
    ("expand_visits", lambda v: MCTS(expand_visits=v)),
    ("tree_nodes", lambda v: MCTS(tree_nodes=v)),
    ("iterations", lambda v: MCTS(seed=1).search(Position(3), iterations=v)),
    ("iterations", lambda v: MCTSPlayer(iterations=v)),
    ("playouts", lambda v: FlatMonteCarloPlayer(playouts=v)),
    ("max_nodes", lambda v: catena.solve(Position(2), max_nodes=v)),
    ("sym_stones", lambda v: catena.solve(Position(2), sym_stones=v)),
]

SEED_ARGUMENTS = [
    lambda v: catena.random_playouts(Position(3), 2, seed=v),
    lambda v: MCTS(seed=v),
    lambda v: MCTSPlayer(seed=v),
    lambda v: RandomPlayer(seed=v),
    lambda v: FlatMonteCarloPlayer(seed=v),
]


def _komi_game():
    return Game(3)


@pytest.mark.parametrize("what,call", REAL_ARGUMENTS, ids=[f"{w}-{i}" for i, (w, _) in enumerate(REAL_ARGUMENTS)])
@pytest.mark.parametrize("bad", ["1", b"1", True, None])
def test_numbers_refuse_strings_bytes_and_bools(what, call, bad):
    if bad is None and what in ("seconds", "max_seconds", "c"):
        return                  # None means "no limit" (or the default) for these
    with pytest.raises(TypeError) as info:
        call(bad)
    assert what in str(info.value) and type(bad).__name__ in str(info.value), str(info.value)


@pytest.mark.parametrize("what,call", REAL_ARGUMENTS, ids=[f"{w}-{i}" for i, (w, _) in enumerate(REAL_ARGUMENTS)])
def test_numbers_refuse_nan(what, call):
    with pytest.raises(ValueError, match=what):
        call(float("nan"))


@pytest.mark.parametrize("what,call", INTEGER_ARGUMENTS, ids=[f"{w}-{i}" for i, (w, _) in enumerate(INTEGER_ARGUMENTS)])
@pytest.mark.parametrize("bad", [True, False, 2.0, b"2", "x2"])
def test_integers_refuse_bools_floats_and_bytes(what, call, bad):
    if isinstance(bad, str) and what == "cell":
        return                  # a str is a cell name there
    with pytest.raises(TypeError) as info:
        call(bad)
    message = str(info.value)
    assert what in message and type(bad).__name__ in message, message


@pytest.mark.parametrize("what,call", INTEGER_ARGUMENTS, ids=[f"{w}-{i}" for i, (w, _) in enumerate(INTEGER_ARGUMENTS)])
def test_integers_take_numpy_integers(what, call):
    value = {"board size": 3, "komi": 2, "cell index": 4, "cell": 4, "depth": 2, "n": 3, "threads": 1,
             "expand_visits": 1, "tree_nodes": 100_000, "max_nodes": 100_000, "iterations": 50, "playouts": 10,
             "sym_stones": 3}[what]
    call(numpy.int64(value))


@pytest.mark.parametrize("call", SEED_ARGUMENTS)
@pytest.mark.parametrize("bad", [True, 1.5, "3", b"3", -1])
def test_seeds_refuse_non_integers_and_negatives(call, bad):
    with pytest.raises(ValueError if bad == -1 and not isinstance(bad, bool) else TypeError, match="seed"):
        call(bad)


def test_cell_name_and_stone_at_agree_on_bools():
    """cell_name(True) used to answer 'A2' while stone_at(True) raised: both raise now."""
    with pytest.raises(TypeError):
        catena.cell_name(True)
    with pytest.raises(TypeError):
        Position().stone_at(True)
    with pytest.raises(catena.CellError, match="out of range"):
        catena.cell_name(2 ** 80, 3)
    assert catena.cell_name(numpy.int16(45)) == "F6"


def test_a_huge_depth_is_the_whole_tree():
    pos = Position(size=1)
    assert catena.perft(pos, 2 ** 70) == catena.perft(pos, 5) == 0
    assert catena.perft(pos, 1) == 2


# ---------------------------------------------------------------- one ASCII cell-name syntax

@pytest.mark.parametrize("name", ["ı6", "İ6", "\u0131" + "6", "F\u0666", "Ｆ6", "F６", "\u212a1", "ſ1",
                                  "B\u00b2", "B\u0662"])
def test_non_ascii_names_are_refused_everywhere(name):
    """Letters whose str.upper() is ASCII (dotless i, the Kelvin sign, the long s) and
    non-ASCII digits (superscript two, Arabic-Indic six and two: int() reads some of them)
    are not cell names: push (an IllegalMoveError, not a bare ValueError from int(), and
    the position as it was), parse_cell, Move and read_game all refuse."""
    pos = Position(size=10)
    pos.push("B2")
    before = position_state(pos)
    with pytest.raises(catena.IllegalMoveError, match="not a cell name") as info:
        pos.push(name)
    assert "not on the board" not in str(info.value), str(info.value)
    assert not pos.is_legal(name) and position_state(pos) == before
    with pytest.raises(catena.CellError):
        catena.parse_cell(name, 10)
    with pytest.raises(catena.CellError):
        Move(name, 10)
    record = f'[Size "10"]\n[GameType "double"]\n\n1. {name}\n'
    with pytest.raises(catena.RecordError):
        catena.read_game(record)


def test_ascii_blanks_and_case_are_still_forgiven():
    pos = Position(size=6)
    pos.push(" f6\t")
    pos.push("BUTTON\n")
    assert [str(m) for m in pos.move_stack] == ["F6", "button"]
    with pytest.raises(catena.IllegalMoveError):
        pos.push("\u3000F7")                       # an ideographic space is not a blank here


def test_uninitialised_move_gives_a_clear_error():
    blank = Move.__new__(Move)
    assert str(blank) == repr(blank) == "<uninitialised Move>"
    with pytest.raises(TypeError, match="uninitialised Move"):
        Position().push(blank)
    assert not Position().is_legal(blank)
