"""The exact solver's Python half: :func:`solve` (its limits, threshold windows, MTD(f) guess,
checkpoints and effort guard) and the :class:`~catena.results.SolveResult` it returns, and
:func:`shrink_checkpoint`.

The search itself (alpha-beta over the final margin with a shared transposition table, MTD(f)
null windows on several threads) is the Cython module ``catena._solver``: this module checks
the arguments, sets up a :class:`~catena._solver.SolveRun`, runs its threads so that Ctrl-C
still reaches Python (``catena._interrupt``), saves checkpoints as it goes (the rules of
checkpoint files are in ``catena.checkpoint``) and turns the root bounds, in the search's half
points, into points.  ``catena.distributed`` builds on the public names here.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import math
import os
import time
import warnings
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from catena._geometry import Move
from catena._interrupt import noting_ctrl_c, run_interruptibly
from catena._position import Position
from catena._solver import (
    THREADS_LIMIT,
    UNBOUNDED,
    SolverParams,
    SolveRun,
    TableSolver,
    _checked_params,  # the Cython half's check, shared with TableSolver
    canonical_key,
    copy_checkpoint_entries,
    next_window,
    solver_moves,
    static_bounds,
)
from catena._validate import integer, optional_integer, optional_real, real
from catena.checkpoint import (
    check_writable,
    checked_bound,
    checkpoint_path,
    file_path,
    header_line,
    read_header,
    replacing,
)
from catena.effort import check_solvable
from catena.errors import CheckpointError, CheckpointWarning
from catena.results import SolveFocus, SolveResult, margin_winner

__all__ = ["solve", "shrink_checkpoint", "SolveResult", "TableSolver", "static_bounds", "next_window",
           "canonical_key", "solver_moves", "solve_after", "game_variant", "root_id", "window_and_guess",
           "solve_result",
           "points", "proven_bounds", "SolverParams", "UNBOUNDED", "THREADS_LIMIT", "CHECKPOINT_MAGIC"]

INF = UNBOUNDED             # in the search's units: a bound this large (either sign) proves nothing
PathLike = Union[str, "os.PathLike[str]"]

CHECKPOINT_MAGIC = b"catena-solver-checkpoint 2\n"
LEGACY_MAGIC = b"catena-solver-checkpoint 1\n"     # before header checksums: its root bounds are not used


def _check_limit(value: object, what: str, kind: Any, maximum: Any) -> Any:
    if kind is int:
        return optional_integer(value, what, 1, maximum)
    return optional_real(value, what, maximum=maximum, positive=True)


def _half_points(value: object, what: str, longest: bool, rounding: Callable[[float], Any]) -> int:
    """A margin in points (or +1/0/-1 under longest ribbon) as whole half points, rounded."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise TypeError(f"{what} must be a number, not {value!r}")
    scaled = value if longest else 2 * value
    if abs(scaled) >= INF // 2:
        return INF if scaled > 0 else -INF
    return int(rounding(scaled))


def game_variant(pos: Position) -> dict[str, Any]:
    """What a checkpoint's table entries hold for: the game (side, game type, scoring, komi)
    and the table's key (the position's own: a field kept so that a file of another key is refused)."""
    return {"size": pos.size, "game_type": pos.game_type, "scoring": pos.scoring, "komi": pos.komi,
            "key": "position"}


def root_id(pos: Position) -> str:
    """Names the root position in a checkpoint: its bounds hold only for it."""
    return hashlib.sha256(repr(pos._key()).encode()).hexdigest()


def _checkpoint_header(path: str) -> tuple[dict[str, Any], int]:
    """(header, byte offset of the entries) of the solver checkpoint at ``path``, its root
    bounds checked (CheckpointError for any damage).  A file of the format before header
    checksums keeps its entries (each carries its own key check) but not its root bounds."""
    header, offset, verified = read_header(path, CHECKPOINT_MAGIC, LEGACY_MAGIC)
    if not verified:
        header = dict(header, lower=-INF, upper=INF)
    lower = checked_bound(header, "lower", INF, path)
    upper = checked_bound(header, "upper", INF, path)
    if lower > upper:
        raise CheckpointError(f"{path}: the checkpoint header is damaged (lower {lower} > upper {upper})")
    return header, offset


