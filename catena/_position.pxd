# The position core: a Catena position as plain C data with incremental
# legality (R7-R8), ribbons tracked through their ends, bounded-ribbon detection
# and claims (R9-R12), and make/unmake.  Everything here runs without the GIL.
#
# Ribbons are simple paths, so a ribbon is known by its two ends: each end
# stores the other end, the length and the black count.  A stone's ribbon
# neighbours are exactly its adjacent stones, and every stone keeps their count and
# the XOR of their indices: that XOR, together with the previous stone, gives the
# next one along the path.
#
# Beside the cells, four bitboards (legal, stones, at least one and at least two
# stone neighbours) give the cells a placement makes illegal as ANDs of windows,
# and each stone counts its legal empty neighbours: a ribbon is bounded (R9)
# exactly when both its ends count 0.

from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint64_t
from catena._bitboard cimport BB_WORDS
from catena._common cimport mix64
from catena._geometry cimport Geometry, MAX_CELLS
from catena._rng cimport Rng

cdef enum:
    EMPTY = 0
    BLACK = 1
    WHITE = 2

cdef enum:
    GAME_KOMI = 0
    GAME_NOKOMI = 1
    GAME_DOUBLE = 2

cdef enum:
    SCORING_STANDARD = 0
    SCORING_LONGEST = 1
    SCORING_SQUARE = 2

cdef enum:
    MAX_REMOVED = 24     # legal cells one placement can remove (at most 1 + 6 + 2*6 + 2 = 21)
    MAX_CLAIMS = 128     # ribbons one placement can bound (generous: each has an end near a removed cell)
    MAX_LIST = 152       # MAX_REMOVED + MAX_CLAIMS: the cell list one move writes for its undo
    MAX_SAVED = 3        # cells whose ribbon data a placement overwrites: the stone and the new ends
    ALWAYS_TWO = 22      # double placement: with this many legal cells a second stone is certain
    MAX_KOMI_LONGEST = 15

ctypedef struct CellState:
    uint8_t placed       # EMPTY, or the colour the stone was placed as
    uint8_t legal        # 1 while a placement here is legal (R7)
    uint8_t nstones      # for a stone: its adjacent stones, its ribbon neighbours (0..2)
                         # (for an empty cell stale: the n1/n2 bitboards count those)
    uint8_t owner        # at a ribbon end: 0 while unbounded, else who claimed it (R12)
    uint16_t nbxor       # for a stone: XOR of the indices of its adjacent stones
    uint16_t other_end   # at a ribbon end: the other end (itself for a singleton)
    uint16_t length      # at a ribbon end: stones in the ribbon
    uint16_t nblack      # at a ribbon end: stones in it placed as black
    uint16_t lidx        # while legal: index in the legal list
    uint8_t growth       # for a stone: its legal empty neighbours (0 at both ends: bounded, R9)
    uint8_t spare        # pads the record to 16 bytes, so a cell's address is a shift

ctypedef struct Header:
    uint64_t zobrist         # Zobrist key of shown stones, side to move, button, stone of the turn
    int16_t nlegal           # legal cells, the length of the legal list
    int16_t nblack_stones    # black stones shown on the board (after claims)
    int16_t nwhite_stones    # white stones shown on the board
    int16_t ply              # moves made from the start of the play phase
    uint8_t to_move          # BLACK or WHITE
    uint8_t button           # 0 untaken, else the colour that took it
    uint8_t stones_left      # double placement: stones still to place this turn (1 or 2); else 1
    uint8_t over             # 1 once the game has ended (R14, R20)
    uint8_t last_placer      # colour of the last stone placed, 0 before any
    int32_t bounded          # score of the bounded ribbons, black minus white (standard: stones,
                             # square: squared lengths; 0 under longest ribbon); kept with the
                             # solver key
    uint64_t solver_key      # solver key (F4): which cells hold stones, each unbounded ribbon's
                             # ends and black count, side to move, button, stone of the turn
                             # (an XOR of terms, so it depends on the position, not the order)
    uint64_t bounded_solver_key  # the solver key of the bounded ribbons, longest ribbon only: the
                             # SUM of their (length, owner) terms, a multiset (XOR would cancel
                             # two equal ribbons); the other scorings keep ``bounded`` instead

ctypedef struct PosState:
    const Geometry* geo      # shared tables of this board side
    int16_t ncells
    int16_t komi
    uint8_t game_type        # GAME_*
    uint8_t scoring          # SCORING_*
    Header h
    uint64_t legal_bb[BB_WORDS]     # the cells whose legal flag is set
    uint64_t occ_bb[BB_WORDS]       # the stones
    uint64_t n1_bb[BB_WORDS]        # cells with at least one stone neighbour
    uint64_t n2_bb[BB_WORDS]        # cells with at least two stone neighbours
    CellState cell[MAX_CELLS + 1]   # ncells cells and the ghost cell (index ncells, never legal,
                                    # never a stone: the padding of neighbour lists) are
                                    # allocated; the legal list (ncells uint16) follows

ctypedef struct Undo:
    Header h                 # the header before the move
    int16_t move             # the move made
    uint8_t nsaved           # cells whose whole state is saved below
    uint8_t nremoved         # cells the move made illegal (first in the move's cell list)
    uint8_t nclaimed         # ribbons the move bounded, by one end (after them in the cell list)
    uint16_t saved_cell[MAX_SAVED]
    CellState saved[MAX_SAVED]
    uint64_t n1_saved[2]     # the two words of n1_bb and n2_bb that the stone's window touched
    uint64_t n2_saved[2]
    int32_t list_offset      # for stack owners: where this move's cell list starts in their pool

