# cython: language_level=3
"""Monte Carlo tree search: UCT (Kocsis and Szepesvari, 2006) with MCTS-Solver
(Winands, Bjornsson and Saito, 2008) and optional RAVE (Gelly and Silver, 2007).

Every iteration copies the root position into a scratch position, descends the
tree with copy-make, expands a leaf, finishes the game with a uniformly random
playout and backs the result up; all of it runs in C without the GIL.  Nodes
live in one preallocated arena; a node's children are contiguous.
"""

from libc.math cimport INFINITY, exp, fabs, log, pow, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from catena._common cimport NO_MOVE, monotonic_seconds
from catena._geometry cimport MAX_MOVES
from catena._position cimport (BLACK, WHITE, MAX_LIST, SCORING_LONGEST, PosState, Position, Result,
                               Undo, final_result, gen_moves, is_legal_move, make_move, play_move,
                               pos_alloc, pos_bytes, pos_copy, random_playout)
from catena._prior cimport NGROUPS, move_features, prior_tables_for, prior_weights
from catena._rng cimport rng_below, rng_seed
from catena._solver cimport EXACT_UNBOUNDED, exact_free, exact_new, exact_solve, exact_threshold

import functools
import os
import time
import warnings

from catena.errors import CatenaError, IllegalMoveError
from catena._interrupt import run_interruptibly
from catena._prior import last_moves
from catena._validate import integer, optional_integer, optional_real, real, renamed, seed as checked_seed
from catena.results import SearchResult

cdef enum:
    MAX_DEPTH = MAX_MOVES + 2
    MAX_TREE_NODES = 0x7FFFFFFF  # Node.first_child is an int32_t arena index
    MAX_THREADS = 256
    TABLE_SIZE = 4096            # visit counts below this read square roots from tables
    NO_BOUND = EXACT_UNBOUNDED   # Node bounds before anything is proven: the solver's, beyond any margin
    SOLVER_TABLE_LOG2 = 17       # the exact solver's table: 2**17 buckets of two entries (6 MB)
    ROOT_EXTRA_CELLS = 6         # every root move is solved when the root has exact_cells + 6 legal cells
    LEAF_SOLVER_NODES = 20000    # solver budget at a leaf (exact_cells=14 needs about 7,000 nodes, at
                                 # most 28,000, on random side 4-6 endgames: a few milliseconds)
    ROOT_SOLVER_NODES = 300000   # solver budget per root move (the whole side-3 board: 250,000)
    SOLVER_NODES_PER_ITERATION = 30   # a search's solver allowance: a solver node costs about a
                                      # fifteenth of a playout, so the solver gets at most about
                                      # twice the time of the playouts it replaces
    SOLVER_NODES_PER_SECOND = 1000000  # the allowance of a search with only a time budget
    ROOT_SOLVER_NODES_PER_SECOND = 4000000  # the middlegame root solve's, likewise: the solver's
                                            # own speed on its 32 MB table (3.3 to 4 M measured), the
                                            # clock being what stops it on a slower machine
    MIN_SOLVER_NODES = 1000      # no solver run with less left than this
    ROOT_NODES_AT_21 = 1000000   # _root_nodes_needed
    ROOT_SLICE_NODES = 200000    # the middlegame root solve looks at the clock this often
    HINT_SOLVER_NODES = 100000   # _secure_hint's check of the solver's move (a few ms when right)
    ROOT_TABLE_LOG2 = 19         # the middlegame root solver's table: 2**19 buckets (32 MB)
    PRIOR_VISITS = 8             # a node's children get the learned prior at its 8th visit (the
                                 # root at once): the features of every child cost about as much
                                 # as a playout, so most leaves, visited once, never pay for them

# The middlegame root solve (its share of the budget is MCTS(root_solve_share=)):
cdef double ROOT_AFTER = 0.1       # share of the budget searched first, for the solver's first guess
cdef double ROOT_REACH = 0.15      # tried when its nodes are at least this share of the estimate below
cdef double ROOT_NODES_GROWTH = 1.6  # _root_nodes_needed: the factor per legal cell


cdef inline double _root_nodes_needed(int legal) noexcept nogil:
    """The solver nodes a self-play middlegame root of ``legal`` legal cells takes
    (a typical upper estimate, docs/strength.md)."""
    return ROOT_NODES_AT_21 * pow(ROOT_NODES_GROWTH, legal - 21)


# 1/sqrt(n + 1) for the exploration term, so selection needs no square roots
cdef float _INV_SQRT[TABLE_SIZE]
for _n in range(TABLE_SIZE):
    _INV_SQRT[_n] = 1.0 / sqrt(_n + 1.0)


cdef inline double _inv_sqrt(uint32_t n) noexcept nogil:
    return _INV_SQRT[n] if n < TABLE_SIZE else 1.0 / sqrt(n + 1.0)


cdef inline double _beta(const Tree* t, uint32_t n) noexcept nogil:
    """RAVE weight sqrt(k / (3n + k)) (Gelly and Silver's hand-tuned schedule)."""
    return t.beta_table[n] if n < TABLE_SIZE else sqrt(t.rave_k / (3.0 * n + t.rave_k))


