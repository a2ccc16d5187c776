# Monte Carlo tree search over the position core: the node record, one tree,
# and the kernels that run without the GIL.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from catena._position cimport PosState
from catena._prior cimport PriorTables
from catena._rng cimport Rng

cdef enum:
    PROVEN_DRAW = 3          # Node.proven: 0 unknown, BLACK or WHITE wins, or a draw
    SOLVER_TRIED = 1         # Node.flags: the exact solver was run on this node's position
    PRIOR_SET = 2            # Node.flags: its children have their prior

ctypedef struct Node:
    int32_t first_child      # arena index of the first child, -1 until expanded
    uint16_t nchildren       # children are contiguous in the arena
    uint16_t move            # the move from the parent (cell index or the button; NO_MOVE at the root)
    uint8_t mover            # colour that played it (0 at the root)
    uint8_t proven           # 0 unknown, else the winner under best play (read from the bounds)
    uint8_t flags            # SOLVER_TRIED, PRIOR_SET
    uint8_t prior            # the learned prior's probability of the move among its siblings, as
                             # 255 * its square root, rounded (in the record's padding byte; 0 until
                             # the parent has PRIOR_SET)
    uint32_t visits
    float value              # sum of rewards for the mover: 1 a win, 0.5 a draw
    float score              # mean final margin of the visits, Black minus White (solver units:
                             # half points; +1/0/-1 under longest ribbon)
    float utility            # playing for points: score_weight * the margin utility of ``score``
                             # for the mover against the parent's mean, as of the last visit
    uint32_t amaf_visits     # RAVE: playouts after the parent in which the mover played this move
    float amaf_value         # RAVE: their rewards for the mover
    int32_t lower            # Score Bounded MCTS: proven bounds on Black's final margin under
    int32_t upper            # best play (solver units); lower == upper: the node is solved

ctypedef struct Tree:
    Node* nodes              # the arena; nodes[0] is the root
    int64_t capacity         # nodes the arena holds
    int64_t size             # nodes in use
    PosState* root_state     # the root position (kept with make_move, so its key is exact)
    PosState* scratch        # the position of the current iteration
    uint8_t* played_by       # per move: colour that played it this iteration (AMAF)
    int leaf_playouts        # playouts from each leaf an iteration reaches
    PosState* leaf_state     # the leaf's position, for its playouts after the first
    uint8_t* played_saved    # played_by at the leaf, likewise
    int32_t* path            # node indices from the root in the current iteration
    float* beta_table        # RAVE weights by visit count (TABLE_SIZE entries)
    Rng rng
    double c                 # exploration constant of UCT
    double rave_k            # RAVE equivalence parameter; 0 turns RAVE off
    uint32_t expand_visits   # a leaf is expanded once it has this many visits
    int64_t iterations       # iterations run since the tree was made
    int stop                 # set from another thread (Ctrl-C) to end the current search
    double score_weight      # weight of the margin in selection; 0: win/loss only (longest: 0)
    int32_t bound            # the widest bound: margins lie in [-bound, bound]
    double margin_count      # the margins backed up in this tree (over all its roots): count,
    double margin_sum        # sum and sum of squares, for the scale of the margin utility
    double margin_sq
    void* exact              # the exact solver (its own table), made when first needed
    int exact_cells          # solve a leaf's position when it has at most this many legal cells
    int root_cells           # solve every root move when the root has at most this many
    int64_t leaf_nodes       # solver node budget at a leaf
    int64_t root_nodes       # solver node budget for each root move
    int64_t solver_left      # solver nodes this search may still spend
    void* root_exact         # the exact solver of middlegame roots (a larger table, kept for
                             # the tree's later roots), made when first needed
    int64_t root_budget      # solver nodes this search gives a middlegame root's solve (0: none)
    double root_share        # the share of a search's solver allowance a middlegame root solve gets
    bint solves_root         # this tree solves middlegame roots (the first tree: the other
                             # threads search meanwhile, and one table is enough)
    double prior_weight      # weight of the learned prior's progressive bias; 0 turns it off
    const float* prior_weights   # the prior's feature weights (NULL while it is off)
    const PriorTables* prior_tables  # its per-cell tables of this side
    int root_last            # the last two moves before the root (NO_MOVE if none): the
    int root_before          # prior's features at the root and just below
    int64_t solver_calls     # statistics: solver runs and their nodes
    int64_t solver_nodes

cdef int64_t tree_search(Tree* t, int64_t iterations, double seconds) noexcept nogil