def _read_checkpoint(path: str, pos: Position) -> tuple[int, int, int]:
    """(byte offset of the entries, root lower, root upper) of a checkpoint for ``pos``'s game."""
    header, offset = _checkpoint_header(path)
    mine = game_variant(pos)
    theirs = {k: header.get(k) for k in mine}
    if theirs != mine:
        raise CheckpointError(f"{path} is a checkpoint of another game ({theirs}); this one is {mine}")
    lower, upper = -INF, INF
    if header.get("root") == root_id(pos):
        lower, upper = header["lower"], header["upper"]
    return offset, lower, upper


def _save_checkpoint(run: SolveRun, path: str, header: dict[str, Any]) -> None:
    """Save the root bounds (in ``header``) and the run's expensive entries to ``path``
    atomically (catena.checkpoint.replacing); OSError if that fails, ``path`` unchanged."""
    with replacing(path) as (tmp, handle):
        handle.write(CHECKPOINT_MAGIC + header_line(header))
        handle.flush()
        run.append_entries(tmp)


def window_and_guess(scoring: str, window: Optional[tuple[float, float]],
                     guess: Optional[float]) -> tuple[int, int, int]:
    """``window`` and ``guess`` (in points) checked and in the search's half points:
    (lo, hi, guess), the window unbounded when None (shared with catena.distributed)."""
    longest = scoring == "longest"
    lo2, hi2 = -INF, INF
    if window is not None:
        if not isinstance(window, (tuple, list)) or len(window) != 2:
            raise TypeError(f"window must be a pair (lo, hi), not {window!r}")
        lo2 = _half_points(window[0], "window's lo", longest, math.floor)
        hi2 = _half_points(window[1], "window's hi", longest, math.ceil)
        if window[0] > window[1]:
            raise ValueError(f"window must have lo <= hi, not {tuple(window)}")
    guess2 = 0 if guess is None else _half_points(guess, "guess", longest, round)
    return lo2, hi2, max(-INF + 1, min(INF - 1, guess2))


