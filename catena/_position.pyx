# cython: language_level=3
"""The position core and the Python ``Position`` around it.

The C part (functions ending in ``noexcept nogil``) is the engine: search and
solver modules cimport it.  The ``Position`` class validates every input
before any of it runs, so bad input raises instead of corrupting a position.
"""

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint16_t, uint64_t

from catena._geometry cimport (Geometry, MAX_CELLS, MAX_MOVES, Move, geometry_for,
                               moves_for_size, move_for_name, neighbours_at)
from catena._rng cimport Rng, rng_below, rng_seed, rng_unit
from catena._bitboard cimport (BB_WORDS, bb_clear, bb_set, bb_test, bb_window, bb_window_or,
                               highest_bit, lowest_bit, popcount64, popcount_few)
from cpython.exc cimport PyErr_CheckSignals

# ---------------------------------------------------------------------------
# Allocation and set-up


cdef size_t pos_bytes(int ncells) noexcept nogil:
    """Bytes of a position of ``ncells`` cells: the header, the cells, the legal list."""
    return (sizeof(PosState) - (MAX_CELLS + 1) * sizeof(CellState)
            + (ncells + 1) * sizeof(CellState) + ncells * sizeof(uint16_t))


cdef PosState* pos_alloc(int ncells) noexcept nogil:
    return <PosState*>malloc(pos_bytes(ncells))


cdef void pos_init(PosState* p, const Geometry* geo, int game_type, int scoring, int komi) noexcept nogil:
    """The empty board at the start of the play phase, Black to move."""
    memset(p, 0, pos_bytes(geo.ncells))
    p.geo = geo
    p.ncells = geo.ncells
    p.komi = komi
    p.game_type = game_type
    p.scoring = scoring
    p.h.nlegal = geo.ncells
    p.h.to_move = BLACK
    p.h.stones_left = 1
    cdef uint16_t* L = legal_list(p)
    cdef int c
    for c in range(geo.ncells):
        p.cell[c].legal = 1
        p.cell[c].lidx = c
        L[c] = c
        bb_set(p.legal_bb, c)
    p.h.zobrist = turn_key(p)
    p.h.solver_key = p.h.zobrist


cdef void pos_copy(PosState* dst, const PosState* src) noexcept nogil:
    memcpy(dst, src, pos_bytes(src.ncells))


# ---------------------------------------------------------------------------
# Legality (R7, R8)


cdef inline void _list_remove(PosState* p, uint16_t* L, int c) noexcept nogil:
    """Swap-remove ``c`` from the legal list (its flag is already cleared)."""
    cdef int i = p.cell[c].lidx
    cdef int last = L[p.h.nlegal - 1]
    L[i] = last
    p.cell[last].lidx = i
    p.h.nlegal -= 1


cdef inline void _list_restore(PosState* p, uint16_t* L, int c) noexcept nogil:
    """Exact inverse of ``_list_remove(c)`` when removals are undone in reverse order;
    sets the cell's legal flag and bit again."""
    cdef int i = p.cell[c].lidx
    cdef int moved = L[i]
    L[p.h.nlegal] = moved
    p.cell[moved].lidx = p.h.nlegal
    L[i] = c
    p.cell[c].lidx = i
    p.cell[c].legal = 1
    bb_set(p.legal_bb, c)
    p.h.nlegal += 1


ctypedef struct KillPlan:
    # The cells a stone on a legal cell x makes illegal (R7, R8), as groups of
    # neighbours of one centre cell each, in the order they leave the legal list:
    # x itself first, then the cells beside x, beside the joined stones a and b when
    # they stop being ends, and beside the far end of a's ribbon touching the far end
    # of b's (a ring).  Computed from the position before the stone.
    int nst                  # stones beside x (0, 1 or 2)
    int a, b                 # those stones, in neighbour order (-1 when absent)
    int ngroups
    int centre[4]
    uint64_t mask[4]         # bits of the centre's window; the legal ones of them go


cdef inline void _add_group(KillPlan* k, int centre, uint64_t m) noexcept nogil:
    """Append a group to ``k`` unless ``m`` is empty (branch-free)."""
    k.centre[k.ngroups] = centre
    k.mask[k.ngroups] = m
    k.ngroups += m != 0


cdef inline uint64_t _slot_bits(const Geometry* g, int centre, uint64_t m) noexcept nogil:
    """The bits of ``m`` (a mask of ``centre``'s window) as neighbour slots: bit ``i``
    for ``nb6[centre][i]``.  Visiting cells in neighbour order keeps the legal list,
    and so the random playouts, exactly as they were before bitboards."""
    cdef const uint8_t* bit = g.nbbit[centre]
    return (((m >> bit[0]) & 1) | (((m >> bit[1]) & 1) << 1) | (((m >> bit[2]) & 1) << 2)
            | (((m >> bit[3]) & 1) << 3) | (((m >> bit[4]) & 1) << 4) | (((m >> bit[5]) & 1) << 5))


cdef inline void _kill_plan(const PosState* p, int x, KillPlan* k) noexcept nogil:
    """Fill ``k`` for a stone on legal cell ``x``.  By R8 only cells around x, around a
    joined stone that stops being an end, and cells touching both far ends of the ribbon
    x joins can change, and only the legal ones of them."""
    cdef const Geometry* g = p.geo
    cdef const CellState* C = &p.cell[0]
    cdef int bx = g.wbase[x], a, b, i, j, e
    cdef uint64_t legal_x = g.nbw[x] & bb_window(p.legal_bb, bx)
    cdef uint64_t stones_x = g.nbw[x] & bb_window(p.occ_bb, bx)
    k.nst = (stones_x != 0) + ((stones_x & (stones_x - 1)) != 0)     # a legal cell touches at most two
    k.a = -1
    k.b = -1
    k.ngroups = 0
    if k.nst == 0:
        # a singleton: a neighbour with two stones already would touch three
        _add_group(k, x, legal_x & bb_window(p.n2_bb, bx))
    elif k.nst == 1:
        # three stones, a triangle with a, or a ring through a's far end
        i = g.slot_of_bit[x][lowest_bit(stones_x)]
        a = g.nb6[x][i]
        k.a = a
        _add_group(k, x, legal_x & (bb_window(p.n2_bb, bx) | g.common[x][i]
                                    | neighbours_at(g, C[a].other_end, bx)))
        # a stops being an end unless a singleton: no more growth beside it
        _add_group(k, a, g.nbw[a] & (0ULL - <uint64_t>(C[a].nstones == 1)))
    else:
        # x joins two ribbons and is not an end: nothing may touch it
        i = g.slot_of_bit[x][lowest_bit(stones_x)]
        j = g.slot_of_bit[x][highest_bit(stones_x)]
        a = g.nb6[x][min(i, j)]
        b = g.nb6[x][max(i, j)]
        k.a = a
        k.b = b
        _add_group(k, x, legal_x)
        _add_group(k, a, g.nbw[a] & (0ULL - <uint64_t>(C[a].nstones == 1)))
        _add_group(k, b, g.nbw[b] & (0ULL - <uint64_t>(C[b].nstones == 1)))
        # a cell touching both far ends would now close a ring
        e = C[a].other_end
        _add_group(k, e, g.nbw[e] & neighbours_at(g, C[b].other_end, g.wbase[e]))


cdef bint leaves_a_cell(PosState* p, int x) noexcept nogil:
    """Whether a stone on legal cell ``x`` leaves at least one legal cell (R20)."""
    cdef KillPlan k
    cdef uint64_t gone[BB_WORDS]
    cdef int i, n = 0
    memset(gone, 0, sizeof(gone))
    _kill_plan(p, x, &k)
    bb_set(gone, x)
    for i in range(k.ngroups):
        bb_window_or(gone, p.geo.wbase[k.centre[i]],
                     k.mask[i] & bb_window(p.legal_bb, p.geo.wbase[k.centre[i]]))
    for i in range(BB_WORDS):
        n += popcount64(gone[i])
    return n < p.h.nlegal


