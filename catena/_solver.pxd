# The exact solver's C entry point for other core modules (MCTS's exact endgames).
# The solver's internals stay private to _solver.pyx; callers hold an opaque
# handle that owns a transposition table, so repeated solves share what they found.

from libc.stdint cimport int32_t, int64_t
from catena._position cimport PosState

cdef enum:
    EXACT_UNBOUNDED = 1 << 28   # a bound this large (either sign) means nothing is proven

cdef void* exact_new(int table_log2) noexcept nogil
cdef void exact_free(void* handle) noexcept nogil
cdef int exact_solve(void* handle, PosState* p, int64_t max_nodes, int guess,
                     int32_t* lower, int32_t* upper, int64_t* nodes, int* move) noexcept nogil
cdef int exact_threshold(void* handle, PosState* p, int64_t max_nodes, int threshold,
                         int64_t* nodes) noexcept nogil
