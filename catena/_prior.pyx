# cython: language_level=3
"""The learned move prior's features, computed by the position core (issue 50).

A candidate move of the side to move gets one feature in each of seven groups:

0. its neighbourhood: each of the six neighbours off the board, empty and legal, empty
   and illegal, an own stone or an opponent's, up to the board's twelve symmetries;
1. the ribbon it makes: how many stones it touches (0, 1 or 2), its length afterwards
   (1, 2-3, 4-5, 6-8, 9 or more) and the mover's lead in stones of it (-3 or less to +3
   or more);
2. the claims it makes: none, or the mover's gain in bounded stones (R11-R12) in seven
   buckets;
3. the legal cells it takes away (1 to 8 or more, in seven buckets), or that it ends
   the game;
4. whether it touches the last move, the one before or both, or is at distance two
   from the last move;
5. its distance to the board's edge (0, 1, 2, 3 or more);
6. the stones at distance two (0 to 4 or more).

The button is a move too: it has a feature of its own in each group (in group 3, one
for an even and one for an odd number of legal cells).  Groups 2 and 3 make the move
on the position and take it back (make/unmake keeping the solver key, with which the
core keeps the bounded score: exact, and cheap next to a playout).
"""

from libc.math cimport exp
from libc.stdint cimport int32_t, uint16_t
from libc.stdlib cimport malloc
from libc.string cimport memset

from catena._common cimport NO_MOVE
from catena._geometry cimport MAX_MOVES, MAX_SIZE, Geometry, geometry_for
from catena._position cimport (BLACK, EMPTY, MAX_LIST, Position, PosState, Undo, gen_moves,
                               make_move_solver_key_only, unmake_move)

# the directions in turning order (axial steps of R3, each the last turned by 60 degrees)
cdef int _DIR_COLUMN[6]
cdef int _DIR_ROW[6]
_DIR_COLUMN[:] = [1, 1, 0, -1, -1, 0]
_DIR_ROW[:] = [0, 1, 1, 0, -1, -1]

cdef enum:
    RIBBON_VALUES = 105      # stones touched (3) x length afterwards (5) x the mover's lead (7)
    CLAIM_VALUES = 8         # no claim, then seven buckets of the mover's bounded gain
    TAKEN_VALUES = 8         # seven buckets of legal cells taken away, then: ends the game
    LAST_VALUES = 5          # none, touches the last, the one before, both; two from the last
    EDGE_VALUES = 4
    RING2_VALUES = 5

# the pattern class of each neighbourhood code (sum of state * 5 ** direction)
cdef uint16_t _PATTERN_CLASS[PATTERN_CODES]
cdef int _NPATTERNS = 0
# where each group's features start, and the total (each group: its values, then the button's)
cdef int _OFFSET[NGROUPS + 1]
cdef PriorTables* _TABLES[MAX_SIZE + 1]
cdef float* _WEIGHTS = NULL


cdef int _code_under(int code, int turn, bint mirror) noexcept:
    """The neighbourhood ``code`` seen after a symmetry: directions turned by ``turn``
    sixths, after a mirror (direction d to 2 - d) if ``mirror``."""
    cdef int d, src, out = 0, power = 1
    cdef int digit[6]
    for d in range(6):
        digit[d] = code % 5
        code //= 5
    for d in range(6):
        src = (8 - d) % 6 if mirror else d
        out += digit[(src + turn) % 6] * power
        power *= 5
    return out


cdef int _build_patterns() except -1:
    """Number the neighbourhoods up to symmetry, in the order of their smallest code."""
    global _NPATTERNS
    cdef int code, k, image, smallest
    cdef int first_class[PATTERN_CODES]
    for code in range(PATTERN_CODES):
        first_class[code] = -1
    for code in range(PATTERN_CODES):
        smallest = code
        for k in range(12):
            image = _code_under(code, k % 6, k >= 6)
            if image < smallest:
                smallest = image
        if first_class[smallest] < 0:
            first_class[smallest] = _NPATTERNS
            _NPATTERNS += 1
        _PATTERN_CLASS[code] = first_class[smallest]
    if _NPATTERNS > MAX_PATTERNS:
        raise RuntimeError("more pattern classes than MAX_PATTERNS")
    sizes = [_NPATTERNS, RIBBON_VALUES, CLAIM_VALUES, TAKEN_VALUES + 1, LAST_VALUES, EDGE_VALUES,
             RING2_VALUES]
    _OFFSET[0] = 0
    for k in range(NGROUPS):
        _OFFSET[k + 1] = _OFFSET[k] + sizes[k] + 1            # + the button's
    return 0