def solve(pos: Position, max_seconds: Optional[float] = None, max_nodes: Optional[int] = None,
          tt_mb: float = 64, progress: Optional[Callable[..., object]] = None,
          sym_stones: Optional[int] = None, *, threads: Optional[int] = None,
          window: Optional[tuple[float, float]] = None, guess: Optional[float] = None,
          checkpoint: Optional[PathLike] = None, checkpoint_seconds: float = 300,
          params: Optional[SolverParams] = None) -> SolveResult:
    """Solve ``pos`` exactly: its value with best play from both sides.

    ``max_seconds`` / ``max_nodes`` stop the search early; the result then has
    ``solved=False`` and the bounds proven so far, at least those that need no
    search (``static_bounds``).  Ctrl-C stops it the same way; once the value is
    proven, Ctrl-C during the walk of its principal variation keeps the value and
    the line walked so far (``pv`` then stops short of the game's end).
    Without either limit, a position estimated to take more than half an hour
    (:mod:`catena.effort`; the empty side-5 board: years) raises TooMuchWorkError
    with the estimate.
    ``progress(nodes, seconds, lower, upper)`` is called about five times a second;
    a callback that has a ``focus`` parameter also gets a SolveFocus (the null
    window being tested and the main thread's line near the root).
    ``tt_mb`` sizes the transposition table; ``sym_stones`` sets up to how many
    stones keys are made canonical over the board's symmetries (default: a third
    of the cells).  ``threads`` search threads share the table (default: all
    cores); the value does not depend on it.

    ``window=(lo, hi)`` asks a threshold question instead (lo <= hi, in points;
    +1/0/-1 under longest ribbon): the search stops as soon as it proves
    value <= lo or value >= hi (``stopped_by="window"``, the proof in
    ``lower``/``upper``), or finds the exact value between them.  ``guess`` is
    where the MTD(f) null windows start (a guess near the value saves work; by default
    a short MCTS's expected margin on positions with ``params.guess_cells`` legal cells or
    more, else 0; the MCTS takes at most a tenth of ``max_seconds``, and a ``max_nodes`` below
    50 per guess iteration skips it).  ``params`` (a :class:`SolverParams`) tunes the search.

    ``checkpoint=PATH`` saves the proven root bounds and the table's expensive
    entries to PATH after every null-window step and every
    ``checkpoint_seconds``; a solve of the same game that finds PATH resumes
    from it.  The path is checked before the search (CheckpointError); a save
    that fails later warns (CheckpointWarning, naming the OS error) and the
    solve goes on.  What a checkpoint promises: docs/robustness.md.

    >>> import catena
    >>> result = catena.solve(catena.Position(size=2))
    >>> result.solved, result.value, result.winner
    (True, 2.5, 'black')
    >>> proof = catena.solve(catena.Position(size=3), window=(0, 0))   # does Black win?
    >>> proof.stopped_by, proof.winner, proof.lower > 0
    ('window', 'black', True)
    """
    if not isinstance(pos, Position):
        raise TypeError(f"expected a catena.Position, not {type(pos).__name__}")
    max_seconds = _check_limit(max_seconds, "max_seconds", (int, float), 1e9)
    max_nodes = _check_limit(max_nodes, "max_nodes", int, 2 ** 62)
    tt_mb = real(tt_mb, "tt_mb", maximum=1 << 20, positive=True)
    params = _checked_params(params)
    checkpoint_seconds = real(checkpoint_seconds, "checkpoint_seconds", maximum=1e9, positive=True)
    sym_stones = None if sym_stones is None else integer(sym_stones, "sym_stones", minimum=0)
    threads = integer(min(os.cpu_count() or 1, THREADS_LIMIT) if threads is None else threads,
                      "threads", 1, THREADS_LIMIT)
    if max_seconds is None and max_nodes is None and checkpoint is None:
        check_solvable(pos)                      # hours or more with no limit: refuse, say how long
    longest = pos.scoring == "longest"
    lo2, hi2, guess2 = window_and_guess(pos.scoring, window, guess)
    checkpoint = checkpoint_path(checkpoint)
    start = time.perf_counter()
    outcome = pos.outcome()
    if outcome is not None:                      # the game is over: its value is its outcome
        value: float = (0 if outcome.winner is None else (1 if outcome.winner == "black" else -1)) \
            if outcome.black_score is None or outcome.white_score is None \
            else outcome.black_score - outcome.white_score
        return SolveResult(value=None if longest else value, winner=outcome.winner or "draw",
                           best_move=None, pv=(), nodes=0, seconds=0.0, solved=True,
                           lower=value, upper=value, stopped_by=None)
    if guess is None:
        with noting_ctrl_c() as ctrl_c:             # the guess's search returns on Ctrl-C: note it
            first = _first_guess(pos, params, max_nodes, max_seconds)
        if ctrl_c.happened:
            return solve_result(*proven_bounds(pos, -INF, INF), longest, 0, time.perf_counter() - start, "interrupt")
        guess2 = window_and_guess(pos.scoring, None, first)[2]
    resume = None
    if checkpoint is not None:
        if os.path.exists(checkpoint) and not os.path.isdir(checkpoint):
            resume = _read_checkpoint(checkpoint, pos)    # before the table: a bad file costs nothing
        check_writable(checkpoint)                        # before the search: a save must be possible
    run = SolveRun(pos, float(tt_mb), sym_stones, threads, params)
    try:
        return _solve_on(run, pos, resume, checkpoint, max_seconds, max_nodes, lo2, hi2, guess2, threads,
                         progress, checkpoint_seconds, start)
    finally:
        run.close()                 # the table is freed now, whoever still refers to ``run``


def solve_after(pos: Position, moves: Iterable[Union[str, int, Move]],
                **options: Any) -> Iterator[tuple[Any, SolveResult]]:
    """Solve the position after each of ``moves`` in turn (``pos`` stays as it was): yields
    (move, SolveResult) pairs; ``options`` go to :func:`solve`.  A solve stopped by Ctrl-C
    raises KeyboardInterrupt, so the caller's loop stops with it.

    >>> import catena
    >>> [(str(move), result.value) for move, result in solve_after(catena.Position(size=1), ["A1"])]
    [('A1', 0.5)]
    """
    for move in moves:
        after = pos.copy()
        after.push(move)
        result = solve(after, **options)
        if result.stopped_by == "interrupt":
            raise KeyboardInterrupt
        yield move, result


