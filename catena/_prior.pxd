# The learned move prior's features (issue 50): for a candidate move of the side to
# move, one feature index per group, read from the position core without Python
# objects.  A move's strength is the sum of its features' weights (the log of a
# generalized Bradley-Terry gamma, Coulom 2007); catena.prior fits them.

from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t
from catena._geometry cimport MAX_CELLS, MAX_SIZE
from catena._position cimport PosState

cdef enum:
    FEATURES_VERSION = 1     # the layout below; a weights file names the layout it was fitted on
    NGROUPS = 7              # features per move: one of each group
    PATTERN_CODES = 15625    # 5 ** 6 neighbourhoods: off board, legal, illegal, own, opponent stone
    MAX_PATTERNS = 2000      # room for the pattern classes up to symmetry (fewer exist)

ctypedef struct PriorTables:
    int16_t ring1[MAX_CELLS][6]     # the neighbour in each of the six directions, in turning order
                                    # (-1 off the board)
    int16_t ring2[MAX_CELLS][12]    # the cells at distance two (-1 off the board)
    uint8_t edge[MAX_CELLS]         # distance to the board's edge (0 on the edge)

cdef int prior_pattern_classes() noexcept nogil
cdef int prior_feature_count() noexcept nogil
cdef const PriorTables* prior_tables_for(int size) except NULL
cdef void move_features(PosState* p, const PriorTables* tables, int move, int last, int before,
                        int32_t* out) noexcept nogil
cdef const float* prior_weights() except NULL