cdef inline int _kill(PosState* p, uint16_t* L, int y, uint16_t* removed, int nremoved, uint16_t* found,
                      int* nfound, const bint record) noexcept nogil:
    """Make legal cell ``y`` illegal: off the legal list and bitboard, and one growth
    cell less for every stone beside it.  A stone that reaches 0 while its other end
    is at 0 is appended to ``found``: if it is an end, its ribbon is newly bounded
    (R11).  (Branch-free: in random playouts these tests are coin tosses.  A stone
    that is no end has a stale other end, so the claims skip it.)"""
    cdef const Geometry* g = p.geo
    cdef CellState* C = p.cell
    cdef int base = g.wbase[y], s, left
    cdef uint64_t beside = g.nbw[y] & bb_window(p.occ_bb, base)
    C[y].legal = 0
    bb_clear(p.legal_bb, y)
    _list_remove(p, L, y)
    if record:
        removed[nremoved] = y
    while beside:
        s = base + lowest_bit(beside)
        beside &= beside - 1
        left = C[s].growth - 1
        C[s].growth = left
        found[nfound[0]] = s
        nfound[0] += (left == 0) & (C[C[s].other_end].growth == 0)
    return nremoved + 1


cdef inline int _kill_group(PosState* p, uint16_t* L, int centre, uint64_t m, uint16_t* removed,
                            int nremoved, uint16_t* found, int* nfound, const bint record) noexcept nogil:
    """``_kill`` the legal cells of ``m`` (bits of ``centre``'s window), in neighbour order."""
    cdef const Geometry* g = p.geo
    cdef int base = g.wbase[centre]
    m &= bb_window(p.legal_bb, base)
    if m == 0:
        return nremoved
    if m & (m - 1) == 0:                # one cell: no order to keep
        return _kill(p, L, base + lowest_bit(m), removed, nremoved, found, nfound, record)
    cdef uint64_t slots = _slot_bits(g, centre, m)
    while slots:
        nremoved = _kill(p, L, g.nb6[centre][lowest_bit(slots)], removed, nremoved, found, nfound, record)
        slots &= slots - 1
    return nremoved


cdef inline bint _r20_filters(const PosState* p) noexcept nogil:
    """Whether R20 removes cells from the moves: at the first stone of a two-stone
    turn in double placement, unless so many cells are legal that every one of them
    leaves a cell for the second stone."""
    return p.game_type == GAME_DOUBLE and p.h.stones_left == 2 and p.h.nlegal < ALWAYS_TWO


cdef inline int _r20_cells(PosState* p, uint16_t* out, int most) noexcept nogil:
    """Write to ``out`` the legal cells that leave another legal cell after them (R20),
    in legal-list order, at most ``most`` of them; returns how many."""
    cdef uint16_t* L = legal_list(p)
    cdef int i, n = 0
    for i in range(p.h.nlegal):
        if n == most:
            break
        if leaves_a_cell(p, L[i]):
            out[n] = L[i]
            n += 1
    return n


cdef bint _can_place_two(PosState* p) noexcept nogil:
    """R20: a two-stone turn can start (``p`` at its first stone)."""
    cdef uint16_t first
    return not _r20_filters(p) or _r20_cells(p, &first, 1) == 1


cdef bint button_available(const PosState* p) noexcept nogil:
    """R13, R18, R19: the button is a move while untaken, except in double placement
    and on P1's opening stone of a no-komi game."""
    return (p.game_type != GAME_DOUBLE and p.h.button == 0 and not p.h.over
            and not (p.game_type == GAME_NOKOMI and p.h.ply == 0))


cdef bint is_legal_move(PosState* p, int move) noexcept nogil:
    if p.h.over or move < 0 or move > p.ncells:
        return False
    if move == p.ncells:
        return button_available(p)
    if not p.cell[move].legal:
        return False
    return not _r20_filters(p) or leaves_a_cell(p, move)


cdef int gen_moves(PosState* p, uint16_t* out) noexcept nogil:
    """Write every legal move (cells in legal-list order, then the button) to ``out``."""
    if p.h.over:
        return 0
    cdef int n
    if _r20_filters(p):
        n = _r20_cells(p, out, p.h.nlegal)
    else:
        memcpy(out, legal_list(p), p.h.nlegal * sizeof(uint16_t))
        n = p.h.nlegal
    if button_available(p):
        out[n] = p.ncells
        n += 1
    return n


# ---------------------------------------------------------------------------
# Bounded ribbons and claims (R9-R12)


cdef inline bint _ribbon_bounded(const CellState* C, int e) noexcept nogil:
    """R9: no legal cell touches either end of the ribbon that ends at ``e``."""
    return (C[e].growth == 0) & (C[C[e].other_end].growth == 0)


cdef int ribbon_walk(const PosState* p, int end, uint16_t* out) noexcept nogil:
    """Write the stones of the ribbon that ends at ``end`` to ``out``, from that end to
    the other, and return how many: each step's next stone is the XOR of the current
    stone's neighbours without the previous one."""
    cdef const CellState* C = &p.cell[0]
    cdef int i, cur = end, prev = end, nxt, length = C[end].length
    for i in range(length):
        out[i] = cur
        if i + 1 < length:
            nxt = C[cur].nbxor if i == 0 else C[cur].nbxor ^ prev
            prev = cur
            cur = nxt
    return length


cdef uint64_t _flip_key(const PosState* p, int e, int owner) noexcept nogil:
    """XOR of the flip keys of the stones of ribbon ``e`` not placed as ``owner``."""
    cdef uint16_t stones[MAX_CELLS]
    cdef uint64_t key = 0
    cdef int i, n = ribbon_walk(p, e, stones)
    for i in range(n):
        if p.cell[stones[i]].placed != owner:
            key ^= p.geo.zobrist_flip[stones[i]]
    return key


cdef void placed_solver_keys(const PosState* p, int nsym, uint64_t* keys) noexcept nogil:
    """``keys[k]`` for ``k < nsym``: the solver key's terms of the stones and the
    unbounded ribbons of ``p`` with every cell mapped by the board's symmetry ``k``
    (0 is the identity), computed from the cells."""
    cdef const Geometry* g = p.geo
    cdef const CellState* C = &p.cell[0]
    cdef int c, k, f
    for k in range(nsym):
        keys[k] = 0
    for c in range(p.ncells):
        if C[c].placed:
            for k in range(nsym):
                keys[k] ^= g.key_stone[g.sym[k][c]]
            if is_ribbon_head(C, c) and C[c].owner == 0:
                f = C[c].other_end
                for k in range(nsym):
                    keys[k] ^= ribbon_key(g, g.sym[k][c], g.sym[k][f], C[c].nblack)


cdef void fresh_solver_key(const PosState* p, Header* h) noexcept nogil:
    """Set ``h.solver_key``, ``h.bounded`` and ``h.bounded_solver_key`` to what the cells
    and the turn of ``p`` give: what make_move keeps step by step."""
    cdef const CellState* C = &p.cell[0]
    cdef uint64_t placed
    cdef int c
    placed_solver_keys(p, 1, &placed)
    h.solver_key = placed ^ turn_key(p)
    h.bounded = 0
    h.bounded_solver_key = 0
    for c in range(p.ncells):
        if is_ribbon_head(C, c) and C[c].owner:
            count_bounded(p, h, C[c].length, C[c].owner, 1)


