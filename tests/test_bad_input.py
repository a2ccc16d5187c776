"""Bad input: every kind raises a clear exception that says what is wrong and why,
and leaves the position (or game) exactly as it was.

Rule numbers refer to docs/rules.md.
"""

import pytest

import catena
from catena import CatenaError, CellError, Game, IllegalMoveError, Move, Position, SetupError

from conftest import position_state

# ---------------------------------------------------------------- helpers

def game_snapshot(game):
    pos = game.position
    return (game.phase, game.to_act, game.komi, game.colour_of("P1"), game.actions,
            None if pos is None else position_state(pos))


def make(size, moves, **kw):
    pos = Position(size=size, **kw)
    for m in moves.split():
        pos.push(m)
    return pos


def rejects(pos, move, exc=IllegalMoveError, *words):
    """push(move) raises ``exc`` whose message contains every word; pos is unchanged."""
    before = position_state(pos)
    with pytest.raises(exc) as info:
        pos.push(move)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), (word, message)
    assert position_state(pos) == before
    # the position still works after the refusal
    copy = pos.copy()
    if not copy.is_game_over():
        copy.push(copy.legal_moves()[0])
        copy.pop()
        assert position_state(copy) == before
    return message


DIAGRAM = "C5 D5 E5 G5 H6 H7"


# ---------------------------------------------------------------- illegal moves (R7, R13, R18-R20)

def test_occupied_cell_is_refused_and_says_occupied():
    pos = make(6, DIAGRAM)
    rejects(pos, "C5", IllegalMoveError, "C5", "occupied")
    rejects(pos, "h7", IllegalMoveError, "H7", "occupied")


def test_three_stones_is_refused_naming_them():
    pos = make(6, DIAGRAM)
    msg = rejects(pos, "G6", IllegalMoveError, "G6", "3 stones")
    for stone in ("G5", "H6", "H7"):
        assert stone in msg


def test_branch_is_refused_naming_the_middle_stone():
    pos = make(6, DIAGRAM)
    rejects(pos, "I6", IllegalMoveError, "I6", "H6", "branch")
    rejects(pos, "D6", IllegalMoveError, "D6")
    rejects(pos, "D4", IllegalMoveError, "D4", "D5")


def test_ring_is_refused_and_says_ring():
    pos = make(6, "G6 G7 F7 E6 E5")          # a path around F6 whose ends are E5 and G6
    rejects(pos, "F5", IllegalMoveError, "F5", "ring", "E5", "G6")


def test_triangle_is_refused():
    pos = make(6, "F6 G6")
    rejects(pos, "G7", IllegalMoveError, "G7")
    rejects(pos, "F5", IllegalMoveError, "F5")


def test_r20_first_stone_refused_with_r20_reason():
    """R20: D4 is legal by R7 (joins C4 and E4 of two ribbons) but leaves nothing for the second stone."""
    pos = make(3, "D2 B3 E3 B1 C4 B2 E4", game_type="double")
    msg = rejects(pos, "D4", IllegalMoveError, "D4")
    assert "R20" in msg and "second stone" in msg, msg
    assert "ring" not in msg, "D4 would not close a ring: C4 and E4 are in different ribbons"


def test_illegal_second_stone_of_a_double_turn_keeps_the_turn():
    pos = make(5, "E5 D5", game_type="double")
    assert (pos.to_move, pos.stones_left) == ("white", 1)
    rejects(pos, "D5", IllegalMoveError, "D5", "occupied")
    rejects(pos, "E6", IllegalMoveError, "E6", "ring")       # triangle with D5 and E5
    rejects(pos, "Z1", IllegalMoveError, "Z1")
    assert (pos.to_move, pos.stones_left) == ("white", 1)


def test_button_twice_is_refused():
    pos = make(4, "button D4")
    rejects(pos, "button", IllegalMoveError, "button", "already")
    rejects(pos, "BUTTON", IllegalMoveError, "button")
    rejects(pos, Move("button", size=4), IllegalMoveError, "button")


def test_button_in_double_placement_is_refused():
    pos = Position(size=4, game_type="double")
    rejects(pos, "button", IllegalMoveError, "button", "double")
    pos.push("D4")
    rejects(pos, "button", IllegalMoveError, "button", "double")


def test_button_as_first_nokomi_move_is_refused():
    pos = Position(size=4, game_type="nokomi")
    rejects(pos, "button", IllegalMoveError, "button", "R18")


