# cython: language_level=3
"""Monte Carlo tree search: UCT (Kocsis and Szepesvari, 2006) with MCTS-Solver
(Winands, Bjornsson and Saito, 2008) and optional RAVE (Gelly and Silver, 2007).

Every iteration copies the root position into a scratch position, descends the
tree with copy-make, expands a leaf, finishes the game with a uniformly random
playout and backs the result up; all of it runs in C without the GIL.  Nodes
live in one preallocated arena; a node's children are contiguous.
"""

from libc.math cimport INFINITY, log, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from catena._geometry cimport MAX_MOVES
from catena._position cimport (BLACK, WHITE, MAX_LIST, PosState, Position, Result, Undo,
                               final_result, gen_moves, is_legal_move, make_move, play_move,
                               pos_alloc, pos_bytes, pos_copy, random_playout)
from catena._rng cimport Rng, rng_below, rng_seed

import os
import sys
import threading
import time

from catena.errors import CatenaError, IllegalMoveError
from catena._validate import integer, optional_integer, optional_real, real, seed as checked_seed
from catena.results import SearchResult

cdef enum:
    MAX_DEPTH = MAX_MOVES + 2
    MAX_TREE_NODES = 0x7FFFFFFF  # Node.first_child is an int32_t arena index
    MAX_THREADS = 256
    TABLE_SIZE = 4096            # visit counts below this read square roots from tables

# 1/sqrt(n + 1) for the exploration term, so selection needs no square roots
cdef float _INV_SQRT[TABLE_SIZE]
for _n in range(TABLE_SIZE):
    _INV_SQRT[_n] = 1.0 / sqrt(_n + 1.0)


cdef inline double _inv_sqrt(uint32_t n) noexcept nogil:
    return _INV_SQRT[n] if n < TABLE_SIZE else 1.0 / sqrt(n + 1.0)


cdef inline double _beta(const Tree* t, uint32_t n) noexcept nogil:
    """RAVE weight sqrt(k / (3n + k)) (Gelly and Silver's hand-tuned schedule)."""
    return t.beta_table[n] if n < TABLE_SIZE else sqrt(t.rave_k / (3.0 * n + t.rave_k))


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline float _reward(int winner, int colour) noexcept nogil:
    """1 for a win of ``colour``, 0.5 for a draw, 0 for a loss."""
    if winner == colour:
        return 1.0
    return 0.5 if winner == PROVEN_DRAW else 0.0


cdef inline int _winner_code(const PosState* p) noexcept nogil:
    cdef Result r
    final_result(p, &r)
    return r.winner if r.winner else PROVEN_DRAW


cdef void _init_node(Node* n, int move, int mover) noexcept nogil:
    n.first_child = -1
    n.nchildren = 0
    n.move = move
    n.mover = mover
    n.proven = 0
    n.visits = 0
    n.value = 0
    n.amaf_visits = 0
    n.amaf_value = 0


cdef bint _expand(Tree* t, Node* n, PosState* p) noexcept nogil:
    """Give ``n`` a child per legal move of ``p``, in random order; False if full."""
    cdef uint16_t moves[MAX_MOVES]
    cdef int count = gen_moves(p, moves), i, j
    cdef uint16_t tmp
    if count == 0 or t.size + count > t.capacity:
        return False
    for i in range(count - 1, 0, -1):          # Fisher-Yates: unvisited children go in random order
        j = rng_below(&t.rng, i + 1)
        tmp = moves[i]
        moves[i] = moves[j]
        moves[j] = tmp
    cdef int32_t first = <int32_t>t.size
    for i in range(count):
        _init_node(&t.nodes[first + i], moves[i], p.h.to_move)
    n.first_child = first
    n.nchildren = count
    t.size += count
    return True