cdef inline float _reward(int winner, int colour) noexcept nogil:
    """1 for a win of ``colour``, 0.5 for a draw, 0 for a loss."""
    if winner == colour:
        return 1.0
    return 0.5 if winner == PROVEN_DRAW else 0.0


cdef inline int _winner_of(int32_t margin) noexcept nogil:
    return BLACK if margin > 0 else (WHITE if margin < 0 else PROVEN_DRAW)


cdef inline int32_t _final_margin(const PosState* p, int* winner) noexcept nogil:
    """Black's final margin in solver units (half points; +1/0/-1 under longest ribbon)."""
    cdef Result r
    final_result(p, &r)
    winner[0] = r.winner if r.winner else PROVEN_DRAW
    if p.scoring == SCORING_LONGEST:
        return 0 if r.winner == 0 else (1 if r.winner == BLACK else -1)
    return r.black2 - r.white2


cdef inline int _proven_of(int32_t lower, int32_t upper) noexcept nogil:
    """The winner the bounds on Black's margin decide, or 0."""
    if lower > 0:
        return BLACK
    if upper < 0:
        return WHITE
    if lower == 0 and upper == 0:
        return PROVEN_DRAW
    return 0


cdef inline bint _settled(const Tree* t, const Node* n) noexcept nogil:
    """Nothing left to search below ``n``: its exact margin is known when playing
    for points, its winner when playing for the win."""
    return n.lower == n.upper if t.score_weight > 0 else n.proven != 0


cdef void _init_node(Node* n, int move, int mover, int32_t bound) noexcept nogil:
    n.first_child = -1
    n.nchildren = 0
    n.move = move
    n.mover = mover
    n.proven = 0
    n.flags = 0
    n.visits = 0
    n.value = 0
    n.score = 0
    n.utility = 0
    n.amaf_visits = 0
    n.amaf_value = 0
    n.lower = -bound
    n.upper = bound
    n.prior = 0


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
        _init_node(&t.nodes[first + i], moves[i], p.h.to_move, t.bound)
    n.first_child = first
    n.nchildren = count
    t.size += count
    return True


cdef inline double _score_scale(const Tree* t) noexcept nogil:
    """The spread of the margins backed up (at least one point): margins this far
    apart are half the score weight apart in the utility."""
    cdef double n = t.margin_count, mean, var
    if n < 2:
        return 2.0 * t.root_state.ncells
    mean = t.margin_sum / n
    var = t.margin_sq / n - mean * mean
    return sqrt(var) if var > 4.0 else 2.0


cdef inline float _utility(const Tree* t, const Node* n, const Node* parent, double scale) noexcept nogil:
    """KataGo-style score utility: score_weight * d / (|d| + scale), d the node's mean
    margin for its mover less the parent's (so the slope is steepest where the play is)."""
    cdef double d = n.score - parent.score
    if n.mover == WHITE:
        d = -d
    return t.score_weight * d / (fabs(d) + scale)


cdef int32_t _select(Tree* t, Node* n) noexcept nogil:
    """The child to descend to.  For the win: a proven win at once, never a proven
    loss while another child is open.  For points (Score Bounded MCTS): never a
    child whose bounds cannot improve on what ``n`` already has.  Else the best
    UCT (or UCT-RAVE) score, with the margin utility added when playing for points."""
    cdef Node* children = &t.nodes[n.first_child]
    cdef int i, best = -1, mover = children[0].mover
    cdef double score, best_score = -INFINITY, q, a, beta
    cdef double explore = t.c * sqrt(log(n.visits + 1.0))
    cdef bint rave = t.rave_k > 0, points = t.score_weight > 0, prior = n.flags & PRIOR_SET
    cdef bint prune = points and (n.lower > -t.bound or n.upper < t.bound)   # n has a bound
    cdef double sign = 1.0 if mover == BLACK else -1.0
    cdef Node* ch
    for i in range(n.nchildren):
        ch = &children[i]
        if prune:
            if (ch.upper <= n.lower) if mover == BLACK else (ch.lower >= n.upper):
                continue
        elif ch.proven:
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
        score = q + ch.utility + explore * _inv_sqrt(ch.visits)
        if prior:                                 # progressive bias (Chaslot et al., 2008)
            score += t.prior_weight * (ch.prior * ch.prior * (1.0 / 65025)) / (ch.visits + 1.0)
        if score > best_score:
            best_score = score
            best = i
    if best < 0:                                  # every child is settled against the mover
        best = 0
        for i in range(1, n.nchildren):
            if sign * children[i].lower > sign * children[best].lower:
                best = i
    return n.first_child + best


cdef void _set_priors(Tree* t, Node* n, PosState* p, int last, int before) noexcept nogil:
    """Give ``n``'s children (``p`` is ``n``'s position; ``last`` and ``before`` the two
    moves that led to it) the learned prior's probabilities: the softmax of the sums
    of their features' weights."""
    cdef Node* children = &t.nodes[n.first_child]
    cdef int32_t features[NGROUPS]
    cdef float strength[MAX_MOVES]
    cdef int i, g
    cdef float top = -INFINITY, total = 0
    for i in range(n.nchildren):
        move_features(p, t.prior_tables, children[i].move, last, before, features)
        strength[i] = 0
        for g in range(NGROUPS):
            strength[i] += t.prior_weights[features[g]]
        top = max(top, strength[i])
    for i in range(n.nchildren):
        strength[i] = exp(strength[i] - top)
        total += strength[i]
    for i in range(n.nchildren):
        children[i].prior = <uint8_t>(255.0 * sqrt(strength[i] / total) + 0.5)
    n.flags |= PRIOR_SET


