# cython: language_level=3
"""Exact solver: alpha-beta over the final score margin with a shared transposition
table, driven by MTD(f) null-window searches (Plaat et al., 1996), on several threads.

Values are Black's score minus White's in half points (komi and the button's
half point exact); under longest-ribbon scoring they are +1, 0, -1 (win, draw,
loss for Black).  Black maximises, White minimises, so double placement's two
stones in a row need no special case.

The table is keyed by the position's solver key (F4 of the rules: every stone's
cell, each unbounded ribbon's two ends and black count, the turn and the button).
Entries hold bounds on the *future* part of the margin (the margin minus what the
bounded ribbons already give), which is what positions with equal keys share.
While few stones are on the board the key is made canonical over the board's 12
symmetries.

The table is built for GB sizes: buckets of four 16-byte entries fill one cache
line, the entry of least work is replaced, the memory asks the OS for huge
pages, and nodes with few legal cells left use a small table of their own that
stays in cache.  An entry's first word is its key
XOR its second word, so an entry torn by two threads writing at once fails
its key check and reads as absent: threads share the table without locks.

Threads run the same MTD(f) null-window searches on one table (a lazy SMP):
when one thread proves a bound on the root the others drop their search (they
store nothing from it) and all start the next null window.  Near the root a
thread defers a child another thread is searching (simplified ABDADA), so
they spread over the tree.  Every bound comes from a complete search, so the
value does not depend on the number of threads.

This module is the search and its memory; ``catena/solver.py`` is the solver's Python half
(``solve`` with its windows, guess, checkpoints and effort guard, and ``SolveResult``).

What stays tunable is one ``SolverParams`` value handed to a solve (its C
mirror ``SearchParams`` sits in the shared state); docs/side4.md keeps the
measurements behind each default and the techniques that were tried and dropped.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.stdio cimport FILE, fopen, fclose, fwrite, fread, fseek, SEEK_SET
from libc.errno cimport errno, EIO

from catena._common cimport NO_MOVE, monotonic_seconds
from catena._geometry cimport MAX_MOVES, NUM_SYMMETRIES
from catena._position cimport (BLACK, WHITE, GAME_DOUBLE, MAX_LIST, SCORING_LONGEST, SCORING_SQUARE,
                               PosState, Position, Result, Undo, final_result, fresh_solver_key, gen_moves,
                               is_ribbon_head, make_move_solver_key_only,
                               placed_solver_keys, pos_alloc, pos_copy, turn_key, unmake_move)

import dataclasses
import os
import threading

from catena._validate import boolean, integer, real

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdlib.h>
    /* The table's memory, zeroed.  Linux: an anonymous mapping, which the kernel backs only
       once touched and which may take huge pages.  A portable build (CATENA_PORTABLE; macOS
       and Windows always) and any other system: calloc, aligned here to a cache line. */
    #if !defined(CATENA_PORTABLE) && defined(__linux__)
    #include <sys/mman.h>
    #define CATENA_TABLE_ALIGN (2 * 1024 * 1024)
    static inline void* catena_table_alloc(size_t bytes) {
        void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    static inline void catena_table_release(void* p, size_t bytes) { munmap(p, bytes); }
    static inline int catena_huge_pages(void* p, size_t bytes) {
    #ifdef MADV_HUGEPAGE
        return madvise(p, bytes, MADV_HUGEPAGE) == 0;
    #else
        (void)p; (void)bytes;
        return 0;
    #endif
    }
    #else
    #define CATENA_TABLE_ALIGN 64
    static inline void* catena_table_alloc(size_t bytes) { return calloc(1, bytes); }
    static inline void catena_table_release(void* p, size_t bytes) { (void)bytes; free(p); }
    static inline int catena_huge_pages(void* p, size_t bytes) { (void)p; (void)bytes; return 0; }
    #endif
    """
    enum: CATENA_TABLE_ALIGN
    void* catena_table_alloc(size_t bytes) noexcept nogil
    void catena_table_release(void* p, size_t bytes) noexcept nogil
    int catena_huge_pages(void* p, size_t bytes) noexcept nogil

cdef extern from *:
    """
    #include <stdint.h>
    /* Relaxed loads and stores of shared words, and a spin lock: GCC's and Clang's builtins;
       in a portable build C11 <stdatomic.h>; with MSVC (whose <stdatomic.h> is still
       experimental) volatile accesses, atomic for aligned words on x64 and ARM64, and an
       interlocked exchange, a full barrier, for the lock. */
    #if !defined(CATENA_PORTABLE) && (defined(__GNUC__) || defined(__clang__))
    static inline int catena_load(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void catena_store(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline void catena_lock(int* p) {
        while (__atomic_exchange_n(p, 1, __ATOMIC_ACQUIRE)) {
            while (__atomic_load_n(p, __ATOMIC_RELAXED)) {}
        }
    }
    static inline void catena_unlock(int* p) { __atomic_store_n(p, 0, __ATOMIC_RELEASE); }
    static inline uint64_t catena_load64(const uint64_t* p) {
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
    static inline void catena_store64(uint64_t* p, uint64_t v) {
        __atomic_store_n(p, v, __ATOMIC_RELAXED);
    }
    #elif defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static inline int catena_load(const int* p) { return *(const volatile int*)p; }
    static inline void catena_store(int* p, int v) { *(volatile int*)p = v; }
    static inline void catena_lock(int* p) {
        while (_InterlockedExchange((volatile long*)p, 1)) {
            while (*(const volatile int*)p) {}
        }
    }
    static inline void catena_unlock(int* p) { _InterlockedExchange((volatile long*)p, 0); }
    static inline uint64_t catena_load64(const uint64_t* p) { return *(const volatile uint64_t*)p; }
    static inline void catena_store64(uint64_t* p, uint64_t v) { *(volatile uint64_t*)p = v; }
    #else
    #include <stdatomic.h>
    static inline int catena_load(const int* p) {
        return atomic_load_explicit((_Atomic int*)p, memory_order_relaxed);
    }
    static inline void catena_store(int* p, int v) {
        atomic_store_explicit((_Atomic int*)p, v, memory_order_relaxed);
    }
    static inline void catena_lock(int* p) {
        while (atomic_exchange_explicit((_Atomic int*)p, 1, memory_order_acquire)) {
            while (atomic_load_explicit((_Atomic int*)p, memory_order_relaxed)) {}
        }
    }
    static inline void catena_unlock(int* p) {
        atomic_store_explicit((_Atomic int*)p, 0, memory_order_release);
    }
    static inline uint64_t catena_load64(const uint64_t* p) {
        return atomic_load_explicit((_Atomic uint64_t*)p, memory_order_relaxed);
    }
    static inline void catena_store64(uint64_t* p, uint64_t v) {
        atomic_store_explicit((_Atomic uint64_t*)p, v, memory_order_relaxed);
    }
    #endif
    """
    int catena_load(const int* p) noexcept nogil
    void catena_store(int* p, int v) noexcept nogil
    void catena_lock(int* p) noexcept nogil
    void catena_unlock(int* p) noexcept nogil
    uint64_t catena_load64(const uint64_t* p) noexcept nogil
    void catena_store64(uint64_t* p, uint64_t v) noexcept nogil

cdef enum:
    MAX_PLY = MAX_MOVES + 2
    MAX_THREADS = 64
    INF = 1 << 28
    RAMP_AFTER = 3             # MTD(f): answers one way in a row before its steps double
    MAX_DOUBLINGS = 19
    STOP_NONE = 0
    STOP_NODES = 1
    STOP_SECONDS = 2
    STOP_INTERRUPT = 3
    BUCKET = 4                 # entries per bucket: 4 x 16 bytes, one cache line
    BOUND_BITS = 22            # an entry's bounds: 22-bit fields, biased
    BUSY_SIZE = 1 << 14        # ABDADA: slots of children being searched
    CHECKPOINT_WORK = 8        # entries saved in a checkpoint searched at least 2^8 nodes
    FOCUS_PLIES = 4            # the main thread's line shown to progress: this many plies from the root

cdef int BOUND_BIAS = 1 << (BOUND_BITS - 1)
cdef int BOUND_TOP = (1 << BOUND_BITS) - 1
cdef uint64_t SYMMETRIC_SALT = 0x5EED5EED5EED5EEDULL