_build_patterns()
memset(_TABLES, 0, sizeof(_TABLES))


cdef int prior_pattern_classes() noexcept nogil:
    return _NPATTERNS


cdef int prior_feature_count() noexcept nogil:
    return _OFFSET[NGROUPS]


cdef int _cell_at(const Geometry* g, int c, int r) noexcept:
    cdef int n = g.size
    if 1 <= c <= 2 * n - 1 and 1 <= r <= 2 * n - 1:
        return g.cell_at[c][r]
    return -1


cdef const PriorTables* prior_tables_for(int size) except NULL:
    """The per-cell tables of side ``size``, built on first use (with the GIL)."""
    cdef const Geometry* g
    cdef PriorTables* t
    cdef int cell, d, c, r, q, s, n
    if _TABLES[size] != NULL:
        return _TABLES[size]
    g = geometry_for(size)
    t = <PriorTables*>malloc(sizeof(PriorTables))
    if t == NULL:
        raise MemoryError()
    n = size
    for cell in range(g.ncells):
        c = g.column[cell]
        r = g.row[cell]
        for d in range(6):
            t.ring1[cell][d] = _cell_at(g, c + _DIR_COLUMN[d], r + _DIR_ROW[d])
            t.ring2[cell][2 * d] = _cell_at(g, c + 2 * _DIR_COLUMN[d], r + 2 * _DIR_ROW[d])
            t.ring2[cell][2 * d + 1] = _cell_at(g, c + _DIR_COLUMN[d] + _DIR_COLUMN[(d + 1) % 6],
                                                r + _DIR_ROW[d] + _DIR_ROW[(d + 1) % 6])
        q = c - n
        s = r - n
        t.edge[cell] = n - 1 - max(abs(q), abs(s), abs(q - s))
    _TABLES[size] = t
    return t


cdef inline int _length_bucket(int length) noexcept nogil:
    if length <= 5:
        return length // 2                     # 1; 2-3; 4-5
    return 3 if length <= 8 else 4


cdef inline int _bucket_claim(int gain) noexcept nogil:
    if gain <= -6:
        return 1
    if gain <= -3:
        return 2
    if gain <= -1:
        return 3
    if gain == 0:
        return 4
    if gain <= 2:
        return 5
    if gain <= 5:
        return 6
    return 7


cdef void move_features(PosState* p, const PriorTables* tables, int move, int last, int before,
                        int32_t* out) noexcept nogil:
    """Write the NGROUPS feature indices of legal ``move`` of ``p`` to ``out``; ``last``
    and ``before`` are the last two moves (NO_MOVE or -1 when unknown).  ``p`` is
    changed and restored exactly."""
    cdef int g, d, y, code = 0, power = 1, state, mover = p.h.to_move
    cdef int touched = 0, length = 1, own = 1, lead, taken, stones = 0, near = 0
    cdef int nlegal = p.h.nlegal
    cdef int32_t bounded = p.h.bounded
    cdef Undo u
    cdef uint16_t cells[MAX_LIST]
    if move == p.ncells:                           # the button: its own feature in each group
        for g in range(NGROUPS):
            out[g] = _OFFSET[g + 1] - 1
        out[3] = _OFFSET[3] + TAKEN_VALUES + (nlegal & 1)
        return
    for d in range(6):
        y = tables.ring1[move][d]
        if y < 0:
            state = 0
        elif p.cell[y].placed == EMPTY:
            state = 1 if p.cell[y].legal else 2
        else:
            # a stone next to a legal cell ends an unbounded ribbon (R7, R9): its placed
            # colour is the colour shown
            state = 3 if p.cell[y].placed == mover else 4
            touched += 1
            length += p.cell[y].length
            own += p.cell[y].nblack if mover == BLACK else p.cell[y].length - p.cell[y].nblack
        code += state * power
        power *= 5
    out[0] = _PATTERN_CLASS[code]
    lead = max(-3, min(3, 2 * own - length))
    out[1] = _OFFSET[1] + (touched * 5 + _length_bucket(length)) * 7 + lead + 3
    make_move_solver_key_only(p, move, &u, cells)
    taken = nlegal - p.h.nlegal
    if p.h.over:
        out[3] = _OFFSET[3] + TAKEN_VALUES - 1
    else:
        out[3] = _OFFSET[3] + (taken - 1 if taken <= 5 else (5 if taken <= 7 else 6))
    if u.nclaimed:
        out[2] = _OFFSET[2] + _bucket_claim(p.h.bounded - bounded if mover == BLACK
                                            else bounded - p.h.bounded)
    else:
        out[2] = _OFFSET[2]
    unmake_move(p, &u, cells)
    for d in range(6):
        y = tables.ring1[move][d]
        if y >= 0 and y == last:
            near |= 1
        elif y >= 0 and y == before:
            near |= 2
    if near == 0:
        for d in range(12):
            y = tables.ring2[move][d]
            if y >= 0 and y == last:
                near = 4
    out[4] = _OFFSET[4] + near
    out[5] = _OFFSET[5] + min(<int>tables.edge[move], EDGE_VALUES - 1)
    for d in range(12):
        y = tables.ring2[move][d]
        if y >= 0 and p.cell[y].placed != EMPTY:
            stones += 1
    out[6] = _OFFSET[6] + min(stones, RING2_VALUES - 1)


