"""Small immutable values returned by the API."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from catena._geometry import Move


def margin_winner(margin: float) -> str:
    """The winner a final margin (Black minus White) names: "black", "white" or "draw".

    >>> margin_winner(2.5), margin_winner(-0.5), margin_winner(0)
    ('black', 'white', 'draw')
    """
    return "black" if margin > 0 else ("white" if margin < 0 else "draw")


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    ``winner`` is "black", "white" or None for a draw; the scores are None under
    longest-ribbon scoring (R24), which has a winner but no score.  ``button``
    is who holds the button at the end (R15), None in double placement.

    >>> import catena
    >>> pos = catena.Position(size=1); pos.push("A1")
    >>> pos.outcome()
    Outcome(winner='black', black_score=1.0, white_score=0.5, button='white')
    """

    winner: Optional[str]
    black_score: Optional[float]
    white_score: Optional[float]
    button: Optional[str]


@dataclass(frozen=True)
class Ribbon:
    """A ribbon (R4): its cells from one end to the other and its shown colours.

    >>> import catena
    >>> pos = catena.Position(size=2); pos.push("B2"); pos.push("C3")
    >>> pos.ribbons()
    [Ribbon(cells=('B2', 'C3'), length=2, black=1, white=1, bounded=False)]
    """

    cells: tuple[str, ...]
    length: int
    black: int
    white: int
    bounded: bool


@dataclass(frozen=True)
class Claim:
    """A ribbon newly bounded by a stone (R11) and the colour that claimed it (R12).

    >>> import catena
    >>> pos = catena.Position(size=1); pos.push("A1")
    >>> pos.last_claims()
    [Claim(cells=('A1',), owner='black')]
    """

    cells: tuple[str, ...]
    owner: str


@dataclass(frozen=True)
class PlayoutStats:
    """Totals of a batch of random playouts.

    >>> import catena
    >>> stats = catena.random_playouts(catena.Position(size=1), 3, seed=0)
    >>> stats
    PlayoutStats(games=3, placements=3, black_wins=3, white_wins=0, draws=0)
    """

    games: int
    placements: int
    black_wins: int
    white_wins: int
    draws: int


REPR_MOVES = 5          # root moves (and pv moves) a SearchResult's repr shows


@dataclass(frozen=True, repr=False)
class SearchResult:
    """What an MCTS search found.

    ``visits`` and ``values`` map each root move to its visits and mean reward
    for the player to move (1 a win, 0.5 a draw); ``pv`` is the principal
    variation; ``proven`` says whether MCTS-Solver proved the root, and
    ``winner`` is then "black", "white" or "draw".  ``value`` is the mean
    reward of the player to move over all root visits.

    Margins are Black's score minus White's in points, as ``SolveResult.value``
    (None or empty under longest-ribbon scoring): ``scores`` maps each root move
    to its expected final margin (exact when the move is solved; the root's
    mean for a move not yet visited), ``score`` is the expected margin of the
    position with ``best_move``, and ``exact`` the root's exact margin once the
    search has proven it (else None).  ``solver_nodes`` is what the search's exact
    solves (endgame leaves, root moves, the middlegame root) spent, in solver nodes.

    >>> import catena
    >>> result = catena.MCTS(seed=1).search(catena.Position(size=1), iterations=10)
    >>> result.proven, result.winner, str(result.best_move)
    (True, 'black', 'A1')
    >>> result.exact, result.score                    # fact F2: Black 1, White 0.5
    (0.5, 0.5)

    Its ``repr`` is short on any board: the most visited moves (five at most) with their
    visits and values, and the start of the principal variation.

    >>> text = repr(result)
    >>> text.startswith("SearchResult(best_move=Move('A1', size=1), iterations="), "pv=[A1]" in text
    (True, True)
    """

    best_move: Move
    visits: dict[Move, int]
    values: dict[Move, float]
    pv: tuple[Move, ...]
    iterations: int
    seconds: float
    proven: bool
    winner: Optional[str]
    value: float
    score: Optional[float] = None
    scores: dict[Move, float] = field(default_factory=dict)
    exact: Optional[float] = None
    solver_nodes: int = 0

    def _top_moves(self, count: int = 5) -> list[Move]:
        """``best_move`` and the most visited other root moves, ``count`` in all (the better
        value first among equal visits)."""
        others = sorted((move for move in self.visits if move != self.best_move),
                        key=lambda move: (-self.visits[move], -self.values.get(move, 0.0), move.index))
        return ([self.best_move] + others)[:count]

    def __repr__(self) -> str:
        shown = self._top_moves(REPR_MOVES)
        top = ", ".join(f"{move} {self.visits.get(move, 0)} visits {self.values.get(move, 0.0):.3f}"
                        for move in shown)
        more = len(set(self.visits) - set(shown))
        if more:
            top += f", ... {more} more"
        pv = " ".join(str(move) for move in self.pv[:REPR_MOVES])
        if len(self.pv) > REPR_MOVES:
            pv += f" ... {len(self.pv)} moves"
        return (f"SearchResult(best_move={self.best_move!r}, iterations={self.iterations}, seconds={self.seconds:.3g}, "
                f"proven={self.proven}, winner={self.winner!r}, value={self.value:.3f}, "
                f"score={'None' if self.score is None else format(self.score, '+.2f')}, "
                f"exact={self.exact!r}, top=[{top}], pv=[{pv}])")


@dataclass(frozen=True)
class SolveFocus:
    """Where a running exact solve is, for progress reports on long solves.

    ``testing`` is the threshold of the null window the main thread is on ("is
    the value >= testing?", in points; under longest ribbon +1/0/-1 as the
    bounds are).  ``line`` is that thread's line from the root, as deep as it
    has got (four plies at most): at each ply the move being searched, which
    of the node's moves it is (1-based) and how many there are.  The moves
    are tried best first, so a proof that the first move is good enough must
    go through every reply at the next ply: ``line`` shows how far it got.

    >>> import catena
    >>> seen = []
    >>> def progress(nodes, seconds, lower, upper, focus):
    ...     seen.append(focus)
    >>> result = catena.solve(catena.Position(size=4), max_seconds=0.5, progress=progress)
    >>> move, index, count = seen[-1].line[0]
    >>> str(move) in {str(m) for m in catena.Position(size=4).legal_moves()}, 1 <= index <= count
    (True, True)
    """

    testing: Optional[float]
    line: tuple[tuple[Move, int, int], ...]


@dataclass(frozen=True)
class SolveResult:
    """What the exact solver found.

    ``value`` is Black's score minus White's under best play (komi and the
    button included; None under longest-ribbon scoring, which has only a
    winner), ``winner`` "black", "white" or "draw"; ``pv`` a line of best play
    to the end (shorter if Ctrl-C stopped its walk, ``best_move`` None if before
    its first move); ``seconds`` the whole solve's, the walk included.  When a
    limit stopped the search, ``solved`` is False, ``value``
    and ``winner`` are None, and ``lower``/``upper`` are the bounds proven so
    far, at least those that need no search (the most either side can still
    score); ``stopped_by`` says which limit.
    Under longest-ribbon scoring the bounds are +1 (Black wins), 0, -1.

    >>> import catena
    >>> catena.solve(catena.Position(size=1)).value
    0.5
    """

    value: Optional[float]
    winner: Optional[str]
    best_move: Optional[Move]
    pv: tuple[Move, ...]
    nodes: int
    seconds: float
    solved: bool
    lower: Optional[float]
    upper: Optional[float]
    stopped_by: Optional[str]