cdef inline void _claim(PosState* p, int e, int placer, const bint zobrist,
                        const bint solver_key) noexcept nogil:
    """R12: the newly bounded ribbon ending at ``e`` goes to its majority colour,
    on a tie to the opponent of ``placer``.  Without ``zobrist`` the Zobrist key
    is left stale (playouts never read it) and the ribbon is not walked."""
    cdef CellState* C = p.cell
    cdef int nb = C[e].nblack, nw = C[e].length - C[e].nblack
    cdef int owner = BLACK if nb > nw else (WHITE if nw > nb else 3 - placer)
    C[e].owner = owner
    C[C[e].other_end].owner = owner
    if solver_key:
        count_bounded(p, &p.h, C[e].length, owner, 1)
        p.h.solver_key ^= ribbon_key(p.geo, e, C[e].other_end, nb)
    if owner == BLACK:
        p.h.nblack_stones += nw
        p.h.nwhite_stones -= nw
        if zobrist and nw:
            p.h.zobrist ^= _flip_key(p, e, owner)
    else:
        p.h.nwhite_stones += nb
        p.h.nblack_stones -= nb
        if zobrist and nb:
            p.h.zobrist ^= _flip_key(p, e, owner)


# ---------------------------------------------------------------------------
# Make and unmake


cdef inline void _pass_turn(PosState* p, const bint zobrist, const bint solver_key) noexcept nogil:
    p.h.to_move = 3 - p.h.to_move
    if zobrist:
        p.h.zobrist ^= p.geo.zobrist_white_to_move
    if solver_key:
        p.h.solver_key ^= p.geo.zobrist_white_to_move


cdef inline void _save(Undo* u, const PosState* p, int c) noexcept nogil:
    u.saved_cell[u.nsaved] = c
    u.saved[u.nsaved] = p.cell[c]
    u.nsaved += 1


cdef int make_move(PosState* p, int move, Undo* u, uint16_t* cells) noexcept nogil:
    """Play legal ``move``; fill ``u`` and ``cells`` (room for MAX_LIST) to undo it.

    Returns how many entries of ``cells`` the move used.
    """
    return _make(p, move, u, cells, True, True, True)


cdef int make_move_without_keys(PosState* p, int move, Undo* u, uint16_t* cells) noexcept nogil:
    """make_move without the upkeep of the keys (the Zobrist one walks each
    claimed ribbon): for searches that never read them (perft).  unmake_move
    still restores the position exactly, keys included."""
    return _make(p, move, u, cells, True, False, False)


cdef int make_move_solver_key_only(PosState* p, int move, Undo* u, uint16_t* cells) noexcept nogil:
    """make_move keeping only the solver key (``h.solver_key``) up to date."""
    return _make(p, move, u, cells, True, False, True)


cdef void play_move(PosState* p, int move) noexcept nogil:
    """Play legal ``move`` with no undo record, keeping the Zobrist key but not the
    solver key (stale afterwards): for moves on a scratch copy before a playout."""
    _make(p, move, NULL, NULL, False, True, False)


cdef inline int _make(PosState* p, int move, Undo* u, uint16_t* cells, const bint record,
                      const bint zobrist, const bint solver_key) noexcept nogil:
    """make_move; without ``record`` no undo record is written (``u`` and ``cells``
    may be NULL), without ``zobrist`` or ``solver_key`` the Zobrist or solver key is left
    stale.  Each variant is compiled apart, so the flags cost nothing at run time."""
    if record:
        u.h = p.h
        u.move = move
        u.nsaved = 0
        u.nremoved = 0
        u.nclaimed = 0
    if move == p.ncells:
        _take_button(p, zobrist, solver_key)
        return 0
    return _place(p, move, u, cells, record, zobrist, solver_key)


cdef inline void _take_button(PosState* p, const bint zobrist, const bint solver_key) noexcept nogil:
    """R13: the player to move takes the button."""
    p.h.button = p.h.to_move
    if zobrist:
        p.h.zobrist ^= p.geo.zobrist_button[p.h.to_move]
    if solver_key:
        p.h.solver_key ^= p.geo.zobrist_button[p.h.to_move]
    p.h.ply += 1
    _pass_turn(p, zobrist, solver_key)


cdef inline int _place(PosState* p, int x, Undo* u, uint16_t* cells, const bint record,
                       const bint zobrist, const bint solver_key) noexcept nogil:
    """The stone part of ``_make``: a stone of the player to move on legal cell ``x``
    (``u``'s header and move are already written when ``record``)."""
    cdef const Geometry* g = p.geo
    cdef CellState* C = p.cell
    cdef int colour = p.h.to_move, k, y, w
    cdef int e1, e2, length, nblack, bx = g.wbase[x]
    cdef uint64_t mx = g.nbw[x], low, high
    cdef KillPlan plan
    _kill_plan(p, x, &plan)

    # 1. the ribbon x makes: its ends, length and black count (read before writing)
    cdef int a = plan.a, b = plan.b
    nblack = colour == BLACK
    if plan.nst == 0:
        e1 = x
        e2 = x
        length = 1
    elif plan.nst == 1:
        e1 = x
        e2 = C[a].other_end
        length = C[a].length + 1
        nblack += C[a].nblack
    else:
        e1 = C[a].other_end
        e2 = C[b].other_end
        length = C[a].length + C[b].length + 1
        nblack += C[a].nblack + C[b].nblack
    if solver_key:                                  # the joined ribbons give way to the new one
        p.h.solver_key ^= g.key_stone[x] ^ ribbon_key(g, e1, e2, nblack)
        if a >= 0:
            p.h.solver_key ^= ribbon_key(g, a, C[a].other_end, C[a].nblack)
        if b >= 0:
            p.h.solver_key ^= ribbon_key(g, b, C[b].other_end, C[b].nblack)
    if record:
        _save(u, p, x)
        if e1 != x:
            _save(u, p, e1)
        if e2 != x and e2 != e1:
            _save(u, p, e2)
        u.n1_saved[0] = p.n1_bb[g.nbw_word[x]]
        u.n1_saved[1] = p.n1_bb[g.nbw_word[x] + 1]
        u.n2_saved[0] = p.n2_bb[g.nbw_word[x]]
        u.n2_saved[1] = p.n2_bb[g.nbw_word[x] + 1]

    # 2. the stone and its ribbon
    C[x].placed = colour
    C[x].owner = 0
    C[x].growth = 0x80                         # never 0 while its neighbours are removed below
    if zobrist:
        p.h.zobrist ^= g.zobrist_stone[x][colour]
    p.h.nblack_stones += colour == BLACK
    p.h.nwhite_stones += colour == WHITE
    C[x].nstones = plan.nst
    C[x].nbxor = 0
    if a >= 0:
        C[x].nbxor ^= a
        C[a].nstones += 1
        C[a].nbxor ^= x
    if b >= 0:
        C[x].nbxor ^= b
        C[b].nstones += 1
        C[b].nbxor ^= x
    bb_set(p.occ_bb, x)
    w = g.nbw_word[x]                          # n2 gains the neighbours that had one stone
    low = p.n1_bb[w]
    high = p.n1_bb[w + 1]
    p.n2_bb[w] |= g.nbw_low[x] & low
    p.n2_bb[w + 1] |= g.nbw_high[x] & high
    p.n1_bb[w] = low | g.nbw_low[x]
    p.n1_bb[w + 1] = high | g.nbw_high[x]
    C[e1].other_end = e2
    C[e2].other_end = e1
    C[e1].length = length
    C[e2].length = length
    C[e1].nblack = nblack
    C[e2].nblack = nblack

    # 3. legality: the cells this stone makes illegal leave the legal list; the
    # stones beside them lose growth cells, which finds the ribbons it bounds
    cdef uint16_t found[MAX_CLAIMS]
    cdef int nfound = 0
    cdef uint16_t* L = legal_list(p)
    cdef int nremoved = _kill(p, L, x, cells, 0, found, &nfound, record)
    for k in range(plan.ngroups):
        nremoved = _kill_group(p, L, plan.centre[k], plan.mask[k], cells, nremoved, found, &nfound, record)
    C[x].growth = popcount_few(mx & bb_window(p.legal_bb, bx))

    # 4. claims (R11): x's ribbon (found above only if x is not an end), then every
    # ribbon found above, each once
    cdef int nclaimed = 0
    if _ribbon_bounded(C, e1):
        _claim(p, e1, colour, zobrist, solver_key)
        if record:
            cells[nremoved] = e1
        nclaimed = 1
    for k in range(nfound):
        y = found[k]
        if C[y].owner == 0 and C[y].nstones <= 1:
            _claim(p, y, colour, zobrist, solver_key)
            if record:
                cells[nremoved + nclaimed] = y
            nclaimed += 1
    if record:
        u.nremoved = nremoved
        u.nclaimed = nclaimed

    # 5. the turn
    p.h.last_placer = colour
    p.h.ply += 1
    if p.game_type == GAME_DOUBLE:
        p.h.stones_left -= 1
        if zobrist:
            p.h.zobrist ^= g.zobrist_second_stone
        if solver_key:
            p.h.solver_key ^= g.zobrist_second_stone
        if p.h.stones_left == 0:
            p.h.stones_left = 2
            _pass_turn(p, zobrist, solver_key)
            if not _can_place_two(p):       # R20: the turn cannot start
                p.h.over = 1
    else:
        _pass_turn(p, zobrist, solver_key)
        if p.h.nlegal == 0:                 # R14
            p.h.over = 1
    return nremoved + nclaimed