cdef const float* prior_weights() except NULL:
    """The shipped weights as a C array, loaded on first use (with the GIL)."""
    global _WEIGHTS
    if _WEIGHTS == NULL:
        from catena.prior import shipped_weights
        weights = shipped_weights()
        buffer = <float*>malloc(prior_feature_count() * sizeof(float))
        if buffer == NULL:
            raise MemoryError()
        for i in range(prior_feature_count()):
            buffer[i] = weights[i]
        _WEIGHTS = buffer
    return _WEIGHTS


# ---------------------------------------------------------------------------
# The Python boundary (training, tests)


def layout():
    """The feature layout: its version, the number of features, each group's first
    index (and the end) and the number of neighbourhood classes."""
    return {"version": FEATURES_VERSION, "features": prior_feature_count(),
            "offsets": tuple(_OFFSET[g] for g in range(NGROUPS + 1)), "patterns": _NPATTERNS}


def pattern_class(code):
    """The class of neighbourhood ``code`` (sum of state * 5 ** direction, the directions
    in turning order, states 0 off the board, 1 legal, 2 illegal, 3 own, 4 opponent)."""
    if not 0 <= code < PATTERN_CODES:
        raise ValueError(f"a neighbourhood code is 0 to {PATTERN_CODES - 1}, not {code}")
    return _PATTERN_CLASS[code]


def last_moves(Position pos):
    """The indices of the last two moves of ``pos`` (NO_MOVE where there is none)."""
    stack = pos.move_stack
    n = len(stack)
    last = stack[n - 1].index if n > 0 else NO_MOVE
    before = stack[n - 2].index if n > 1 else NO_MOVE
    return last, before


def features(Position pos not None):
    """The legal moves of ``pos`` (indices, in the core's order) and a numpy int32 array
    of their features, one row a move and one column a group."""
    import numpy
    cdef uint16_t moves[MAX_MOVES]
    cdef const PriorTables* tables = prior_tables_for(pos.size)
    cdef int n = gen_moves(pos._st, moves), i
    last, before = last_moves(pos)
    out = numpy.zeros((n, NGROUPS), dtype=numpy.int32)
    cdef int32_t[:, ::1] view = out
    for i in range(n):
        move_features(pos._st, tables, moves[i], last, before, &view[i, 0])
    return [moves[i] for i in range(n)], out


def probabilities(Position pos not None, weights=None):
    """The prior's probability of each legal move of ``pos`` (a dict from move index):
    the softmax of the sums of the features' weights (the shipped ones by default)."""
    moves, table = features(pos)
    cdef const float* shipped
    if weights is None:
        shipped = prior_weights()
        weights = [shipped[f] for f in range(prior_feature_count())]
    strengths = [sum(weights[f] for f in row) for row in table.tolist()]
    top = max(strengths) if strengths else 0.0
    exps = [exp(s - top) for s in strengths]
    total = sum(exps)
    return {m: e / total for m, e in zip(moves, exps)}
