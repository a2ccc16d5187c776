import os
from typing import Callable, Optional, Union

from catena._position import Position
from catena.results import SolveResult

Progress = Callable[[int, float, Optional[float], Optional[float]], object]

def solve(pos: Position, max_seconds: Optional[float] = None, max_nodes: Optional[int] = None,
          tt_mb: float = 64, progress: Optional[Progress] = None,
          sym_stones: Optional[int] = None, *, threads: Optional[int] = None,
          window: Optional[tuple[float, float]] = None, guess: Optional[float] = None,
          checkpoint: Union[str, os.PathLike[str], None] = None,
          checkpoint_seconds: float = 300) -> SolveResult: ...
