# cython: language_level=3
"""Exact solver: alpha-beta over the final score margin with a transposition
table, driven by MTD(f) null-window searches (Plaat et al., 1996).

Values are Black's score minus White's in half points (komi and the button's
half point exact); under longest-ribbon scoring they are +1, 0, -1 (win, draw,
loss for Black).  Black maximises, White minimises, so double placement's two
stones in a row need no special case.

The table is keyed by the position's solver key (F4 of the rules): which cells
hold stones, each unbounded ribbon's ends and black count, the turn and the
button (and under longest ribbon the multiset of bounded ribbons), so positions that differ only in the colours inside unbounded ribbons,
or in bounded ribbons, share an entry.  It stores bounds on the *future* part
of the margin (the margin minus what the bounded ribbons already give), which
is what those positions share.  While few stones are on the board the key is
also made canonical over the board's 12 symmetries.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from catena._geometry cimport Geometry, MAX_CELLS, MAX_MOVES, NUM_SYMMETRIES
from catena._position cimport (BLACK, WHITE, GAME_DOUBLE, MAX_LIST, SCORING_LONGEST, PosState,
                               Position, Result, Undo, final_result, gen_moves, make_move_keyed,
                               mix64, is_ribbon_head, pos_alloc, pos_copy, ribbon_key, unmake_move)

import threading
import time

from catena.errors import CatenaError
from catena.results import SolveResult
from catena._validate import integer, optional_integer, optional_real, real

cdef enum:
    MAX_PLY = MAX_MOVES + 2
    NO_MOVE = 0xFFFF
    INF = 1 << 28
    STOP_NONE = 0
    STOP_NODES = 1
    STOP_SECONDS = 2
    STOP_INTERRUPT = 3

cdef uint64_t SYMMETRIC_SALT = 0x5EED5EED5EED5EEDULL

ctypedef struct Entry:
    uint64_t key
    int32_t lower        # bounds on the future margin (margin minus the bounded ribbons' part)
    int32_t upper
    uint16_t move        # best move found, in the canonical frame of the key
    uint8_t work         # log2 of the nodes searched for this entry: what replacement keeps

ctypedef struct Solver:
    Entry* table         # buckets of two: [0] keeps the larger work, [1] always replaced
    uint64_t mask        # buckets - 1
    int64_t nodes
    int64_t max_nodes    # < 0: no limit
    double deadline      # monotonic seconds; 0: no limit
    int stop             # why the search stopped (STOP_*), STOP_NONE while running
    int longest          # win/draw/loss search (longest-ribbon scoring)
    int sym_stones       # keys are canonical over the symmetries up to this many stones
    int32_t lower        # MTD(f): proven bounds on the root value so far
    int32_t upper
    int32_t history[3][MAX_MOVES]
    Undo undo[MAX_PLY]
    uint16_t cells[MAX_PLY][MAX_LIST]
    uint16_t moves[MAX_PLY][MAX_MOVES]


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int _claimed(const Solver* s, const PosState* p) noexcept nogil:
    """The margin the bounded ribbons already give, in half points (F4)."""
    return 0 if s.longest else 2 * p.h.bounded


cdef int _terminal_value(const Solver* s, const PosState* p) noexcept nogil:
    cdef Result r
    final_result(p, &r)
    if s.longest:
        return 0 if r.winner == 0 else (1 if r.winner == BLACK else -1)
    return r.black2 - r.white2


cdef uint64_t _symmetric_key(const PosState* p, int* best_sym) noexcept nogil:
    """The least over the 12 symmetries of the solver key, built from scratch."""
    cdef const Geometry* g = p.geo
    cdef uint64_t base = p.h.key, keys[NUM_SYMMETRIES], best
    cdef int c, k, f
    # what the symmetries do not move: remove the stone and ribbon terms from the key
    for c in range(p.ncells):
        if p.cell[c].placed:
            base ^= g.key_stone[c]
            if is_ribbon_head(p.cell, c) and p.cell[c].owner == 0:
                base ^= ribbon_key(g, c, p.cell[c].other_end, p.cell[c].nblack)
    for k in range(NUM_SYMMETRIES):
        keys[k] = base
    for c in range(p.ncells):
        if p.cell[c].placed:
            for k in range(NUM_SYMMETRIES):
                keys[k] ^= g.key_stone[g.sym[k][c]]
            f = p.cell[c].other_end
            if is_ribbon_head(p.cell, c) and p.cell[c].owner == 0:
                for k in range(NUM_SYMMETRIES):
                    keys[k] ^= ribbon_key(g, g.sym[k][c], g.sym[k][f], p.cell[c].nblack)
    best = keys[0]
    best_sym[0] = 0
    for k in range(1, NUM_SYMMETRIES):
        if keys[k] < best:
            best = keys[k]
            best_sym[0] = k
    return best ^ p.h.bounded_key ^ SYMMETRIC_SALT


cdef inline Entry* _probe(Solver* s, uint64_t key) noexcept nogil:
    cdef Entry* bucket = &s.table[2 * (key & s.mask)]
    if bucket[0].key == key:
        return &bucket[0]
    if bucket[1].key == key:
        return &bucket[1]
    return NULL


cdef void _store(Solver* s, uint64_t key, int32_t lower, int32_t upper, int move, int work) noexcept nogil:
    cdef Entry* bucket = &s.table[2 * (key & s.mask)]
    cdef Entry* e
    if bucket[0].key == key:
        e = &bucket[0]
    elif bucket[1].key == key:
        e = &bucket[1]
    else:
        e = NULL
    if e != NULL:                               # the same position: keep both bounds
        if lower > e.lower:
            e.lower = lower
        if upper < e.upper:
            e.upper = upper
        if move != NO_MOVE:
            e.move = move
        if work > e.work:
            e.work = work
        return
    if work >= bucket[0].work:
        bucket[1] = bucket[0]
        e = &bucket[0]
    else:
        e = &bucket[1]
    e.key = key
    e.lower = lower
    e.upper = upper
    e.move = move
    e.work = work


cdef inline int _log2(int64_t n) noexcept nogil:
    cdef int r = 0
    while n > 1:
        n >>= 1
        r += 1
    return r


cdef void _order(Solver* s, PosState* p, uint16_t* moves, int n, int first) noexcept nogil:
    """Table move first, then by history score (insertion sort: lists are short)."""
    cdef int i, j, mover = p.h.to_move
    cdef uint16_t m
    for i in range(n):
        if moves[i] == first:
            moves[i] = moves[0]
            moves[0] = first
            break
    cdef int start = 1 if n and moves[0] == first else 0
    for i in range(start + 1, n):
        m = moves[i]
        j = i - 1
        while j >= start and s.history[mover][moves[j]] < s.history[mover][m]:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = m


cdef int _search(Solver* s, PosState* p, int ply, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the total margin; Black maximises."""
    s.nodes += 1
    if (s.nodes & 1023) == 0:
        if s.max_nodes >= 0 and s.nodes >= s.max_nodes:
            s.stop = STOP_NODES
        elif s.deadline > 0 and _now() >= s.deadline:
            s.stop = STOP_SECONDS
    if s.stop:
        return 0
    if p.h.over:
        return _terminal_value(s, p)
    cdef int claimed = _claimed(s, p), sym = 0, first = NO_MOVE, lo, hi
    cdef int stones = p.h.nblack_stones + p.h.nwhite_stones
    cdef uint64_t key
    if stones <= s.sym_stones:
        key = _symmetric_key(p, &sym)
    else:
        key = p.h.key ^ p.h.bounded_key
    cdef Entry* e = _probe(s, key)
    if e != NULL:
        lo = e.lower + claimed
        hi = e.upper + claimed
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
        if e.move != NO_MOVE:
            first = e.move if e.move == p.ncells else p.geo.sym_inverse[sym][e.move]
    cdef uint16_t* moves = s.moves[ply]
    cdef int n = gen_moves(p, moves), i, v, best_move = NO_MOVE
    _order(s, p, moves, n, first)
    cdef bint maximising = p.h.to_move == BLACK
    cdef int best = -INF if maximising else INF, a = alpha, b = beta
    cdef int64_t nodes_before = s.nodes
    for i in range(n):
        make_move_keyed(p, moves[i], &s.undo[ply], s.cells[ply])
        v = _search(s, p, ply + 1, a, b)
        unmake_move(p, &s.undo[ply], s.cells[ply])
        if s.stop:
            return 0
        if maximising:
            if v > best:
                best = v
                best_move = moves[i]
                if v > a:
                    a = v
        else:
            if v < best:
                best = v
                best_move = moves[i]
                if v < b:
                    b = v
        if a >= b:
            s.history[p.h.to_move][moves[i]] += n * n
            break
    cdef int stored_move = best_move
    if best_move != NO_MOVE and best_move != p.ncells:
        stored_move = p.geo.sym[sym][best_move]
    lo = -INF
    hi = INF
    if best > alpha and best < beta:
        lo = best - claimed
        hi = best - claimed
    elif best >= beta:
        lo = best - claimed
    else:
        hi = best - claimed
    _store(s, key, lo, hi, stored_move, _log2(s.nodes - nodes_before + 1))
    return best