cdef void unmake_move(PosState* p, const Undo* u, const uint16_t* cells) noexcept nogil:
    """Undo the move recorded in ``u`` and ``cells``: the position is restored exactly."""
    cdef const Geometry* g = p.geo
    cdef CellState* C = p.cell
    cdef int i, e, y, base, x = u.move, w
    cdef uint64_t beside
    if x != p.ncells:
        for i in range(u.nclaimed):
            e = cells[u.nremoved + i]
            C[e].owner = 0
            C[C[e].other_end].owner = 0
        # the stones beside each removed cell get it back as a growth cell (x still
        # counts as a stone, as it did when they were removed; its record is restored below)
        for i in range(u.nremoved):
            y = cells[i]
            base = g.wbase[y]
            beside = g.nbw[y] & bb_window(p.occ_bb, base)
            while beside:
                C[base + lowest_bit(beside)].growth += 1
                beside &= beside - 1
        base = g.wbase[x]
        beside = g.nbw[x] & bb_window(p.occ_bb, base)
        while beside:
            y = base + lowest_bit(beside)
            C[y].nstones -= 1
            C[y].nbxor ^= x
            beside &= beside - 1
        for i in range(u.nsaved - 1, -1, -1):
            C[u.saved_cell[i]] = u.saved[i]
        L = legal_list(p)
        for i in range(u.nremoved - 1, -1, -1):
            _list_restore(p, L, cells[i])
        bb_clear(p.occ_bb, x)
        w = g.nbw_word[x]
        p.n1_bb[w] = u.n1_saved[0]
        p.n1_bb[w + 1] = u.n1_saved[1]
        p.n2_bb[w] = u.n2_saved[0]
        p.n2_bb[w + 1] = u.n2_saved[1]
    p.h = u.h


# ---------------------------------------------------------------------------
# The end of the game (R15, R21-R25)


cdef int end_claim_owner(const PosState* p, int end) noexcept nogil:
    """Who owns the ribbon ending at ``end`` once the game is over: its claimer, or
    for a double-placement ribbon left unbounded, R21's majority (tie: the mover)."""
    cdef const CellState* C = &p.cell[0]
    if C[end].owner:
        return C[end].owner
    cdef int nb = C[end].nblack, nw = C[end].length - C[end].nblack
    if nb > nw:
        return BLACK
    if nw > nb:
        return WHITE
    return p.h.to_move


cdef void final_result(const PosState* p, Result* r) noexcept nogil:
    """Scores and winner of a finished game."""
    cdef const CellState* C = &p.cell[0]
    cdef int c, owner, length, black = 0, white = 0, lw = 0, top
    cdef int count[2][MAX_CELLS + MAX_KOMI_LONGEST + 1]
    r.button = 0
    if p.game_type != GAME_DOUBLE:
        r.button = p.h.button if p.h.button else 3 - p.h.last_placer
    if p.scoring == SCORING_STANDARD and p.game_type != GAME_DOUBLE:
        black = p.h.nblack_stones
        white = p.h.nwhite_stones
    else:
        if p.scoring == SCORING_LONGEST:
            memset(count, 0, sizeof(count))
        for c in range(p.ncells):
            if is_ribbon_head(C, c):
                owner = end_claim_owner(p, c)
                length = C[c].length
                if p.scoring == SCORING_SQUARE:
                    length = length * length
                elif p.scoring == SCORING_LONGEST:
                    count[owner - 1][length] += 1
                    if owner == WHITE and length > lw:
                        lw = length
                if owner == BLACK:
                    black += length
                else:
                    white += length
    if p.scoring == SCORING_LONGEST:
        # R24: komi lengthens one of White's longest ribbons; equal pairs cancel
        r.black2 = 0
        r.white2 = 0
        r.winner = r.button
        if lw and p.komi:
            count[1][lw] -= 1
            count[1][lw + p.komi] += 1
        for top in range(MAX_CELLS + MAX_KOMI_LONGEST, 0, -1):
            if count[0][top] != count[1][top]:
                r.winner = BLACK if count[0][top] > count[1][top] else WHITE
                break
        return
    r.black2 = 2 * black + (r.button == BLACK)
    r.white2 = 2 * (white + p.komi) + (r.button == WHITE)
    r.winner = BLACK if r.black2 > r.white2 else (WHITE if r.white2 > r.black2 else 0)


cdef void fill_display(const PosState* p, uint8_t* out) noexcept nogil:
    """The colour shown on each cell: claims applied, and R21's end claims once a
    double-placement game is over."""
    cdef const CellState* C = &p.cell[0]
    cdef uint16_t stones[MAX_CELLS]
    cdef int c, i, owner, n
    memset(out, 0, p.ncells)
    for c in range(p.ncells):
        if is_ribbon_head(C, c):
            owner = C[c].owner
            if p.h.over and p.game_type == GAME_DOUBLE:
                owner = end_claim_owner(p, c)
            n = ribbon_walk(p, c, stones)
            for i in range(n):
                out[stones[i]] = owner if owner else C[stones[i]].placed


# ---------------------------------------------------------------------------
# Kernels that run whole games or trees


cdef int random_playout(PosState* p, Rng* rng, double button_probability,
                        uint8_t* played_by) noexcept nogil:
    """Play uniformly random legal stones to the end; returns the stones placed.

    The button is taken with ``button_probability`` at each turn it is a move.
    If ``played_by`` is not NULL, ``played_by[move]`` gets the colour of the
    player of each move (for AMAF statistics).
    """
    cdef uint16_t moves[MAX_MOVES]
    cdef Rng r = rng[0]                 # a local copy the compiler keeps in registers
    cdef int placed = 0, move
    cdef uint16_t* L = legal_list(p)
    cdef bint double = p.game_type == GAME_DOUBLE, with_button = button_probability > 0.0
    while not p.h.over:
        if with_button and button_available(p) and rng_unit(&r) < button_probability:
            if played_by != NULL:
                played_by[p.ncells] = p.h.to_move
            _take_button(p, False, False)
            continue
        if double and _r20_filters(p):          # the test of a register first: the usual case
            move = moves[rng_below(&r, _r20_cells(p, moves, p.h.nlegal))]
        else:
            move = L[rng_below(&r, p.h.nlegal)]
        if played_by != NULL:
            played_by[move] = p.h.to_move
        _place(p, move, NULL, NULL, False, False, False)
        placed += 1
    rng[0] = r
    return placed