cdef int g_huge_pages = 1       # ask for huge pages for the table


ctypedef struct SearchParams:
    # the search's tunables, filled from a SolverParams (its docstring says what each does)
    int history_malus
    int abdada_min
    int near_max
    int near_mb
    int replies_beside   # after the table move, the moves beside the last stone first (_order)


ctypedef struct Entry:
    uint64_t check       # key ^ data: a torn entry fails the check
    uint64_t data        # lower (22 bits), upper (22), move (9), work (6): see _pack

ctypedef struct Table:
    Entry* entries       # buckets of BUCKET entries, on a cache line
    uint64_t mask        # buckets - 1
    void* mapping        # what catena_table_alloc gave (the entries sit on a CATENA_TABLE_ALIGN
                         # boundary inside: 2 MB for huge pages, or a cache line)
    size_t mapped        # its length
    int huge             # madvise(MADV_HUGEPAGE) accepted

ctypedef struct Shared:
    Table table
    Table near           # a small table, in cache, for nodes with at most near_max legal cells
    int near_max         # -1: no near table
    int64_t max_nodes    # < 0: no limit
    double deadline      # monotonic seconds; 0: no limit
    int stop             # why the search stopped (STOP_*), STOP_NONE while running
    int epoch            # bumped whenever the root bounds change: searches started before stop
    int lock             # guards lower, upper, guess, epoch
    int longest          # win/draw/loss search (longest-ribbon scoring)
    int sym_stones       # keys are canonical over the symmetries up to this many stones
    SearchParams params  # the tunables, set when the solver is made
    int32_t lower        # MTD(f): proven bounds on the root value so far
    int32_t upper
    int32_t guess        # the next null window starts from here
    int run              # answers in a row that raised (> 0) or lowered (< 0) the root bounds
    int step             # the distance between two values a game can end with (half points)
    int32_t win_lo       # threshold proof: stop once upper <= win_lo or lower >= win_hi
    int32_t win_hi
    int nthreads
    void* workers[MAX_THREADS]     # each thread's Solver (for the node total)
    uint64_t busy[BUSY_SIZE]       # ABDADA: keys of children the threads are searching
    int focus_beta                 # the main thread's null window: is the value >= focus_beta?
    int focus_move[FOCUS_PLIES]    # its line near the root: the move searched at each ply,
    int focus_index[FOCUS_PLIES]   # which of the node's moves it is (1-based),
    int focus_count[FOCUS_PLIES]   # and of how many (0: that ply not reached yet)

ctypedef struct Solver:
    Shared* sh
    PosState* root       # this thread's copy of the root
    int64_t nodes
    int epoch            # the epoch this thread's current search started in
    int halted           # the current search was dropped (stop, or a newer epoch)
    int id               # thread number, 0 for the main thread
    int64_t history[3 * MAX_MOVES]   # cutoff scores, a set a thread (int32 overflowed after 3 G nodes)
    Undo undo[MAX_PLY]
    uint16_t cells[MAX_PLY][MAX_LIST]
    uint16_t moves[MAX_PLY][MAX_MOVES]
    uint16_t deferred[MAX_PLY][MAX_MOVES]
    uint16_t line[MAX_PLY]           # the move made at each ply of the line being searched
    uint8_t beside[MAX_MOVES]        # _order's marks of the cells beside the last stone (kept 0)


# ---------------------------------------------------------------------------
# The table

cdef int _table_init(Table* t, double megabytes) noexcept nogil:
    """Allocate a zeroed table of about ``megabytes`` (a power of two of buckets); 0, or -1
    without memory."""
    cdef uint64_t buckets = 1
    cdef uint64_t want = <uint64_t>(megabytes * 1024 * 1024 / (BUCKET * sizeof(Entry)))
    cdef size_t huge = 2 * 1024 * 1024, align = CATENA_TABLE_ALIGN, bytes_, start
    while buckets * 2 <= want:
        buckets *= 2
    bytes_ = buckets * BUCKET * sizeof(Entry)
    t.mapped = bytes_ + align
    t.mapping = catena_table_alloc(t.mapped)
    if t.mapping == NULL:
        return -1
    start = (<size_t>t.mapping + align - 1) & ~(align - 1)
    t.entries = <Entry*>start
    t.mask = buckets - 1
    t.huge = (g_huge_pages and bytes_ >= huge
              and catena_huge_pages(t.entries, bytes_ - bytes_ % huge))
    return 0


cdef inline Table* _table_for(Shared* sh, const PosState* p) noexcept nogil:
    """Nodes near the leaves, the most numerous and the cheapest, use the small table that
    stays in cache; the big table (a cache and TLB miss a probe) keeps the expensive ones."""
    return &sh.near if p.h.nlegal <= sh.near_max else &sh.table


cdef void _table_free(Table* t) noexcept nogil:
    if t.mapping != NULL:
        catena_table_release(t.mapping, t.mapped)
        t.mapping = NULL


cdef inline uint64_t _pack(int32_t lower, int32_t upper, int move, int work) noexcept nogil:
    """Bounds clamped into their fields (the extremes stand for -INF / +INF)."""
    cdef int lo = lower + BOUND_BIAS, hi = upper + BOUND_BIAS
    if lower <= -INF or lo < 0:
        lo = 0
    if upper >= INF or hi > BOUND_TOP:
        hi = BOUND_TOP
    return (<uint64_t>lo | (<uint64_t>hi << BOUND_BITS) | (<uint64_t>move << (2 * BOUND_BITS))
            | (<uint64_t>(work if work < 63 else 63) << (2 * BOUND_BITS + 9)))


cdef inline int32_t _lower(uint64_t data) noexcept nogil:
    cdef int f = data & BOUND_TOP
    return -INF if f == 0 else f - BOUND_BIAS


cdef inline int32_t _upper(uint64_t data) noexcept nogil:
    cdef int f = (data >> BOUND_BITS) & BOUND_TOP
    return INF if f == BOUND_TOP else f - BOUND_BIAS


cdef inline int _move_of(uint64_t data) noexcept nogil:
    return (data >> (2 * BOUND_BITS)) & 0x1FF


cdef inline int _work_of(uint64_t data) noexcept nogil:
    return (data >> (2 * BOUND_BITS + 9)) & 63


cdef inline bint _probe(const Table* t, uint64_t key, uint64_t* data) noexcept nogil:
    """The data stored under ``key``, if any."""
    cdef Entry* bucket = &t.entries[BUCKET * (key & t.mask)]
    cdef uint64_t d
    cdef int i
    for i in range(BUCKET):
        d = catena_load64(&bucket[i].data)
        if catena_load64(&bucket[i].check) ^ d == key:
            data[0] = d
            return True
    return False


cdef void _store(Table* t, uint64_t key, int32_t lower, int32_t upper, int move, int work) noexcept nogil:
    """Merge the bounds into ``key``'s entry, or replace the bucket's entry of least work."""
    cdef Entry* bucket = &t.entries[BUCKET * (key & t.mask)]
    cdef uint64_t d
    cdef int i, victim = 0, least = 64, w
    for i in range(BUCKET):
        d = catena_load64(&bucket[i].data)
        if catena_load64(&bucket[i].check) ^ d == key:   # the same position: keep both bounds
            if _lower(d) > lower:
                lower = _lower(d)
            if _upper(d) < upper:
                upper = _upper(d)
            if move == NO_MOVE:
                move = _move_of(d)
            if _work_of(d) > work:
                work = _work_of(d)
            victim = i
            break
        w = _work_of(d)
        if w < least:
            least = w
            victim = i
    d = _pack(lower, upper, move, work)
    catena_store64(&bucket[victim].data, d)
    catena_store64(&bucket[victim].check, key ^ d)


# ---------------------------------------------------------------------------
# Keys

cdef inline int _claimed(const PosState* p) noexcept nogil:
    """The margin the bounded ribbons already give, in half points (F4; always 0 under
    longest ribbon, whose ``bounded`` stays 0)."""
    return 2 * p.h.bounded