cdef bint _bounds_from_children(Tree* t, Node* n) noexcept nogil:
    """Score Bounded MCTS: tighten ``n``'s bounds to the best of its children's
    (which subsumes MCTS-Solver's win/loss proofs); True if they changed."""
    cdef Node* children = &t.nodes[n.first_child]
    cdef int i
    cdef int32_t lo = children[0].lower, hi = children[0].upper
    if children[0].mover == BLACK:
        for i in range(1, n.nchildren):
            lo = max(lo, children[i].lower)
            hi = max(hi, children[i].upper)
    else:
        for i in range(1, n.nchildren):
            lo = min(lo, children[i].lower)
            hi = min(hi, children[i].upper)
    return _tighten(n, lo, hi)


cdef bint _tighten(Node* n, int32_t lo, int32_t hi) noexcept nogil:
    """Narrow ``n``'s bounds to [lo, hi] where that is tighter (both are proven);
    True if they changed."""
    lo = max(lo, n.lower)
    hi = min(hi, n.upper)
    if lo == n.lower and hi == n.upper:
        return False
    n.lower = lo
    n.upper = hi
    n.proven = _proven_of(lo, hi)
    return True


cdef void _set_exact(Node* n, int32_t margin) noexcept nogil:
    n.lower = margin
    n.upper = margin
    n.proven = _winner_of(margin)


cdef bint _solve_node(Tree* t, Node* n, PosState* p, int64_t budget, int* hint) noexcept nogil:
    """Run the exact solver on ``p`` (the position at ``n``) within ``budget``
    nodes and keep the bounds it proves; True if ``n``'s bounds changed.
    ``hint`` gets the solver's best move at ``p`` (-1 if none)."""
    cdef int32_t lo, hi
    cdef int64_t nodes
    hint[0] = -1
    budget = min(budget, t.solver_left)
    if budget < MIN_SOLVER_NODES:             # this search's allowance is spent: a playout instead
        return False
    n.flags |= SOLVER_TRIED
    if t.exact == NULL:
        t.exact = exact_new(SOLVER_TABLE_LOG2)
        if t.exact == NULL:
            return False
    exact_solve(t.exact, p, budget, <int>n.score, &lo, &hi, &nodes, hint)
    t.solver_calls += 1
    t.solver_nodes += nodes
    t.solver_left -= nodes
    return _tighten(n, lo, hi)


cdef inline bint _play_root_child(Tree* t, Node* ch, PosState* p) noexcept nogil:
    """Set ``p`` to the root position after ``ch``'s move; a move that ends the game makes
    ``ch`` exact at once.  True if the game is over (nothing left to solve)."""
    cdef int winner
    pos_copy(p, t.root_state)
    play_move(p, ch.move)
    if p.h.over:
        _set_exact(ch, _final_margin(p, &winner))
    return p.h.over


cdef void _solve_root_moves(Tree* t) noexcept nogil:
    """Exact endgames at the root: the root's position goes to the solver, then
    every move's, the solver's best move first (so a solved root has a solved
    best move), each once, while the search's allowance lasts."""
    cdef Node* root = &t.nodes[0]
    cdef PosState* p = t.scratch
    cdef Node* ch
    cdef int i, k, hint = -1, ignored
    if _settled(t, root) or t.root_state.h.nlegal > t.root_cells:
        return
    if root.first_child < 0:
        pos_copy(p, t.root_state)
        if not _expand(t, root, p):
            return
    if not root.flags & SOLVER_TRIED:
        pos_copy(p, t.root_state)
        _solve_node(t, root, p, t.root_nodes, &hint)
    for k in range(-1, root.nchildren):
        if t.stop:
            return
        i = k
        if k < 0:                                # the hint first
            for i in range(root.nchildren):
                if t.nodes[root.first_child + i].move == hint:
                    break
            else:
                continue
        elif t.nodes[root.first_child + i].move == hint:
            continue
        ch = &t.nodes[root.first_child + i]
        if ch.lower == ch.upper or ch.flags & SOLVER_TRIED or t.solver_left < MIN_SOLVER_NODES:
            continue
        if not _play_root_child(t, ch, p):
            _solve_node(t, ch, p, t.root_nodes, &ignored)
    _bounds_from_children(t, root)


cdef Node* _child_with_move(Tree* t, Node* n, int move) noexcept nogil:
    """``n``'s child for ``move`` (``n`` expanded), NULL if it has none."""
    cdef int i
    for i in range(n.nchildren):
        if t.nodes[n.first_child + i].move == move:
            return &t.nodes[n.first_child + i]
    return NULL