def test_moves_after_game_over_are_refused():
    pos = make(3, "D4 C2 B2 C4 D3 A1 C5 A3")
    assert pos.is_game_over()
    rejects(pos, "E5", IllegalMoveError, "E5", "over")
    rejects(pos, "button", IllegalMoveError, "button", "over")
    rejects(pos, "A1", IllegalMoveError, "over")
    dbl = make(3, "C4 B2 D4 D3 A1 B3 E3", game_type="double")
    assert dbl.is_game_over() and dbl.is_legal("C1") is False
    rejects(dbl, "C1", IllegalMoveError, "C1", "over")


def test_is_legal_never_raises_on_bad_input():
    pos = make(6, DIAGRAM)
    before = position_state(pos)
    for bad in ("Z99", "", "F", "6F", None, 3.5, True, b"F6", "D6", "C5", Move("A1", size=3)):
        assert pos.is_legal(bad) is False
    assert position_state(pos) == before


def test_action_ids_out_of_range_raise_and_change_nothing():
    pos = make(6, DIAGRAM)
    before = position_state(pos)
    for bad in (-1, 92, 10**40):
        with pytest.raises(ValueError, match="out of range"):
            pos.is_legal(bad)
        with pytest.raises(ValueError, match="action id"):
            pos.push(bad)
        with pytest.raises(ValueError, match="out of range"):
            Move.from_index(bad, 6)
    for bad in (True, False, 3.0, "3"):
        with pytest.raises(TypeError if not isinstance(bad, str) else IllegalMoveError):
            pos.push(bad)
    assert position_state(pos) == before


# ---------------------------------------------------------------- malformed move names

@pytest.mark.parametrize("name", ["", "F", "6F", "F 6", "FF6", "F6F", "F-6", "F6.0", "66", "buton", "passe"])
def test_malformed_names_are_not_cell_names(name):
    pos = make(6, "F6 G6")
    msg = rejects(pos, name, IllegalMoveError, "not a cell name")
    assert repr(name) in msg


@pytest.mark.parametrize("name,column,row", [("Z99", "Z", 99), ("L1", "L", 1), ("A7", "A", 7),
                                             ("K1", "K", 1), ("A0", "A", 0), ("F12", "F", 12)])
def test_off_board_names_say_not_on_the_board_and_why(name, column, row):
    pos = make(6, "F6")
    msg = rejects(pos, name, IllegalMoveError, name, "not on the board", "side 6")
    assert f"column {column}" in msg and f"row {row}" in msg


@pytest.mark.parametrize("name", ["F06", "a01"])
def test_leading_zero_row_is_either_the_cell_or_a_truthful_refusal(name):
    """'F06' names F6's column and row: accept it as F6, or refuse it without claiming it is off the board."""
    pos = make(6, "G6")
    before = position_state(pos)
    try:
        pos.push(name)
    except IllegalMoveError as exc:
        assert position_state(pos) == before
        assert "not on the board" not in str(exc), f"misleading message: {exc}"
    else:
        assert str(pos.move_stack[-1]) == name[0].upper() + name.lstrip(name[0]).lstrip("0")


@pytest.mark.parametrize("bad", [3.5, None, True, b"F6", ["F6"], ("F", 6), object()])
def test_non_str_moves_raise_type_error_naming_the_type(bad):
    pos = make(6, "F6")
    msg = rejects(pos, bad, TypeError, "move", type(bad).__name__)
    assert "F6" in msg or "Move" in msg


def test_move_of_another_board_size_is_refused():
    pos = make(3, "B2")
    msg = rejects(pos, Move("A1"), IllegalMoveError, "side 6", "3")   # A1 exists on both sides
    assert "A1" in msg
    rejects(pos, Move("button", size=6), IllegalMoveError, "side 6")
    rejects(pos, Move("C3", size=4), IllegalMoveError, "side 4")
    big = Position(size=6)
    rejects(big, Move("C3", size=3), IllegalMoveError, "side 3")


def test_parse_cell_and_move_constructor_errors():
    with pytest.raises(CellError, match="not on the board"):
        catena.parse_cell("Z9", 3)
    with pytest.raises(CellError, match="not a cell name"):
        catena.parse_cell("9Z", 3)
    with pytest.raises(TypeError, match="str"):
        catena.parse_cell(5, 3)
    with pytest.raises(CellError, match="Z9"):
        Move("Z9")
    with pytest.raises(TypeError, match="NoneType"):
        Move(None)
    with pytest.raises(ValueError, match="1 to 10"):
        Move("A1", size=0)


def test_cell_index_errors():
    with pytest.raises(CellError, match="19.*0 to 18"):
        catena.cell_name(19, 3)
    with pytest.raises(CellError, match="-1"):
        catena.cell_name(-1, 3)
    with pytest.raises(CellError, match="19"):
        catena.neighbours(19, 3)
    pos = Position(size=3)
    before = position_state(pos)
    with pytest.raises(CellError, match="99"):
        pos.stone_at(99)
    with pytest.raises(CellError, match="Z9"):
        pos.stone_at("Z9")
    with pytest.raises(TypeError, match="NoneType"):
        pos.stone_at(None)
    with pytest.raises(TypeError, match="bool"):
        pos.stone_at(True)
    assert position_state(pos) == before