cdef int _terminal_value(const Shared* sh, const PosState* p) noexcept nogil:
    cdef Result r
    final_result(p, &r)
    if sh.longest:
        return 0 if r.winner == 0 else (1 if r.winner == BLACK else -1)
    return r.black2 - r.white2


cdef inline uint64_t _least(const uint64_t* keys, int n, int* best_sym) noexcept nogil:
    """The least of ``n`` keys, and which symmetry gave it: the canonical key."""
    cdef uint64_t best = keys[0]
    cdef int k
    best_sym[0] = 0
    for k in range(1, n):
        if keys[k] < best:
            best = keys[k]
            best_sym[0] = k
    return best


cdef uint64_t _symmetric_key(const PosState* p, int* best_sym) noexcept nogil:
    """The least over the 12 symmetries of the position's solver key, built from scratch."""
    cdef uint64_t keys[NUM_SYMMETRIES]
    cdef uint64_t turn = turn_key(p)
    cdef int k
    placed_solver_keys(p, NUM_SYMMETRIES, keys)
    for k in range(NUM_SYMMETRIES):
        keys[k] ^= turn
    return _least(keys, NUM_SYMMETRIES, best_sym) ^ p.h.bounded_solver_key ^ SYMMETRIC_SALT


cdef inline uint64_t _key_of(const Shared* sh, const PosState* p, int* sym) noexcept nogil:
    cdef bint symmetric = p.h.nblack_stones + p.h.nwhite_stones <= sh.sym_stones
    sym[0] = 0
    if symmetric:
        return _symmetric_key(p, sym)
    return p.h.solver_key ^ p.h.bounded_solver_key


cdef inline int _move_from_table(const PosState* p, int move, int sym) noexcept nogil:
    """A move read from the entry of a key made canonical by symmetry ``sym``, as a move
    of ``p``: a cell maps back, the button and NO_MOVE stay."""
    if move == NO_MOVE or move == p.ncells:
        return move
    return p.geo.sym_inverse[sym][move]


cdef int _table_move(Shared* sh, const PosState* p) noexcept nogil:
    """The best move the table holds for ``p`` (a hint for the move order, not a proof),
    or NO_MOVE."""
    cdef int sym = 0
    cdef uint64_t data
    if not _probe(_table_for(sh, p), _key_of(sh, p, &sym), &data):
        return NO_MOVE
    return _move_from_table(p, _move_of(data), sym)


cdef inline void _add_button(const PosState* p, int* lo, int* hi) noexcept nogil:
    """The button's half point (not in double placement) added to margin bounds: to its
    holder's side, or either way while it is untaken."""
    if p.game_type == GAME_DOUBLE:
        return
    if p.h.button == BLACK:
        lo[0] += 1
        hi[0] += 1
    elif p.h.button == WHITE:
        lo[0] -= 1
        hi[0] -= 1
    else:
        lo[0] -= 1
        hi[0] += 1


cdef void _margin_bounds(const Shared* sh, const PosState* p, int* lo, int* hi) noexcept nogil:
    """Static bounds on the final margin (standard scoring): bounded ribbons are fixed, an
    unbounded ribbon whose lead nothing can overturn (not every other unbounded stone and every
    new stone joined to it) keeps its colour, every other
    stone, now or still to come (at most one per legal cell), may go either way."""
    cdef int c, b, w, swing = p.h.nlegal, fixed = p.h.bounded, lead, unbounded = 0
    for c in range(p.ncells):
        if is_ribbon_head(p.cell, c) and p.cell[c].owner == 0:
            unbounded += p.cell[c].length
    for c in range(p.ncells):
        if is_ribbon_head(p.cell, c) and p.cell[c].owner == 0:
            b = p.cell[c].nblack
            w = p.cell[c].length - b
            lead = b - w if b > w else w - b
            # joins can bring every other unbounded stone and every new one into this ribbon
            if lead > p.h.nlegal + unbounded - p.cell[c].length:
                fixed += p.cell[c].length if b > w else -p.cell[c].length
            else:
                swing += p.cell[c].length
    lo[0] = 2 * (fixed - swing) - 2 * p.komi
    hi[0] = 2 * (fixed + swing) - 2 * p.komi
    _add_button(p, lo, hi)


cdef void _static_bounds(const PosState* p, int* lo, int* hi) noexcept nogil:
    """Bounds on the final margin that need no search (in the solver's units): the most either
    side can still score.  Standard scoring: ``_margin_bounds``.  Square scoring: the bounded
    ribbons' squares are fixed; every other stone, now or still to come (at most one per legal
    cell), ends in ribbons whose squares add up to at most the square of their number, and
    each may go to either side.  Longest ribbon: a win either way."""
    cdef int c, unsettled = p.h.nlegal      # stones not in bounded ribbons, now or to come
    if p.scoring == SCORING_LONGEST:
        lo[0] = -1
        hi[0] = 1
        return
    if p.scoring != SCORING_SQUARE:
        _margin_bounds(NULL, p, lo, hi)
        return
    for c in range(p.ncells):
        if is_ribbon_head(p.cell, c) and p.cell[c].owner == 0:
            unsettled += p.cell[c].length
    lo[0] = 2 * (p.h.bounded - unsettled * unsettled) - 2 * p.komi
    hi[0] = 2 * (p.h.bounded + unsettled * unsettled) - 2 * p.komi
    _add_button(p, lo, hi)


def static_bounds(pos):
    """(lo, hi): bounds on ``pos``'s value that need no search, in the solver's units (half
    points of Black's margin; +1/0/-1 under longest ribbon).  A solve stopped before it
    proves anything reports these.

    >>> import catena
    >>> static_bounds(catena.Position(size=2))       # 7 cells, either way, and the button's half point
    (-15, 15)
    """
    if not isinstance(pos, Position):
        raise TypeError(f"expected a catena.Position, not {type(pos).__name__}")
    cdef int lo, hi
    _static_bounds((<Position>pos)._st, &lo, &hi)
    return lo, hi


# ---------------------------------------------------------------------------
# The search

cdef inline void _sort_by(uint16_t* moves, int n, int start, const int64_t* score) noexcept nogil:
    """Sort ``moves[start:n]`` by ``score``, highest first, ties kept in order (insertion sort:
    lists are short)."""
    cdef int i, j
    cdef uint16_t m
    for i in range(start + 1, n):
        m = moves[i]
        j = i - 1
        while j >= start and score[moves[j]] < score[m]:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = m


cdef inline void _score_cutoff(int64_t* history, const uint16_t* moves, int tried, int cut,
                               int n, int malus) noexcept nogil:
    """History scores after ``cut`` refuted the node: it gains n^2, and each of the ``tried``
    moves searched before it, which did not, loses ``malus`` times that, so a move that
    cuts in some positions and fails in many sinks below one that rarely fails."""
    cdef int j
    cdef int64_t bonus = <int64_t>n * n
    history[cut] += bonus
    for j in range(tried):
        history[moves[j]] -= malus * bonus


cdef inline bint _replies_beside(const Shared* sh, const PosState* p) noexcept nogil:
    """Whether _order puts the moves beside the last stone first: in the game types of one
    stone a turn under margin scorings, where it measured fewer nodes (docs/side4.md); under
    longest ribbon and in double placement it measured more."""
    return sh.params.replies_beside and not sh.longest and p.game_type != GAME_DOUBLE


cdef int _order(Solver* s, PosState* p, uint16_t* moves, int n, int first, int ply) noexcept nogil:
    """Table move first, then by history score, except that where _replies_beside holds the
    moves beside the stone just placed come before the others (in history order within each
    group): a reply on the spot most often refutes.  Returns where the moves after the table
    move start."""
    cdef int i
    for i in range(n):
        if moves[i] == first:
            moves[i] = moves[0]
            moves[0] = first
            break
    cdef int start = 1 if n and moves[0] == first else 0
    _sort_by(moves, n, start, s.history + p.h.to_move * MAX_MOVES)
    if ply == 0 or not _replies_beside(s.sh, p) or s.line[ply - 1] >= p.ncells:
        return start
    cdef int last = s.line[ply - 1], j, near = start, far = 0
    cdef uint16_t rest[MAX_MOVES]
    for j in range(p.geo.nnb[last]):
        s.beside[p.geo.nb[last][j]] = 1
    for i in range(start, n):
        if s.beside[moves[i]]:              # the button's index (ncells) is never marked
            moves[near] = moves[i]
            near += 1
        else:
            rest[far] = moves[i]
            far += 1
    for i in range(far):
        moves[near + i] = rest[i]
    for j in range(p.geo.nnb[last]):
        s.beside[p.geo.nb[last][j]] = 0
    return start


