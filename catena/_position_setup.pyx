# cython: language_level=3
"""A Position's C state set from its stones, for position strings (catena.notation).

The stones go on one by one, each with the colour it was placed as, through the
ordinary make kernel, so legality, ribbons, bounding and claims (R7-R12) come
out exactly as in play.  The claims follow from the stones alone except for a
bounded ribbon with as many black as white stones, whose owner (R12's tie rule)
depends on who placed the bounding stone: the shown colours say it, and such a
ribbon is handed over afterwards.
"""

from libc.stdint cimport uint16_t, uint64_t

from catena._geometry cimport Geometry, MAX_CELLS, MAX_MOVES
from catena._position cimport (BLACK, GAME_DOUBLE, MAX_LIST, CellState, PosState, Position, Undo,
                               count_bounded, gen_moves, is_ribbon_head, make_move, ribbon_walk,
                               turn_key)

from catena._geometry import cells as _cell_names


cdef void _set_turn(PosState* p, int to_move, int button, int stones_left) noexcept nogil:
    """Set the turn fields of the header, keeping both keys in step."""
    cdef uint64_t old = turn_key(p)
    p.h.to_move = to_move
    p.h.button = button
    p.h.stones_left = stones_left
    old ^= turn_key(p)
    p.h.zobrist ^= old
    p.h.solver_key ^= old


cdef void _hand_over(PosState* p, int e, int owner) noexcept nogil:
    """Give the bounded ribbon ending at ``e`` to ``owner`` instead of its claimer."""
    cdef CellState* C = p.cell
    cdef const Geometry* g = p.geo
    cdef uint16_t stones[MAX_CELLS]
    cdef int length = C[e].length, i, n
    count_bounded(p, &p.h, length, C[e].owner, -1)
    count_bounded(p, &p.h, length, owner, 1)
    C[e].owner = owner
    C[C[e].other_end].owner = owner
    if owner == BLACK:
        p.h.nblack_stones += length
        p.h.nwhite_stones -= length
    else:
        p.h.nwhite_stones += length
        p.h.nblack_stones -= length
    n = ribbon_walk(p, e, stones)
    for i in range(n):
        p.h.zobrist ^= g.zobrist_flip[stones[i]]


def set_stones(Position pos, bytes placed, bytes shown, int to_move, int button, int last_placer):
    """Put the stones on the empty position ``pos`` and set its turn.

    ``placed`` and ``shown`` hold one colour code (0 empty, 1 black, 2 white) per
    cell.  Raises ValueError if the stones do not all form ribbons (R5), if a
    bounded ribbon shows a colour its claim cannot give, or if a double-placement
    turn has no cell for its second stone.  The caller checks the shown colours
    of the result against ``shown`` and the turn against the stone counts.
    """
    cdef PosState* p = pos._st
    cdef CellState* C = p.cell
    cdef Undo u
    cdef uint16_t scratch[MAX_LIST]
    cdef uint16_t moves[MAX_MOVES]
    cdef int c, colour, stones = 0
    cdef bint double = p.game_type == GAME_DOUBLE
    names = _cell_names(pos.size)
    if len(placed) != p.ncells or len(shown) != p.ncells:
        raise ValueError(f"expected {p.ncells} cells, not {len(placed)}")
    for c in range(p.ncells):
        colour = placed[c]
        if colour == 0:
            continue
        if not C[c].legal:
            raise ValueError(f"the stone on {names[c]} would make a group that is not a ribbon "
                             f"(a branch, a ring or a triangle: R5)")
        _set_turn(p, colour, 0, 2 if double else 1)
        p.h.over = 0
        make_move(p, c, &u, scratch)
        stones += 1
    for c in range(p.ncells):
        if is_ribbon_head(C, c) and C[c].owner and C[c].owner != shown[c]:
            if 2 * C[c].nblack != C[c].length:
                raise ValueError(f"the bounded ribbon at {names[c]} shows "
                                 f"{'black' if shown[c] == BLACK else 'white'}, "
                                 f"but the other colour has more stones in it (R12)")
            _hand_over(p, c, shown[c])
    _set_turn(p, to_move, button, (1 if stones % 2 == 0 else 2) if double else 1)
    p.h.ply = stones + (button != 0)
    p.h.last_placer = last_placer
    p.h.over = 0
    if not double:
        p.h.over = p.h.nlegal == 0
    elif p.h.stones_left == 2:
        p.h.over = gen_moves(p, moves) == 0            # R20: the turn cannot start
    elif p.h.nlegal == 0:
        raise ValueError("no cell is left for the second stone of the turn (R20)")