GUESS_TIME_SHARE = 0.1          # of a solve's time limit, the most its first guess may take
GUESS_NODES_PER_ITERATION = 50  # a node limit below this many per guess iteration skips the guess


def _first_guess(pos: Position, params: SolverParams, max_nodes: Optional[int],
                 max_seconds: Optional[float]) -> Optional[float]:
    """MTD(f)'s first guess when the caller gives none: the margin a short score-aware MCTS
    expects (its exact margin once it has solved the root), or None (start from 0) under
    longest ribbon, whose values are only +1/0/-1, for positions with fewer than
    ``params.guess_cells`` legal cells, solved about as quickly as the MCTS runs, and for a
    solve whose node limit is too small for the guess to pay.  Under a time limit the guess
    takes a tenth of it at most.  Seeded, so a solve's nodes do not vary from run to run
    (docs/side4.md)."""
    if pos.scoring == "longest" or int(pos.legal_action_mask()[:-1].sum()) < params.guess_cells:
        return None
    if max_nodes is not None and max_nodes < GUESS_NODES_PER_ITERATION * params.guess_iterations:
        return None
    from catena._mcts import MCTS  # not at the top: the search imports the solver
    seconds = None if max_seconds is None else max(max_seconds * GUESS_TIME_SHARE, 1e-6)
    result = MCTS(seed=0).search(pos, iterations=params.guess_iterations, seconds=seconds)
    return result.exact if result.exact is not None else result.score


def _solve_on(run: SolveRun, pos: Position, resume: Optional[tuple[int, int, int]], checkpoint: Optional[str],
              max_seconds: Optional[float], max_nodes: Optional[int], lo2: int, hi2: int, guess2: int,
              threads: int, progress: Optional[Callable[..., object]], checkpoint_seconds: float,
              start: float) -> SolveResult:
    """The search of :func:`solve`, on ``run``, its arguments checked."""
    longest = pos.scoring == "longest"
    if resume is not None and checkpoint is not None:
        run.load(checkpoint, *resume)
    run.configure(-1 if max_nodes is None else max_nodes, 0.0 if max_seconds is None else float(max_seconds),
                  lo2, hi2, guess2)
    header = dict(game_variant(pos), root=root_id(pos))

    def proven() -> tuple[int, int]:
        return proven_bounds(pos, *run.bounds)

    def save() -> None:
        if checkpoint is None:
            return
        lower, upper = run.bounds
        try:
            _save_checkpoint(run, checkpoint, dict(header, lower=lower, upper=upper))
        except OSError as error:
            warnings.warn(f"cannot save the checkpoint {checkpoint} ({error}); the solve goes on and "
                          f"returns the bounds it proves", CheckpointWarning, stacklevel=2)

    last: dict[str, Any] = {"bounds": run.bounds, "saved": time.perf_counter()}

    wants_focus = progress is not None and _accepts_focus(progress)

    def poll() -> None:                                  # progress and checkpoints, in the caller's thread
        if progress is not None:
            lower, upper = proven()
            args = (run.nodes, time.perf_counter() - start, points(lower, longest), points(upper, longest))
            if wants_focus:
                beta, line = run.focus
                progress(*args, focus=SolveFocus(
                    testing=points(beta, longest),
                    line=tuple((Move.from_index(m, pos.size), index, count) for m, index, count in line)))
            else:
                progress(*args)
        if checkpoint is not None and (run.bounds != last["bounds"]
                                       or time.perf_counter() - last["saved"] >= checkpoint_seconds):
            last["bounds"] = run.bounds
            save()
            last["saved"] = time.perf_counter()

    # Ctrl-C stops the threads cleanly and the bounds proven so far are reported
    run_interruptibly([functools.partial(run.work, thread) for thread in range(threads)],
                      run.interrupt, poll, interval=0.2)
    run.finish()
    if checkpoint is not None:
        run_interruptibly([save], lambda: None)      # the final save: another Ctrl-C waits for it
    nodes = run.nodes          # every thread's: the line below is walked on one thread
    lower, upper = run.bounds
    if not run.done or lower < upper:
        stopped_by = run.stop if not run.done else "window"
        return solve_result(*proven(), longest, nodes, time.perf_counter() - start, stopped_by)
    # The value is proven: Ctrl-C during the walk of its line (minutes after a long solve)
    # keeps the value and the line walked so far.
    line = run_interruptibly([functools.partial(run.principal_variation, lower)], run.interrupt)[0]
    pv = tuple(Move.from_index(m, pos.size) for m in line)
    return solve_result(lower, upper, longest, nodes, time.perf_counter() - start, None, pv)