cdef int32_t _select(Tree* t, Node* n) noexcept nogil:
    """The child to descend to: a proven win at once, never a proven loss while
    another child is open, else the best UCT (or UCT-RAVE) score."""
    cdef Node* children = &t.nodes[n.first_child]
    cdef int i, best = -1, mover = children[0].mover
    cdef double score, best_score = -INFINITY, q, a, beta
    cdef double explore = t.c * sqrt(log(n.visits + 1.0))
    cdef bint rave = t.rave_k > 0
    cdef Node* ch
    for i in range(n.nchildren):
        ch = &children[i]
        if ch.proven:
            if ch.proven == mover:
                return n.first_child + i
            if ch.proven != PROVEN_DRAW:
                continue
        if ch.visits == 0 and not rave:
            return n.first_child + i             # first unvisited, in the shuffled order
        q = ch.value / ch.visits if ch.visits else 1.0
        if rave:
            a = ch.amaf_value / ch.amaf_visits if ch.amaf_visits else 1.0
            beta = _beta(t, ch.visits)
            q = (1.0 - beta) * q + beta * a
        score = q + explore * _inv_sqrt(ch.visits)
        if score > best_score:
            best_score = score
            best = i
    if best < 0:                                  # every child is a proven loss
        best = 0
    return n.first_child + best


cdef int _proven_from_children(Tree* t, Node* n) noexcept nogil:
    """MCTS-Solver: the winner under best play if the children decide it, else 0."""
    cdef Node* children = &t.nodes[n.first_child]
    cdef int i, mover = children[0].mover
    cdef bint all_proven = True, any_draw = False
    for i in range(n.nchildren):
        if children[i].proven == mover:
            return mover
        if children[i].proven == 0:
            all_proven = False
        elif children[i].proven == PROVEN_DRAW:
            any_draw = True
    if not all_proven:
        return 0
    return PROVEN_DRAW if any_draw else 3 - mover


cdef void _iterate(Tree* t) noexcept nogil:
    cdef PosState* p = t.scratch
    cdef int32_t* path = t.path
    cdef Node* n = &t.nodes[0]
    cdef Node* ch
    cdef int depth = 0, winner, d, i, mover
    cdef int32_t ci
    cdef bint rave = t.rave_k > 0, proved_leaf = False
    pos_copy(p, t.root_state)
    if rave:
        memset(t.played_by, 0, p.ncells + 1)
    path[0] = 0
    while not n.proven:
        if n.first_child < 0:
            if depth > 0 and n.visits < t.expand_visits:
                break
            if not _expand(t, n, p):
                break
        ci = _select(t, n)
        ch = &t.nodes[ci]
        if rave:
            t.played_by[ch.move] = p.h.to_move
        play_move(p, ch.move)
        depth += 1
        path[depth] = ci
        n = ch
        if p.h.over:
            if not n.proven:
                n.proven = _winner_code(p)
                proved_leaf = True
            break
    if n.proven:
        winner = n.proven
    else:
        random_playout(p, &t.rng, 0.0, t.played_by if rave else NULL)
        winner = _winner_code(p)
    for d in range(depth, -1, -1):
        n = &t.nodes[path[d]]
        n.visits += 1
        n.value += _reward(winner, n.mover)
        if rave and n.first_child >= 0:
            mover = t.nodes[n.first_child].mover
            for i in range(n.nchildren):
                ch = &t.nodes[n.first_child + i]
                if t.played_by[ch.move] == mover:
                    ch.amaf_visits += 1
                    ch.amaf_value += _reward(winner, mover)
    if proved_leaf:
        for d in range(depth - 1, -1, -1):
            n = &t.nodes[path[d]]
            winner = _proven_from_children(t, n)
            if not winner:
                break
            n.proven = winner


cdef int64_t tree_search(Tree* t, int64_t iterations, double seconds) noexcept nogil:
    """Run up to ``iterations`` (<0: no limit) for up to ``seconds`` (<=0: no
    limit), stopping early once the root is proven; returns iterations run."""
    cdef int64_t done = 0
    cdef double deadline = _now() + seconds if seconds > 0 else INFINITY
    while (iterations < 0 or done < iterations) and not t.nodes[0].proven and not t.stop:
        _iterate(t)
        done += 1
        if (done & 63) == 0 and _now() >= deadline:
            break
    t.iterations += done
    return done


# ---------------------------------------------------------------------------
# The Python boundary