@pytest.mark.parametrize("bad", [None, 1.5, [1]])
def test_neighbours_of_a_non_cell_says_what_a_cell_is(bad):
    """neighbours() of something that is neither a cell index nor a name says so."""
    with pytest.raises((TypeError, CellError)) as info:
        catena.neighbours(bad, 3)
    assert "cell" in str(info.value).lower(), str(info.value)


def test_cell_name_of_a_non_int_says_what_it_wants():
    with pytest.raises(TypeError) as info:
        catena.cell_name("A1", 3)
    assert "index" in str(info.value).lower() or "int" in str(info.value).lower()


# ---------------------------------------------------------------- construction: size, types, komi (R1, R22)

@pytest.mark.parametrize("size,exc,words", [
    (0, ValueError, ("0", "1 to 10")),
    (11, ValueError, ("11", "1 to 10")),
    (-3, ValueError, ("-3", "1 to 10")),
    (None, TypeError, ("int", "NoneType")),
])
def test_bad_board_size(size, exc, words):
    """(Bools, floats, bytes and strings: tests/test_validation.py, for every integer argument.)"""
    for build in (lambda: Position(size=size), lambda: Game(size=size), lambda: catena.cells(size)):
        with pytest.raises(exc) as info:
            build()
        for word in words:
            assert word in str(info.value), str(info.value)


@pytest.mark.parametrize("game_type", ["Komi", "no komi", "double placement", "", None, 1])
def test_unknown_game_type(game_type):
    for build in (lambda: Position(3, game_type), lambda: Game(3, game_type)):
        with pytest.raises(CatenaError) as info:
            build()
        msg = str(info.value)
        assert "game type" in msg and repr(game_type) in msg and "'nokomi'" in msg


@pytest.mark.parametrize("scoring", ["Standard", "longest ribbon", "squares", "", None])
def test_unknown_scoring_type(scoring):
    for build in (lambda: Position(3, scoring=scoring), lambda: Game(3, scoring=scoring)):
        with pytest.raises(CatenaError) as info:
            build()
        msg = str(info.value)
        assert "scoring" in msg and repr(scoring) in msg and "'longest'" in msg


@pytest.mark.parametrize("scoring,komi", [("standard", 16), ("standard", -1), ("longest", 16),
                                          ("longest", -1), ("square", 1001), ("square", -1)])
def test_komi_out_of_range(scoring, komi):
    with pytest.raises(CatenaError) as info:
        Position(3, scoring=scoring, komi=komi)
    msg = str(info.value)
    assert str(komi) in msg and "range" in msg and scoring in msg and "R22" in msg


@pytest.mark.parametrize("game_type", ["nokomi", "double"])
def test_komi_must_be_zero_without_komi(game_type):
    with pytest.raises(CatenaError) as info:
        Position(3, game_type, komi=2)
    assert game_type in str(info.value) and "0" in str(info.value)


def test_komi_none_is_not_a_komi():
    """(Bools, floats, bytes and strings: tests/test_validation.py, for every integer argument.)"""
    with pytest.raises(TypeError) as info:
        Position(3, komi=None)
    assert "komi" in str(info.value) and "NoneType" in str(info.value)


# ---------------------------------------------------------------- pop, perft, playouts

def test_pop_on_empty_position():
    pos = Position(size=3)
    before = position_state(pos)
    with pytest.raises(IndexError, match="no moves"):
        pos.pop()
    assert position_state(pos) == before
    pos.push("B2")
    pos.pop()
    with pytest.raises(IndexError):
        pos.pop()
    assert position_state(pos) == before


@pytest.mark.parametrize("depth,exc", [(-1, ValueError), (-100, ValueError), (None, TypeError)])
def test_perft_bad_depth(depth, exc):
    pos = make(3, "B2")
    before = position_state(pos)
    with pytest.raises(exc) as info:
        catena.perft(pos, depth)
    assert "depth" in str(info.value)
    assert position_state(pos) == before


def test_perft_of_a_non_position():
    with pytest.raises(TypeError, match="Position"):
        catena.perft(None, 1)
    with pytest.raises(TypeError, match="Position"):
        catena.random_playouts("pos", 1, seed=1)


@pytest.mark.parametrize("n,exc", [(-1, ValueError), (None, TypeError)])
def test_random_playouts_bad_n(n, exc):
    pos = make(3, "B2")
    before = position_state(pos)
    with pytest.raises(exc) as info:
        catena.random_playouts(pos, n, seed=1)
    assert "n " in str(info.value) or str(info.value).startswith("n")
    assert position_state(pos) == before