cdef int64_t _total_nodes(const Shared* sh) noexcept nogil:
    cdef int64_t total = 0
    cdef int i
    for i in range(sh.nthreads):
        total += (<Solver*>sh.workers[i]).nodes
    return total


cdef inline bint _halt(Solver* s) noexcept nogil:
    """Whether this search must end now (a limit, Ctrl-C, or another thread moved the root bounds)."""
    cdef Shared* sh = s.sh
    if (s.nodes & 1023) == 0:
        if sh.max_nodes >= 0 and _total_nodes(sh) >= sh.max_nodes:
            catena_store(&sh.stop, STOP_NODES)
        elif sh.deadline > 0 and monotonic_seconds() >= sh.deadline:
            catena_store(&sh.stop, STOP_SECONDS)
    if catena_load(&sh.stop) or catena_load(&sh.epoch) != s.epoch:
        s.halted = 1
    return s.halted


cdef inline void _note_focus(Shared* sh, int ply, int move, int index, int count) noexcept nogil:
    """Record the main thread's move at ``ply`` near the root, for progress reports: how far
    a long null window has got (the deeper plies are not entered yet)."""
    cdef int d
    catena_store(&sh.focus_move[ply], move)
    catena_store(&sh.focus_index[ply], index)
    catena_store(&sh.focus_count[ply], count)
    for d in range(ply + 1, FOCUS_PLIES):
        catena_store(&sh.focus_count[d], 0)


