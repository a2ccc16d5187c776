import os
from typing import Callable, Optional, Union

from catena._position import Position
from catena.results import SolveResult

# progress(nodes, seconds, lower, upper), and focus=SolveFocus when it has that parameter
Progress = Callable[..., object]

def solve(pos: Position, max_seconds: Optional[float] = None, max_nodes: Optional[int] = None,
          tt_mb: float = 64, progress: Optional[Progress] = None,
          sym_stones: Optional[int] = None, *, threads: Optional[int] = None,
          window: Optional[tuple[float, float]] = None, guess: Optional[float] = None,
          checkpoint: Union[str, os.PathLike[str], None] = None,
          checkpoint_seconds: float = 300, params: Optional[SolverParams] = None) -> SolveResult: ...
def shrink_checkpoint(src: Union[str, os.PathLike[str]], dst: Union[str, os.PathLike[str]],
                      min_nodes: int = ...) -> tuple[int, int]: ...

class SolverParams:
    history_malus: int
    abdada_min: int
    near_max: int
    near_mb: int
    guess_cells: int
    guess_iterations: int
    def __init__(self, history_malus: int = 8, abdada_min: int = 12, near_max: int = 11,
                 near_mb: int = 16, guess_cells: int = 27, guess_iterations: int = 20_000) -> None: ...

UNBOUNDED: int
THREADS_LIMIT: int

class TableSolver:
    threads: int
    params: SolverParams
    def __init__(self, tt_mb: float = 64, share: Optional[TableSolver] = None, threads: int = 1,
                 params: Optional[SolverParams] = None) -> None: ...
    def solve(self, pos: Position, window: Optional[tuple[int, int]] = None, max_nodes: Optional[int] = None,
              guess: int = 0) -> tuple[int, int, int, Optional[str]]: ...
    def move_order(self, pos: Position) -> list[int]: ...
    def principal_variation(self, pos: Position, value: int) -> list[int]: ...
    def interrupt(self) -> None: ...

def next_window(lower: int, upper: int, guess: int, run: int, step: int, lo: int = ..., hi: int = ...) -> int: ...
def canonical_key(pos: Position) -> int: ...
def solver_moves(pos: Position) -> list[int]: ...