cdef int _mtdf(Solver* s, PosState* p, int guess) noexcept nogil:
    """MTD(f): null-window searches until the bounds meet; the value, or 0 if stopped."""
    cdef int g = guess, b
    while s.lower < s.upper:
        b = g + 1 if g == s.lower else g
        g = _search(s, p, 0, b - 1, b)
        if s.stop:
            return 0
        if g < b:
            s.upper = g
        else:
            s.lower = g
    return s.lower


cdef int _value_of(Solver* s, PosState* p) noexcept nogil:
    """Exact value of ``p`` with the current table (a fresh MTD(f) run)."""
    cdef int32_t keep_lower = s.lower, keep_upper = s.upper, v
    s.lower = -INF
    s.upper = INF
    v = _mtdf(s, p, 0)
    s.lower = keep_lower
    s.upper = keep_upper
    return v


# ---------------------------------------------------------------------------
# The Python boundary


cdef class _Run:
    """One solve: the C solver and its root position."""
    cdef Solver* s
    cdef PosState* root
    cdef int value
    cdef readonly bint done

    def __cinit__(self, Position pos, double tt_mb, int sym_stones):
        cdef uint64_t buckets = 1
        cdef uint64_t want = <uint64_t>(tt_mb * 1024 * 1024 / (2 * sizeof(Entry)))
        while buckets * 2 <= want:
            buckets *= 2
        self.s = <Solver*>calloc(1, sizeof(Solver))
        self.root = pos_alloc(pos._st.ncells)
        if self.s == NULL or self.root == NULL:
            raise MemoryError()
        self.s.table = <Entry*>calloc(2 * buckets, sizeof(Entry))
        if self.s.table == NULL:
            raise MemoryError(f"no room for a {tt_mb} MB transposition table")
        self.s.mask = buckets - 1
        self.s.longest = pos._st.scoring == SCORING_LONGEST
        self.s.sym_stones = sym_stones
        self.s.lower = -INF
        self.s.upper = INF
        pos_copy(self.root, pos._st)

    def __dealloc__(self):
        if self.s != NULL:
            free(self.s.table)
        free(self.s)
        free(self.root)

    def run(self, long long max_nodes, double max_seconds):
        self.s.max_nodes = max_nodes
        self.s.deadline = _now() + max_seconds if max_seconds > 0 else 0
        with nogil:
            self.value = _mtdf(self.s, self.root, 0)
        self.done = self.s.stop == STOP_NONE

    def interrupt(self):
        self.s.stop = STOP_INTERRUPT

    @property
    def nodes(self):
        return self.s.nodes

    @property
    def bounds(self):
        return self.s.lower, self.s.upper

    @property
    def stop(self):
        return (None, "nodes", "seconds", "interrupt")[self.s.stop]

    def principal_variation(self):
        """Moves that keep the value from the root to the end (indices)."""
        cdef PosState* p = pos_alloc(self.root.ncells)
        cdef uint16_t moves[MAX_MOVES]
        cdef Undo u
        cdef uint16_t cells[MAX_LIST]
        cdef int target = self.value, n, i, v, claimed_before
        pos_copy(p, self.root)
        self.s.max_nodes = -1                # the limits were for the solve, not for this walk
        self.s.deadline = 0
        self.s.stop = STOP_NONE
        line = []
        while not p.h.over:
            n = gen_moves(p, moves)
            _order(self.s, p, moves, n, self._table_move(p))
            chosen = None
            for i in range(n):
                make_move_keyed(p, moves[i], &u, cells)
                with nogil:
                    v = _value_of(self.s, p)
                if v == target:
                    chosen = moves[i]
                    break
                unmake_move(p, &u, cells)
            if chosen is None:              # cannot happen with a correct table
                break
            line.append(chosen)
        free(p)
        return line

    cdef int _table_move(self, PosState* p):
        cdef int sym = 0
        cdef uint64_t key = (_symmetric_key(p, &sym)
                             if p.h.nblack_stones + p.h.nwhite_stones <= self.s.sym_stones
                             else p.h.key ^ p.h.bounded_key)
        cdef Entry* e = _probe(self.s, key)
        if e == NULL or e.move == NO_MOVE:
            return NO_MOVE
        return e.move if e.move == p.ncells else p.geo.sym_inverse[sym][e.move]


