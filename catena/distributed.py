"""Exact solving and self-play on Ray (https://docs.ray.io): one machine's cores or a cluster.

:func:`solve` splits the game tree at a fixed depth into *work units*, the
positions there made canonical over the board's symmetries (transpositions
and mirror images become one unit).  Each machine runs one Ray actor whose
workers are *searchers*, each solving one unit at a time on its own thread
(or, with ``threads=k``, on ``k`` threads together as :func:`catena.solve`'s
threads do), all in one table that stays warm between units; a unit goes back
to the machine that searched it, so a unit searched again at the next null
window finds its own entries.  The driver runs MTD(f) over the top of the
tree: for each null window it asks only the units still undecided, in the
solver's move order, the needed ones before those only a wrong guess at a cut
node would need, cancels the ones a cutoff made useless (``ray.cancel``),
splits a long unit into its children when a searcher would otherwise idle or
only speculate,
keeps every bound proven on a unit, and saves them to ``checkpoint`` so an
interrupted solve resumes.  Between machines nothing but
those bounds is shared.  docs/distributed.md has the cluster steps and
measurements.

:func:`selfplay` plays game ``index`` on any worker from the seed of
:func:`catena.selfplay.game_seed` alone, so it writes exactly what the serial
``python -m catena selfplay`` writes with the same seed.

Ray is an optional extra (``pip install catena[distributed]``); this module
imports it only when work starts.  Without ``address`` a local Ray runs on the
machine's cores; with one (``"HEAD:6379"``, or ``"auto"``) the work goes to
that cluster.  A Ray already started in this process (``ray.init``) is used
as it is.

>>> plan = work_units(catena.Position(size=2), depth=1)    # 7 cells and the button, 3 up to symmetry
>>> len(plan.leaves), len(plan.units)
(8, 3)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import itertools
import json
import os
import signal
import socket
import sys
import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import catena
from catena._validate import integer, optional_integer, optional_real, real
from catena.checkpoint import check_writable, checkpoint_path, header_line, replacing, verified_fields
from catena.errors import CheckpointError, CheckpointWarning
from catena.record import record_name
from catena.results import SolveResult
from catena.selfplay import (
    record_text,
    sampled_plies,
    selfplay_game,
    training_arrays,
    training_game,
    write_npz,
)
from catena.solver import (
    THREADS_LIMIT,
    TableSolver,
    canonical_key,
    game_variant,
    next_window,
    points,
    proven_bounds,
    root_id,
    solve_result,
    solver_moves,
    window_and_guess,
)
from catena.solver import UNBOUNDED as INF

CHECKPOINT_FORMAT = "catena-distributed-checkpoint 2"      # 1 had no checksum: refused, as it could lie
CHECKPOINT_LIMIT = 1 << 28  # bytes a checkpoint may take (a unit's bounds take about 30; depth 4 has < 10^6 units)
UNITS_PER_SEARCHER = 8      # the default depth is the first that gives at least this many units a searcher
NICENESS = "RAY_worker_niceness"   # Ray runs a local Ray's workers at this niceness (default 15)
GCS_ATTEMPTS = "RAY_gcs_server_port_wait_time_s"   # ray.init's attempts to reach a head (default 20)
CONNECT_SECONDS = 10        # a Ray head's address that takes no TCP connection this long fails
WORKER_RESTARTS = 3         # times Ray starts a solve's actor again after its process died
LOST_ANSWERS = 20           # answers a searcher may lose to dying workers before the solve gives up
MAX_DEPTH = 4               # deeper, the top of the tree costs the driver more than it spreads
SPLIT_SECONDS = 0.5         # a unit searched this long while a searcher idles or speculates is split ...
SPLIT_MOVES = 16            # ... unless it lies this many moves below the root
LEARNT_ORDER_SECONDS = 10   # a split waits this long at most for the unit's machine's move order


# ---------------------------------------------------------------------------
# The top of the tree, split into units


@dataclass
class _Node:
    """A position of the top tree: inner (children), a unit (key), or over (value).  A unit that
    was split keeps its key (its proven bounds still hold) and gains children."""
    maximising: bool
    moves: tuple[int, ...]                     # from the root, action ids
    children: list[_Node] = field(default_factory=list)
    key: Optional[int] = None                  # a unit's canonical key
    value: Optional[int] = None                # a finished game's value, half points


@dataclass
class WorkPlan:
    """The top of the tree down to ``depth``: ``leaves`` every position there (or
    a finished game above it), ``units`` one move list per distinct unit key.
    :func:`_split` grows it below ``depth`` where the work needs it."""
    root: _Node
    depth: int
    leaves: list[_Node]
    units: dict[int, tuple[int, ...]]
    split: set[int] = field(default_factory=set)     # unit keys turned into inner nodes
    maximising: dict[int, bool] = field(default_factory=dict)    # unit key -> Black to move there


def _final_value(pos: catena.Position) -> int:
    """A finished game's value in the solver's units (half points; +1/0/-1 under longest ribbon)."""
    outcome = pos.outcome()
    if pos.scoring == "longest":
        return 0 if outcome.winner is None else (1 if outcome.winner == "black" else -1)
    return round(2 * (outcome.black_score - outcome.white_score))


def work_units(pos: catena.Position, depth: int) -> WorkPlan:
    """Expand ``pos`` ``depth`` moves deep with the solver's own move generator.

    >>> plan = work_units(catena.Position(size=1), depth=2)
    >>> plan.depth, len(plan.units) <= len(plan.leaves)
    (2, True)
    """
    if not isinstance(pos, catena.Position):
        raise TypeError(f"expected a catena.Position, not {type(pos).__name__}")
    depth = integer(depth, "depth", 0, MAX_DEPTH)
    p = pos.copy()
    plan = WorkPlan(_Node(maximising=p.to_move == "black", moves=()), depth, [], {})
    _grow(plan, plan.root, p, depth)
    return plan


def _grow(plan: WorkPlan, node: _Node, p: catena.Position, left: int) -> None:
    """Expand ``node`` (at position ``p``) ``left`` moves deep: its leaves are units or finished games."""
    if p.is_game_over():
        node.value = _final_value(p)
    elif left == 0:
        node.key = canonical_key(p)
        plan.units.setdefault(node.key, node.moves)
        plan.maximising[node.key] = node.maximising
    else:
        _add_children(plan, node, p, left - 1)
    if not node.children:
        plan.leaves.append(node)


def _add_children(plan: WorkPlan, node: _Node, p: catena.Position, left: int,
                  order: Optional[list[int]] = None) -> None:
    """``node``'s children, in ``order`` (default the solver's generator order)."""
    for move in solver_moves(p) if order is None else order:
        p.push(move)
        child = _Node(maximising=p.to_move == "black", moves=node.moves + (move,))
        node.children.append(child)
        _grow(plan, child, p, left)
        p.pop()


def _split(plan: WorkPlan, root: catena.Position, key: int,
           order_of: Optional[Callable[[tuple[int, ...]], Optional[list[int]]]] = None) -> None:
    """Make the unit ``key`` an inner node whose children are units: while one long search is all
    that is left to do, its children can go to several searchers.  ``order_of(moves)``: the order
    of a leaf's children, the one its searches learnt (None: the generator's)."""
    plan.split.add(key)
    for leaf in [node for node in plan.leaves if node.key == key]:
        p = root.copy()
        for move in leaf.moves:
            p.push(move)
        plan.leaves.remove(leaf)
        _add_children(plan, leaf, p, 0, None if order_of is None else order_of(leaf.moves))


def _choose_depth(pos: catena.Position, searchers: int) -> int:
    """The first depth that gives every searcher UNITS_PER_SEARCHER units (or MAX_DEPTH)."""
    for depth in range(1, MAX_DEPTH):
        if len(work_units(pos, depth).units) >= UNITS_PER_SEARCHER * searchers:
            return depth
    return MAX_DEPTH


# ---------------------------------------------------------------------------
# Bounds over the top of the tree


def _bounds(node: _Node, cache: dict[int, list[int]],
            memo: Optional[dict[int, tuple[int, int]]] = None) -> tuple[int, int]:
    """Minimax of the proven unit bounds: what is proven about ``node``.  ``memo`` (by node id)
    keeps the bounds of the subtrees already met, for a caller that asks of every node in turn."""
    if memo is not None and id(node) in memo:
        return memo[id(node)]
    if node.value is not None:
        return node.value, node.value
    lower, upper = cache.get(node.key, (-INF, INF)) if node.key is not None else (-INF, INF)
    if node.children:
        pairs = [_bounds(child, cache, memo) for child in node.children]
        pick = max if node.maximising else min
        lower, upper = max(lower, pick(p[0] for p in pairs)), min(upper, pick(p[1] for p in pairs))
    if memo is not None:
        memo[id(node)] = lower, upper
    return lower, upper


def _undecided(node: _Node, cache: dict[int, list[int]], beta: int, expect_yes: bool, out: dict[int, int],
               speculation: int = 0, memo: Optional[dict[int, tuple[int, int]]] = None) -> None:
    """The units whose answer to "value >= beta?" could still decide ``node``, in search order (at
    each node the child with the best proven bound first, the previous null window's best move, then
    the solver's move order), each with its speculation: at how many nodes above it an elder
    brother's answer, if it is the expected one (``expect_yes``), decides the node without it."""
    memo = {} if memo is None else memo
    lower, upper = _bounds(node, cache, memo)
    if lower >= beta or upper < beta:
        return
    if not node.children:
        out[node.key] = min(out.get(node.key, speculation), speculation)     # reached by transposition
        return
    bounds = [_bounds(child, cache, memo) for child in node.children]
    order = sorted(range(len(bounds)), key=(lambda i: (-bounds[i][0], -bounds[i][1])) if node.maximising
                   else (lambda i: (bounds[i][1], bounds[i][0])))
    one_child_decides = node.maximising == expect_yes     # a cut node: not every child is needed
    undecided = [i for i in order if bounds[i][0] < beta <= bounds[i][1]]
    for rank, i in enumerate(undecided):
        _undecided(node.children[i], cache, beta, expect_yes, out,
                   speculation + (1 if one_child_decides and rank > 0 else 0), memo)


# ---------------------------------------------------------------------------
# The workers


def _searchers(seats: int, threads: int) -> list[int]:
    """The threads of each searcher of a machine with ``seats`` workers: ``threads`` each, the
    last with what is left."""
    threads = min(threads, seats)
    return [threads] * (seats // threads) + ([seats % threads] if seats % threads else [])


class _UnitSolver:
    """A Ray actor on one machine: one TableSolver a searcher (of ``searchers[i]`` threads) sharing
    one warm table, each solving one unit at a time (asyncio, so ray.cancel stops it).  Units
    searched on the same machine, side by side or one after the other, find each other's
    entries."""

    def __init__(self, root: catena.Position, tt_mb: float, searchers: list[int]):
        self.root = root
        first = TableSolver(tt_mb=tt_mb * sum(searchers), threads=searchers[0])
        self.free: asyncio.Queue[TableSolver] = asyncio.Queue()
        for solver in [first] + [TableSolver(share=first, threads=k) for k in searchers[1:]]:
            self.free.put_nowait(solver)
        self.threads = concurrent.futures.ThreadPoolExecutor(max_workers=len(searchers))

    def _position(self, moves: tuple[int, ...]) -> catena.Position:
        pos = self.root.copy()
        for move in moves:
            pos.push(move)
        return pos

    @contextlib.asynccontextmanager
    async def _solver(self):
        """A free TableSolver of this machine's, for one call."""
        solver = await self.free.get()
        try:
            yield solver
        finally:
            self.free.put_nowait(solver)

    async def test(self, moves: tuple[int, ...], beta: int) -> tuple[int, int, int]:
        """Is the unit's value >= beta? (lower, upper, nodes) proven by one null window."""
        pos = self._position(moves)
        async with self._solver() as solver:
            loop = asyncio.get_running_loop()
            search = loop.run_in_executor(self.threads, lambda: solver.solve(pos, window=(beta - 1, beta), guess=beta))
            try:
                lower, upper, nodes, _ = await asyncio.shield(search)
            except asyncio.CancelledError:          # a cutoff made this unit useless: stop the search
                solver.interrupt()
                await search
                raise
        return lower, upper, nodes

    async def move_order(self, moves: tuple[int, ...]) -> list[int]:
        """The position's moves in the order its searches on this machine try them."""
        pos = self._position(moves)
        async with self._solver() as solver:
            return solver.move_order(pos)

    async def principal_variation(self, moves: tuple[int, ...], value: int) -> list[int]:
        pos = self._position(moves)
        async with self._solver() as solver:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.threads, solver.principal_variation, pos, value)


def _ray():
    try:
        import ray
    except ImportError:
        raise ImportError("catena.distributed needs Ray: pip install 'catena[distributed]'") from None
    return ray


@contextlib.contextmanager
def _signals_held(ray: Any = None, note: Optional[str] = None):
    """Hold Ctrl-C (SIGINT) and a SIGTERM the program handles while Ray starts or stops; yields the
    list of the signals that came meanwhile.  Cut short, Ray's start-up left its processes running
    for up to a minute, printed a traceback, or crashed the interpreter (SIGSEGV).  ``ray``: keep
    its ``init`` from setting a SIGTERM handler of its own (exit at once) in the program's place.
    ``note`` is written to stderr at the first signal held, so the wait is not a mystery."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught                               # signals reach the main thread only
        return
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    held = [sig for sig, handler in saved.items() if callable(handler)]     # not SIG_DFL, SIG_IGN
    utils = getattr(getattr(ray, "_private", None), "utils", None)
    own_sigterm = getattr(utils, "set_sigterm_handler", None)

    def hold(signum: int, frame: Any) -> None:
        if note and not caught:
            sys.stderr.write(f"\n{note}\n")
        caught.append(signum)

    for sig in held:
        signal.signal(sig, hold)
    if signal.SIGTERM in held and own_sigterm is not None:
        utils.set_sigterm_handler = lambda handler: None
    try:
        yield caught
    finally:
        if own_sigterm is not None:
            utils.set_sigterm_handler = own_sigterm
        for sig in held:
            signal.signal(sig, saved[sig])


def _check_reachable(ray: Any, address: str) -> None:
    """Raise ConnectionError unless the Ray head at ``address`` takes a TCP connection within
    CONNECT_SECONDS: ray.init waits 20 attempts of about 40 s on an address where nothing listens."""
    if address == "local" or "://" in address:              # a Ray started here; Ray Client
        return
    try:              # the address as ray.init reads it: "auto" found, 127.0.0.1 the machine's own
        from ray._private.services import canonicalize_bootstrap_address
    except ImportError:
        if address == "auto":
            return
        target: Optional[str] = address
    else:
        try:
            target = canonicalize_bootstrap_address(address)  # "auto" and no cluster: ConnectionError
        except ValueError:
            target = address
    if target is None:                                        # Ray will start one here
        return
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"address must be a Ray head's HOST:PORT such as 'HEAD:6379' or 'auto', not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        why = "timed out" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        where = address if target == address else f"{address}, that is {target}"
        raise ConnectionError(f"no Ray cluster answers at {where} ({why}, {CONNECT_SECONDS} s at most): "
                              f"start its head with 'ray start --head' and give the address it prints") from None


class _Cluster:
    """Ray for one call: the one already running in this process, or one started (and stopped) here.

    Ctrl-C while Ray starts takes effect once it is up: it is stopped again and the signal
    delivered.  An address where no Ray head answers fails within CONNECT_SECONDS (a port
    that answers but is not a Ray head, within one attempt of Ray's own, about 40 s)."""

    def __init__(self, address: Optional[str], workers: Optional[int]):
        if address is not None and not isinstance(address, str):
            raise TypeError(f"address must be a Ray address such as 'HEAD:6379' or 'auto', not {address!r}")
        self.workers = optional_integer(workers, "workers", 1, 100_000)
        self.started = False
        with _signals_held() as caught:             # importing Ray takes seconds too
            self.ray = _ray()
        if caught:
            signal.raise_signal(caught[0])
        if not self.ray.is_initialized():
            options: dict[str, Any] = dict(include_dashboard=False, logging_level="ERROR",
                                           configure_logging=False)
            if address is None:
                options["num_cpus"] = os.cpu_count() or 1
            else:
                _check_reachable(self.ray, address)
            settings = {NICENESS: "0",                  # Ray's default, 15, starves them
                        GCS_ATTEMPTS: "1" if address is not None else None}   # a port but no Ray: fail
            saved = {name: os.environ.get(name) for name in settings}
            for name, value in settings.items():
                if value is not None and saved[name] is None:
                    os.environ[name] = value
            try:
                with _signals_held(self.ray, "catena: stopping once Ray has started") as caught:
                    try:
                        self.ray.init(address=address, **options)
                        self.started = True
                    finally:
                        if caught:
                            self.close()
            finally:
                for name, value in saved.items():
                    if value is None:
                        os.environ.pop(name, None)
            if caught:
                signal.raise_signal(caught[0])
        if self.workers is None:
            self.workers = max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def close(self) -> None:
        """Stop the Ray started here (a Ctrl-C meanwhile is held and dropped: the call is ending)."""
        if self.started:
            with _signals_held():
                self.ray.shutdown()
            self.started = False


# ---------------------------------------------------------------------------
# The distributed solve


def _read_checkpoint(path: str, pos: catena.Position) -> tuple[dict[int, list[int]], int]:
    """The unit bounds and the split depth they were proven at (a resume splits there too);
    CheckpointError, naming the file, for anything but a sound checkpoint of this game."""
    with open(path, "rb") as handle:
        data = handle.read(CHECKPOINT_LIMIT + 1)
    if len(data) > CHECKPOINT_LIMIT:
        raise CheckpointError(f"{path} is not a catena distributed-solve checkpoint (over {CHECKPOINT_LIMIT:,} bytes)")
    try:
        saved = json.loads(data)
    except (ValueError, RecursionError):
        raise CheckpointError(f"{path} is not a catena distributed-solve checkpoint (not JSON)") from None
    if not isinstance(saved, dict) or not str(saved.get("format", "")).startswith("catena-distributed-checkpoint"):
        raise CheckpointError(f"{path} is not a catena distributed-solve checkpoint")
    if saved["format"] != CHECKPOINT_FORMAT:
        raise CheckpointError(f"{path} is a distributed-solve checkpoint of another format ({saved['format']!r}, "
                              f"this catena reads {CHECKPOINT_FORMAT!r}): remove it to start afresh")
    saved = verified_fields(data, path)
    mine = game_variant(pos)
    theirs = {k: saved.get(k) for k in mine}
    if theirs != mine:
        raise CheckpointError(f"{path} is a checkpoint of another game ({theirs}); this one is {mine}")
    try:
        cache = {int(key): [int(lo), int(hi)] for key, (lo, hi) in saved["units"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        raise CheckpointError(f"{path}: the checkpoint's unit bounds are damaged") from None
    if any(not -INF <= lo <= hi <= INF for lo, hi in cache.values()):
        raise CheckpointError(f"{path}: the checkpoint's unit bounds are damaged (out of range)")
    try:
        depth = integer(saved.get("depth"), "the checkpoint's split depth", 0, MAX_DEPTH)
    except (TypeError, ValueError) as error:
        raise CheckpointError(f"{path}: {error}") from None
    return cache, depth


def _write_checkpoint(path: str, pos: catena.Position, cache: dict[int, list[int]], depth: int) -> None:
    """Every unit's proven bounds (valid for any root of the same game) with their checksum, written
    atomically (catena.checkpoint.replacing); OSError if that fails, ``path`` unchanged."""
    data = dict(game_variant(pos), format=CHECKPOINT_FORMAT, root=root_id(pos), depth=depth,
                units={str(key): bounds for key, bounds in cache.items()})
    with replacing(path) as (_, handle):
        handle.write(header_line(data))


@dataclass
class _Stats:
    units: int = 0              # null-window answers received
    lost: int = 0               # answers lost with a worker that died (the units asked again)
    cancelled: int = 0
    preempted: int = 0          # of the cancelled: speculation stopped for needed work
    splits: int = 0
    nodes: int = 0
    unit_seconds: list[float] = field(default_factory=list)     # of each answer
    cancelled_by: dict[str, float] = field(default_factory=dict)  # seconds searched, then cancelled, by why
    windows: list[dict[str, Any]] = field(default_factory=list)  # each primary null window's cost

    @property
    def cancelled_seconds(self) -> float:
        return sum(self.cancelled_by.values())


def solve(pos: catena.Position, address: Optional[str] = None, workers: Optional[int] = None,
          window: Optional[tuple[float, float]] = None, checkpoint: Any = None, *,
          guess: Optional[float] = None, depth: Optional[int] = None, tt_mb: float = 256,
          threads: int = 1,
          max_units: Optional[int] = None, max_seconds: Optional[float] = None,
          progress: Optional[Callable[[int, float, Optional[float], Optional[float]], object]] = None,
          stats: Optional[dict[str, Any]] = None) -> SolveResult:
    """Solve ``pos`` exactly on Ray workers: the same result as :func:`catena.solve`.

    ``address`` is a Ray cluster's (None: a local Ray on this machine's cores);
    ``workers`` how many search threads run at once (default: the cluster's
    CPUs); the workers of one machine share one table of ``tt_mb`` MB a
    worker, each searching a unit of its own, or with ``threads=k`` ``k`` of
    them searching one unit together (ABDADA, as :func:`catena.solve`'s
    threads; docs/distributed.md measures both).
    ``window``, ``guess`` and ``checkpoint`` mean what they mean for
    :func:`catena.solve`; the checkpoint here holds every unit's proven bounds.
    ``depth`` is where the tree is split (default: the checkpoint's, or the
    first depth with 8 units a searcher).  ``max_units`` (null-window answers)
    and ``max_seconds`` stop early with the bounds proven so far (``stopped_by``
    "units" or "seconds"), as does Ctrl-C ("interrupt").  ``progress(nodes, seconds,
    lower, upper)`` is called after each answer.  ``stats``, a dict, receives
    the counts behind docs/distributed.md's projection, the seconds searched on
    units then cancelled by why (``cancelled_by``: "cutoff", "split" or
    "preempt"), and under ``windows`` each null window the driver asked: its
    ``beta`` (points), ``answer`` ("yes", "no", or None if stopped),
    ``seconds``, ``answers``, ``nodes`` and ``cancelled_seconds``.

    >>> solve("not a position")
    Traceback (most recent call last):
      ...
    TypeError: expected a catena.Position, not str
    """
    if not isinstance(pos, catena.Position):
        raise TypeError(f"expected a catena.Position, not {type(pos).__name__}")
    lo2, hi2, g = window_and_guess(pos.scoring, window, guess)
    tt_mb = real(tt_mb, "tt_mb", maximum=1 << 20, positive=True)
    max_units = optional_integer(max_units, "max_units", 1)
    max_seconds = optional_real(max_seconds, "max_seconds", positive=True)
    if depth is not None:
        depth = integer(depth, "depth", 0, MAX_DEPTH)
    threads = integer(threads, "threads", 1, THREADS_LIMIT)
    checkpoint = checkpoint_path(checkpoint)
    if pos.is_game_over():
        return catena.solve(pos)
    cache: dict[int, list[int]] = {}
    if checkpoint is not None:
        if os.path.exists(checkpoint) and not os.path.isdir(checkpoint):
            cache, saved_depth = _read_checkpoint(checkpoint, pos)   # before Ray starts: a bad file costs nothing
            if depth is None:
                depth = saved_depth     # its units, so any number of workers resumes with every saved bound
        check_writable(checkpoint)
    start = time.perf_counter()
    try:
        cluster = _Cluster(address, workers)
    except KeyboardInterrupt:                   # while Ray started (it has been stopped again)
        lower, upper = (-INF, INF) if depth is None else _bounds(work_units(pos, depth).root, cache)
        return solve_result(*proven_bounds(pos, lower, upper), pos.scoring == "longest", 0,
                            time.perf_counter() - start, "interrupt")
    try:
        with _unit_solvers(cluster, pos, tt_mb, threads) as (actors, machine_of):
            driver = _Driver(cluster, actors, machine_of, pos, depth, cache, checkpoint)
            return driver.result(driver.solve(lo2, hi2, g, max_units, max_seconds, progress), stats)
    finally:
        cluster.close()


def _seats(machines: list[int], workers: int) -> list[int]:
    """How many workers each machine (given its CPUs) hosts: filled one machine after another, so
    workers share a table where they can; workers beyond the CPUs go round the machines again."""
    seats = [0] * len(machines)
    left = workers
    for i, cpus in enumerate(machines):
        seats[i] = min(cpus, left)
        left -= seats[i]
    for i in itertools.islice(itertools.cycle(range(len(machines))), left):
        seats[i] += 1
    return seats


@contextlib.contextmanager
def _unit_solvers(cluster: _Cluster, pos: catena.Position, tt_mb: float, threads: int):
    """(actors, machine_of): one _UnitSolver actor a machine holding its workers' seats as searchers
    (one table, ``tt_mb`` a worker), and each searcher's actor.  An actor whose process dies is
    started again by Ray (WORKER_RESTARTS times at most) with an empty table.  The actors are
    killed on the way out: left to Ray's garbage collection they would hold their CPUs into the
    next solve, which then waits."""
    ray = cluster.ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [(node["NodeID"], int(node["Resources"].get("CPU", 0))) for node in ray.nodes()
             if node.get("Alive") and node["Resources"].get("CPU", 0) >= 1]
    if not nodes:
        raise RuntimeError("the Ray cluster has no machine with a CPU to solve on")
    actor_class = ray.remote(_UnitSolver)
    actors, machine_of = [], []
    for (node, cpus), seats in zip(nodes, _seats([cpus for _, cpus in nodes], cluster.workers)):
        if seats:
            searchers = _searchers(seats, threads)
            placed = actor_class.options(num_cpus=min(seats, cpus), max_concurrency=len(searchers) + 1,
                                         max_restarts=WORKER_RESTARTS,     # its units are asked again
                                         scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False))
            machine_of += [len(actors)] * len(searchers)
            actors.append(placed.remote(pos.copy(), tt_mb, searchers))
    try:
        yield actors, machine_of
    finally:
        for actor in actors:
            ray.kill(actor)


def _value_grid(pos: catena.Position) -> tuple[int, int]:
    """(step, parity) of the values a game can end with, in the solver's units: +1/0/-1 under
    longest ribbon; otherwise half points of a whole-stone margin and a whole komi, plus the
    button's half point in the games that have one (R15-R16): every value odd, or every value
    even in double placement."""
    if pos.scoring == "longest":
        return 1, 0
    return 2, 0 if pos.game_type == "double" else 1


def _expects_yes(beta: int, upper: int, run: int) -> bool:
    """The answer to "value >= beta?" the driver bets on: the last answer's again (``run``'s sign),
    a first one "yes", and "yes" when beta is the upper bound: MTD(f) then asks whether the value
    is the fail-soft bound a "no" just gave, usually its last window.  Betting "no" there sets
    every worker on the root's children at once, where one worker usually answers "yes" alone
    sooner (measured in docs/distributed.md)."""
    return beta == upper or run >= 0


def _second_window(beta: int, lower: int, upper: int, run: int, lo2: int, hi2: int,
                   grid: tuple[int, int]) -> Optional[int]:
    """The null window MTD(f) would test after ``beta`` if ``beta``'s answer moved a bound by the
    least it can, the expected way (_expects_yes): up to the next possible value, or down to the
    largest possible value below ``beta``.  A second searcher tests it at once.  None when it
    would answer nothing."""
    step, parity = grid
    if not _expects_yes(beta, upper, run):
        lower2, upper2 = lower, beta - 1 - (beta - 1 - parity) % step
        guess, run2 = upper2, min(run, 0) - 1
    else:                                   # "value >= beta": at least the next possible value
        lower2, upper2 = beta + (parity - beta) % step, upper
        guess, run2 = lower2, max(run, 0) + 1
    if lower2 >= upper2 or upper2 <= lo2 or lower2 >= hi2:
        return None
    second = next_window(lower2, upper2, guess, run2, step, lo2, hi2)
    return second if second != beta and lower < second <= upper else None


class _Driver:
    """One distributed solve's driver on a started cluster: it runs MTD(f)'s null windows over
    the top of the tree (two at once with two or more searchers), hands the work units each
    window still needs to the searchers (``actors``, one a machine; ``machine_of`` a searcher's
    machine), splits and cancels units, and keeps every unit's proven bounds (``cache``, saved
    to ``checkpoint``).  ``lo2``/``hi2`` are the window asked, ``g`` the first guess, all in
    the solver's half points."""

    def __init__(self, cluster: _Cluster, actors: list[Any], machine_of: list[int], pos: catena.Position,
                 depth: Optional[int], cache: dict[int, list[int]], checkpoint: Optional[str]):
        self.ray = cluster.ray
        self.cluster = cluster
        self.actors = actors
        self.machine_of = machine_of
        self.pos = pos
        self.cache = cache
        self.checkpoint = checkpoint
        self.searchers = len(machine_of)
        self.longest = pos.scoring == "longest"
        self.start = time.perf_counter()
        self.plan = work_units(pos, _choose_depth(pos, self.searchers) if depth is None else depth)
        self.grid = _value_grid(pos)
        self.stats = _Stats()
        self.inflight: dict[Any, tuple[int, int, int, float]] = {}   # ref -> (unit key, beta, searcher, start)
        self.cancelled: dict[Any, str] = {}                          # ref -> why it was cancelled
        self.home: dict[int, int] = {}                               # unit key -> the actor whose table has it
        self.idle = set(range(self.searchers))
        self.last_save = time.perf_counter()

    def answer(self, ref: Any) -> None:
        """Take a finished search's answer into the unit's bounds (or count it cancelled or lost)."""
        ray, stats = self.ray, self.stats
        key, _, searcher, began = self.inflight.pop(ref)
        self.idle.add(searcher)
        why = self.cancelled.pop(ref, None)
        try:
            lower, upper, nodes = ray.get(ref)
        except ray.exceptions.RayError as error:
            if why is not None:                      # cancelled (its worker may have died since)
                stats.cancelled += 1
                stats.cancelled_by[why] = stats.cancelled_by.get(why, 0.0) + time.perf_counter() - began
                return
            if not isinstance(error, ray.exceptions.RayActorError):
                raise
            stats.lost += 1                          # its worker died: Ray restarts it, the unit is asked again
            if stats.lost > LOST_ANSWERS * self.searchers:   # dead for good (restarts spent): calls fail at once
                saved = (f"the bounds proven so far are saved in {self.checkpoint}: run again to resume"
                         if self.checkpoint is not None
                         else "give a checkpoint to keep the bounds proven when it happens")
                raise ConnectionError(f"the solve lost {stats.lost} answers to Ray workers that died "
                                      f"({type(error).__name__}); check the machines' memory (tt_mb is a worker's "
                                      f"table) and the Ray logs; {saved}") from None
            return
        bounds = self.cache.setdefault(key, [-INF, INF])
        bounds[0], bounds[1] = max(bounds[0], lower), min(bounds[1], upper)
        stats.units += 1
        stats.nodes += nodes
        stats.unit_seconds.append(time.perf_counter() - began)

    def save(self, force: bool = False) -> None:
        """Checkpoint the units' bounds, at most every 5 s unless ``force``; a failed save warns."""
        if self.checkpoint is not None and (force or time.perf_counter() - self.last_save >= 5):
            try:
                _write_checkpoint(self.checkpoint, self.pos, self.cache, self.plan.depth)
            except OSError as error:
                warnings.warn(f"cannot save the checkpoint {self.checkpoint} ({error}); the solve goes on and "
                              f"returns the bounds it proves", CheckpointWarning, stacklevel=3)
            self.last_save = time.perf_counter()

    def cancel(self, keep: set[tuple[int, int]], why: str = "cutoff") -> None:
        """Cancel every running search whose (unit, beta) is not in ``keep``."""
        for ref, (key, beta, _, _) in list(self.inflight.items()):
            if (key, beta) not in keep and ref not in self.cancelled:
                self.ray.cancel(ref)
                self.cancelled[ref] = why

    def bounds(self) -> tuple[int, int]:
        return _bounds(self.plan.root, self.cache)

    def solve(self, lo2: int, hi2: int, g: int, max_units: Optional[int], max_seconds: Optional[float],
              progress: Optional[Callable[..., object]]) -> Optional[str]:
        """Run the null windows until the question (``lo2``, ``hi2``) is answered or a limit stops
        them: None, or what stopped them ("units", "seconds", "interrupt")."""
        stopped_by: Optional[str] = None
        run = 0                                                   # as in the solver's MTD(f)
        try:
            lower, upper = self.bounds()
            while not (lower >= upper or upper <= lo2 or lower >= hi2) and stopped_by is None:
                beta = next_window(lower, upper, g, run, self.grid[0], lo2, hi2)
                stopped_by = self.window(beta, lower, upper, run, lo2, hi2, max_units, max_seconds, progress)
                lower, upper = self.bounds()
                g = lower if lower >= beta else upper
                run = (max(run, 0) + 1) if lower >= beta else (min(run, 0) - 1)
        except KeyboardInterrupt:
            stopped_by = "interrupt"
        finally:
            self.cancel(set())
            self.save(force=True)
        return stopped_by

    def window(self, beta: int, lower: int, upper: int, run: int, lo2: int, hi2: int, max_units: Optional[int],
               max_seconds: Optional[float], progress: Optional[Callable[..., object]]) -> Optional[str]:
        """Answer "value >= beta?" (speculating on a second window with two or more searchers),
        logging the window in the stats: None, or the limit that stopped it."""
        stats, inflight, cancelled = self.stats, self.inflight, self.cancelled
        betas = [beta]
        if self.searchers > 1 and (second := _second_window(beta, lower, upper, run, lo2, hi2,
                                                            self.grid)) is not None:
            betas.append(second)
        expect_yes = _expects_yes(beta, upper, run)
        window_start, window_units, window_nodes = time.perf_counter(), stats.units, stats.nodes
        window_cancelled = stats.cancelled_seconds
        stopped_by: Optional[str] = None
        while stopped_by is None:                        # until "value >= beta?" is answered
            lower, upper = self.bounds()
            if lower >= beta or upper < beta:
                break
            ranks: dict[tuple[int, int], int] = {}       # (unit, beta) -> speculation, +1 a later window
            for n, b in enumerate(betas):
                if lower < b <= upper:
                    wanted: dict[int, int] = {}
                    _undecided(self.plan.root, self.cache, b, expect_yes, wanted)
                    ranks.update(((key, b), n + speculation) for key, speculation in wanted.items())
            self.cancel(set(ranks))
            queue = _work_queue(ranks, {(key, b) for key, b, _, _ in inflight.values()})
            for searcher, (key, b) in _assign(queue, self.home, self.idle, self.machine_of):
                self.home[key] = self.machine_of[searcher]
                self.idle.discard(searcher)
                ref = self.actors[self.machine_of[searcher]].test.remote(self.plan.units[key], b)
                inflight[ref] = (key, b, searcher, time.perf_counter())
                queue.remove((key, b))
            waiting = sum(1 for item in queue if ranks[item] == 0) - len(cancelled)
            for ref in _most_speculative(inflight, cancelled, ranks, waiting, self.searchers):
                self.ray.cancel(ref)                         # needed work waits: stop a speculation for it
                cancelled[ref] = "preempt"
                stats.preempted += 1
            speculating = any(ranks.get((key, b), 0) > 0 for ref, (key, b, _, _) in inflight.items()
                              if ref not in cancelled)
            slowest, wait = None, 0.5
            if self.idle or (speculating and waiting <= 0):   # a searcher free, or only speculating
                slowest, wait = _split_due(inflight, cancelled, self.plan, ranks,
                                           None if self.idle else expect_yes)
            if slowest is not None:
                self.cancel({item for item in ranks if item[0] != slowest}, "split")   # frees a solver for the order
                _split(self.plan, self.pos, slowest,
                       functools.partial(_learnt_order, self.ray, self.actors[self.home[slowest]]))
                stats.splits += 1
                continue
            ready = self.ray.wait(list(inflight), num_returns=1, timeout=wait)[0] if inflight else []
            for ref in ready:
                self.answer(ref)
            if ready:
                self.save()
                if progress is not None:
                    lo_now, hi_now = self.bounds()
                    progress(stats.nodes, time.perf_counter() - self.start, points(lo_now, self.longest),
                             points(hi_now, self.longest))
            if max_units is not None and stats.units >= max_units:
                stopped_by = "units"
            elif max_seconds is not None and time.perf_counter() - self.start >= max_seconds:
                stopped_by = "seconds"
        lower, upper = self.bounds()
        stats.windows.append(dict(beta=points(beta, self.longest),
                                  answer="yes" if lower >= beta else "no" if upper < beta else None,
                                  seconds=time.perf_counter() - window_start,
                                  answers=stats.units - window_units, nodes=stats.nodes - window_nodes,
                                  cancelled_seconds=stats.cancelled_seconds - window_cancelled))
        return stopped_by

    def result(self, stopped_by: Optional[str], stats_out: Optional[dict[str, Any]]) -> SolveResult:
        """The SolveResult of the bounds proven (with the principal variation once exact), and
        the run's statistics in ``stats_out``."""
        stats = self.stats
        lower, upper = self.bounds()
        seconds = time.perf_counter() - self.start
        if stats_out is not None:
            stats_out.update(depth=self.plan.depth, units=len(self.plan.units), answers=stats.units,
                             cancelled=stats.cancelled, cancelled_seconds=stats.cancelled_seconds,
                             cancelled_by=dict(stats.cancelled_by), preempted=stats.preempted,
                             splits=stats.splits, lost=stats.lost, nodes=stats.nodes,
                             unit_seconds=list(stats.unit_seconds), windows=list(stats.windows),
                             workers=self.cluster.workers, searchers=self.searchers, seconds=seconds)
        if lower < upper:
            return solve_result(*proven_bounds(self.pos, lower, upper), self.longest, stats.nodes, seconds,
                                stopped_by or "window")
        pv = _principal_variation(self.ray, self.plan, self.cache, self.actors, self.home, lower)
        return solve_result(lower, upper, self.longest, stats.nodes, seconds, None,
                            [catena.Move.from_index(index, self.pos.size) for index in pv])


def _work_queue(ranks: dict[tuple[int, int], int], busy: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (unit, beta) pairs to start, most needed first: by speculation (the second window's units
    one more than the first's), then window, then search order.  A unit running at one window may
    start at the other: its answer there is a fail-soft bound the windows after it use, and
    waiting for its first search to end measured slower (docs/distributed.md)."""
    return [item for item in sorted(ranks, key=ranks.__getitem__) if item not in busy]   # stable


def _most_speculative(inflight: dict[Any, tuple[int, int, int, float]], cancelled: dict[Any, str],
                      ranks: dict[tuple[int, int], int], waiting: int, searchers: int) -> list[Any]:
    """The running searches of speculative units (rank > 0) to stop for ``waiting`` needed units:
    the most speculative first, the youngest of a rank first, and only those beyond half the
    ``searchers``.  What a worker speculates on beside needed work is mostly the needed unit's next
    sibling, the one a wrong bet needs next; stopping it for the children of a split needed unit,
    the first of which then often refutes it, throws that work away (docs/distributed.md)."""
    running = sorted(((-ranks.get((key, b), 0), -began), ref) for ref, (key, b, _, began) in inflight.items()
                     if ref not in cancelled and ranks.get((key, b), 0) > 0)
    return [ref for _, ref in running[:max(0, min(waiting, len(running) - searchers // 2))]]


def _learnt_order(ray, actor, moves: tuple[int, ...]) -> Optional[list[int]]:
    """The move order ``actor``'s table and history give the position after ``moves`` (None if the
    actor cannot say)."""
    try:
        return ray.get(actor.move_order.remote(moves), timeout=LEARNT_ORDER_SECONDS)
    except ray.exceptions.RayError:
        return None


def _split_due(inflight: dict[Any, tuple[int, int, int, float]], cancelled: dict[Any, str], plan: WorkPlan,
               ranks: dict[tuple[int, int], int], expect_yes: Optional[bool]) -> tuple[Optional[int], float]:
    """(unit, 0) to split now, else (None, seconds until one is due, at most half a second).

    With a searcher idle (``expect_yes`` None) the candidates are all running searches; while the
    other searchers only speculate, the needed ones (rank 0) expected to need every child, the
    side to move being the one the expected answer (``expect_yes``) goes against: split at a cut
    node, the children would only add speculation.  Of the candidates not too deep to split, the
    least speculative and of those the longest is due once searched SPLIT_SECONDS."""
    now = time.perf_counter()
    running = [(ranks.get((key, b), 0), began, key) for ref, (key, b, _, began) in inflight.items()
               if ref not in cancelled and key not in plan.split and len(plan.units[key]) < SPLIT_MOVES
               and (expect_yes is None or (ranks.get((key, b), 0) == 0 and plan.maximising[key] != expect_yes))]
    if not running:
        return None, 0.5
    _, began, key = min(running)
    due = began + SPLIT_SECONDS - now
    return (key, 0.0) if due <= 0 else (None, min(due, 0.5))


def _assign(queue: list[tuple[int, int]], home: dict[int, int], idle: set[int],
            machine_of: list[int]) -> list[tuple[int, tuple[int, int]]]:
    """(searcher, (unit, beta)) for the idle searchers: they take the head of the queue, the most
    needed work, each unit going to a searcher on the machine whose table has searched it if one
    is idle (a new unit's key picks the machine)."""
    machines = max(machine_of) + 1
    free = sorted(idle)
    pairs, others = [], []
    for item in queue[:len(idle)]:
        owner = home.get(item[0], item[0] % machines)
        searcher = next((w for w in free if machine_of[w] == owner), None)
        if searcher is None:
            others.append(item)
        else:
            free.remove(searcher)
            pairs.append((searcher, item))
    return pairs + list(zip(free, others))


def _principal_variation(ray, plan: WorkPlan, cache, actors, home: dict[int, int], value: int) -> list[int]:
    """Best play: down the top tree through children of the root's value, then the unit's own
    line.  Ctrl-C during the unit's walk (minutes after a long solve) keeps the top tree's part,
    as ``catena.solve`` keeps the line walked so far."""
    node = plan.root
    while node.children:
        best = next((child for child in node.children
                     if (_bounds(child, cache)[0] >= value if node.maximising else _bounds(child, cache)[1] <= value)),
                    None)
        if best is None:            # a split unit proven as a whole: its own line from here
            break
        node = best
    line = list(node.moves)
    if node.key is not None:
        actor = actors[home.get(node.key, node.key % len(actors))]
        for attempt in range(WORKER_RESTARTS + 1):
            try:
                return line + _unit_line(ray, actor, node.moves, value)
            except KeyboardInterrupt:
                return line
            except ray.exceptions.RayActorError:       # the worker died: its restart searches again
                if attempt == WORKER_RESTARTS:
                    raise
    return line


def _unit_line(ray, actor, moves: tuple[int, ...], value: int) -> list[int]:
    """A work unit's best line of play, walked by the worker that holds its table."""
    return ray.get(actor.principal_variation.remote(moves, value))


# ---------------------------------------------------------------------------
# Self-play


def _play_record(index: int, seed: Optional[int], size: int, game_type: str, scoring: str,
                 iterations: int) -> tuple[str, Optional[str]]:
    """One self-play game on a worker: (its record, the winning player or None)."""
    game, outcome = selfplay_game(index, seed, size, game_type, scoring, iterations)
    return record_text(game, iterations), outcome.winner_player


def _play_samples(index: int, seed: Optional[int], size: int, game_type: str, scoring: str, komi: int,
                  iterations: int, sample_plies: Optional[int]) -> dict[str, list[Any]]:
    """One training game on a worker: its samples (catena.selfplay.training_game's columns)."""
    start = catena.Position(size, game_type, scoring, komi)
    return training_game(start, index, iterations, sampled_plies(start, sample_plies), seed)


def selfplay(n_games: int, seed: Optional[int] = None, out: Any = None, *, address: Optional[str] = None,
             workers: Optional[int] = None, npz: Any = None, size: int = 6, game_type: str = "komi",
             scoring: str = "standard", iterations: int = 2000, komi: int = 0,
             sample_plies: Optional[int] = None,
             progress: Optional[Callable[[int, int], object]] = None) -> dict[str, Any]:
    """Play ``n_games`` seeded self-play games on Ray workers, as ``python -m catena selfplay`` does.

    Records go to the folder ``out`` (``game-0001.catena`` ...), the same files
    the serial command writes with the same ``seed``; with ``npz=FILE`` the
    training arrays of :func:`catena.selfplay.selfplay_arrays` (same seed, same
    arrays) are written there instead.  ``size``, ``game_type``, ``scoring``,
    ``iterations`` (and for ``npz`` ``komi``, ``sample_plies``) are the game and
    engine options.  ``progress(done, n_games)`` is called as games finish.
    Returns ``{"P1": wins, "P2": wins, "draws": n, "games": finished}``; with
    ``npz``, ``"black"`` and ``"white"`` wins (those games start at the play
    phase) and the ``"arrays"``.  Ctrl-C keeps the games already finished.

    >>> selfplay(0, out=None, size=11)
    Traceback (most recent call last):
      ...
    ValueError: board size 11 is out of range: the side must be 1 to 10
    """
    n_games = integer(n_games, "n_games", minimum=0)
    seed = optional_integer(seed, "seed", minimum=0)
    iterations = integer(iterations, "iterations", minimum=1)
    catena.Position(size, game_type, scoring, komi)              # checks the rules' arguments
    if out is not None:
        out = os.fspath(out)
        os.makedirs(out, exist_ok=True)
    summary: dict[str, Any] = dict.fromkeys(("P1", "P2") if npz is None else ("black", "white"), 0)
    summary.update(draws=0, games=0)
    samples: dict[int, dict[str, list[Any]]] = {}
    inflight: dict[Any, int] = {}
    following = 0
    cluster = None
    try:
        cluster = _Cluster(address, workers)       # Ctrl-C while Ray starts: no game played, Ray stopped
        ray = cluster.ray
        if npz is None:
            task = ray.remote(num_cpus=1)(_play_record)
            submit = lambda index: task.remote(index, seed, size, game_type, scoring, iterations)    # noqa: E731
        else:
            task = ray.remote(num_cpus=1)(_play_samples)
            submit = lambda index: task.remote(index, seed, size, game_type, scoring, komi,         # noqa: E731
                                               iterations, sample_plies)
        while following < n_games or inflight:
            while following < n_games and len(inflight) < 2 * (cluster.workers or 1):
                inflight[submit(following)] = following
                following += 1
            ready, _ = ray.wait(list(inflight), num_returns=1)
            for ref in ready:
                index = inflight.pop(ref)
                result = ray.get(ref)
                if npz is None:
                    record, winner = result
                    summary["draws" if winner is None else winner] += 1
                    if out is not None:
                        with open(os.path.join(out, record_name(index)), "w") as handle:
                            handle.write(record)
                else:
                    samples[index] = result
                    won = result["result"][0] if result["result"] else 0
                    summary[{1: "black", -1: "white", 0: "draws"}[won]] += 1
                summary["games"] += 1
                if progress is not None:
                    progress(summary["games"], n_games)
    except KeyboardInterrupt:
        for ref in inflight:
            ray.cancel(ref)
    finally:
        if cluster is not None:
            cluster.close()
    if npz is not None:
        start = catena.Position(size, game_type, scoring, komi)
        summary["arrays"] = training_arrays((samples[index] for index in sorted(samples)), start)
        write_npz(npz, summary["arrays"])
    return summary