def _accepts_focus(progress: Callable[..., object]) -> bool:
    """Whether the ``progress`` callback takes a ``focus`` argument (a SolveFocus)."""
    try:
        return "focus" in inspect.signature(progress).parameters
    except (TypeError, ValueError):                 # a callable without a signature: the classic four
        return False


def proven_bounds(pos: Position, lower: int, upper: int) -> tuple[int, int]:
    """The root bounds a stopped solve reports: ``lower``/``upper`` as proven by its search,
    at least the bounds that need no search (:func:`static_bounds`), since a limit may stop
    it before any proof (shared with catena.distributed)."""
    static_lo, static_hi = static_bounds(pos)
    return max(lower, static_lo), min(upper, static_hi)


def solve_result(lower: int, upper: int, longest: bool, nodes: int, seconds: float, stopped_by: Optional[str],
                 pv: Sequence[Move] = ()) -> SolveResult:
    """The SolveResult of root bounds in half points (shared with catena.distributed):
    exact when ``stopped_by`` is None (``pv`` the best line, as Moves), else the bounds
    proven, with the winner a window proof names (also in longest ribbon's +1/0/-1)."""
    if stopped_by is not None:
        winner = None
        if stopped_by == "window":
            winner = "black" if lower > 0 else ("white" if upper < 0 else None)
        return SolveResult(value=None, winner=winner, best_move=None, pv=(), nodes=nodes, seconds=seconds,
                           solved=False, lower=points(lower, longest), upper=points(upper, longest),
                           stopped_by=stopped_by)
    value = points(lower, longest)
    winner = margin_winner(lower)
    return SolveResult(value=None if longest else value, winner=winner, best_move=pv[0] if pv else None,
                       pv=tuple(pv), nodes=nodes, seconds=seconds, solved=True, lower=value, upper=value,
                       stopped_by=None)


def points(half_points: int, longest: bool) -> Optional[float]:
    """A margin in half points as points (None for an unproven infinite bound)."""
    if abs(half_points) >= INF:
        return None
    return half_points if longest else half_points / 2.0


def shrink_checkpoint(src: PathLike, dst: PathLike, min_nodes: int = 1 << 20) -> tuple[int, int]:
    """Copy the checkpoint ``src`` to ``dst`` with only the table entries that searched at
    least ``min_nodes`` nodes (rounded down to a power of two; 1 to 2**62), and its root bounds.

    A long solve's checkpoint holds every entry of at least 256 nodes (GBs for side 4);
    the expensive proofs near the root are a small part of it.  A solve resumed from the
    shrunk file keeps those and searches the cheap subtrees again, so the file can outlive
    the machine (docs/side4.md).  ``dst`` is written as a solve writes its checkpoint
    (catena.checkpoint: checked first, a temporary file of its own, renamed when complete),
    so it may be ``src`` itself.  Returns (entries kept, entries read).
    """
    src_path, dst_path = file_path(src), file_path(dst)
    min_nodes = integer(min_nodes, "min_nodes", 1, 1 << 62)
    header, offset = _checkpoint_header(src_path)
    check_writable(dst_path)
    with replacing(dst_path) as (tmp, handle):
        handle.write(CHECKPOINT_MAGIC + header_line(header))
        handle.flush()
        return copy_checkpoint_entries(src_path, offset, tmp, min_nodes)