cdef int _search(Solver* s, PosState* p, int ply, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the total margin; Black maximises."""
    cdef Shared* sh = s.sh
    s.nodes += 1
    if _halt(s):
        return 0
    if p.h.over:
        return _terminal_value(sh, p)
    cdef int claimed = _claimed(p), sym = 0, first = NO_MOVE, lo, hi
    cdef uint64_t key = _key_of(sh, p, &sym), data
    cdef Table* table = _table_for(sh, p)
    if _probe(table, key, &data):
        lo = _lower(data)
        hi = _upper(data)
        lo = -INF if lo <= -INF else lo + claimed
        hi = INF if hi >= INF else hi + claimed
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        first = _move_from_table(p, _move_of(data), sym)
    cdef uint16_t* moves = s.moves[ply]
    cdef uint16_t* deferred = s.deferred[ply]
    cdef int n = gen_moves(p, moves), i, v, best_move = NO_MOVE, ndeferred = 0, m, slot = 0
    cdef bint defer = sh.nthreads > 1 and p.h.nlegal >= sh.params.abdada_min
    cdef uint64_t child = 0           # set whenever defer is: initialised for the compiler
    cdef int start = _order(s, p, moves, n, first, ply)
    if ply == 0 and p.h.nblack_stones + p.h.nwhite_stones < sh.sym_stones:
        _order_root(s, p, moves, n, start)
    cdef bint maximising = p.h.to_move == BLACK
    cdef int best = -INF if maximising else INF, a = alpha, b = beta
    cdef int64_t nodes_before = s.nodes
    i = 0
    while i < n + ndeferred:
        m = moves[i] if i < n else deferred[i - n]
        make_move_solver_key_only(p, m, &s.undo[ply], s.cells[ply])
        if defer:
            child = p.h.solver_key ^ p.h.bounded_solver_key
            slot = child & (BUSY_SIZE - 1)
            if i > 0 and i < n and catena_load64(&sh.busy[slot]) == child:
                unmake_move(p, &s.undo[ply], s.cells[ply])     # another thread is on it: later
                deferred[ndeferred] = m
                ndeferred += 1
                i += 1
                continue
            catena_store64(&sh.busy[slot], child)
        if ply < FOCUS_PLIES and s.id == 0:
            _note_focus(sh, ply, m, i + 1 if i < n else n, n)
        s.line[ply] = m
        v = _search(s, p, ply + 1, a, b)
        if defer and catena_load64(&sh.busy[slot]) == child:
            catena_store64(&sh.busy[slot], 0)
        unmake_move(p, &s.undo[ply], s.cells[ply])
        if s.halted:
            return 0
        if maximising:
            if v > best:
                best = v
                best_move = m
                if v > a:
                    a = v
        else:
            if v < best:
                best = v
                best_move = m
                if v < b:
                    b = v
        if a >= b:
            _score_cutoff(s.history + p.h.to_move * MAX_MOVES, moves, i if i < n else n, m, n,
                          sh.params.history_malus)
            break
        i += 1
    if best_move != NO_MOVE and best_move != p.ncells:     # stored as the canonical key's move
        best_move = p.geo.sym[sym][best_move]
    lo = -INF
    hi = INF
    if best > alpha and best < beta:
        lo = best - claimed
        hi = best - claimed
    elif best >= beta:
        lo = best - claimed
    else:
        hi = best - claimed
    _store(table, key, lo, hi, best_move, _log2(s.nodes - nodes_before + 1))
    return best


cdef inline int _log2(int64_t n) noexcept nogil:
    cdef int r = 0
    while n > 1:
        n >>= 1
        r += 1
    return r


cdef inline bint _answered(const Shared* sh) noexcept nogil:
    """The root bounds meet, or answer the threshold question."""
    return sh.lower >= sh.upper or sh.upper <= sh.win_lo or sh.lower >= sh.win_hi


cdef inline int _next_beta(int lower, int upper, int g, int run, int step, int lo, int hi) noexcept nogil:
    """Beta of the next null window ("is the value >= beta?") while lower < upper do not answer
    the window (lo, hi).  MTD(f) from ``g``, the last search's fail-soft value, its steps doubling
    once ``run`` answers in a row (> 0 up, < 0 down) moved the bounds the same way, and a gap of
    more than four steps between proven bounds halved: square scoring's values lie hundreds of
    half points from a guess of 0, where one step a window took 9x more windows
    (docs/side4.md)."""
    cdef int b
    if g < lo:
        g = lo
    if g > hi:
        g = hi
    if lower > -INF and upper < INF and upper - lower > 4 * step:
        b = lower + (upper - lower + 1) // 2
    elif g <= lower:                        # the last answer raised the lower bound
        b = g + 1 if run <= RAMP_AFTER else g + (step << min(run - RAMP_AFTER, MAX_DOUBLINGS))
    else:                                   # it lowered the upper bound: is the value g?
        b = g if run >= -RAMP_AFTER else g + step - (step << min(-run - RAMP_AFTER, MAX_DOUBLINGS))
    if b <= lo:                             # a window that answers the question asked
        b = lo + 1
    if b > hi:
        b = hi
    if b > upper:                           # and that proves something new
        b = upper
    if b <= lower:
        b = lower + 1
    return b


def next_window(lower, upper, guess, run, step, lo=-INF, hi=INF):
    """The beta of MTD(f)'s next null window (see ``_next_beta``), for catena.distributed's driver."""
    return _next_beta(integer(lower, "lower", -INF, INF), integer(upper, "upper", -INF, INF),
                      integer(guess, "guess", -INF, INF), integer(run, "run", -(1 << 20), 1 << 20),
                      integer(step, "step", 1, 2), integer(lo, "lo", -INF, INF), integer(hi, "hi", -INF, INF))


cdef void _thread_mtdf(Solver* s) noexcept nogil:
    """MTD(f) on the shared root bounds: null windows until they meet (or answer the window)."""
    cdef Shared* sh = s.sh
    cdef int g, b
    while True:
        catena_lock(&sh.lock)
        if catena_load(&sh.stop) or _answered(sh):
            catena_unlock(&sh.lock)
            return
        b = _next_beta(sh.lower, sh.upper, sh.guess, sh.run, sh.step, sh.win_lo, sh.win_hi)
        if s.id == 0:
            catena_store(&sh.focus_beta, b)
            catena_store(&sh.focus_count[0], 0)
        s.epoch = sh.epoch
        s.halted = 0
        catena_unlock(&sh.lock)
        g = _search(s, s.root, 0, b - 1, b)
        if catena_load(&sh.stop):
            return
        if s.halted:                            # another thread moved the bounds first
            continue
        catena_lock(&sh.lock)
        if g < b:
            if g < sh.upper:
                sh.upper = g
            sh.run = sh.run - 1 if sh.run < 0 else -1
        else:
            if g > sh.lower:
                sh.lower = g
            sh.run = sh.run + 1 if sh.run > 0 else 1
        sh.guess = g
        catena_store(&sh.epoch, sh.epoch + 1)
        catena_unlock(&sh.lock)


cdef int _keeping_move(Solver* s, Shared* sh, PosState* p, int target) noexcept nogil:
    """Make on ``p`` the first move, in search order (the table's best first), after which
    ``p``'s value ``target`` still holds, and return it; NO_MOVE if none does (a wrong
    ``target``, or a stopped search).  One null window a move: the value is the best of the
    children for the side to move, so a child keeps it iff it is at least ``target`` for Black
    (at most for White).  The exact value of each child, as this walk once took, costs many
    windows on the children that lose: up to 35 s of a 68 s distributed side-4 solve."""
    cdef uint16_t moves[MAX_MOVES]
    cdef uint16_t cells[MAX_LIST]
    cdef Undo u
    cdef bint maximising = p.h.to_move == BLACK
    cdef int n = gen_moves(p, moves), i, g
    _order(s, p, moves, n, _table_move(sh, p), 0)
    for i in range(n):
        make_move_solver_key_only(p, moves[i], &u, cells)
        s.halted = 0
        if maximising:
            g = _search(s, p, 0, target - 1, target)
        else:
            g = _search(s, p, 0, target, target + 1)
        if s.halted:
            unmake_move(p, &u, cells)
            return NO_MOVE
        if (g >= target) if maximising else (g <= target):
            return moves[i]
        unmake_move(p, &u, cells)
    return NO_MOVE


cdef int _symmetries_kept(const PosState* p) noexcept nogil:
    """How many of the board's symmetries map ``p``'s stones onto themselves (1: none but
    the identity)."""
    cdef uint64_t keys[NUM_SYMMETRIES]
    cdef int k, kept = 0
    placed_solver_keys(p, NUM_SYMMETRIES, keys)
    for k in range(NUM_SYMMETRIES):
        kept += keys[k] == keys[0]
    return kept


cdef void _order_root(Solver* s, PosState* p, uint16_t* moves, int n, int start) noexcept nogil:
    """Near the opening, re-sort the root's moves from ``start`` (after the table move) so that
    those whose position keeps the most symmetries come first, the rest as they were.  Such a
    position has the fewest distinct replies (the centre of the empty board: 6 up to symmetry,
    a corner 20), and the root's first move holds the main thread for a whole null window
    (docs/side4.md)."""
    cdef int64_t kept[MAX_MOVES]
    cdef int i, m
    cdef Undo undo
    for i in range(start, n):
        m = moves[i]
        kept[m] = 1
        if m != p.ncells:
            make_move_solver_key_only(p, m, &undo, s.cells[0])
            kept[m] = _symmetries_kept(p)
            unmake_move(p, &undo, s.cells[0])
    _sort_by(moves, n, start, kept)


cdef Solver* _solver_alloc(Shared* sh) noexcept nogil:
    """A zeroed Solver of ``sh`` with its own history scores; NULL without memory."""
    cdef Solver* s = <Solver*>calloc(1, sizeof(Solver))
    if s != NULL:
        s.sh = sh
    return s


cdef Solver* _solver_new(Shared* sh, const PosState* root) noexcept nogil:
    cdef Solver* s = _solver_alloc(sh)
    if s == NULL:
        return NULL
    s.root = pos_alloc(root.ncells)
    if s.root == NULL:
        free(s)
        return NULL
    pos_copy(s.root, root)
    return s


cdef void _solver_free(Solver* s) noexcept nogil:
    if s != NULL:
        free(s.root)
        free(s)


cdef void _shared_setup(Shared* sh, const PosState* root, int sym_stones) noexcept nogil:
    sh.longest = root.scoring == SCORING_LONGEST
    sh.sym_stones = sym_stones
    sh.near_max = -1
    # a longest-ribbon value is +1, 0 or -1: proven from the start, so that MTD(f) never asks
    # whether it is at least +2 or at least -1, which no move answers before the game's end
    sh.lower = -1 if sh.longest else -INF
    sh.upper = 1 if sh.longest else INF
    sh.run = 0
    sh.step = 1 if sh.longest else 2
    sh.win_lo = -INF
    sh.win_hi = INF
    sh.max_nodes = -1
    sh.focus_beta = INF                 # no null window yet


# ---------------------------------------------------------------------------
# Checkpoints: the proven root bounds and the table's expensive entries

cdef int64_t _save_entries(const Table* t, FILE* out, int min_work) noexcept nogil:
    """Append the entries that searched at least 2^min_work nodes; how many, or -1."""
    cdef uint64_t i, total = (t.mask + 1) * BUCKET
    cdef Entry buffer[1024]
    cdef int n = 0
    cdef int64_t written = 0
    for i in range(total):
        buffer[n].data = catena_load64(&t.entries[i].data)
        buffer[n].check = catena_load64(&t.entries[i].check)
        if buffer[n].check == 0 and buffer[n].data == 0:
            continue
        if _work_of(buffer[n].data) < min_work:
            continue
        n += 1
        if n == 1024:
            if fwrite(buffer, sizeof(Entry), n, out) != <size_t>n:
                return -1
            written += n
            n = 0
    if n and fwrite(buffer, sizeof(Entry), n, out) != <size_t>n:
        return -1
    return written + n


cdef int64_t _load_entries(Table* t, FILE* src) noexcept nogil:
    """Store every entry read from ``src``; how many."""
    cdef Entry buffer[1024]
    cdef size_t n, i
    cdef int64_t loaded = 0
    cdef uint64_t d
    while True:
        n = fread(buffer, sizeof(Entry), 1024, src)
        for i in range(n):
            d = buffer[i].data
            _store(t, buffer[i].check ^ d, _lower(d), _upper(d), _move_of(d), _work_of(d))
        loaded += n
        if n < 1024:
            return loaded


cdef int64_t _copy_entries(FILE* src, FILE* out, int min_work, int64_t* read) noexcept nogil:
    """Copy the entries of ``src`` that searched at least 2^min_work nodes; how many, or -1."""
    cdef Entry buffer[1024]
    cdef size_t n, i, kept
    cdef int64_t written = 0
    read[0] = 0
    while True:
        n = fread(buffer, sizeof(Entry), 1024, src)
        read[0] += n
        kept = 0
        for i in range(n):
            if _work_of(buffer[i].data) >= min_work:
                buffer[kept] = buffer[i]
                kept += 1
        if kept and fwrite(buffer, sizeof(Entry), kept, out) != kept:
            return -1
        written += kept
        if n < 1024:
            return written


def copy_checkpoint_entries(str src, long offset, str dst, min_nodes):
    """Append to the file ``dst`` the table entries of the checkpoint ``src`` (from byte
    ``offset``) that searched at least ``min_nodes`` nodes (rounded down to a power of two):
    (entries kept, entries read); OSError if that fails (catena.solver.shrink_checkpoint)."""
    cdef bytes src_name = os.fsencode(src), dst_name = os.fsencode(dst)
    cdef int min_work = _log2(integer(min_nodes, "min_nodes", 1, 1 << 62)), error = 0
    cdef int64_t kept = 0, read = 0
    cdef FILE* source = fopen(src_name, "rb")
    if source == NULL:
        raise OSError(errno, os.strerror(errno), src)
    cdef FILE* out = fopen(dst_name, "ab")
    if out == NULL:
        error = errno
        fclose(source)
        raise OSError(error, os.strerror(error), dst)
    fseek(source, offset, SEEK_SET)
    with nogil:
        kept = _copy_entries(source, out, min_work, &read)
        if kept < 0:
            error = errno or EIO
        if fclose(out) != 0 and error == 0:
            error = errno or EIO
        fclose(source)
    if error:
        raise OSError(error, os.strerror(error), dst)
    return kept, read


# ---------------------------------------------------------------------------
# The Python boundary

@dataclasses.dataclass(frozen=True)
class SolverParams:
    """What stays tunable in the search, handed to ``solve(params=)`` and ``TableSolver``.

    The defaults are what docs/side4.md measured best; the techniques that measured no gain
    are gone from the code (that page keeps their record).

    ``history_malus``: at a cutoff each move searched before the cutoff move loses this many
    times the n^2 the cutoff move gains (0: the gain alone).  ``abdada_min``: with several
    threads, nodes with at least this many legal cells defer a child another thread is
    searching.  ``near_max`` / ``near_mb``: a table above 64 MB gets a near-leaf table of
    ``near_mb`` MB, which stays in cache, for the nodes with at most ``near_max`` legal cells
    (-1: none).  ``guess_cells`` / ``guess_iterations``: a solve given no guess starts MTD(f)
    from the margin a seeded MCTS of that many iterations expects, on positions with at least
    that many legal cells (fewer solve about as fast as the MCTS runs), else from 0.
    ``replies_beside``: after the table move, the moves beside the stone just placed are
    searched first (in game types komi and no komi under standard and square scoring).
    """

    history_malus: int = 8
    abdada_min: int = 12
    near_max: int = 11
    near_mb: int = 16
    guess_cells: int = 27
    guess_iterations: int = 20_000
    replies_beside: bool = True

    def __post_init__(self):
        integer(self.history_malus, "history_malus", 0, 1 << 20)
        integer(self.abdada_min, "abdada_min", 0, MAX_MOVES + 1)
        integer(self.near_max, "near_max", -1, MAX_MOVES)
        integer(self.near_mb, "near_mb", 1, 1 << 16)
        integer(self.guess_cells, "guess_cells", 0, MAX_MOVES + 1)
        integer(self.guess_iterations, "guess_iterations", 1, 1 << 30)
        boolean(self.replies_beside, "replies_beside")


def _checked_params(params):
    """``params`` (None: the defaults) as a SolverParams; TypeError for anything else."""
    if params is None:
        return SolverParams()
    if not isinstance(params, SolverParams):
        raise TypeError(f"params must be a SolverParams, not {type(params).__name__}")
    return params


cdef void _params_into(SearchParams* out, params):
    out.history_malus = params.history_malus
    out.abdada_min = params.abdada_min
    out.near_max = params.near_max
    out.near_mb = params.near_mb
    out.replies_beside = params.replies_beside


cdef SearchParams DEFAULT_PARAMS         # SolverParams()'s, for C callers (exact_new)
_params_into(&DEFAULT_PARAMS, SolverParams())


cdef inline bint _wants_near_table(const SearchParams* params, double tt_mb) noexcept nogil:
    return tt_mb > 64 and params.near_max >= 0


cdef int _near_table_init(Shared* sh) except -1:
    if _table_init(&sh.near, sh.params.near_mb) != 0:
        raise MemoryError(f"no room for a {sh.params.near_mb} MB near-leaf table")
    return 0


cdef class SolveRun:
    """One solve's search (catena.solver.solve drives it): the shared state, one C solver per
    thread, and the root position.  ``sym_stones`` None: a third of the cells.  ``close()``
    frees the tables when the solve returns."""
    cdef Shared* sh
    cdef Solver* solvers[MAX_THREADS]
    cdef int nthreads
    cdef readonly bint done

    def __cinit__(self, Position pos, double tt_mb, sym_stones, int threads, params):
        sym_stones = pos._st.ncells // 3 if sym_stones is None else min(sym_stones, pos._st.ncells)
        self.sh = <Shared*>calloc(1, sizeof(Shared))
        if self.sh == NULL:
            raise MemoryError()
        _params_into(&self.sh.params, params)
        if _table_init(&self.sh.table, tt_mb) != 0:
            raise MemoryError(f"no room for a {tt_mb:g} MB transposition table")
        _shared_setup(self.sh, pos._st, sym_stones)
        if _wants_near_table(&self.sh.params, tt_mb):
            _near_table_init(self.sh)
            self.sh.near_max = self.sh.params.near_max
        self.nthreads = threads
        for i in range(threads):
            self.solvers[i] = _solver_new(self.sh, pos._st)
            if self.solvers[i] == NULL:
                raise MemoryError()
            self.sh.workers[i] = self.solvers[i]
            self.solvers[i].id = i
        self.sh.nthreads = threads

    def __dealloc__(self):
        self.close()

    def close(self):
        """Free the tables and the solvers now (the solve that made them has returned);
        the run is unusable afterwards."""
        if self.sh != NULL:
            _table_free(&self.sh.table)
            _table_free(&self.sh.near)
        for i in range(self.nthreads):
            _solver_free(self.solvers[i])
            self.solvers[i] = NULL
        self.nthreads = 0
        free(self.sh)
        self.sh = NULL

    cdef int _check_open(self) except -1:
        if self.sh == NULL:
            raise RuntimeError("this solve has ended: its table is freed")
        return 0

    def configure(self, long long max_nodes, double max_seconds, int lo, int hi, int guess):
        self.sh.max_nodes = max_nodes
        self.sh.deadline = monotonic_seconds() + max_seconds if max_seconds > 0 else 0
        self.sh.win_lo = lo
        self.sh.win_hi = hi
        self.sh.guess = guess

    def work(self, int thread):
        """The search of one thread (call on its own thread, one call per thread)."""
        self._check_open()
        cdef Solver* s = self.solvers[thread]
        with nogil:
            _thread_mtdf(s)

    def finish(self):
        self.done = self.sh.stop == STOP_NONE

    def interrupt(self):
        catena_store(&self.sh.stop, STOP_INTERRUPT)

    @property
    def nodes(self):
        return _total_nodes(self.sh)

    @property
    def bounds(self):
        return self.sh.lower, self.sh.upper

    @property
    def focus(self):
        """The main thread's null window and its line near the root: (beta, ((move, index,
        count), ...)) in half points and move indices, the line as deep as it has got."""
        line = []
        for ply in range(FOCUS_PLIES):
            count = catena_load(&self.sh.focus_count[ply])
            if count == 0:
                break
            line.append((catena_load(&self.sh.focus_move[ply]), catena_load(&self.sh.focus_index[ply]),
                         count))
        return catena_load(&self.sh.focus_beta), tuple(line)

    @property
    def stop(self):
        return (None, "nodes", "seconds", "interrupt")[self.sh.stop]

    def append_entries(self, str path):
        """Append the expensive entries to the file ``path``; how many (OSError if that fails)."""
        self._check_open()
        cdef bytes name = os.fsencode(path)
        cdef FILE* out = fopen(name, "ab")
        cdef int64_t written
        cdef int error = 0
        if out == NULL:
            raise OSError(errno, os.strerror(errno), path)
        with nogil:
            written = _save_entries(&self.sh.table, out, CHECKPOINT_WORK)
            if written < 0:
                error = errno or EIO
            if fclose(out) != 0 and error == 0:
                error = errno or EIO
        if error:
            raise OSError(error, os.strerror(error), path)
        return written

    def load(self, str path, long offset, int lower, int upper):
        """Read the entries of a checkpoint (from byte ``offset``) and its root bounds."""
        cdef bytes name = os.fsencode(path)
        cdef FILE* src = fopen(name, "rb")
        cdef int64_t loaded
        if src == NULL:
            raise OSError(errno, os.strerror(errno), path)
        fseek(src, offset, SEEK_SET)
        with nogil:
            loaded = _load_entries(&self.sh.table, src)
        fclose(src)
        if lower > self.sh.lower:
            self.sh.lower = lower
        if upper < self.sh.upper:
            self.sh.upper = upper
        return loaded

    def principal_variation(self, int target):
        """Moves that keep the value from the root to the end (indices), on one thread; the
        line so far if ``interrupt()`` stops the walk (one null window a move, each of which
        can take minutes near the root of a large solve)."""
        cdef Solver* s = self.solvers[0]
        cdef PosState* p = pos_alloc(s.root.ncells)
        cdef int move
        if p == NULL:
            raise MemoryError("no memory for the principal variation's position")
        pos_copy(p, s.root)
        self.sh.max_nodes = -1                # the limits were for the solve, not for this walk
        self.sh.deadline = 0
        if self.sh.stop != STOP_INTERRUPT:    # a Ctrl-C already noted stops the walk at once
            self.sh.stop = STOP_NONE
        self.sh.nthreads = 1
        s.epoch = self.sh.epoch
        line = []
        try:
            while not p.h.over:
                with nogil:
                    move = _keeping_move(s, self.sh, p, target)
                if move == NO_MOVE:             # stopped (a correct table always has a move)
                    break
                line.append(move)
        finally:
            free(p)
            self.sh.nthreads = self.nthreads      # the node total counts every thread again
        return line


# ---------------------------------------------------------------------------
# The C entry point for other core modules (MCTS's exact endgames; _solver.pxd)

ctypedef struct Exact:
    Shared sh
    Solver* s


cdef void* exact_new(int table_log2) noexcept nogil:
    """A solver with a table of 2 ** table_log2 buckets (of four entries); NULL if out of memory."""
    cdef Exact* x = <Exact*>calloc(1, sizeof(Exact))
    if x == NULL:
        return NULL
    cdef double megabytes = (<double>BUCKET * sizeof(Entry) / (1024.0 * 1024.0)) * (<uint64_t>1 << table_log2)
    if _table_init(&x.sh.table, megabytes) != 0:
        free(x)
        return NULL
    x.sh.params = DEFAULT_PARAMS
    x.s = _solver_alloc(&x.sh)
    if x.s == NULL:
        _table_free(&x.sh.table)
        free(x)
        return NULL
    x.sh.workers[0] = x.s
    x.sh.nthreads = 1
    return x


cdef void exact_free(void* handle) noexcept nogil:
    cdef Exact* x = <Exact*>handle
    if x != NULL:
        _table_free(&x.sh.table)
        free(x.s)
        free(x)


cdef int exact_solve(void* handle, PosState* p, int64_t max_nodes, int guess,
                     int32_t* lower, int32_t* upper, int64_t* nodes, int* move) noexcept nogil:
    """Solve ``p`` (not over) within ``max_nodes``: 1 if solved, else 0.

    ``lower``/``upper`` get the bounds proven on Black's margin in the solver's
    units (half points; +1/0/-1 under longest ribbon), +-EXACT_UNBOUNDED where
    nothing is proven; ``guess`` starts MTD(f); ``move`` the table's best move
    at ``p`` (-1 if none): a hint to try first, not a proof.  ``p`` is restored,
    its solver key refreshed.  The table keeps its entries for later calls on
    positions of the same game (a table must not be shared across komi, scoring
    or game type).
    """
    cdef Exact* x = <Exact*>handle
    _exact_run(x, p, max_nodes, guess, -INF, INF)
    lower[0] = x.sh.lower
    upper[0] = x.sh.upper
    nodes[0] = x.s.nodes
    move[0] = _table_move(&x.sh, p)
    if move[0] == NO_MOVE:
        move[0] = -1
    return x.sh.lower == x.sh.upper


cdef int exact_threshold(void* handle, PosState* p, int64_t max_nodes, int threshold,
                         int64_t* nodes) noexcept nogil:
    """Whether ``p``'s value (Black's margin in the solver's units) is at least
    ``threshold``: 1 proven so, -1 proven not, 0 unknown within ``max_nodes``; a null
    window or two, cheap where the table already holds the proof."""
    cdef Exact* x = <Exact*>handle
    _exact_run(x, p, max_nodes, threshold, threshold - 1, threshold)
    nodes[0] = x.s.nodes
    return 1 if x.sh.lower >= threshold else (-1 if x.sh.upper < threshold else 0)


cdef void _exact_run(Exact* x, PosState* p, int64_t max_nodes, int guess, int win_lo,
                     int win_hi) noexcept nogil:
    """MTD(f) on ``p`` in place (restored after) until its bounds meet or answer the
    window (win_lo, win_hi), or ``max_nodes`` run out."""
    cdef Shared* sh = &x.sh
    cdef Solver* s = x.s
    fresh_solver_key(p, &p.h)          # copy-make playouts (play_move) leave it stale
    _shared_setup(sh, p, p.ncells // 3)
    sh.max_nodes = max_nodes
    sh.deadline = 0
    sh.stop = STOP_NONE
    sh.guess = guess
    sh.win_lo = win_lo
    sh.win_hi = win_hi
    s.nodes = 0
    s.root = p                           # searched in place: make/unmake leave it as it was
    _thread_mtdf(s)
    s.root = NULL


# ---------------------------------------------------------------------------
# A solver whose table outlives one solve (catena.distributed's workers)

from libc.string cimport memset

UNBOUNDED = INF             # a bound this large (either sign) means nothing is proven
THREADS_LIMIT = MAX_THREADS  # the most search threads a solver takes (checked before Ray starts)

cdef Position _position(object pos):
    if not isinstance(pos, Position):
        raise TypeError(f"expected a catena.Position, not {type(pos).__name__}")
    return pos


cdef class TableSolver:
    """An exact solver that keeps its transposition table between solves.

    A worker of :mod:`catena.distributed` holds one and solves many positions of
    one game with it: what a search stored (bounds on the future margin, F4) is
    valid for every later position of the same game, so related positions and
    repeated null windows on one position reuse it.  A position of another game
    (side, game type, scoring or komi) empties the table first.  Values are in
    the solver's units: half points of Black's margin (+1/0/-1 under longest
    ribbon), +-``UNBOUNDED`` where nothing is proven.  One solve at a time: a
    second thread calling in raises RuntimeError; ``interrupt()`` from another
    thread stops the running solve.

    ``threads`` search each position together in the one table, as the threads
    of :func:`catena.solve` do (ABDADA: a thread defers a child another one is
    searching); the machine's actor in :mod:`catena.distributed` gives its
    units all its cores this way.

    ``share=other`` makes a solver that uses ``other``'s tables instead of its
    own (``tt_mb`` is then unused): one per thread, they solve at the same time
    and each finds what the others stored, as the threads of one
    :func:`catena.solve` do.  Solvers sharing a table solve one game at a time: a
    position of another game raises RuntimeError while one of them is busy.
    Unlike the threads of one solve (ABDADA), they do not defer children the
    others are searching: on different positions that only spoils each one's
    move order (the 29 siblings of a side-4 position, two solvers: 1.25x more
    nodes).  Each keeps its own near-leaf table, which two writers thrash, and
    its own history scores (as each thread of a solve does): one set for two
    searches at once let each one's move order follow the other's cutoffs,
    elsewhere in the tree (two workers of a distributed solve of a 30-cell
    side-4 position: 22-31 s with one set, 13-24 s with a set each;
    docs/distributed.md).

    >>> import catena
    >>> solver = TableSolver(tt_mb=1)
    >>> solver.solve(catena.Position(size=2))[:2]          # 2.5 points: 5 half points
    (5, 5)
    >>> lower, upper, nodes, stopped = solver.solve(catena.Position(size=2), window=(0, 0))
    >>> lower > 0, stopped                                 # does Black win? proven, no limit hit
    (True, None)
    """
    cdef Shared* sh
    cdef Solver* s
    cdef PosState* root
    cdef object game               # (on the tables' owner) the game their entries belong to
    cdef object near_game          # the game this solver's own near-leaf table's entries belong to
    cdef int users                 # (on the tables' owner) solves running on them
    cdef TableSolver owner         # the solver whose tables this one uses; None: its own
    cdef bint busy
    cdef readonly int threads
    cdef bint started[MAX_THREADS]  # which threads of the running solve have begun (see _work)
    cdef readonly object params     # its SolverParams

    def __cinit__(self, tt_mb=64, share=None, threads=1, params=None):
        tt_mb = real(tt_mb, "tt_mb", maximum=1 << 20, positive=True)
        if share is not None and not isinstance(share, TableSolver):
            raise TypeError(f"share must be a TableSolver, not {type(share).__name__}")
        self.threads = integer(threads, "threads", 1, MAX_THREADS)
        if params is None and share is not None:
            params = (<TableSolver>share)._home().params
        params = _checked_params(params)
        self.sh = <Shared*>calloc(1, sizeof(Shared))
        if self.sh == NULL:
            raise MemoryError()
        _params_into(&self.sh.params, params)
        self.params = params
        for i in range(self.threads):
            self.sh.workers[i] = _solver_alloc(self.sh)
            if self.sh.workers[i] == NULL:
                raise MemoryError()
            self.sh.nthreads = i + 1                   # what __dealloc__ frees
            (<Solver*>self.sh.workers[i]).id = i
        self.s = <Solver*>self.sh.workers[0]
        if share is not None:
            self.owner = (<TableSolver>share)._home()
            self.sh.table = self.owner.sh.table        # the same entries; the owner unmaps them
            self.sh.table.mapping = NULL
            if self.owner.sh.near.entries != NULL and self.sh.params.near_max >= 0:
                _near_table_init(self.sh)
        else:
            if _table_init(&self.sh.table, tt_mb) != 0:
                raise MemoryError(f"no room for a {tt_mb:g} MB transposition table")
            if _wants_near_table(&self.sh.params, tt_mb):
                _near_table_init(self.sh)

    cdef TableSolver _home(self):
        """The solver that owns the tables this one searches with."""
        return self if self.owner is None else self.owner

    def __dealloc__(self):
        if self.sh == NULL:
            return
        _table_free(&self.sh.table)
        _table_free(&self.sh.near)
        for i in range(self.sh.nthreads):
            _solver_free(<Solver*>self.sh.workers[i])
        free(self.sh)

    cdef int _enter(self, object position) except -1:
        """Take the solver for one call on ``position``: a private copy of it, keys refreshed."""
        cdef Position pos = _position(position)
        if pos.is_game_over():
            raise ValueError("the game is over: there is nothing to solve")
        if self.busy:
            raise RuntimeError("this TableSolver is solving on another thread; use one per thread")
        cdef TableSolver home = self._home()
        game = (pos.size, pos.game_type, pos.scoring, pos.komi)
        if home.game is not None and game != home.game:      # entries hold for one game only
            if home.users:
                raise RuntimeError(f"a solver sharing this table is solving another game ({home.game}); "
                                   f"this position's game is {game}")
            self._empty(&self.sh.table)
        home.game = game
        if self.near_game != game:          # each solver's near-leaf table is its own
            self._empty(&self.sh.near)
            self.near_game = game
        cdef Solver* w
        for i in range(self.threads):           # each thread's own copy of the root
            w = <Solver*>self.sh.workers[i]
            if w.root == NULL or w.root.ncells != pos._st.ncells:
                free(w.root)
                w.root = pos_alloc(pos._st.ncells)
                if w.root == NULL:
                    raise MemoryError()
            pos_copy(w.root, pos._st)
            fresh_solver_key(w.root, &w.root.h)
            w.epoch = self.sh.epoch             # searches halt when the epoch moves on
            w.nodes = 0
        _shared_setup(self.sh, self.s.root, self.s.root.ncells // 3)
        if self.sh.near.entries != NULL:
            self.sh.near_max = self.sh.params.near_max
        self.sh.max_nodes = -1
        self.sh.deadline = 0
        self.sh.stop = STOP_NONE
        self.busy = True
        home.users += 1
        return 0

    cdef void _leave(self) noexcept:
        cdef TableSolver home = self._home()
        self.busy = False
        home.users -= 1

    cdef int _empty(self, Table* t) except -1:
        if t.entries != NULL:
            memset(t.entries, 0, (t.mask + 1) * BUCKET * sizeof(Entry))
        return 0

    def solve(self, pos, window=None, max_nodes=None, guess=0):
        """Prove bounds on ``pos``'s value: (lower, upper, nodes, stopped_by).

        ``window=(lo, hi)`` in half points stops once value <= lo or value >= hi
        is proven (or the exact value between); ``max_nodes`` stops early
        (stopped_by "nodes"); ``interrupt()`` stops it ("interrupt").
        """
        cdef int lo = -INF, hi = INF, g
        cdef int64_t limit = -1
        if window is not None:
            if not isinstance(window, (tuple, list)) or len(window) != 2:
                raise TypeError(f"window must be a pair (lo, hi) of half points, not {window!r}")
            lo = integer(window[0], "window's lo", -INF, INF)
            hi = integer(window[1], "window's hi", lo, INF)
        if max_nodes is not None:
            limit = integer(max_nodes, "max_nodes", 1, 2 ** 62)
        g = integer(guess, "guess", -INF + 1, INF - 1)
        self._enter(pos)
        try:
            self.sh.win_lo = lo
            self.sh.win_hi = hi
            self.sh.guess = g
            self.sh.max_nodes = limit
            memset(self.started, 0, sizeof(self.started))
            helpers = [threading.Thread(target=self._work, args=(i,)) for i in range(1, self.threads)]
            for helper in helpers:
                helper.start()
            try:
                self._work(0)
            finally:
                if self.sh.stop == STOP_NONE and not _answered(self.sh):   # thread 0 failed to start
                    catena_store(&self.sh.stop, STOP_INTERRUPT)
                for helper in helpers:
                    helper.join()
        finally:
            self._leave()
        stopped = (None, "nodes", "seconds", "interrupt")[self.sh.stop]
        return self.sh.lower, self.sh.upper, _total_nodes(self.sh), stopped

    def _work(self, int thread):
        """One thread's MTD(f) of the running solve (each thread once, only inside solve())."""
        if not self.busy or not 0 <= thread < self.threads or self.started[thread]:
            raise RuntimeError("TableSolver._work runs once a thread, inside solve()")
        self.started[thread] = True
        cdef Solver* s = <Solver*>self.sh.workers[thread]
        with nogil:
            _thread_mtdf(s)

    def move_order(self, pos):
        """``pos``'s moves (action ids) in the order a search of it tries them: the table's best
        move first, then by the history scores.  catena.distributed orders a split unit's
        children so, keeping what the unit's searches learnt about them."""
        cdef uint16_t moves[MAX_MOVES]
        cdef int n
        self._enter(pos)
        try:
            n = gen_moves(self.s.root, moves)
            _order(self.s, self.s.root, moves, n, _table_move(self.sh, self.s.root), 0)
        finally:
            self._leave()
        return [moves[i] for i in range(n)]

    def principal_variation(self, pos, int value):
        """Moves (action ids) of best play from ``pos`` to the end, given its proven ``value``."""
        cdef int move
        cdef PosState* p
        self._enter(pos)
        p = self.s.root
        line = []
        try:
            while not p.h.over:
                with nogil:
                    move = _keeping_move(self.s, self.sh, p, value)
                if move == NO_MOVE:
                    raise ValueError(f"{value} is not the value of this position")
                line.append(move)
        finally:
            self._leave()
        return line

    def interrupt(self):
        """Stop the running solve (from another thread); it returns what it proved."""
        catena_store(&self.sh.stop, STOP_INTERRUPT)


def canonical_key(position):
    """The position's key made canonical over the board's symmetries: positions with
    equal keys have equal values (the units of :mod:`catena.distributed`).

    >>> import catena
    >>> a, b = catena.Position(size=2), catena.Position(size=2)
    >>> a.push("A1"); b.push("C3")                         # two corners: one position up to symmetry
    >>> canonical_key(a) == canonical_key(b), canonical_key(a) == canonical_key(catena.Position(size=2))
    (True, False)
    """
    cdef Position pos = _position(position)
    cdef PosState* p = pos_alloc(pos._st.ncells)
    cdef int sym = 0
    cdef uint64_t key
    if p == NULL:
        raise MemoryError()
    pos_copy(p, pos._st)
    fresh_solver_key(p, &p.h)
    key = _symmetric_key(p, &sym)
    free(p)
    return key


def solver_moves(position):
    """The moves (action ids) the solver searches at ``pos``, in its generator's order.

    >>> import catena
    >>> len(solver_moves(catena.Position(size=2)))         # 7 cells and the button
    8
    """
    cdef Position pos = _position(position)
    cdef uint16_t moves[MAX_MOVES]
    cdef int n = gen_moves(pos._st, moves)
    return [moves[i] for i in range(n)]