cdef class _TreeHandle:
    """One search tree (one per thread under root parallelism)."""
    cdef Tree t
    cdef int ncells

    def __cinit__(self, int64_t capacity, int ncells):
        memset(&self.t, 0, sizeof(Tree))
        if not 1 <= capacity <= MAX_TREE_NODES:      # the byte size below must not wrap
            raise ValueError(f"a search tree holds 1 to {MAX_TREE_NODES} nodes, not {capacity}")
        self.ncells = ncells
        self.t.capacity = capacity
        self.t.nodes = <Node*>malloc(capacity * sizeof(Node))
        self.t.root_state = pos_alloc(ncells)
        self.t.scratch = pos_alloc(ncells)
        self.t.played_by = <uint8_t*>malloc(ncells + 1)
        self.t.path = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        self.t.beta_table = <float*>malloc(TABLE_SIZE * sizeof(float))
        if (self.t.nodes == NULL or self.t.beta_table == NULL or self.t.root_state == NULL or self.t.scratch == NULL
                or self.t.played_by == NULL or self.t.path == NULL):
            raise MemoryError("not enough memory for the search tree; lower max_nodes")

    def __dealloc__(self):
        free(self.t.nodes)
        free(self.t.root_state)
        free(self.t.scratch)
        free(self.t.played_by)
        free(self.t.path)
        free(self.t.beta_table)

    cdef void reset(self, const PosState* root) noexcept:
        pos_copy(self.t.root_state, root)
        self.t.size = 1
        _init_node(&self.t.nodes[0], 0xFFFF, 0)

    def run(self, int64_t iterations, double seconds):
        cdef int64_t done
        self.t.stop = 0
        with nogil:
            done = tree_search(&self.t, iterations, seconds)
        return done

    def interrupt(self):
        self.t.stop = 1

    cdef bint advance(self, int move) noexcept:
        """Make ``move`` at the root, keeping its subtree; False if the tree had none."""
        cdef Undo u
        cdef uint16_t cells[MAX_LIST]
        cdef Node* root = &self.t.nodes[0]
        cdef int32_t child = -1, i
        if root.first_child >= 0:
            for i in range(root.nchildren):
                if self.t.nodes[root.first_child + i].move == move:
                    child = root.first_child + i
        make_move(self.t.root_state, move, &u, cells)
        if child < 0:
            self.t.size = 1
            _init_node(&self.t.nodes[0], 0xFFFF, 0)
            return False
        self._keep_subtree(child)
        return True

    cdef void _keep_subtree(self, int32_t top) noexcept:
        """Move the subtree under ``top`` to the front of the arena (breadth first)."""
        cdef Node* old = self.t.nodes
        cdef Node* fresh = <Node*>malloc(self.t.capacity * sizeof(Node))
        cdef int64_t head = 0, tail = 1, i
        cdef Node* n
        if fresh == NULL:                          # no room to compact: start afresh
            self.t.size = 1
            _init_node(&self.t.nodes[0], 0xFFFF, 0)
            return
        fresh[0] = old[top]
        fresh[0].mover = 0
        while head < tail:
            n = &fresh[head]
            if n.first_child >= 0:
                memcpy(&fresh[tail], &old[n.first_child], n.nchildren * sizeof(Node))
                n.first_child = <int32_t>tail
                tail += n.nchildren
            head += 1
        free(old)
        self.t.nodes = fresh
        self.t.size = tail

    cdef bint matches(self, const PosState* p) noexcept:
        return (self.t.root_state.geo == p.geo and self.t.root_state.h.hash == p.h.hash
                and self.t.root_state.game_type == p.game_type and self.t.root_state.komi == p.komi
                and self.t.root_state.scoring == p.scoring
                and memcmp_state(self.t.root_state, p))


cdef bint memcmp_state(const PosState* a, const PosState* b) noexcept:
    return memcmp(a, b, pos_bytes(a.ncells)) == 0