cdef uint64_t perft_count(PosState* p, int depth) noexcept nogil:
    """Leaf count of the move tree to ``depth``, every move made and unmade."""
    if depth == 0:
        return 1
    if p.h.over:
        return 0
    cdef uint16_t moves[MAX_MOVES]
    cdef uint16_t cells[MAX_LIST]
    cdef Undo u
    cdef int n = gen_moves(p, moves), i
    cdef uint64_t total = 0
    for i in range(n):
        make_move_without_keys(p, moves[i], &u, cells)
        total += perft_count(p, depth - 1)
        unmake_move(p, &u, cells)
    return total


# ---------------------------------------------------------------------------
# The Python boundary

import numbers
import os

from catena.errors import CatenaError, CellError, IllegalMoveError
from catena.results import Claim, Outcome, PlayoutStats, Ribbon
from catena._geometry import cells as _cell_names, check_action, check_size, is_action_id, parse_cell
from catena._validate import integer, real, seed as checked_seed

GAME_TYPES = ("komi", "nokomi", "double")
SCORINGS = ("standard", "longest", "square")
_COLOUR_NAMES = (None, "black", "white")
KOMI_RANGES = {"standard": (0, 15), "longest": (0, 15), "square": (0, 1000)}


def check_komi(komi, game_type, scoring):
    """Validate ``komi`` for the game and scoring types (R22); returns it as an int."""
    komi = integer(komi, "komi")
    if game_type != "komi" and komi != 0:
        raise CatenaError(f"komi must be 0 in game type {game_type!r}, which has no komi, not {komi} (R22)")
    low, high = KOMI_RANGES[scoring]
    if not low <= komi <= high:
        raise CatenaError(f"komi {komi} is out of range for {scoring!r} scoring: "
                          f"it must be {low} to {high} (R22)")
    return komi


def _check_choice(value, choices, what):
    if value not in choices:
        raise CatenaError(f"unknown {what} {value!r}: expected one of {', '.join(map(repr, choices))}")
    return choices.index(value)


cdef void* _resized(void* block, size_t nbytes) except NULL:
    """``realloc`` that raises MemoryError, leaving ``block`` as it was, when it fails."""
    cdef void* grown = realloc(block, nbytes)
    if grown == NULL:
        raise MemoryError()
    return grown


# What a Position made by Position.__new__ (never initialised) points at: the finished
# side-1 game "A1", a sound state in which no move is legal, so no method can misread.
cdef PosState* _UNINITIALISED = pos_alloc(1)
pos_init(_UNINITIALISED, geometry_for(1), GAME_KOMI, SCORING_STANDARD, 0)
play_move(_UNINITIALISED, 0)