ctypedef struct Result:
    int winner               # 0 for a draw, else BLACK or WHITE
    int black2               # black's score in half points (0 under longest-ribbon scoring)
    int white2               # white's score in half points, komi included
    int button               # final holder of the button (R15), 0 in double placement

cdef inline bint is_ribbon_head(const CellState* C, int c) noexcept nogil:
    """Whether ``c`` is the lower-numbered end of a ribbon: iterating cells with this
    visits every ribbon once (a singleton is its own two ends)."""
    return C[c].placed != EMPTY and C[c].nstones <= 1 and c <= C[c].other_end


cdef inline uint16_t* legal_list(PosState* p) noexcept nogil:
    """The legal cells (``p.h.nlegal`` of them), stored after the cells."""
    return <uint16_t*>&p.cell[p.ncells + 1]


# The solver key (F4) has one home: these helpers and fresh_solver_key below;
# make_move keeps it incrementally with the same terms.

cdef inline uint64_t ribbon_key(const Geometry* g, int e1, int e2, int nblack) noexcept nogil:
    """Solver-key term of an unbounded ribbon: its ends (either order) and black count."""
    return mix64(g.key_end[e1] + g.key_end[e2] + g.key_black_count[nblack])


cdef inline uint64_t turn_key(const PosState* p) noexcept nogil:
    """The terms of the side to move, the button and the stone of the turn, the same in
    the Zobrist and the solver key."""
    cdef const Geometry* g = p.geo
    cdef uint64_t key = g.zobrist_button[p.h.button]
    if p.h.to_move == WHITE:
        key ^= g.zobrist_white_to_move
    if p.game_type == GAME_DOUBLE and p.h.stones_left == 1:
        key ^= g.zobrist_second_stone
    return key


cdef inline void count_bounded(const PosState* p, Header* h, int length, int owner,
                               int sign) noexcept nogil:
    """Add (``sign`` 1) or take away (-1) a ribbon of ``length`` bounded for ``owner``
    in ``h.bounded`` and ``h.bounded_solver_key``."""
    cdef int worth
    if p.scoring == SCORING_LONGEST:
        if sign > 0:
            h.bounded_solver_key += p.geo.key_bounded[length][owner]
        else:
            h.bounded_solver_key -= p.geo.key_bounded[length][owner]
    else:
        worth = length * length if p.scoring == SCORING_SQUARE else length
        h.bounded += sign * worth if owner == BLACK else -sign * worth

cdef int ribbon_walk(const PosState* p, int end, uint16_t* out) noexcept nogil
cdef size_t pos_bytes(int ncells) noexcept nogil
cdef PosState* pos_alloc(int ncells) noexcept nogil
cdef void pos_init(PosState* p, const Geometry* geo, int game_type, int scoring, int komi) noexcept nogil
cdef void pos_copy(PosState* dst, const PosState* src) noexcept nogil

cdef void placed_solver_keys(const PosState* p, int nsym, uint64_t* keys) noexcept nogil
cdef void fresh_solver_key(const PosState* p, Header* h) noexcept nogil
cdef bint button_available(const PosState* p) noexcept nogil
cdef bint leaves_a_cell(PosState* p, int x) noexcept nogil
cdef bint is_legal_move(PosState* p, int move) noexcept nogil
cdef int gen_moves(PosState* p, uint16_t* out) noexcept nogil
cdef int make_move(PosState* p, int move, Undo* u, uint16_t* cells) noexcept nogil
cdef int make_move_without_keys(PosState* p, int move, Undo* u, uint16_t* cells) noexcept nogil
cdef int make_move_solver_key_only(PosState* p, int move, Undo* u, uint16_t* cells) noexcept nogil
cdef void play_move(PosState* p, int move) noexcept nogil
cdef void unmake_move(PosState* p, const Undo* u, const uint16_t* cells) noexcept nogil
cdef void final_result(const PosState* p, Result* r) noexcept nogil
cdef int end_claim_owner(const PosState* p, int end) noexcept nogil
cdef void fill_display(const PosState* p, uint8_t* out) noexcept nogil
cdef int random_playout(PosState* p, Rng* rng, double button_probability, uint8_t* played_by) noexcept nogil
cdef uint64_t perft_count(PosState* p, int depth) noexcept nogil

cdef class Position:
    cdef PosState* _st            # the C position
    cdef Undo* _undo              # one record per move played
    cdef int _nundo, _undo_cap
    cdef uint16_t* _pool          # the moves' cell lists, back to back
    cdef int _pool_len, _pool_cap
    cdef list _moves              # Move objects played, oldest first
    cdef tuple _move_table        # interned Move objects of this side
    cdef public str _start        # the position string it was set up from, None from the empty board
    cdef readonly int size
    cdef readonly str game_type
    cdef readonly str scoring
    cdef readonly int komi

    cdef int _allocate(self, int ncells, int undo_cap) except -1
    cdef int _move_index(self, object move) except -1
    cdef int _push_index(self, int move) except -1
    cdef int _grow_undo(self, int cap) except -1
    cdef int _grow_pool(self, int cap) except -1
    cdef bytes _display(self)
    cdef tuple _ribbon_cells(self, int end)
    cpdef Position copy(self)
