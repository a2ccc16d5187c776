"""Analysis of a position move by move: search statistics for every legal move and,
where the solver can finish, every move's exact value.

Signs follow the rest of the library: a *margin* is Black's final score minus
White's (komi and the button's half point included), as in ``SolveResult.value``;
a *win rate* is for the player to move, as in ``SearchResult.values``.  Longest-
ribbon scoring (R24) has a winner but no score, so there a margin is the result
itself: +1 Black wins, 0 a draw, -1 White wins.

>>> import catena
>>> pos = catena.Position(size=3)
>>> pos.push("B2"); pos.push("D4")
>>> analysis = catena.analyse(pos, iterations=2000, seed=1)    # small: every move solved
>>> analysis.proven, analysis.exact, analysis["E4"].margin, analysis["D3"].margin
(True, 9.5, 9.5, 7.5)
>>> print(analysis.table(limit=2))                    # the root was solved: no search needed
move     visits  win rate   margin
D5            0     1.000     +9.5  proven
E4            0     1.000     +9.5  proven
solved exactly: the root was solved before any search iteration, so no move has visits
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from catena._geometry import Move
from catena._interrupt import noting_ctrl_c
from catena._position import Position
from catena._validate import boolean, choice

if TYPE_CHECKING:
    from catena.results import SearchResult, SolveResult
    from catena.svg import SvgBoard

__all__ = ["Analysis", "MoveValue", "analyse"]

DEFAULT_ITERATIONS = 20_000
SOLVED_EXACTLY = "solved exactly: the root was solved before any search iteration, so no move has visits"
# exact=None solves the root with this many nodes at most to see whether the
# position is small enough, then each move with as many again
PROBE_NODES = 2_000_000
SOLVER_TT_MB = 16


@dataclass(frozen=True)
class MoveValue:
    """One legal move's line of an :class:`Analysis`.

    ``visits`` are the search's; ``win_rate`` is the search's win rate for the player to
    move (draws half), or for a proven move its exact result (1 a win, 0.5 a draw,
    0 a loss); ``margin`` is the expected final margin, Black minus White,
    after the move: the solver's exact value when ``proven``, else an estimate;
    ``exact`` is that exact value, or None where the solver did not finish.

    >>> import catena
    >>> line = catena.analyse(catena.Position(size=1), iterations=10).moves[0]
    >>> str(line.move), line.proven, line.exact, line.margin
    ('A1', True, 0.5, 0.5)
    """

    move: Move
    visits: int
    win_rate: float
    margin: float
    exact: Optional[float]

    @property
    def proven(self) -> bool:
        """Whether ``margin`` is the solver's exact value."""
        return self.exact is not None


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found: one :class:`MoveValue` per legal move, best first.

    ``exact`` is the position's exact value (margin, Black minus White) when every
    move was solved, else None; ``pv`` is a principal variation, the solver's when
    every move was solved, else the search's.  ``iterations`` are the search's;
    ``solved_exactly`` is True when the search solved the root before any iteration
    (the visits are then all 0).  ``stopped_by`` is "interrupt" when Ctrl-C stopped the
    analysis (what was found by then is kept), else None.  ``table()`` is the text
    report, ``svg()`` the heatmap (also what Jupyter shows).

    >>> import catena
    >>> analysis = catena.analyse(catena.Position(size=1), iterations=10)
    >>> [str(m) for m in analysis.pv], analysis.to_move
    (['A1'], 'black')
    >>> analysis._repr_svg_().startswith("<svg")
    True
    """

    position: Position = field(compare=False, repr=False)
    to_move: str
    moves: Tuple[MoveValue, ...]
    pv: Tuple[Move, ...]
    exact: Optional[float]
    iterations: int
    seconds: float
    solved_exactly: bool = False
    stopped_by: Optional[str] = None

    @property
    def best_move(self) -> Move:
        """The first move of the table: the best proven one, else the search's choice."""
        return self.moves[0].move

    @property
    def proven(self) -> bool:
        """Whether every move's value is exact."""
        return all(line.proven for line in self.moves)

    def __getitem__(self, move: object) -> MoveValue:
        """The line of ``move`` (a Move or a name)."""
        wanted = move if isinstance(move, Move) else Move(str(move), self.position.size)
        for line in self.moves:
            if line.move == wanted:
                return line
        raise KeyError(f"{wanted} is not a legal move here")

    def values(self, kind: str = "auto") -> Dict[Move, float]:
        """Each move's number on the heatmap, larger being better for the player to move.

        ``kind`` is "margin" (the margin from the mover's side: Black minus White
        when Black moves, White minus Black when White does), "win_rate",
        "visits", or "auto": the margin when every move is proven, else the win rate
        (of the moves the search tried).

        >>> import catena
        >>> pos = catena.Position(size=2); pos.push("B2")
        >>> analysis = catena.analyse(pos, iterations=500, seed=1)
        >>> analysis.values("margin")[analysis.best_move]   # White to move: White - Black
        -2.5
        """
        kind = self._kind(kind)
        sign = 1.0 if self.to_move == "black" else -1.0
        if kind == "margin":
            return {line.move: sign * line.margin for line in self.moves}
        if kind == "win_rate":           # a move the search never tried has no win rate
            return {line.move: line.win_rate for line in self.moves if line.visits}
        return {line.move: float(line.visits) for line in self.moves}

    def _kind(self, kind: str) -> str:
        choice(kind, "kind", ("auto", "margin", "win_rate", "visits"))
        if kind == "auto":
            return "margin" if self.proven else "win_rate"
        return kind

    def legend(self, kind: str = "auto") -> str:
        """The caption of the heatmap of ``values(kind)``."""
        kind = self._kind(kind)
        if kind == "margin":
            which = "exact" if self.proven else "expected"
            if self.position.scoring == "longest":
                return f"{which} result for {self.to_move} (+1 win, -1 loss)"
            other = "white" if self.to_move == "black" else "black"
            return f"{which} margin for {self.to_move} ({self.to_move} - {other}), points"
        if kind == "win_rate":
            return f"search win rate for {self.to_move}"
        return "search visits"

    def svg(self, kind: str = "auto", pv_moves: int = 5, **options: Any) -> SvgBoard:
        """The heatmap of ``values(kind)`` with the first ``pv_moves`` moves of the
        principal variation numbered; ``options`` go to :func:`catena.svg`.

        >>> import catena
        >>> catena.analyse(catena.Position(size=2), iterations=300).svg(size=200).startswith("<svg")
        True
        """
        from catena.svg import svg

        return svg(self.position, values=self.values(kind), pv=list(self.pv[:pv_moves]),
                   legend=self.legend(kind), **options)

    def _repr_svg_(self) -> str:
        return str(self.svg())

    def table(self, limit: Optional[int] = None) -> str:
        """The moves as a text table, best first (the first ``limit`` only, if given):
        visits, win rate for the player to move, and the margin (Black minus White)
        marked proven (the solver's exact value) or estimated.  A root solved
        before any search iteration says so under the table."""
        longest = self.position.scoring == "longest"
        rows = [f"{'move':<7}{'visits':>8}{'win rate':>10}{'margin':>9}"]
        for line in self.moves[:limit]:
            rows.append(f"{line.move.name:<7}{line.visits:>8}{line.win_rate:>10.3f}"
                        f"{_margin_text(line.margin, longest):>9}  {'proven' if line.proven else 'estimated'}")
        if self.solved_exactly:
            rows.append(SOLVED_EXACTLY)
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.table()