cdef class Position:
    """A Catena position in the play phase, with its move history.

    ``Position(size=6, game_type="komi", scoring="standard", komi=0)`` is the
    empty board with Black to move.  ``game_type`` is "komi", "nokomi" (the first
    move is P1's black stone) or "double" (double placement); ``scoring`` is
    "standard", "longest" or "square".

    >>> pos = Position(size=3)
    >>> len(pos.legal_moves())          # 19 cells and the button
    20
    >>> pos.push("b2"); pos.to_move
    'white'
    >>> str(pos.pop())
    'B2'
    """

    def __cinit__(self):
        self._st = _UNINITIALISED
        self._undo = NULL
        self._pool = NULL

    def __init__(self, size=6, game_type="komi", scoring="standard", komi=0):
        size = check_size(size)
        gt = _check_choice(game_type, GAME_TYPES, "game type")
        sc = _check_choice(scoring, SCORINGS, "scoring type")
        komi = check_komi(komi, game_type, scoring)
        cdef const Geometry* geo = geometry_for(size)
        self._allocate(geo.ncells, 64)
        pos_init(self._st, geo, gt, sc, komi)
        self.size = size
        self.game_type = game_type
        self.scoring = scoring
        self.komi = komi
        self._moves = []
        self._move_table = moves_for_size(size)

    cdef int _allocate(self, int ncells, int undo_cap) except -1:
        if self._st != _UNINITIALISED:        # __init__ called again: no leak
            free(self._st)
        free(self._undo)
        free(self._pool)
        self._st = pos_alloc(ncells)
        self._undo_cap = undo_cap
        self._undo = <Undo*>malloc(undo_cap * sizeof(Undo))
        self._pool_cap = undo_cap * 16 + MAX_LIST
        self._pool = <uint16_t*>malloc(self._pool_cap * sizeof(uint16_t))
        self._nundo = 0
        self._pool_len = 0
        if self._st == NULL or self._undo == NULL or self._pool == NULL:
            raise MemoryError()
        return 0

    def __dealloc__(self):
        if self._st != _UNINITIALISED:
            free(self._st)
        free(self._undo)
        free(self._pool)

    # -- moves -------------------------------------------------------------

    cdef int _move_index(self, object move) except -1:
        """The move index of a Move, a move name or an action id, or raise saying what is wrong."""
        if isinstance(move, Move):
            if (<Move>move).name is None:
                raise TypeError("an uninitialised Move (made by Move.__new__) is not a move: "
                                "use Move(name, size) or a move from legal_moves()")
            if (<Move>move).size != self.size:
                raise IllegalMoveError(
                    f"{move} belongs to a board of side {(<Move>move).size}, not {self.size}")
            if not 0 <= (<Move>move).index <= self._st.ncells:      # never trust an index unchecked
                raise IllegalMoveError(f"{move!r} has index {(<Move>move).index}, which is not a move "
                                       f"on the board of side {self.size}")
            return (<Move>move).index
        if isinstance(move, str):
            try:
                return move_for_name(move, self.size).index
            except CellError as exc:
                raise IllegalMoveError(str(exc)) from None
        if is_action_id(move):
            return check_action(move, self._st.ncells, self.size)
        raise TypeError(f"a move must be a Move, a name like 'F6' or 'button' or an action id, "
                        f"not {type(move).__name__}")

    cdef int _push_index(self, int move) except -1:
        cdef Undo* u
        if self._nundo == self._undo_cap:
            self._grow_undo(self._undo_cap * 2)
        if self._pool_len + MAX_LIST > self._pool_cap:
            self._grow_pool(self._pool_cap * 2)
        u = &self._undo[self._nundo]
        u.list_offset = self._pool_len
        self._pool_len += make_move(self._st, move, u, self._pool + self._pool_len)
        self._nundo += 1
        self._moves.append(self._move_table[move])
        return 0

    cdef int _grow_undo(self, int cap) except -1:
        self._undo = <Undo*>_resized(self._undo, cap * sizeof(Undo))
        self._undo_cap = cap
        return 0

    cdef int _grow_pool(self, int cap) except -1:
        self._pool = <uint16_t*>_resized(self._pool, cap * sizeof(uint16_t))
        self._pool_cap = cap
        return 0

    def push(self, move):
        """Play ``move``: a Move, a name such as "F6" or "button" (GTP's "pass" is the
        button too; any case), or an action id (the cell index; the button is the
        number of cells).

        Raises IllegalMoveError, saying why, and leaves the position unchanged if
        the move is not legal here (ValueError for an action id out of range).

        >>> pos = Position(size=2)
        >>> pos.push(3); pos.push(7); pos.move_stack
        [Move('B2', size=2), Move('button', size=2)]
        """
        cdef int m = self._move_index(move)
        if not is_legal_move(self._st, m):
            raise IllegalMoveError(self._why_illegal(m))
        self._push_index(m)

    def pop(self):
        """Undo the last move and return it (IndexError if there is none)."""
        if self._nundo == 0:
            raise IndexError("pop from a position with no moves")
        self._nundo -= 1
        cdef Undo* u = &self._undo[self._nundo]
        unmake_move(self._st, u, self._pool + u.list_offset)
        self._pool_len = u.list_offset
        return self._moves.pop()

    def peek(self):
        """The last move played, or None."""
        return self._moves[len(self._moves) - 1] if self._moves else None

    def legal_moves(self):
        """The legal moves, cells in index order, then the button if it is a move.

        In double placement, at the first stone of a two-stone turn, only the
        cells that leave a cell for the second stone (R20).
        """
        cdef uint16_t moves[MAX_MOVES]
        cdef uint8_t is_move[MAX_MOVES]
        cdef int i, n = gen_moves(self._st, moves)
        memset(is_move, 0, sizeof(is_move))
        for i in range(n):
            is_move[moves[i]] = 1
        return [self._move_table[i] for i in range(self._st.ncells + 1) if is_move[i]]

    def is_legal(self, move):
        """Whether ``move`` (a Move, a name or an action id) is legal here; malformed
        names are not, an action id out of range raises ValueError.

        >>> pos = Position(size=2)
        >>> pos.is_legal(7), pos.is_legal("z9"), pos.is_legal(True)
        (True, False, False)
        """
        try:
            m = self._move_index(move)
        except (CatenaError, TypeError):
            return False
        return is_legal_move(self._st, m)

    def legal_action_mask(self):
        """A numpy bool array over the action ids (cells, then the button): True where
        the move is legal, as in legal_moves().

        >>> mask = Position(size=2).legal_action_mask()
        >>> mask.shape, int(mask.sum())
        ((8,), 8)
        """
        import numpy
        cdef uint16_t moves[MAX_MOVES]
        cdef int i, n = gen_moves(self._st, moves)
        mask = numpy.zeros(self._st.ncells + 1, dtype=numpy.bool_)
        cdef uint8_t[::1] view = mask.view(numpy.uint8)
        for i in range(n):
            view[moves[i]] = 1
        return mask

    def _why_illegal(self, int m):
        """A sentence saying why move index ``m`` is illegal (R7, R13, R18-R20)."""
        cdef PosState* p = self._st
        cdef const Geometry* g = p.geo
        names = _cell_names(self.size)
        if p.h.over:
            return f"{self._move_table[m]} is illegal: the game is over"
        if m == p.ncells:
            if p.game_type == GAME_DOUBLE:
                return "button is illegal: double placement has no button (R19)"
            if p.h.button:
                return f"button is illegal: {_COLOUR_NAMES[p.h.button]} has already taken it (R13)"
            return "button is illegal: the first move of a no-komi game is P1's black stone (R18)"
        name = names[m]
        if p.cell[m].placed:
            return f"{name} is illegal: the cell is occupied"
        stones = [g.nb[m][i] for i in range(g.nnb[m]) if p.cell[g.nb[m][i]].placed]
        if len(stones) >= 3:
            listed = ", ".join(names[s] for s in sorted(stones))
            return f"{name} is illegal: it would touch {len(stones)} stones ({listed}) (R7)"
        if len(stones) == 2:
            a, b = sorted(stones)
            # the two ends of one ribbon (a stone inside a ribbon is a branch, below)
            if p.cell[a].nstones <= 1 and p.cell[a].other_end == b:
                return (f"{name} is illegal: {names[a]} and {names[b]} are in the same ribbon, "
                        f"so it would close a ring (R7)")
        for s in stones:
            if p.cell[s].nstones >= 2:
                return f"{name} is illegal: {names[s]} already has two neighbours, so it would branch (R7)"
        return (f"{name} is illegal: after it no cell would be left for the second stone "
                f"of the turn (R20)")

    # -- state -------------------------------------------------------------

    @property
    def to_move(self):
        """"black" or "white": the colour of the next move."""
        return _COLOUR_NAMES[self._st.h.to_move]

    @property
    def button(self):
        """Who took the button ("black"/"white"), or None while untaken."""
        return _COLOUR_NAMES[self._st.h.button]

    @property
    def stones_left(self):
        """Double placement: stones still to place in this turn (1 or 2); otherwise 1."""
        return self._st.h.stones_left

    @property
    def zobrist(self):
        """64-bit Zobrist key of the stones as claimed (R12), side to move, button and stone
        of the turn.  R21's end claims of a finished double-placement game are not in it."""
        return self._st.h.zobrist

    @property
    def move_stack(self):
        """The moves played so far, oldest first (a copy)."""
        return list(self._moves)

    @property
    def ply(self):
        """Number of moves played (from the empty board, also for a position read by
        from_string, whose move_stack starts empty)."""
        return self._st.h.ply

    def is_game_over(self):
        """Whether no more moves can be made (R14; R20 in double placement)."""
        return bool(self._st.h.over)

    def outcome(self):
        """The Outcome of a finished game, or None while it goes on."""
        if not self._st.h.over:
            return None
        cdef Result r
        final_result(self._st, &r)
        scored = self._st.scoring != SCORING_LONGEST
        return Outcome(winner=_COLOUR_NAMES[r.winner],
                       black_score=r.black2 / 2.0 if scored else None,
                       white_score=r.white2 / 2.0 if scored else None,
                       button=_COLOUR_NAMES[r.button])

    def score(self):
        """Standard points so far: (black, white) stones shown, komi and the button held."""
        h = self._st.h
        return (h.nblack_stones + (0.5 if h.button == BLACK else 0),
                h.nwhite_stones + self.komi + (0.5 if h.button == WHITE else 0))

    cdef bytes _display(self):
        cdef bytearray out = bytearray(self._st.ncells)
        cdef uint8_t* buf = out
        fill_display(self._st, buf)
        return bytes(out)

    def _cell_index(self, cell):
        if isinstance(cell, str):
            return parse_cell(cell, self.size)
        if isinstance(cell, bool) or not isinstance(cell, numbers.Integral):
            raise TypeError(f"a cell must be a name like 'F6' or an index, not {type(cell).__name__}")
        cell = int(cell)
        if not 0 <= cell < self._st.ncells:
            raise CellError(f"cell index {cell} is out of range: side {self.size} has cells "
                            f"0 to {self._st.ncells - 1}")
        return cell

    def stone_at(self, cell):
        """"black", "white" or None: the stone shown on ``cell`` (a name or an index)."""
        return _COLOUR_NAMES[self._display()[self._cell_index(cell)]]

    def to_array(self):
        """A numpy int8 array over the cells in index order: 0 empty, 1 black, 2 white."""
        import numpy
        return numpy.frombuffer(self._display(), dtype=numpy.int8).copy()

    def _cell_layers(self):
        """Three bytes objects over the cells: the colour each stone was placed as, the
        colour shown, and 1 for the stones of bounded ribbons (for catena.observation)."""
        cdef bytearray placed = bytearray(self._st.ncells), bounded = bytearray(self._st.ncells)
        cdef uint16_t stones[MAX_CELLS]
        cdef CellState* C = self._st.cell
        cdef int c, i, n
        for c in range(self._st.ncells):
            placed[c] = C[c].placed
            if is_ribbon_head(C, c) and C[c].owner:
                n = ribbon_walk(self._st, c, stones)
                for i in range(n):
                    bounded[stones[i]] = 1
        return bytes(placed), self._display(), bytes(bounded)

    def observation_tensor(self):
        """numpy float32 planes of this position from the mover's view, shape
        ``catena.observation_shape(size)``; catena.observation documents the planes.

        >>> Position(size=3).observation_tensor().shape
        (10, 5, 5)
        """
        from catena.observation import observation_tensor
        return observation_tensor(self)

    def to_string(self):
        """The position string: rules, stones as placed and as shown, side to move, button,
        stones left and the last placer (see docs/research.md); from_string reads it back.

        >>> pos = Position(size=2); pos.push("B2"); pos.to_string()
        '2 komi standard 0 2/1b1/2 w - 1 b'
        """
        from catena.notation import position_string
        return position_string(self)

    @staticmethod
    def from_string(text):
        """The position a string of to_string describes, with an empty move_stack.

        Raises ValueError saying what is wrong with a malformed or impossible string.

        >>> pos = Position.from_string("2 komi standard 0 2/1b1/2 w - 1 b")
        >>> pos.stone_at("B2"), pos.to_move, pos.ply
        ('black', 'white', 1)
        """
        from catena.notation import parse_position_string
        return parse_position_string(text)

    @staticmethod
    def from_moves(moves, size=6, game_type="komi", scoring="standard", komi=0):
        """The position after ``moves`` (names, Moves or action ids) from the empty board of
        these rules; an illegal move raises as ``push`` does.

        >>> Position.from_moves(["B2", "D4"], size=3).to_move
        'black'
        """
        pos = Position(size, game_type, scoring, komi)
        for move in moves:
            pos.push(move)
        return pos

    cdef tuple _ribbon_cells(self, int end):
        cdef uint16_t stones[MAX_CELLS]
        cdef int i, n = ribbon_walk(self._st, end, stones)
        return tuple(stones[i] for i in range(n))

    def ribbons(self):
        """Every ribbon, as Ribbon(cells, length, black, white, bounded), by first end."""
        names = _cell_names(self.size)
        shown = self._display()
        cdef CellState* C = self._st.cell
        out = []
        for c in range(self._st.ncells):
            if is_ribbon_head(C, c):
                members = self._ribbon_cells(c)
                black = sum(1 for m in members if shown[m] == BLACK)
                out.append(Ribbon(cells=tuple(names[m] for m in members), length=len(members),
                                  black=black, white=len(members) - black, bounded=bool(C[c].owner)))
        return out

    def last_claims(self):
        """The ribbons the last stone bounded (R11) and who claimed them (R12)."""
        if self._nundo == 0:
            return []
        cdef Undo* u = &self._undo[self._nundo - 1]
        names = _cell_names(self.size)
        out = []
        for i in range(u.nclaimed):
            e = self._pool[u.list_offset + u.nremoved + i]
            out.append(Claim(cells=tuple(names[m] for m in self._ribbon_cells(e)),
                             owner=_COLOUR_NAMES[self._st.cell[e].owner]))
        return out

    # -- copies ------------------------------------------------------------

    cpdef Position copy(self):
        """An independent copy, history included."""
        cdef Position other = Position.__new__(Position)
        other._allocate(self._st.ncells, max(self._undo_cap, 1))
        pos_copy(other._st, self._st)
        memcpy(other._undo, self._undo, self._nundo * sizeof(Undo))
        if other._pool_cap < self._pool_cap:
            other._grow_pool(self._pool_cap)
        memcpy(other._pool, self._pool, self._pool_len * sizeof(uint16_t))
        other._nundo = self._nundo
        other._pool_len = self._pool_len
        other._moves = list(self._moves)
        other._move_table = self._move_table
        other.size = self.size
        other.game_type = self.game_type
        other.scoring = self.scoring
        other.komi = self.komi
        other._start = self._start
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_rebuild, (self.size, self.game_type, self.scoring, self.komi,
                           [m.name for m in self._moves], self._start))

    def _consistency_errors(self):
        """Recompute the incrementally kept state from the stones alone and list every
        disagreement (empty when the position is sound): the core's ``pos_is_ok``.

        Checks the stones' neighbour counts and XORs, each ribbon's ends, length and black count,
        legality by R7, the legal list, the bitboards, each stone's growth count,
        bounded flags by R9 and their owners' colours, the shown stone counts, the
        bounded margin, the Zobrist and solver keys.

        >>> pos = Position(size=3)
        >>> for name in ["B2", "C3", "D4"]:
        ...     pos.push(name)
        >>> pos._consistency_errors()
        []
        """
        cdef PosState* p = self._st
        cdef const Geometry* g = p.geo
        cdef CellState* C = p.cell
        cdef uint16_t* L = legal_list(p)
        cdef int c, i, y, n, count
        cdef Header fresh
        names = list(_cell_names(self.size))
        errors = []

        def stone(cell):
            return C[cell].placed != 0

        for c in range(p.ncells):
            around = [g.nb[c][i] for i in range(g.nnb[c]) if stone(g.nb[c][i])]
            xor = 0
            for y in around:
                xor ^= y
            if stone(c) and (C[c].nstones != len(around) or C[c].nbxor != xor):
                errors.append(f"{names[c]}: neighbour count/XOR {C[c].nstones}/{C[c].nbxor}, "
                              f"expected {len(around)}/{xor}")
            if stone(c) and len(around) > 2:
                errors.append(f"{names[c]}: a stone with {len(around)} stone neighbours (R5)")
        # ribbons from scratch, by flood fill
        seen = set()
        hash_expected = 0
        shown = {BLACK: 0, WHITE: 0}
        for c in range(p.ncells):
            if not stone(c) or c in seen:
                continue
            group, todo = [], [c]
            seen.add(c)
            while todo:
                cur = todo.pop()
                group.append(cur)
                for i in range(g.nnb[cur]):
                    y = g.nb[cur][i]
                    if stone(y) and y not in seen:
                        seen.add(y)
                        todo.append(y)
            ends = sorted(m for m in group if C[m].nstones <= 1)
            if len(group) == 1:
                ends = ends * 2
            if len(ends) != 2:
                errors.append(f"group at {names[c]} is not a path: ends {ends}")
                continue
            e, f = ends
            black = sum(1 for m in group if C[m].placed == BLACK)
            for a, b in ((e, f), (f, e)):
                if C[a].other_end != b or C[a].length != len(group) or C[a].nblack != black:
                    errors.append(f"end {names[a]}: other end/length/black {C[a].other_end}/{C[a].length}/"
                                  f"{C[a].nblack}, expected {b}/{len(group)}/{black}")
            growth = any(C[g.nb[m][i]].legal for m in (e, f) for i in range(g.nnb[m]))
            owner = C[e].owner
            if C[f].owner != owner:
                errors.append(f"ribbon {names[e]}-{names[f]}: its ends disagree on the owner")
            if bool(owner) == growth:
                errors.append(f"ribbon {names[e]}-{names[f]}: bounded flag {bool(owner)} but "
                              f"{'a' if growth else 'no'} legal growth cell (R9)")
            for m in group:
                colour = owner or C[m].placed
                shown[colour] += 1
                hash_expected ^= g.zobrist_stone[m][colour]
        # legality by R7 from scratch, and the legal list
        count = 0
        for c in range(p.ncells):
            around = [g.nb[c][i] for i in range(g.nnb[c]) if stone(g.nb[c][i])]
            legal = (not stone(c) and len(around) <= 2 and all(C[y].nstones <= 1 for y in around)
                     and not (len(around) == 2 and C[around[0]].other_end == around[1]))
            if bool(C[c].legal) != legal:
                errors.append(f"{names[c]}: legal flag {C[c].legal}, R7 says {int(legal)}")
            if C[c].legal:
                count += 1
                if C[c].lidx >= p.h.nlegal or L[C[c].lidx] != c:
                    errors.append(f"{names[c]}: not at its place {C[c].lidx} in the legal list")
        if count != p.h.nlegal:
            errors.append(f"{p.h.nlegal} cells in the legal list, {count} legal flags")
        # the bitboards and each stone's growth count against the cells
        for c in range(BB_WORDS * 64):
            on_board = c < p.ncells
            touching = sum(stone(g.nb[c][i]) for i in range(g.nnb[c])) if on_board else 0
            expected = (on_board and C[c].legal, on_board and stone(c), touching >= 1, touching >= 2)
            found = (bb_test(p.legal_bb, c), bb_test(p.occ_bb, c), bb_test(p.n1_bb, c), bb_test(p.n2_bb, c))
            if tuple(map(bool, found)) != tuple(map(bool, expected)):
                errors.append(f"bit {c} of the legal/stone/n1/n2 bitboards is {found}, expected {expected}")
            if on_board and stone(c):
                n = sum(C[g.nb[c][i]].legal for i in range(g.nnb[c]))
                if C[c].growth != n:
                    errors.append(f"{names[c]}: growth count {C[c].growth}, but {n} legal neighbours")
        if (shown[BLACK], shown[WHITE]) != (p.h.nblack_stones, p.h.nwhite_stones):
            errors.append(f"shown stones {p.h.nblack_stones}/{p.h.nwhite_stones}, "
                          f"expected {shown[BLACK]}/{shown[WHITE]}")
        if p.h.zobrist != hash_expected ^ turn_key(p):
            errors.append("the Zobrist key differs from one computed afresh")
        # the ribbons' ends, lengths and black counts are checked above: the key from them
        fresh_solver_key(p, &fresh)
        if p.h.solver_key != fresh.solver_key or p.h.bounded_solver_key != fresh.bounded_solver_key:
            errors.append("the solver key differs from one computed afresh")
        if p.h.bounded != fresh.bounded:
            errors.append(f"bounded margin {p.h.bounded}, expected {fresh.bounded}")
        return errors

    def _key(self):
        h = self._st.h
        return (self.size, self.game_type, self.scoring, self.komi, self._display(),
                h.to_move, h.button, h.stones_left, h.over, h.ply, h.last_placer)

    def __eq__(self, other):
        """Positions are equal when their rules, stones shown, turn and button agree."""
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None

    def __repr__(self):
        moves = " ".join(m.name for m in self._moves)
        return (f"<Position size={self.size} game_type={self.game_type!r} scoring={self.scoring!r} "
                f"komi={self.komi} moves='{moves}'>")

    def __str__(self):
        from catena.text import board_text
        return board_text(self)

    def _repr_svg_(self):
        """The board as SVG, so a position draws itself in Jupyter."""
        from catena.svg import svg
        return str(svg(self))