cdef void _secure_hint(Tree* t, Node* root, Node* ch, PosState* p) noexcept nogil:
    """An unsolved middlegame root with a bound proven on its mover's side: the
    solver's table move (``ch``) is most likely the move that proved it.  A threshold
    solve of that move on the same table (cheap if so) gives the move the bound, so that
    the move choice can play a move proven to keep it (MCTS._best_move)."""
    cdef bint black = t.root_state.h.to_move == BLACK
    cdef int32_t bound = root.lower if black else root.upper
    cdef int64_t nodes
    cdef int answer
    if (bound <= -t.bound) if black else (bound >= t.bound):
        return                                   # nothing proven for the mover
    if ((ch.lower >= bound) if black else (ch.upper <= bound)) or _play_root_child(t, ch, p):
        return
    # "is it at least the bound?" for Black; "at least the bound + 1?" (no) for White
    answer = exact_threshold(t.root_exact, p, HINT_SOLVER_NODES, bound if black else bound + 1, &nodes)
    t.solver_calls += 1
    t.solver_nodes += nodes
    if black and answer > 0:
        _tighten(ch, bound, ch.upper)
    elif not black and answer < 0:
        _tighten(ch, ch.lower, bound)


cdef bint _solve_middlegame_root(Tree* t, double deadline) noexcept nogil:
    """A root beyond the endgame's cell count goes to the solver within
    ``t.root_budget`` nodes (a share of the search's budget) and, under a time
    budget, by ``deadline``: MTD(f) runs in slices of ROOT_SLICE_NODES, each
    starting from the last one's bounds and table, the first guessing the
    search's mean margin.  If it finishes, the solver's best move is solved to
    the same value (cheap on the same table), so the search can stop and play
    it.  True if the root is settled."""
    cdef Node* root = &t.nodes[0]
    cdef PosState* p = t.scratch
    cdef Node* ch
    cdef int32_t lo = root.lower, hi = root.upper
    cdef int64_t nodes, left = t.root_budget
    cdef int guess = <int>root.score, hint = -1, ignored
    if left < MIN_SOLVER_NODES or t.stop:
        return False
    if t.root_exact == NULL:
        t.root_exact = exact_new(ROOT_TABLE_LOG2)
        if t.root_exact == NULL:
            return False
    root.flags |= SOLVER_TRIED
    while left >= MIN_SOLVER_NODES and not t.stop and monotonic_seconds() < deadline:
        pos_copy(p, t.root_state)
        exact_solve(t.root_exact, p, min(left, ROOT_SLICE_NODES), guess, &lo, &hi, &nodes, &hint)
        t.solver_calls += 1
        t.solver_nodes += nodes
        left -= nodes
        _tighten(root, lo, hi)
        lo, hi = root.lower, root.upper
        if lo == hi:
            break
        guess = max(lo, min(guess, hi))
    if hint < 0 or (root.first_child < 0 and not _expand(t, root, p)):
        return False
    ch = _child_with_move(t, root, hint)
    if lo != hi:
        if ch != NULL:
            _secure_hint(t, root, ch, p)
        return False
    if ch != NULL and not _play_root_child(t, ch, p):
        exact_solve(t.root_exact, p, max(t.root_budget, MIN_SOLVER_NODES), lo, &lo, &hi, &nodes, &ignored)
        t.solver_calls += 1
        t.solver_nodes += nodes
        _tighten(ch, lo, hi)
        ch.flags |= SOLVER_TRIED
    _bounds_from_children(t, root)
    return _settled(t, root)


cdef void _iterate(Tree* t) noexcept nogil:
    cdef PosState* p = t.scratch
    cdef int32_t* path = t.path
    cdef Node* n = &t.nodes[0]
    cdef Node* ch
    cdef int depth = 0, winner, d, i, mover, hint
    cdef int32_t ci, margin
    cdef bint rave = t.rave_k > 0, new_bounds = False
    pos_copy(p, t.root_state)
    if rave:
        memset(t.played_by, 0, p.ncells + 1)
    path[0] = 0
    while not _settled(t, n):
        if n.first_child < 0:
            if depth > 0 and n.visits < t.expand_visits:
                break
            if not _expand(t, n, p):
                break
        if (t.prior_weights != NULL and not n.flags & PRIOR_SET
                and (depth == 0 or n.visits >= PRIOR_VISITS)):
            _set_priors(t, n, p,
                        n.move if depth > 0 else t.root_last,
                        (t.nodes[path[depth - 1]].move if depth > 1 else t.root_last) if depth > 0
                        else t.root_before)
        ci = _select(t, n)
        ch = &t.nodes[ci]
        if rave:
            t.played_by[ch.move] = p.h.to_move
        play_move(p, ch.move)
        depth += 1
        path[depth] = ci
        n = ch
        if p.h.over:
            if n.lower != n.upper:
                _set_exact(n, _final_margin(p, &winner))
                new_bounds = True
            break
        if n.visits == 0 and p.h.nlegal <= t.exact_cells and not n.flags & SOLVER_TRIED:
            new_bounds |= _solve_node(t, n, p, t.leaf_nodes, &hint)
    # the leaf's value: proven, or from leaf_playouts playouts, each backed up on its own
    cdef Node* leaf = n
    cdef int k, playouts = 1
    cdef double scale
    if not _settled(t, leaf) and t.leaf_playouts > 1:
        playouts = t.leaf_playouts
        pos_copy(t.leaf_state, p)
        if rave:
            memcpy(t.played_saved, t.played_by, p.ncells + 1)
    for k in range(playouts):
        if k > 0:
            pos_copy(p, t.leaf_state)
            if rave:
                memcpy(t.played_by, t.played_saved, p.ncells + 1)
        if _settled(t, leaf):
            winner = leaf.proven
            # exact, or (playing for the win) the bound that decides the winner
            margin = leaf.lower if winner == BLACK or leaf.lower == leaf.upper else leaf.upper
        else:
            random_playout(p, &t.rng, 0.0, t.played_by if rave else NULL)
            margin = _final_margin(p, &winner)
            if margin < leaf.lower or margin > leaf.upper:  # a playout cannot beat what is proven
                margin = max(leaf.lower, min(margin, leaf.upper))
                winner = _winner_of(margin)
        t.margin_count += 1
        t.margin_sum += margin
        t.margin_sq += <double>margin * margin
        scale = _score_scale(t) if t.score_weight > 0 else 0.0
        for d in range(depth, -1, -1):
            n = &t.nodes[path[d]]
            n.visits += 1
            n.value += _reward(winner, n.mover)
            n.score += (margin - n.score) / n.visits
            if d > 0 and scale > 0:
                n.utility = _utility(t, n, &t.nodes[path[d - 1]], scale)
            if rave and n.first_child >= 0:
                mover = t.nodes[n.first_child].mover
                for i in range(n.nchildren):
                    ch = &t.nodes[n.first_child + i]
                    if t.played_by[ch.move] == mover:
                        ch.amaf_visits += 1
                        ch.amaf_value += _reward(winner, mover)
    if new_bounds:
        for d in range(depth - 1, -1, -1):
            if not _bounds_from_children(t, &t.nodes[path[d]]):
                break