def _margin_text(margin: float, longest: bool) -> str:
    """A margin as the table shows it (under longest ribbon the winner, whose value is +1/0/-1)."""
    if longest and margin in (-1.0, 0.0, 1.0):
        return {1.0: "B wins", 0.0: "draw", -1.0: "W wins"}[margin]
    return f"{margin:+.1f}"


def _solver_value(result: SolveResult) -> Optional[float]:
    """A solve result's margin (the +1/0/-1 result under longest-ribbon scoring), None if unsolved."""
    if not result.solved:
        return None
    return result.value if result.value is not None else result.lower


Lines = Dict[Move, Tuple[Move, ...]]
Progress = Callable[[int, int, int], object]


def _exact_values(pos: Position, moves: List[Move], exact: Optional[bool], progress: Optional[Progress],
                  values: Dict[Move, float], lines: Lines) -> None:
    """Fill ``values`` with the solver's exact margin after each move it can solve and
    ``lines`` with each one's best line.

    ``exact=None`` first solves ``pos`` itself with PROBE_NODES at most: if that
    does not finish, the position is too large and nothing is solved.  Ctrl-C
    stops the solving (KeyboardInterrupt); the moves solved by then keep their values.
    """
    from catena.solver import solve, solve_after

    if exact is False:
        return
    limit = None if exact else PROBE_NODES
    if limit is not None:
        probe = solve(pos, max_nodes=limit, tt_mb=SOLVER_TT_MB)
        if probe.stopped_by == "interrupt":
            raise KeyboardInterrupt
        if not probe.solved:
            return
    done = 0

    def report(nodes: int, seconds: float, lower: Optional[float], upper: Optional[float]) -> None:
        if progress is not None:
            progress(done, len(moves), nodes)

    for move, result in solve_after(pos, moves, max_nodes=limit, tt_mb=SOLVER_TT_MB, progress=report):
        done += 1
        if progress is not None:
            progress(done, len(moves), result.nodes)
        value = _solver_value(result)
        if value is not None:
            values[move] = value
            lines[move] = (move,) + result.pv