def _rebuild(size, game_type, scoring, komi, moves, start=None):
    pos = Position(size, game_type, scoring, komi) if start is None else Position.from_string(start)
    for name in moves:
        pos.push(name)
    return pos


def position_bytes(size=6):
    """Bytes of the C state of a position of side ``size`` (without its history).

    >>> position_bytes(6) <= 2048
    True
    """
    return pos_bytes(geometry_for(check_size(size)).ncells)


def _check_position(pos):
    if not isinstance(pos, Position):
        raise TypeError(f"expected a catena.Position, not {type(pos).__name__}")


cdef enum:
    WORK_BETWEEN_CHECKS = 1 << 20    # placements (tens of ms) between looks for a pending Ctrl-C


cdef int _check_signals() except -1 nogil:
    """Run pending signal handlers: raises KeyboardInterrupt after Ctrl-C."""
    with gil:
        PyErr_CheckSignals()
    return 0


cdef int _perft_checked(PosState* p, int depth, uint64_t* total, uint64_t* work) except -1 nogil:
    """perft_count that looks for Ctrl-C between subtrees: the subtrees of depth 2 run
    unchecked (at most 272 x 272 leaves, milliseconds), so the checks cost nothing."""
    cdef uint64_t leaves
    if depth <= 2:
        leaves = perft_count(p, depth)
        total[0] += leaves
        work[0] += leaves + 1
        if work[0] >= WORK_BETWEEN_CHECKS:
            work[0] = 0
            _check_signals()
        return 0
    if p.h.over:
        return 0
    cdef uint16_t moves[MAX_MOVES]
    cdef uint16_t cells[MAX_LIST]
    cdef Undo u
    cdef int n = gen_moves(p, moves), i
    for i in range(n):
        make_move_without_keys(p, moves[i], &u, cells)
        _perft_checked(p, depth - 1, total, work)
        unmake_move(p, &u, cells)
    return 0


