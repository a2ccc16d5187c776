"""The reference rules checker (tests/reference.py) with pure speed-ups, for long runs.

tests/reference.py recomputes everything from the stones on every query, which is
what makes it a good oracle and also what makes it slow: on side 10 a double-
placement game takes about a minute, mostly in R20's "the first stone must leave a
legal cell" filter, which builds the whole legal-cell list after every candidate
stone only to test whether it is empty.

This module loads a *private copy* of reference.py (the module ``reference`` that
other tests import is left untouched) and changes only how fast it computes, not
what it computes:

* ``_neighbours(n, cell)`` and ``_cells(n)`` are pure functions of their arguments;
  they are memoised (returned as tuples, which every caller only iterates or
  indexes).
* ``_legal_cells(n, stones)`` and ``_is_legal(n, stones, cell)`` answer from the set of
  legal cells of ``stones``, computed once per stone set by the reference's own
  ``_is_legal`` (a ply asks for it about seven times: legal moves, game over,
  boundedness before and after the placement).
* ``FastRefPosition`` overrides the two R20 helpers with the same definitions but
  short-circuited: "``_legal_cells(n, s)`` is non-empty" becomes "some cell is
  ``_is_legal``", using the reference's own ``_is_legal``.

Everything else (legality, boundedness, claims, scoring) is the reference's code.
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import reference  # noqa: E402  (the untouched oracle)

_spec = importlib.util.spec_from_file_location("_reference_memo", os.path.join(HERE, "reference.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

_slow_neighbours = ref._neighbours
_slow_cells = ref._cells
_nb_memo = {}
_cells_memo = {}


def _neighbours(n, cell):
    key = (n, cell)
    value = _nb_memo.get(key)
    if value is None:
        value = _nb_memo[key] = tuple(_slow_neighbours(n, cell))
    return value


def _cells(n):
    value = _cells_memo.get(n)
    if value is None:
        value = _cells_memo[n] = tuple(_slow_cells(n))
    return value


ref._neighbours = _neighbours
ref._cells = _cells

_slow_is_legal = ref._is_legal
_legal_memo = {}
_LEGAL_MEMO_MAX = 4096      # stone sets remembered; a game needs a few per ply


def _legal_set(n, stones):
    key = (n, frozenset(stones))
    value = _legal_memo.get(key)
    if value is None:
        if len(_legal_memo) >= _LEGAL_MEMO_MAX:
            _legal_memo.clear()
        value = _legal_memo[key] = frozenset(c for c in _cells(n) if _slow_is_legal(n, stones, c))
    return value


def _legal_cells(n, stones):
    legal = _legal_set(n, stones)
    return [cell for cell in _cells(n) if cell in legal]


def _is_legal(n, stones, cell):
    return cell in _legal_set(n, stones)


ref._legal_cells = _legal_cells
ref._is_legal = _is_legal


def _some_cell_legal(n, stones):
    """Same truth value as ``bool(ref._legal_cells(n, stones))``, stopping at the first
    (and remembering nothing: R20 asks it of one stone set per candidate stone)."""
    return any(_slow_is_legal(n, stones, y) for y in ref._cells(n))


class FastRefPosition(ref.RefPosition):
    """RefPosition with R20's emptiness tests short-circuited (same results)."""

    def _can_place_two(self):
        stones = self._stones()
        return any(_some_cell_legal(self.size, stones | {x})
                   for x in ref._legal_cells(self.size, stones))

    def legal_moves(self):
        if not (self.game_type == "double" and self._stones_left == 2):
            return super().legal_moves()
        if self.is_over():
            return set()
        stones = self._stones()
        cells = [x for x in ref._legal_cells(self.size, stones)
                 if _some_cell_legal(self.size, stones | {x})]
        moves = {ref._name(x) for x in cells}
        if self._button_allowed():
            moves.add("button")
        return moves


RefPosition = reference.RefPosition
cell_names = reference.cell_names


def ref_position(size, game_type, scoring, komi, fast=True):
    """A reference position: the memoised, short-circuited one, or the verbatim one."""
    cls = FastRefPosition if fast else reference.RefPosition
    return cls(size, game_type, scoring, komi)