def _exact_win_rate(margin: float, to_move: str) -> float:
    """The win rate a proven margin (Black minus White) means for the player to move."""
    mine = margin if to_move == "black" else -margin
    return 1.0 if mine > 0 else 0.0 if mine < 0 else 0.5


def _expected_margins(pos: Position, result: SearchResult, moves: List[Move]) -> Dict[Move, float]:
    """Each move's expected final margin, Black minus White, as the search backed it up
    (``SearchResult.scores``).  Longest-ribbon scoring has no margin: there it is the
    expected result (+1 Black wins, -1 White wins) from the mover's win rate."""
    if result.scores:
        return {move: result.scores[move] for move in moves}
    sign = 1.0 if pos.to_move == "black" else -1.0
    return {move: sign * (2.0 * result.values.get(move, 0.5) - 1.0) for move in moves}


def analyse(pos: Position, seconds: Optional[float] = None, iterations: Optional[int] = None,
            exact: Optional[bool] = None, *, seed: Optional[int] = None, threads: int = 1,
            progress: Optional[Progress] = None) -> Analysis:
    """Analyse every legal move of ``pos``: search visits, win rate and expected
    margin, and each move's exact value where the solver can find it.

    ``seconds`` and/or ``iterations`` are the search's budget (default
    20,000 iterations).  ``exact=None`` solves every move when the position is
    small enough (the solver finishes on it within a few million nodes),
    ``exact=True`` always does (it may take long; Ctrl-C stops it and keeps what
    is proven), ``exact=False`` never.  Ctrl-C stops the analysis in any phase
    at once, search or solving, and returns what was found by then, with
    ``stopped_by="interrupt"``.  ``seed`` and ``threads`` go to
    :class:`catena.MCTS`.  ``progress(moves_solved, moves, nodes)`` is called
    about five times a second while the moves are solved (``nodes``: of the
    move being solved) and after each one.  ``pos`` is left as it was.

    >>> import catena
    >>> pos = catena.Position(size=3)
    >>> pos.push("B2"); pos.push("D4")
    >>> analysis = catena.analyse(pos, iterations=3000, seed=2)
    >>> analysis.exact == catena.solve(pos).value, analysis.proven
    (True, True)
    """
    from catena._mcts import MCTS

    if not isinstance(pos, Position):
        raise TypeError(f"analyse(): expected a catena.Position, not {type(pos).__name__}")
    boolean(exact, "analyse(): exact", optional=True)
    if pos.is_game_over():
        raise ValueError("analyse(): the game is over, there is no move to analyse")
    if seconds is None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    start = time.perf_counter()
    work = pos.copy()
    moves = list(work.legal_moves())
    mcts = MCTS(seed=seed, threads=threads)
    exact_values: Dict[Move, float] = {}
    lines: Lines = {}
    stopped_by = None
    # the search ends cleanly on Ctrl-C and returns what it found: noted here, so that
    # the solving does not start after it
    with noting_ctrl_c() as ctrl_c:
        result = mcts.search(work, iterations=iterations, seconds=seconds)
        try:
            if ctrl_c.happened:
                raise KeyboardInterrupt
            _exact_values(work, moves, exact, progress, exact_values, lines)
        except KeyboardInterrupt:
            stopped_by = "interrupt"
    unsolved = [move for move in moves if move not in exact_values]
    margins = _expected_margins(work, result, unsolved) if unsolved else {}
    margins.update(exact_values)

    sign = 1.0 if work.to_move == "black" else -1.0
    table = [MoveValue(move, result.visits.get(move, 0),
                       _exact_win_rate(exact_values[move], work.to_move) if move in exact_values
                       else result.values.get(move, 0.0), margins[move], exact_values.get(move))
             for move in moves]
    everything_proven = len(exact_values) == len(moves)
    if everything_proven:
        table.sort(key=lambda line: (-sign * line.margin, -line.visits))
        root = table[0].margin
        pv = lines[table[0].move]
    else:                            # the search's choice first, so that it leads its pv
        table.sort(key=lambda line: (line.move != result.best_move, -line.visits, -line.win_rate))
        root, pv = None, tuple(result.pv)
    solved_exactly = result.iterations == 0 and result.proven and stopped_by is None
    return Analysis(position=work, to_move=work.to_move, moves=tuple(table), pv=tuple(pv), exact=root,
                    iterations=result.iterations, seconds=time.perf_counter() - start,
                    solved_exactly=solved_exactly, stopped_by=stopped_by)