cdef class MCTS:
    """UCT search with MCTS-Solver, tree reuse, root parallelism and RAVE.

    ``MCTS(seed=None, c=..., threads=1, rave=True, rave_k=300, expand_visits=1,
    max_nodes=2_000_000)``.  Ctrl-C ends a search early and returns what it found.  ``c`` is the UCT exploration constant (default 0.25
    with RAVE, 0.7 without).  With a seed and an iteration budget a search is
    reproducible; each thread searches its own tree (seeded from ``seed``) and
    the root statistics are summed.

    >>> import catena
    >>> mcts = catena.MCTS(seed=1)
    >>> result = mcts.search(catena.Position(size=3), iterations=2000)
    >>> result.iterations, result.best_move in catena.Position(size=3).legal_moves()
    (2000, True)
    """
    cdef list _trees
    cdef object _position          # a copy of the root position
    cdef readonly object seed
    cdef readonly double c
    cdef readonly int threads
    cdef readonly bint rave
    cdef readonly double rave_k
    cdef readonly int expand_visits
    cdef readonly long long max_nodes
    cdef bint _busy                # a search runs: the object belongs to the thread running it

    def __init__(self, seed=None, c=None, threads=1, rave=True, rave_k=300.0, expand_visits=1,
                 max_nodes=2_000_000):
        self._check_idle("be re-initialised")
        self.seed = checked_seed(seed)
        self.threads = integer(threads, "threads", 1, MAX_THREADS)
        self.expand_visits = integer(expand_visits, "expand_visits", 1, 0x7FFFFFFF)
        self.max_nodes = integer(max_nodes, "max_nodes", 1000, MAX_TREE_NODES)
        self.rave = bool(rave)
        self.rave_k = real(rave_k, "rave_k", positive=True)
        self.c = (0.25 if self.rave else 0.7) if c is None else real(c, "c", minimum=0)
        self._trees = []
        self._position = None

    cdef _TreeHandle _new_tree(self, Position pos, int index):
        capacity = self.max_nodes // self.threads
        if capacity < 4 * (pos._st.ncells + 1):
            raise ValueError(f"max_nodes={self.max_nodes} is too small for side {pos.size}: each of the "
                             f"{self.threads} trees needs room for at least {4 * (pos._st.ncells + 1)} nodes")
        cdef _TreeHandle tree = _TreeHandle(capacity, pos._st.ncells)
        cdef int i
        seed = self.seed if self.seed is not None else int.from_bytes(os.urandom(8), "little")
        rng_seed(&tree.t.rng, <uint64_t>((seed * 0x9E3779B97F4A7C15 + index) & 0xFFFFFFFFFFFFFFFF))
        tree.t.c = self.c
        tree.t.rave_k = self.rave_k if self.rave else 0.0
        tree.t.expand_visits = self.expand_visits
        for i in range(TABLE_SIZE):
            tree.t.beta_table[i] = sqrt(self.rave_k / (3.0 * i + self.rave_k))
        tree.reset(pos._st)
        return tree

    def _prepare(self, Position pos not None):
        if pos.is_game_over():
            raise CatenaError("cannot search a finished game: it has no moves")
        cdef _TreeHandle tree
        if self._trees and all((<_TreeHandle>tree).matches(pos._st) for tree in self._trees):
            return
        self._trees = [self._new_tree(pos, i) for i in range(self.threads)]
        self._position = pos.copy()

    def _check_idle(self, action):
        """The thread-safety contract: one thread at a time (docs/robustness.md)."""
        if self._busy:
            raise RuntimeError(f"this MCTS is searching in another thread and cannot {action} now: "
                               f"use one MCTS per thread (copy.copy(mcts) makes an independent one)")

    def search(self, Position pos not None, iterations=None, seconds=None):
        """Search ``pos`` for ``iterations`` (per thread) and/or ``seconds``.

        Reuses the tree when ``pos`` is the position the last search or
        :meth:`advance` left at the root.  Returns a SearchResult.  A search
        started while another thread searches with this object raises RuntimeError.
        """
        self._check_idle("search")
        self._busy = True
        try:
            return self._search(pos, iterations, seconds)
        finally:
            self._busy = False

    def _search(self, Position pos, iterations, seconds):
        iterations = optional_integer(iterations, "iterations", 1, 2 ** 62)
        seconds = optional_real(seconds, "seconds", positive=True)
        if iterations is None and seconds is None:
            raise ValueError("give a budget: iterations and/or seconds")
        self._prepare(pos)
        cdef int64_t its = -1 if iterations is None else iterations
        cdef double secs = 0.0 if seconds is None else seconds
        start = time.perf_counter()
        done = [0] * self.threads
        trees = list(self._trees)

        finished = [threading.Event() for _ in trees]

        def work(i):
            try:
                done[i] = trees[i].run(its, secs)
            finally:
                finished[i].set()

        # the searches run in threads without the GIL; this thread waits in short steps
        # so that Ctrl-C reaches it, stops them cleanly and returns what they found (an
        # Event, not Thread.join: an interrupted join may report a live thread as ended)
        for i in range(self.threads):
            threading.Thread(target=work, args=(i,), daemon=True).start()
        try:
            for event in finished:
                while not event.wait(0.1):
                    pass
        except BaseException:
            for tree in trees:
                tree.interrupt()
            for event in finished:
                event.wait()
            if not isinstance(sys.exc_info()[1], KeyboardInterrupt):
                raise
        return self._result(sum(done), time.perf_counter() - start)

    def _result(self, total, seconds):
        cdef _TreeHandle tree
        cdef Node* root
        cdef Node* ch
        cdef int i
        moves = self._position.legal_moves()
        by_index = {m.index: m for m in moves}
        visits = {}
        values = {}
        proven = None
        for tree in self._trees:
            root = &tree.t.nodes[0]
            if root.proven and proven is None:
                proven = ("black", "white", "draw")[root.proven - 1]
            if root.first_child < 0:
                continue
            for i in range(root.nchildren):
                ch = &tree.t.nodes[root.first_child + i]
                m = by_index[ch.move]
                visits[m] = visits.get(m, 0) + ch.visits
                values[m] = values.get(m, 0.0) + ch.value
        mean = {m: (values[m] / visits[m] if visits[m] else 0.0) for m in visits}
        total_visits = sum(visits.values())
        value = sum(values.values()) / total_visits if total_visits else 0.5
        best = self._best_move(visits, mean, by_index)
        pv = self._principal_variation(by_index)
        return SearchResult(best_move=best, visits=visits, values=mean, pv=pv, iterations=total,
                            seconds=seconds, proven=proven is not None, winner=proven,
                            value=value)

    def _best_move(self, visits, mean, by_index):
        cdef _TreeHandle tree
        cdef Node* root
        cdef Node* ch
        cdef int i, mover
        for tree in self._trees:                     # a proven win in any tree beats visits
            root = &tree.t.nodes[0]
            if root.first_child < 0:
                continue
            mover = tree.t.nodes[root.first_child].mover
            for i in range(root.nchildren):
                ch = &tree.t.nodes[root.first_child + i]
                if ch.proven == mover:
                    return by_index[ch.move]
        if not visits:
            return next(iter(by_index.values()))
        return max(visits, key=lambda m: (visits[m], mean[m], -m.index))

    def _principal_variation(self, by_index):
        """Most visited line (proven wins first) in the tree that proved the root,
        else in the first tree."""
        cdef _TreeHandle tree = self._trees[0]
        cdef _TreeHandle other
        for other in self._trees:
            if other.t.nodes[0].proven:
                tree = other
                break
        cdef Node* n = &tree.t.nodes[0]
        cdef Node* ch
        cdef Node* best
        cdef int i
        names = []
        while n.first_child >= 0 and n.nchildren > 0:
            best = NULL
            for i in range(n.nchildren):
                ch = &tree.t.nodes[n.first_child + i]
                if ch.proven == ch.mover:
                    best = ch
                    break
                if best == NULL or ch.visits > best.visits:
                    best = ch
            if best.visits == 0 and best.proven == 0:
                break
            names.append(best.move)
            n = best
        cdef Position pos = self._position
        return tuple(pos._move_table[move] for move in names)

    def advance(self, move):
        """Play ``move`` at the root of every tree, keeping its subtree (tree reuse)."""
        self._check_idle("advance")
        if self._position is None:
            raise CatenaError("advance needs a search first")
        cdef Position pos = self._position
        cdef int index = pos._move_index(move)
        if not is_legal_move(pos._st, index):
            raise IllegalMoveError(pos._why_illegal(index))
        cdef _TreeHandle tree
        for tree in self._trees:
            tree.advance(index)
        pos.push(move)
        if pos.is_game_over():
            self._trees = []

    def __reduce__(self):
        """A copy (copy.copy, deepcopy, pickle) has the same settings and trees of its own,
        empty until its first search."""
        return (type(self), (self.seed, self.c, self.threads, self.rave, self.rave_k, self.expand_visits,
                       self.max_nodes))

    @property
    def tree_size(self):
        """Nodes in use in each tree."""
        cdef _TreeHandle tree
        return [tree.t.size for tree in self._trees]
