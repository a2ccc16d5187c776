# cython: language_level=3
"""Board geometry and notation (R1-R3).

A cell is a dense index 0..ncells-1, numbered by column then row (A1, A2, ...,
B1, ...). Its name is the column letter followed by the row number.  A move is a
cell index or the button, whose index is ``ncells``.
"""

from libc.stdlib cimport malloc
from libc.string cimport memset

from catena._common cimport splitmix64

import numbers
import re
import string

from catena.errors import CellError
from catena._validate import integer

cdef Geometry* _geometries[MAX_SIZE + 1]
memset(_geometries, 0, sizeof(_geometries))

# Cube coordinates of the unit steps R3 allows: (c, r) -> (a, -b, b - a) with
# a = c - n, b = r - n keeps every neighbour step a unit cube step.
cdef int _STEP_COLUMN[6]
cdef int _STEP_ROW[6]
_STEP_COLUMN[:] = [1, -1, 0, 0, 1, -1]
_STEP_ROW[:] = [0, 0, 1, -1, 1, -1]


cdef void _symmetry_image(int n, int k, int c, int r, int* oc, int* orow) noexcept nogil:
    """Image of cell (c, r) under symmetry k: rotate by k % 6 sixths, mirror if k >= 6."""
    cdef int x = c - n, y = -(r - n), z = (r - n) - (c - n), _turn
    if k >= 6:                          # mirror: swap the y and z axes
        y, z = z, y
    for _turn in range(k % 6):          # rotate 60 degrees: (x, y, z) -> (-z, -x, -y)
        x, y, z = -z, -x, -y
    oc[0] = x + n
    orow[0] = -y + n


cdef int _build_windows(Geometry* g) except -1:
    """Each cell's neighbourhood window for the position's bitboards: the base is
    its lowest neighbour rounded down to a multiple of 8, so that a window is one
    unaligned load, and every neighbour must fall in the window's 64 bits (the
    widest span is 46 bits, on side 10)."""
    cdef int cell, i, y, base
    for cell in range(g.ncells):
        base = g.ncells
        for i in range(g.nnb[cell]):
            base = min(base, g.nb[cell][i])
        if g.nnb[cell] == 0:            # side 1: the single cell has no neighbours
            base = 0
        base &= ~7
        g.wbase[cell] = base
        for i in range(6):
            y = g.nb6[cell][i]
            if y == g.ncells:
                g.nbbit[cell][i] = 63
                continue
            if y - base > 62:
                raise AssertionError(f"a neighbourhood of side {g.size} does not fit its window")
            g.nbbit[cell][i] = y - base
            g.slot_of_bit[cell][y - base] = i
            g.nbw[cell] |= 1ULL << (y - base)
        g.nbw_word[cell] = base >> 6
        g.nbw_low[cell] = g.nbw[cell] << (base & 63)
        g.nbw_high[cell] = (g.nbw[cell] >> 1) >> (63 - (base & 63))
    for i in range(6):
        g.nbbit[g.ncells][i] = 63
    for cell in range(g.ncells):
        for i in range(g.nnb[cell]):
            g.common[cell][i] = g.nbw[cell] & neighbours_at(g, g.nb[cell][i], g.wbase[cell])
    return 0


cdef Geometry* _build(int n) except NULL:
    cdef Geometry* g = <Geometry*>malloc(sizeof(Geometry))
    if g == NULL:
        raise MemoryError()
    memset(g, 0, sizeof(Geometry))
    g.size = n
    cdef int c, r, i, k, cell = 0, nc, nr, oc, orow
    for c in range(MAX_COORD + 2):
        for r in range(MAX_COORD + 2):
            g.cell_at[c][r] = -1
    for c in range(1, 2 * n):
        for r in range(1, 2 * n):
            if abs(c - r) <= n - 1:
                g.cell_at[c][r] = cell
                g.column[cell] = c
                g.row[cell] = r
                cell += 1
    g.ncells = cell
    g.button = cell
    for cell in range(g.ncells):
        c = g.column[cell]
        r = g.row[cell]
        for i in range(6):
            nc = c + _STEP_COLUMN[i]
            nr = r + _STEP_ROW[i]
            if 1 <= nc <= 2 * n - 1 and 1 <= nr <= 2 * n - 1 and g.cell_at[nc][nr] >= 0:
                g.nb[cell][g.nnb[cell]] = g.cell_at[nc][nr]
                g.nnb[cell] += 1
        for i in range(6):
            g.nb6[cell][i] = g.nb[cell][i] if i < g.nnb[cell] else g.ncells
        for k in range(NUM_SYMMETRIES):
            _symmetry_image(n, k, c, r, &oc, &orow)
            g.sym[k][cell] = g.cell_at[oc][orow]
    _build_windows(g)
    cdef uint64_t seed = 0xCA7E7A0000000000ULL + <uint64_t>n
    for cell in range(g.ncells):
        g.zobrist_stone[cell][1] = splitmix64(&seed)
        g.zobrist_stone[cell][2] = splitmix64(&seed)
        g.zobrist_flip[cell] = g.zobrist_stone[cell][1] ^ g.zobrist_stone[cell][2]
    g.zobrist_white_to_move = splitmix64(&seed)
    g.zobrist_button[1] = splitmix64(&seed)
    g.zobrist_button[2] = splitmix64(&seed)
    g.zobrist_second_stone = splitmix64(&seed)
    for cell in range(g.ncells):
        g.key_stone[cell] = splitmix64(&seed)
        g.key_end[cell] = splitmix64(&seed)
        for k in range(NUM_SYMMETRIES):
            g.sym_inverse[k][g.sym[k][cell]] = cell
    for cell in range(MAX_CELLS + 1):
        g.key_black_count[cell] = splitmix64(&seed)
        g.key_bounded[cell][1] = splitmix64(&seed)
        g.key_bounded[cell][2] = splitmix64(&seed)
    return g