cdef int64_t tree_search(Tree* t, int64_t iterations, double seconds) noexcept nogil:
    """Run up to ``iterations`` (<0: no limit) for up to ``seconds`` (<=0: no
    limit), stopping early once the root is settled; returns iterations run."""
    cdef int64_t done = 0
    cdef double start = monotonic_seconds(), now
    cdef double deadline = start + seconds if seconds > 0 else INFINITY
    cdef double allowance = (SOLVER_NODES_PER_ITERATION * iterations if iterations >= 0
                             else SOLVER_NODES_PER_SECOND * seconds)
    cdef double root_allowance = (allowance if iterations >= 0
                                  else ROOT_SOLVER_NODES_PER_SECOND * seconds)
    # the middlegame root solve: after a first share of the budget (its mean margin
    # is the solver's first guess), a share of the budget, taken off the playouts
    cdef bint root_pending = (t.solves_root and t.root_cells > 0 and t.root_state.h.nlegal > t.root_cells
                              and not t.nodes[0].flags & SOLVER_TRIED)
    # (under a time budget only the clock sets the iteration: the first guess needs a search)
    cdef int64_t root_at_iteration = <int64_t>(ROOT_AFTER * iterations) if iterations >= 0 else -1
    cdef double root_at_time = start + ROOT_AFTER * seconds if seconds > 0 else INFINITY
    t.root_budget = <int64_t>(t.root_share * root_allowance)
    if root_pending and t.root_budget < _root_nodes_needed(t.root_state.h.nlegal) * ROOT_REACH:
        root_pending = False                  # beyond the solver's reach in this budget
    t.solver_left = <int64_t>((1.0 - t.root_share) * allowance if root_pending else allowance)
    _solve_root_moves(t)
    while (iterations < 0 or done < iterations) and not _settled(t, &t.nodes[0]) and not t.stop:
        if root_pending and done == root_at_iteration:
            root_pending = False
            if _solve_middlegame_root(t, start + (ROOT_AFTER + t.root_share) * seconds if seconds > 0
                                      else INFINITY):
                break
        _iterate(t)
        done += 1
        if (done & 63) == 0:
            now = monotonic_seconds()
            if now >= deadline:
                break
            if root_pending and now >= root_at_time:
                root_at_iteration = done
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
        self.t.played_saved = <uint8_t*>malloc(ncells + 1)
        self.t.leaf_state = pos_alloc(ncells)
        self.t.path = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        self.t.beta_table = <float*>malloc(TABLE_SIZE * sizeof(float))
        if (self.t.nodes == NULL or self.t.beta_table == NULL or self.t.root_state == NULL
                or self.t.scratch == NULL or self.t.played_by == NULL or self.t.path == NULL
                or self.t.played_saved == NULL or self.t.leaf_state == NULL):
            raise MemoryError("not enough memory for the search tree; lower tree_nodes")

    def __dealloc__(self):
        exact_free(self.t.exact)
        exact_free(self.t.root_exact)
        free(self.t.nodes)
        free(self.t.root_state)
        free(self.t.scratch)
        free(self.t.played_by)
        free(self.t.played_saved)
        free(self.t.leaf_state)
        free(self.t.path)
        free(self.t.beta_table)

    cdef void reset(self, const PosState* root) noexcept:
        pos_copy(self.t.root_state, root)
        self.t.size = 1
        _init_node(&self.t.nodes[0], NO_MOVE, 0, self.t.bound)

    def run(self, int64_t iterations, double seconds):
        """Search (the caller clears ``t.stop`` first: an interrupt that comes before
        this thread starts must still stop it)."""
        cdef int64_t done
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
        self.t.root_before = self.t.root_last
        self.t.root_last = move
        if child < 0:
            self.t.size = 1
            _init_node(&self.t.nodes[0], NO_MOVE, 0, self.t.bound)
            return False
        self._keep_subtree(child)
        return True

    cdef void _keep_subtree(self, int32_t top) noexcept:
        """Move the subtree under ``top`` to the front of the arena (breadth first)."""
        cdef Node* old = self.t.nodes
        cdef Node* fresh = <Node*>malloc(self.t.capacity * sizeof(Node))
        cdef int64_t head = 0, tail = 1
        cdef Node* n
        if fresh == NULL:                          # no room to compact: start afresh
            self.t.size = 1
            _init_node(&self.t.nodes[0], NO_MOVE, 0, self.t.bound)
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
        return (self.t.root_state.geo == p.geo and self.t.root_state.h.zobrist == p.h.zobrist
                and self.t.root_state.game_type == p.game_type and self.t.root_state.komi == p.komi
                and self.t.root_state.scoring == p.scoring
                and memcmp_state(self.t.root_state, p))


