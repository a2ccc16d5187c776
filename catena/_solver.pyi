from typing import Callable, Optional

from catena._position import Position
from catena.results import SolveResult

Progress = Callable[[int, float, Optional[float], Optional[float]], object]

def solve(pos: Position, max_seconds: Optional[float] = None, max_nodes: Optional[int] = None,
          tt_mb: float = 64, progress: Optional[Progress] = None,
          sym_stones: Optional[int] = None) -> SolveResult: ...