def check_size(size):
    """Return ``size`` as an int if it is a supported board side (R1), else raise ValueError."""
    size = integer(size, "board size")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} is out of range: the side must be 1 to 10")
    return size


cdef const Geometry* geometry_for(int size) except NULL:
    """The shared tables of one board side, built on first use."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} is out of range: the side must be 1 to 10")
    if _geometries[size] == NULL:
        _geometries[size] = _build(size)
    return _geometries[size]


cdef dict _names = {}        # size -> tuple of cell names in index order
cdef dict _indices = {}      # size -> {name: index}
cdef dict _moves = {}        # size -> tuple of interned Move objects, the button last


def cells(size=6):
    """Cell names of the board of side ``size`` in index order (by column, then row).

    >>> cells(2)
    ('A1', 'A2', 'B1', 'B2', 'B3', 'C2', 'C3')
    """
    size = check_size(size)
    names = _names.get(size)
    if names is None:
        g = geometry_for(size)
        names = tuple(chr(64 + g.column[i]) + str(g.row[i]) for i in range(g.ncells))
        _names[size] = names
        _indices[size] = {name: i for i, name in enumerate(names)}
    return names


def cell_coordinates(size=6):
    """(column, row) of each cell of the board of side ``size`` in index order, both
    counted from 1: the letter and the number of the cell's name.

    >>> cell_coordinates(2)[:3]
    ((1, 1), (1, 2), (2, 1))
    """
    g = geometry_for(check_size(size))
    return tuple((g.column[i], g.row[i]) for i in range(g.ncells))


def cell_name(index, size=6):
    """The name of cell ``index`` on the board of side ``size``.

    >>> cell_name(45, 6)
    'F6'
    """
    index = integer(index, "cell index")
    names = cells(size)
    if not 0 <= index < len(names):
        raise CellError(f"cell index {index} is out of range: side {size} has cells 0 to {len(names) - 1}")
    return names[index]


# The one syntax of a cell name, for moves and game records alike: an ASCII column
# letter and ASCII row digits ("ı6" must not become I6 through str.upper()).
CELL_NAME = re.compile(r"([A-Za-z])([0-9]+)", re.ASCII)
_BLANKS = string.whitespace       # ASCII blanks only, like the rest of the name
# The button's names where a move is read: catena's own and GTP's (R13)
BUTTON_NAMES = ("button", "pass")


def parse_cell(name, size=6):
    """The index of the cell called ``name`` (case-insensitive) on the board of side ``size``.

    >>> parse_cell("f6", 6)
    45
    """
    if not isinstance(name, str):
        raise TypeError(f"a cell name must be a str, not {type(name).__name__}")
    cells(size)
    text = name.strip(_BLANKS)
    index = _indices[size].get(text.upper()) if text.isascii() else None
    if index is None:
        raise CellError(_explain_bad_name(name, size))
    return index


def _explain_bad_name(name, size, what="cell"):
    """Why ``name`` is no cell of side ``size``; ``what`` is "cell", or "move" where the
    button is a valid answer too (its names are then among the examples)."""
    match = CELL_NAME.fullmatch(name.strip(_BLANKS))
    if match is None:
        button = "" if what == "cell" else ", or 'button' (or 'pass') for the button"
        return f"{name!r} is not a cell name: expected a column letter and a row number, like 'F6'{button}"
    if len(match.group(2)) > 1 and match.group(2).startswith("0"):
        return f"{name!r} is not a cell name: the row number has a leading zero (write it like 'F6')"
    letter = match.group(1).upper()
    digits = match.group(2)
    row = int(digits) if len(digits) <= 4 else f"{digits[:4]}..."      # no int() of a huge number
    last = 2 * size - 1
    return (f"{name!r} is not on the board of side {size}: columns run A to {chr(64 + last)} and rows 1 to "
            f"{last}, and a cell's row is at most {size - 1} away from its column's place in the alphabet "
            f"(A 1, B 2, ...; here column {letter}, row {row})")


def symmetries(size=6):
    """The 12 symmetries of the board as tuples mapping each cell index to its image.

    >>> images = symmetries(2)
    >>> len(images), images[0] == tuple(range(7)), sorted(images[1]) == list(range(7))
    (12, True, True)
    """
    size = check_size(size)
    g = geometry_for(size)
    return tuple(tuple(g.sym[k][i] for i in range(g.ncells)) for k in range(NUM_SYMMETRIES))


def neighbours(cell, size=6):
    """Indices of the cells adjacent to ``cell`` (an index or a name), in index order (R3).

    >>> [cells(2)[i] for i in neighbours("A1", 2)]
    ['A2', 'B1', 'B2']
    """
    size = check_size(size)
    if isinstance(cell, str):
        index = parse_cell(cell, size)
    elif isinstance(cell, bool) or not isinstance(cell, numbers.Integral):
        raise TypeError(f"a cell must be a name like 'F6' or an index, not {type(cell).__name__}")
    else:
        index = int(cell)
    g = geometry_for(size)
    if not 0 <= index < g.ncells:
        raise CellError(f"cell index {index} is out of range: side {size} has cells 0 to {g.ncells - 1}")
    return tuple(sorted(g.nb[index][i] for i in range(g.nnb[index])))


cdef class Move:
    """A move: a stone on a cell, or taking the button.

    Moves are interned per board side and compare by side and index; ``str(move)``
    is the cell name or ``"button"`` (read as ``"button"`` or GTP's ``"pass"``).

    >>> m = Move("f6")
    >>> str(m), m.index, m.is_button
    ('F6', 45, False)
    >>> str(Move("button", size=3)), Move("button", size=3).index, Move("pass", size=3).is_button
    ('button', 19, True)
    """

    def __init__(self, name, size=6):
        if self.name is not None:           # the interned moves are shared: never rewrite one
            raise AttributeError(f"{self} is immutable: Move objects cannot be re-initialised")
        size = check_size(size)
        cdef Move m = move_for_name(name, size)
        self.index = m.index
        self.size = m.size
        self.name = m.name

    @staticmethod
    def from_index(index, size=6):
        """The move with action id ``index``: a cell index, or the number of cells for
        the button (ValueError outside 0..cells).

        >>> Move.from_index(45), Move.from_index(19, size=3)
        (Move('F6'), Move('button', size=3))
        """
        size = check_size(size)
        cdef tuple table = moves_for_size(size)
        return table[check_action(index, len(table) - 1, size)]

    @property
    def is_button(self):
        return self.name == "button"

    @property
    def cell(self):
        """The cell index, or None for the button."""
        return None if self.name == "button" else self.index

    def __str__(self):
        return self.name if self.name is not None else "<uninitialised Move>"

    def __repr__(self):
        if self.name is None:
            return "<uninitialised Move>"
        return f"Move({self.name!r})" if self.size == 6 else f"Move({self.name!r}, size={self.size})"

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return (<Move>other).index == self.index and (<Move>other).size == self.size

    def __hash__(self):
        return hash((self.size, self.index))

    def __reduce__(self):
        return (Move, (self.name, self.size))


def is_action_id(value):
    """Whether ``value`` is an integer that can be an action id: an int or a numpy
    integer, not a bool (True is not the cell 1)."""
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def check_action(index, int ncells, int size):
    """``index`` as an int if it is an action id of the side-``size`` board (a cell
    index, or ``ncells`` for the button); TypeError for a non-integer (bools
    included), ValueError out of range."""
    if not is_action_id(index):
        raise TypeError(f"an action id must be an int, not {type(index).__name__}")
    value = int(index)
    if not 0 <= value <= ncells:
        raise ValueError(f"action id {value} is out of range: side {size} has ids 0 to {ncells} "
                         f"(cells 0 to {ncells - 1}, the button {ncells})")
    return value


cdef tuple moves_for_size(int size):
    """The interned Move objects of one side: every cell in index order, then the button."""
    cdef tuple table = _moves.get(size)
    cdef Move m
    if table is None:
        names = cells(size)
        out = []
        for i, name in enumerate(names + ("button",)):
            m = Move.__new__(Move)
            m.index = i
            m.size = size
            m.name = name
            out.append(m)
        table = tuple(out)
        _moves[size] = table
    return table


cdef Move move_for_name(object name, int size):
    """The interned Move called ``name`` (a cell name, or "button" or GTP's "pass" for
    the button; any case)."""
    if not isinstance(name, str):
        raise TypeError(f"a move must be a Move or a name like 'F6' or 'button', not {type(name).__name__}")
    cdef tuple table = moves_for_size(size)
    text = name.strip(_BLANKS)
    if text.lower() in BUTTON_NAMES:
        return table[len(table) - 1]
    index = _indices[size].get(text.upper()) if text.isascii() else None
    if index is None:
        raise CellError(_explain_bad_name(name, size, "move"))
    return table[index]