cdef bint memcmp_state(const PosState* a, const PosState* b) noexcept:
    return memcmp(a, b, pos_bytes(a.ncells)) == 0


cdef class MCTS:
    """UCT search with Score Bounded MCTS, exact endgames, tree reuse, root
    parallelism and RAVE.

    ``MCTS(seed=None, c=..., threads=1, rave=True, rave_k=300, expand_visits=1,
    tree_nodes=2_000_000, score_weight=0.2, exact_cells=14, *, root_solve_share=0.85,
    prior_weight=0, leaf_playouts=1)``.  Ctrl-C ends a
    search early and returns what it found.  ``c`` is the UCT exploration
    constant (default 0.1 with RAVE, 0.7 without; docs/strength.md).  With a seed and an
    iteration budget a search is reproducible; each thread searches its own
    tree (seeded from ``seed``) and the root statistics are summed.

    Playing for points: ``score_weight`` adds a utility of the final margin
    (saturating, centred on the parent's mean margin, scaled by the spread of
    the margins seen) to the win rate in selection, as KataGo does; nodes keep
    proven bounds on the margin and prune moves that cannot improve on them
    (Cazenave and Saffidine's Score Bounded MCTS), and the search goes on until
    the root's exact margin is known.  ``score_weight=0`` plays for the win
    only (MCTS-Solver: a proven winner ends the search).  Longest-ribbon
    scoring has no margin, so there the search is always win/loss only.  The
    default 0.2 won the most games against ``score_weight=0`` of 0.1, 0.2 and
    0.5 at equal iterations (``python -m catena match``, README).

    Exact endgames: a leaf whose position has at most ``exact_cells`` legal
    cells is handed to the exact solver (under a node budget) instead of a
    playout, and when the root has at most ``exact_cells + 6`` the root and
    then each root move are solved first, with a larger budget (0 turns both
    off).  A search's solver nodes are capped at 30 per iteration (a million a
    second under a time budget), so the solver takes at most about twice the
    time of the playouts it replaces: from 10,000 iterations the whole side-3
    board is solved at the root.  A larger root goes to the solver too when
    the budget may be enough for it (its nodes against a per-cell estimate,
    docs/strength.md): after a tenth of the budget, the solver gets
    ``root_solve_share`` of it (0 turns this off; under a time budget, at the
    solver's own speed of about 4 M nodes a second), in slices that keep to the time
    budget; a solved root is played exactly and ends the search, an unsolved one
    leaves the rest to the playouts.  ``SearchResult.solver_nodes`` says what the
    solver spent.

    ``leaf_playouts`` playouts start from each leaf an iteration reaches (default 1),
    each backed up as one visit: they share the descent, so an iteration of two costs
    about one and a half of one.  ``MCTSPlayer`` uses two (docs/strength.md).

    The learned move prior (:mod:`catena.prior`, the weights shipped in the package):
    ``prior_weight`` > 0 adds ``prior_weight * P / (visits + 1)`` to a child's score in
    selection (a progressive bias), P the prior's probability of its move among its
    siblings, set when the parent is visited the 8th time (the root at once).  It costs
    7 to 12% of the iterations a second and has not shown a gain yet
    (docs/strength.md), so it is off by default.

    >>> import catena
    >>> mcts = catena.MCTS(seed=1)
    >>> result = mcts.search(catena.Position(size=3), iterations=10_000)
    >>> result.exact, result.scores[result.best_move]      # side 3 is solved at the root
    (10.5, 10.5)
    """
    cdef list _trees
    cdef object _position          # a copy of the root position
    cdef readonly object seed
    cdef readonly double c
    cdef readonly int threads
    cdef readonly bint rave
    cdef readonly double rave_k
    cdef readonly int expand_visits
    cdef readonly long long tree_nodes
    cdef readonly double score_weight
    cdef readonly int exact_cells
    cdef readonly double root_solve_share
    cdef readonly double prior_weight
    cdef readonly int leaf_playouts
    cdef bint _busy                # a search runs: the object belongs to the thread running it

    def __init__(self, seed=None, c=None, threads=1, rave=True, rave_k=300.0, expand_visits=1,
                 tree_nodes=2_000_000, score_weight=0.2, exact_cells=14, *, root_solve_share=0.85,
                 prior_weight=0.0, max_nodes=None, leaf_playouts=1):
        self._check_idle("be re-initialised")
        tree_nodes = renamed(tree_nodes, "tree_nodes", 2_000_000, max_nodes, "max_nodes", "MCTS")
        self.seed = checked_seed(seed)
        self.threads = integer(threads, "threads", 1, MAX_THREADS)
        self.expand_visits = integer(expand_visits, "expand_visits", 1, 0x7FFFFFFF)
        self.tree_nodes = integer(tree_nodes, "tree_nodes", 1000, MAX_TREE_NODES)
        self.exact_cells = integer(exact_cells, "exact_cells", 0, 0x7FFFFFFF)
        self.rave = bool(rave)
        self.rave_k = real(rave_k, "rave_k", positive=True)
        self.c = (0.1 if self.rave else 0.7) if c is None else real(c, "c", minimum=0)
        self.score_weight = real(score_weight, "score_weight", 0, 100)
        self.root_solve_share = real(root_solve_share, "root_solve_share", 0, 0.9)
        self.prior_weight = real(prior_weight, "prior_weight", 0, 100)
        self.leaf_playouts = integer(leaf_playouts, "leaf_playouts", 1, 64)
        self._trees = []
        self._position = None

    cdef _TreeHandle _new_tree(self, Position pos, int index):
        capacity = self.tree_nodes // self.threads
        if capacity < 4 * (pos._st.ncells + 1):
            raise ValueError(f"tree_nodes={self.tree_nodes} is too small for side {pos.size}: each of the "
                             f"{self.threads} trees needs room for at least {4 * (pos._st.ncells + 1)} nodes")
        cdef _TreeHandle tree = _TreeHandle(capacity, pos._st.ncells)
        cdef int i
        cdef bint longest = pos._st.scoring == SCORING_LONGEST
        seed = self.seed if self.seed is not None else int.from_bytes(os.urandom(8), "little")
        rng_seed(&tree.t.rng, <uint64_t>((seed * 0x9E3779B97F4A7C15 + index) & 0xFFFFFFFFFFFFFFFF))
        tree.t.c = self.c
        tree.t.rave_k = self.rave_k if self.rave else 0.0
        tree.t.expand_visits = self.expand_visits
        tree.t.score_weight = 0.0 if longest else self.score_weight
        tree.t.bound = 1 if longest else NO_BOUND
        tree.t.exact_cells = min(self.exact_cells, MAX_MOVES)
        tree.t.root_cells = min(self.exact_cells + ROOT_EXTRA_CELLS, MAX_MOVES) if self.exact_cells else 0
        tree.t.leaf_nodes = LEAF_SOLVER_NODES
        tree.t.root_nodes = ROOT_SOLVER_NODES
        tree.t.solves_root = index == 0
        tree.t.root_share = self.root_solve_share
        tree.t.prior_weight = self.prior_weight
        tree.t.leaf_playouts = self.leaf_playouts
        if self.prior_weight > 0:
            tree.t.prior_weights = prior_weights()
            tree.t.prior_tables = prior_tables_for(pos.size)
        tree.t.root_last, tree.t.root_before = last_moves(pos)
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
        trees = list(self._trees)
        cdef _TreeHandle handle
        for handle in trees:
            handle.t.stop = 0

        def interrupt():
            for each in trees:
                each.interrupt()

        # Ctrl-C stops the threads cleanly and what they found is returned
        solver_before = self._solver_nodes()
        done = run_interruptibly([functools.partial(tree.run, its, secs) for tree in trees], interrupt)
        return self._result(sum(n or 0 for n in done), time.perf_counter() - start,
                            self._solver_nodes() - solver_before)

    def _solver_nodes(self):
        """The exact solver's nodes over the trees' lives."""
        cdef _TreeHandle tree
        cdef int64_t total = 0
        for tree in self._trees:
            total += tree.t.solver_nodes
        return total

    def _root_stats(self):
        """Per root move, summed over the trees: [visits, value sum, margin sum,
        lower, upper] (bounds intersected: every tree's are proven); and the
        root's bounds."""
        cdef _TreeHandle tree
        cdef Node* root
        cdef Node* ch
        cdef int i
        stats = {}
        lower, upper = -NO_BOUND, NO_BOUND
        for tree in self._trees:
            root = &tree.t.nodes[0]
            lower, upper = max(lower, root.lower), min(upper, root.upper)
            if root.first_child < 0:
                continue
            for i in range(root.nchildren):
                ch = &tree.t.nodes[root.first_child + i]
                s = stats.setdefault(ch.move, [0, 0.0, 0.0, -NO_BOUND, NO_BOUND])
                s[0] += ch.visits
                s[1] += ch.value
                s[2] += <double>ch.score * ch.visits
                s[3] = max(s[3], ch.lower)
                s[4] = min(s[4], ch.upper)
        return stats, lower, upper

    def _result(self, total, seconds, solver_nodes):
        cdef Position pos = self._position
        cdef int mover = pos._st.h.to_move
        longest = pos._st.scoring == SCORING_LONGEST
        sign = 1 if mover == BLACK else -1
        by_index = {m.index: m for m in pos.legal_moves()}
        stats, lower, upper = self._root_stats()
        total_visits = sum(s[0] for s in stats.values())
        root_margin = sum(s[2] for s in stats.values()) / total_visits if total_visits else 0.0
        visits, values, margins = {}, {}, {}
        for index, (n, value, margin_sum, lo, hi) in stats.items():
            m = by_index[index]
            visits[m] = n
            proven = _proven_of(lo, hi)
            if proven:
                values[m] = _reward(proven, mover)
            else:
                values[m] = value / n if n else 0.0
            margins[m] = lo if lo == hi else (margin_sum / n if n else root_margin)
        value = sum(s[1] for s in stats.values()) / total_visits if total_visits else 0.5
        winner = _proven_of(lower, upper)
        best = self._best_move(stats, lower, upper, sign, values, margins, by_index)
        unit = 1.0 if longest else 0.5                     # solver units to points
        exact = lower * unit if lower == upper and not longest else None
        scores = {} if longest else {m: margins[m] * unit for m in margins}
        score = None if longest else (exact if exact is not None else scores.get(best, root_margin * unit))
        return SearchResult(best_move=best, visits=visits, values=values,
                            pv=self._principal_variation(best.index), iterations=total, seconds=seconds,
                            proven=winner != 0,
                            winner=("black", "white", "draw")[winner - 1] if winner else None,
                            value=value, score=score, scores=scores, exact=exact, solver_nodes=solver_nodes)

    def _best_move(self, stats, lower, upper, sign, values, margins, by_index):
        """The move to play.  A solved root: a move with its exact margin (the most
        visited of them).  For the win: a proven win, else the most visits.  For
        points: the most visited move that might still beat the root's proven
        pessimistic bound, unless the move that secures that bound is worth more, or
        the search expects no more of it than a move proven to keep the bound gives."""
        if not stats:
            return next(iter(by_index.values()))
        mover_bound = lower if sign > 0 else upper          # what the mover is sure of

        def visited(i):                                      # most visits, best value, lowest index
            return stats[i][0], values[by_index[i]], -i

        if lower == upper:
            best = [i for i, s in stats.items() if s[3] == s[4] == lower]
            if best:
                return by_index[max(best, key=visited)]
        if self.score_weight == 0 or self._position.scoring == "longest":
            winning = [i for i, s in stats.items() if _proven_of(s[3], s[4]) == (1 if sign > 0 else 2)]
            if winning:
                return by_index[winning[0]]
            return by_index[max(stats, key=visited)]

        def sure(s):                                         # what a move is sure to give the mover
            return sign * (s[3] if sign > 0 else s[4])

        open_moves = [i for i, s in stats.items() if sign * (s[4] if sign > 0 else s[3]) > sign * mover_bound]
        if sign * mover_bound > 0:                 # a proven win: only moves proven to keep it
            open_moves = [i for i in open_moves if sure(stats[i]) > 0]
        elif sign * mover_bound == 0:              # a proven draw at least: never a move that may lose
            open_moves = [i for i in open_moves if sure(stats[i]) >= 0]
        secure = [i for i, s in stats.items() if s[3] == s[4] == mover_bound]
        if not open_moves:
            if not secure:                          # the bound comes from a move not yet solved
                secure = [i for i, s in stats.items() if sure(s) == sign * mover_bound]
            return by_index[max(secure or stats, key=visited)]
        choice = max(open_moves, key=visited)
        if secure:
            safest = max(secure, key=visited)
            m, s = by_index[choice], by_index[safest]
            if (values[s], sign * margins[s]) >= (values[m], sign * margins[m]):
                return s
        kept = [i for i, s in stats.items() if sure(s) >= sign * mover_bound]
        if kept and choice not in kept and sign * margins[by_index[choice]] <= sign * mover_bound:
            # the search expects no more of its choice than a move proven to keep the
            # bound (a middlegame root solve's table move, _secure_hint) gives for sure
            return by_index[max(kept, key=visited)]
        return by_index[choice]

    def _principal_variation(self, int first):
        """``first`` (the move chosen), then the best line in the tree that settled
        the root, else in the first tree: at a solved node a child with its exact
        margin, else a proven win, else the most visited child."""
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
                if first >= 0:
                    if ch.move == first:
                        best = ch
                        break
                    continue
                if n.lower == n.upper and ch.lower == n.lower and ch.upper == n.upper:
                    best = ch
                    break
                if ch.proven and ch.proven == ch.mover and not (best != NULL and best.proven == best.mover):
                    best = ch
                elif best == NULL or (ch.visits > best.visits
                                      and not (best.proven and best.proven == best.mover)):
                    best = ch
            if best == NULL or (best.visits == 0 and best.proven == 0 and first < 0):
                break
            first = -1
            names.append(best.move)
            n = best
        cdef Position pos = self._position
        if not names and first >= 0:
            names.append(first)
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
        return (functools.partial(type(self), root_solve_share=self.root_solve_share,
                                  prior_weight=self.prior_weight, leaf_playouts=self.leaf_playouts),
                (self.seed, self.c, self.threads, self.rave, self.rave_k, self.expand_visits,
                 self.tree_nodes, self.score_weight, self.exact_cells))

    @property
    def max_nodes(self):
        """The old name of :attr:`tree_nodes` (deprecated)."""
        warnings.warn("MCTS.max_nodes is now MCTS.tree_nodes; the old name will go", DeprecationWarning)
        return self.tree_nodes

    @property
    def tree_size(self):
        """Nodes in use in each tree."""
        cdef _TreeHandle tree
        return [tree.t.size for tree in self._trees]