def _check_limit(value, what, kind, maximum):
    if kind is int:
        return optional_integer(value, what, 1, maximum)
    return optional_real(value, what, maximum=maximum, positive=True)


def solve(Position pos, max_seconds=None, max_nodes=None, tt_mb=64, progress=None,
          sym_stones=None):
    """Solve ``pos`` exactly: its value with best play from both sides.

    ``max_seconds`` / ``max_nodes`` stop the search early; the result then has
    ``solved=False`` and the bounds proven so far.  Ctrl-C stops it the same way.
    ``progress(nodes, seconds, lower, upper)`` is called about five times a second.
    ``tt_mb`` sizes the transposition table; ``sym_stones`` sets up to how many
    stones keys are made canonical over the board's symmetries (default: a third
    of the cells).

    >>> import catena
    >>> result = catena.solve(catena.Position(size=2))
    >>> result.solved, result.value, result.winner
    (True, 2.5, 'black')
    """
    if not isinstance(pos, Position):
        raise TypeError(f"expected a catena.Position, not {type(pos).__name__}")
    max_seconds = _check_limit(max_seconds, "max_seconds", (int, float), 1e9)
    max_nodes = _check_limit(max_nodes, "max_nodes", int, 2 ** 62)
    tt_mb = real(tt_mb, "tt_mb", maximum=1 << 20, positive=True)
    if sym_stones is None:
        sym_stones = pos._st.ncells // 3
    sym_stones = integer(sym_stones, "sym_stones", minimum=0)
    longest = pos.scoring == "longest"
    start = time.perf_counter()
    if pos.is_game_over():
        outcome = pos.outcome()
        value = (0 if outcome.winner is None else (1 if outcome.winner == "black" else -1)) if longest \
            else outcome.black_score - outcome.white_score
        return SolveResult(value=None if longest else value, winner=outcome.winner or "draw",
                           best_move=None, pv=(), nodes=0, seconds=0.0, solved=True,
                           lower=value, upper=value, stopped_by=None)
    run = _Run(pos, float(tt_mb), min(int(sym_stones), pos._st.ncells))
    failure = []
    finished = threading.Event()

    def work():
        try:
            run.run(-1 if max_nodes is None else max_nodes, 0.0 if max_seconds is None else float(max_seconds))
        except BaseException as exc:            # handed to the caller's thread below
            failure.append(exc)
        finally:
            finished.set()

    # the search runs in a thread without the GIL; this thread waits in short steps so
    # that Ctrl-C and the progress callback run here (an Event, not Thread.join: an
    # interrupted join may report a live thread as ended, and the run must outlive it)
    threading.Thread(target=work, daemon=True).start()
    try:
        while not finished.wait(0.2):
            if progress is not None:
                lower, upper = run.bounds
                progress(run.nodes, time.perf_counter() - start, _points(lower, longest),
                         _points(upper, longest))
    except KeyboardInterrupt:                    # Ctrl-C: stop cleanly, report what is proven
        run.interrupt()
        finished.wait()
    except BaseException:                        # e.g. the progress callback failed: stop, re-raise
        run.interrupt()
        finished.wait()
        raise
    if failure:
        raise failure[0]
    seconds = time.perf_counter() - start
    lower, upper = run.bounds
    if not run.done:
        return SolveResult(value=None, winner=None, best_move=None, pv=(), nodes=run.nodes,
                           seconds=seconds, solved=False, lower=_points(lower, longest),
                           upper=_points(upper, longest), stopped_by=run.stop)
    pv = tuple(pos._move_table[m] for m in run.principal_variation())
    value = _points(lower, longest)
    if longest:
        winner = "draw" if lower == 0 else ("black" if lower > 0 else "white")
    else:
        winner = "draw" if lower == 0 else ("black" if lower > 0 else "white")
    return SolveResult(value=None if longest else value, winner=winner,
                       best_move=pv[0] if pv else None, pv=pv, nodes=run.nodes, seconds=seconds,
                       solved=True, lower=value, upper=value, stopped_by=None)


def _points(half_points, longest):
    """A margin in half points as points (None for an unproven infinite bound)."""
    if abs(half_points) >= INF:
        return None
    return half_points if longest else half_points / 2.0
