"""Position strings: one line of text that describes a position, like chess's FEN.

Nine fields separated by single spaces (docs/research.md has the full description)::

    size  game-type  scoring  komi  board  to-move  button  stones-left  last-placer

The board lists the columns A, B, ... separated by ``/``, each from its lowest
row up: a number is a run of empty cells, ``b``/``w`` a stone placed as and
shown as black/white, ``B``/``W`` a stone shown as black/white that was placed
as the other colour (a claimed ribbon, R12).  ``to-move`` is ``b`` or ``w``;
``button`` is ``-`` while untaken, else who took it; ``stones-left`` is the
stones still to place this turn (2 only at the start of a double-placement
turn); ``last-placer`` is the colour of the last stone placed, ``-`` before any.

>>> import catena
>>> pos = catena.Position(size=2)
>>> for move in ["B2", "button", "A1", "C3"]:
...     pos.push(move)
>>> text = pos.to_string(); text
'2 komi standard 0 b1/1b1/1B b w 1 w'
>>> catena.Position.from_string(text) == pos
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from catena._geometry import cells
from catena.errors import CatenaError

if TYPE_CHECKING:
    from catena._position import Position

_COLOURS = {"-": 0, "b": 1, "w": 2}
_LETTERS = ("-", "b", "w")
_TOKEN = re.compile(r"[1-9][0-9]*|[bwBW]")


def _columns(size: int) -> list[list[int]]:
    """The cell indices of each column, lowest row first (index order is by column)."""
    out: list[list[int]] = []
    previous = ""
    for index, name in enumerate(cells(size)):
        if name[0] != previous:
            out.append([])
            previous = name[0]
        out[-1].append(index)
    return out


def position_string(pos: Position) -> str:
    """The position string of ``pos`` (what ``Position.to_string`` returns).

    >>> import catena
    >>> position_string(catena.Position(size=3))
    '3 komi standard 0 3/4/5/4/3 b - 1 -'
    """
    placed, shown, _ = pos._cell_layers()
    columns = []
    for column in _columns(pos.size):
        text, empty = "", 0
        for cell in column:
            if not shown[cell]:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            letter = _LETTERS[shown[cell]]
            text += letter if placed[cell] == shown[cell] else letter.upper()
        columns.append(text + (str(empty) if empty else ""))
    last = _LETTERS[_last_placer(pos)]
    return " ".join([str(pos.size), pos.game_type, pos.scoring, str(pos.komi), "/".join(columns),
                     pos.to_move[0], (pos.button or "-")[0], str(pos.stones_left), last])


def _last_placer(pos: Position) -> int:
    """The colour of the last stone placed (0 before any): the last field of ``_key``."""
    return int(pos._key()[-1])


def _fail(text: str, reason: str) -> CatenaError:
    return CatenaError(f"bad position string {text!r}: {reason}")


def parse_position_string(text: str) -> Position:
    """The position a position string describes (what ``Position.from_string`` returns).

    Checks the rules' fields like the Position constructor, the board's shape, that
    every group is a ribbon (R5), that the shown colours are the claims the stones
    make (R12), and that the stone counts, side to move, button, stones left and
    last placer can follow from play in this game type; raises CatenaError (a
    ValueError) saying what is wrong.

    >>> parse_position_string("1 komi standard 0 b w - 1 b").outcome().winner
    'black'
    """
    from catena._position import Position
    from catena._position_setup import set_stones

    if not isinstance(text, str):
        raise TypeError(f"a position string must be a str, not {type(text).__name__}")
    fields = text.split()
    if len(fields) != 9:
        raise _fail(text, f"expected 9 fields separated by spaces, found {len(fields)}")
    size_text, game_type, scoring, komi_text, board, to_move_text, button_text, left_text, last_text = fields
    if not size_text.isdigit() or not komi_text.isdigit() or len(komi_text) > 4:
        raise _fail(text, "the size and the komi must be whole numbers")
    try:
        pos = Position(int(size_text), game_type, scoring, int(komi_text))
    except ValueError as exc:
        raise _fail(text, str(exc)) from None
    placed, shown = _read_board(text, board, pos.size)
    for value, what, choices in ((to_move_text, "side to move", "bw"), (button_text, "button", "-bw"),
                                 (left_text, "stones left", "12"), (last_text, "last placer", "-bw")):
        if len(value) != 1 or value not in choices:
            raise _fail(text, f"the {what} must be one of {', '.join(choices)}, not {value!r}")
    to_move, button, last = _COLOURS[to_move_text], _COLOURS[button_text], _COLOURS[last_text]
    _check_turn(text, pos.game_type, placed, to_move, button, int(left_text), last)
    try:
        set_stones(pos, bytes(placed), bytes(shown), to_move, button, last)
    except ValueError as exc:
        raise _fail(text, str(exc)) from None
    result = pos._cell_layers()[1]
    names = cells(pos.size)
    for cell, colour in enumerate(shown):
        if result[cell] != colour:
            raise _fail(text, f"{names[cell]} shows {_LETTERS[colour]}, but the claims of these stones "
                              f"(R12, R21) make it {_LETTERS[result[cell]]}")
    pos._start = " ".join(fields)
    return pos


def _read_board(text: str, board: str, size: int) -> tuple[list[int], list[int]]:
    columns = _columns(size)
    parts = board.split("/")
    if len(parts) != len(columns):
        raise _fail(text, f"the board of side {size} has {len(columns)} columns, the string {len(parts)}")
    ncells = sum(len(column) for column in columns)
    placed, shown = [0] * ncells, [0] * ncells
    for letter, part, column in zip("ABCDEFGHIJKLMNOPQRS", parts, columns):
        tokens = _TOKEN.findall(part)
        if "".join(tokens) != part:
            raise _fail(text, f"column {letter} {part!r}: expected runs of empty cells (numbers) and "
                              f"stones b, w, B, W")
        row = 0
        for token in tokens:
            if token.isdigit():
                row += int(token) if len(token) <= 3 else len(column) + 1
                continue
            if row < len(column):
                cell = column[row]
                shown[cell] = _COLOURS[token.lower()]
                placed[cell] = shown[cell] if token.islower() else 3 - shown[cell]
            row += 1
        if row != len(column):
            raise _fail(text, f"column {letter} {part!r} describes {row} cells, it has {len(column)}")
    return placed, shown


def _check_turn(text: str, game_type: str, placed: list[int], to_move: int, button: int,
                left: int, last: int) -> None:
    """Raise unless play in ``game_type`` can reach these stone counts with this turn."""
    stones = [colour for colour in placed if colour]
    black = stones.count(1)
    if game_type == "double":
        # one black stone, then two a turn: white, white, black, black, ...
        expected = [1 if (i // 2) % 2 == 0 else 2 for i in range(1, len(stones) + 2)]
        turn = (expected[len(stones)], 0, 1 if len(stones) % 2 == 0 else 2,
                expected[len(stones) - 1] if stones else 0)
        if expected[:len(stones)].count(1) != black:
            raise _fail(text, f"{black} black and {len(stones) - black} white stones cannot follow "
                              f"from double placement (one black stone, then two a turn)")
        if (to_move, button, left, last) != turn:
            raise _fail(text, "after {} stones of double placement the turn is: {} to move, button -, "
                              "{} stones left, last placer {}".format(
                                  len(stones), _LETTERS[turn[0]], turn[2], _LETTERS[turn[3]]))
        return
    if left != 1:
        raise _fail(text, f"stones left is 2 only in double placement, not in game type {game_type!r}")
    ply = len(stones) + (button != 0)
    if to_move != (1 if ply % 2 == 0 else 2):
        raise _fail(text, f"after {ply} moves (stones and the button) {('black', 'white')[ply % 2]} is to move")
    # moves alternate from Black; the button took one of its taker's turns
    black_moves = (ply + 1) // 2 - (button == 1)
    if black != black_moves:
        raise _fail(text, f"{black} black and {len(stones) - black} white stones with the button "
                          f"{_LETTERS[button]} cannot follow from alternate moves from Black")
    if game_type == "nokomi" and button == 1 and black == 0:
        raise _fail(text, "the first move of a no-komi game is P1's black stone, not the button (R18)")
    if (last == 0) != (not stones):
        raise _fail(text, "the last placer is '-' exactly when there are no stones")
    if last and last == to_move and button != 3 - to_move:
        raise _fail(text, "the mover placed the last stone only if the opponent then took the button")
    if last and not button and last != 3 - to_move:
        raise _fail(text, "with the button untaken the last stone is the opponent's")
