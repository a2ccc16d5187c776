# The hexhex board of side 1..10 (R1-R3): cells, neighbours, symmetries and
# Zobrist keys, built once per side and shared by every position of that side.

from libc.stdint cimport int16_t, uint8_t, uint16_t, uint64_t

cdef enum:
    MIN_SIZE = 1
    MAX_SIZE = 10
    MAX_CELLS = 271          # 3*10*9 + 1 cells on side 10
    MAX_MOVES = 272          # every cell plus the button
    NUM_SYMMETRIES = 12      # 6 rotations x (identity, mirror)
    MAX_COORD = 19           # columns and rows run 1..2n-1

ctypedef struct Geometry:
    int size                                  # side n
    int ncells                                # 3n(n-1)+1
    int button                                # the button's move index (== ncells)
    uint8_t nnb[MAX_CELLS]                    # number of on-board neighbours of each cell
    int16_t nb[MAX_CELLS][6]                  # the neighbours, first nnb[c] entries valid
    int16_t nb6[MAX_CELLS][6]                 # the neighbours padded to six with the ghost cell
                                              # (index ncells), so hot loops have a fixed length
    uint8_t column[MAX_CELLS]                 # 1-based column of each cell
    uint8_t row[MAX_CELLS]                    # 1-based row of each cell
    int16_t cell_at[MAX_COORD + 2][MAX_COORD + 2]  # [column][row] -> cell index, -1 off board
    int16_t sym[NUM_SYMMETRIES][MAX_CELLS]    # sym[k][c]: image of cell c under symmetry k (k = 0 is
                                              # the identity)
    uint64_t zobrist_stone[MAX_CELLS][3]      # key of a black ([1]) or white ([2]) stone on a cell; [0] is 0
    uint64_t zobrist_flip[MAX_CELLS]          # zobrist_stone[c][1] ^ zobrist_stone[c][2]: a recoloured stone
    uint64_t zobrist_white_to_move
    uint64_t zobrist_button[3]                # button untaken ([0] is 0), taken by black, taken by white
    uint64_t zobrist_second_stone             # double placement: the next stone is the second of its turn
    uint64_t key_stone[MAX_CELLS]             # solver key (F4): a stone of either colour on a cell
    uint64_t key_end[MAX_CELLS]               # solver key: an unbounded ribbon ends on a cell
    uint64_t key_black_count[MAX_CELLS + 1]   # solver key: an unbounded ribbon holds this many black stones
    uint64_t key_bounded[MAX_CELLS + 1][3]    # solver key, longest ribbon: a bounded ribbon of a length
                                              # and owner
    int16_t sym_inverse[NUM_SYMMETRIES][MAX_CELLS]  # sym_inverse[k][sym[k][c]] == c
    uint16_t wbase[MAX_CELLS + 1]             # a cell's neighbourhood window: base bit (its lowest
                                              # neighbour rounded down to a multiple of 8; 0 for
                                              # the ghost cell) ...
    uint64_t nbw[MAX_CELLS + 1]               # ... and its neighbours as bits from that base (below
                                              # bit 63: see _bitboard.pxd)
    uint8_t nbbit[MAX_CELLS + 1][6]           # bit of nb6[c][i] in c's window; 63 (never in nbw)
                                              # for the ghost padding
    uint8_t slot_of_bit[MAX_CELLS + 1][64]    # the inverse: i such that nbbit[c][i] == bit (for
                                              # neighbours' bits only)
    uint64_t common[MAX_CELLS + 1][6]         # cells next to both c and nb6[c][i], in c's window
    uint8_t nbw_word[MAX_CELLS + 1]           # nbw[c] at its place on the board: word nbw_word[c]
    uint64_t nbw_low[MAX_CELLS + 1]           # gets nbw_low[c], the next word nbw_high[c]
    uint64_t nbw_high[MAX_CELLS + 1]

cdef const Geometry* geometry_for(int size) except NULL


cdef inline uint64_t neighbours_at(const Geometry* g, int q, int base) noexcept nogil:
    """The neighbours of ``q`` as bits of the window at ``base`` (0 when the two windows
    are too far apart to share a cell), branch-free."""
    cdef int d = <int>g.wbase[q] - base
    cdef uint64_t v = g.nbw[q]
    cdef uint64_t up = 0ULL - <uint64_t>(d >= 0)
    cdef uint64_t near = 0ULL - <uint64_t>(<unsigned>(d + 63) < 127)
    return (((v << (d & 63)) & up) | ((v >> ((-d) & 63)) & ~up)) & near

cdef class Move:
    cdef readonly int index        # cell index, or ncells for the button
    cdef readonly int size         # board side the move belongs to
    cdef readonly str name         # "F6" or "button"

cdef tuple moves_for_size(int size)
cdef Move move_for_name(object name, int size)