def perft(Position pos, depth):
    """Leaves of the legal-move tree to ``depth`` (the button included).

    perft(p, 0) is 1; a finished game contributes 0 at depth >= 1.  Runs in the
    core, every move made and unmade, on a copy of the position.  Ctrl-C stops it
    within a fraction of a second (KeyboardInterrupt; the position is unchanged).

    >>> perft(Position(size=2), 2)
    56
    """
    _check_position(pos)
    # no game is longer than MAX_MOVES moves: deeper asks the same question
    cdef int d = min(integer(depth, "depth", minimum=0), MAX_MOVES + 1)
    cdef PosState* scratch = pos_alloc(pos._st.ncells)
    if scratch == NULL:
        raise MemoryError()
    pos_copy(scratch, pos._st)
    cdef uint64_t total = 0, work = 0
    try:
        with nogil:
            _perft_checked(scratch, d, &total, &work)
    finally:
        free(scratch)
    return total


def random_playouts(Position pos, n, seed=None, button_probability=0.0):
    """Play ``n`` uniformly random games from ``pos`` to the end, in the core.

    Returns PlayoutStats(games, placements, black_wins, white_wins, draws).  The
    button is never taken unless ``button_probability`` asks for it.  Ctrl-C stops
    the run within a fraction of a second (KeyboardInterrupt; ``pos`` is unchanged).

    >>> stats = random_playouts(Position(size=4), 100, seed=1)
    >>> stats.games, stats.black_wins + stats.white_wins + stats.draws
    (100, 100)
    """
    _check_position(pos)
    cdef long long games = integer(n, "n", minimum=0, maximum=2 ** 62)
    cdef double q = real(button_probability, "button_probability", 0.0, 1.0)
    seed = checked_seed(seed)
    cdef Rng rng
    rng_seed(&rng, <uint64_t>(int.from_bytes(os.urandom(8), "little") if seed is None else seed))
    # the start is copied once, here, with the GIL held: another thread may push and
    # pop ``pos`` while the games run, and must never be seen halfway through a move
    cdef PosState* start = pos_alloc(pos._st.ncells)
    cdef PosState* scratch = pos_alloc(pos._st.ncells)
    if start == NULL or scratch == NULL:
        free(start)
        free(scratch)
        raise MemoryError()
    pos_copy(start, pos._st)
    cdef long long _game, placements = 0, checked = 0
    cdef long long wins[3]
    wins[0] = wins[1] = wins[2] = 0
    cdef Result r
    try:
        with nogil:
            for _game in range(games):
                pos_copy(scratch, start)
                placements += random_playout(scratch, &rng, q, NULL)
                final_result(scratch, &r)
                wins[r.winner] += 1
                if placements - checked >= WORK_BETWEEN_CHECKS:
                    checked = placements
                    _check_signals()
    finally:
        free(start)
        free(scratch)
    return PlayoutStats(games=games, placements=placements, black_wins=wins[BLACK],
                        white_wins=wins[WHITE], draws=wins[0])