@pytest.mark.parametrize("seed", [[1]])
def test_random_playouts_bad_seed(seed):
    pos = make(3, "B2")
    before = position_state(pos)
    with pytest.raises(TypeError) as info:
        catena.random_playouts(pos, 3, seed=seed)
    assert "seed" in str(info.value)
    assert position_state(pos) == before


@pytest.mark.parametrize("q", [-0.1, 1.5, float("nan")])
def test_random_playouts_bad_button_probability(q):
    pos = Position(size=3)
    with pytest.raises(ValueError, match="button_probability"):
        catena.random_playouts(pos, 3, seed=1, button_probability=q)


# ---------------------------------------------------------------- setup actions out of turn (R17-R19)

def check_setup_refused(game, action, exc=SetupError, *words):
    before = game_snapshot(game)
    with pytest.raises(exc) as info:
        action()
    for word in words:
        assert word in str(info.value), str(info.value)
    assert game_snapshot(game) == before


def test_komi_game_actions_out_of_turn():
    game = Game(size=3)
    check_setup_refused(game, lambda: game.choose_colour("white"), SetupError, "colour", "'komi'")
    check_setup_refused(game, lambda: game.push("B2"), SetupError, "'komi'")
    check_setup_refused(game, lambda: game.choose_komi(16), CatenaError, "16", "R22")
    check_setup_refused(game, lambda: game.choose_komi(-1), CatenaError, "-1")
    check_setup_refused(game, lambda: game.choose_komi(2.0), TypeError, "komi", "float")
    game.choose_komi(2)
    check_setup_refused(game, lambda: game.choose_komi(3), SetupError, "komi", "'colour'")
    check_setup_refused(game, lambda: game.push("B2"), SetupError, "'colour'")
    check_setup_refused(game, lambda: game.choose_colour("red"), SetupError, "'red'", "'black'")
    check_setup_refused(game, lambda: game.choose_colour("Black"), SetupError, "'Black'")
    game.choose_colour("white")
    check_setup_refused(game, lambda: game.choose_colour("black"), SetupError, "'play'")
    check_setup_refused(game, lambda: game.choose_komi(1), SetupError, "'play'")
    check_setup_refused(game, lambda: game.push("Z9"), IllegalMoveError, "Z9")
    check_setup_refused(game, lambda: game.push(None), TypeError, "NoneType")
    game.push("B2")
    check_setup_refused(game, lambda: game.push("B2"), IllegalMoveError, "B2", "occupied")
    check_setup_refused(game, lambda: game.push(Move("A1")), IllegalMoveError, "side 6")


def test_nokomi_game_actions_out_of_turn():
    game = Game(size=3, game_type="nokomi")
    check_setup_refused(game, lambda: game.choose_komi(0), SetupError, "'first_stone'")
    check_setup_refused(game, lambda: game.choose_colour("black"), SetupError, "'first_stone'")
    check_setup_refused(game, lambda: game.push("button"), IllegalMoveError, "button")
    game.push("B2")
    check_setup_refused(game, lambda: game.push("D4"), SetupError, "'colour'")
    check_setup_refused(game, lambda: game.push("button"), SetupError, "'colour'")
    check_setup_refused(game, lambda: game.choose_komi(0), SetupError, "'colour'")


def test_double_game_has_no_setup_actions():
    game = Game(size=3, game_type="double")
    check_setup_refused(game, lambda: game.choose_komi(0), SetupError, "'play'")
    check_setup_refused(game, lambda: game.choose_colour("white"), SetupError, "'play'")
    check_setup_refused(game, lambda: game.push("button"), IllegalMoveError, "button")


def test_game_over_refuses_everything():
    game = Game(size=1)
    game.choose_komi(0)
    game.choose_colour("white")
    game.push("A1")
    assert game.phase == "over"
    check_setup_refused(game, lambda: game.push("A1"), SetupError, "'over'")
    check_setup_refused(game, lambda: game.push("button"), SetupError, "'over'")
    check_setup_refused(game, lambda: game.choose_komi(0), SetupError, "'over'")
    check_setup_refused(game, lambda: game.choose_colour("black"), SetupError, "'over'")


def test_game_bad_player_and_colour_names():
    game = Game(size=3)
    check_setup_refused(game, lambda: game.colour_of("P3"), SetupError, "'P3'")
    check_setup_refused(game, lambda: game.player_of("red"), SetupError, "'red'")


def test_game_pop_with_no_actions():
    game = Game(size=3)
    before = game_snapshot(game)
    with pytest.raises(IndexError, match="no actions"):
        game.pop()
    assert game_snapshot(game) == before
