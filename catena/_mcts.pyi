from typing import Optional, Union

from catena._geometry import Move
from catena._position import Position
from catena.results import SearchResult

class MCTS:
    seed: Optional[int]
    c: float
    threads: int
    rave: bool
    rave_k: float
    expand_visits: int
    tree_nodes: int
    score_weight: float
    exact_cells: int
    root_solve_share: float
    prior_weight: float
    leaf_playouts: int
    def __init__(self, seed: Optional[int] = None, c: Optional[float] = None, threads: int = 1,
                 rave: bool = True, rave_k: float = 300.0, expand_visits: int = 1,
                 tree_nodes: int = 2_000_000, score_weight: float = 0.2,
                 exact_cells: int = 14, *, root_solve_share: float = 0.85,
                 prior_weight: float = 0.0, max_nodes: Optional[int] = None,
                 leaf_playouts: int = 1) -> None: ...
    @property
    def max_nodes(self) -> int: ...
    def search(self, pos: Position, iterations: Optional[int] = None,
               seconds: Optional[float] = None) -> SearchResult: ...
    def advance(self, move: Union[Move, str, int]) -> None: ...
    @property
    def tree_size(self) -> list[int]: ...

def _configure(root_share: float | None = None, root_after: float | None = None,
               root_reach: float | None = None) -> dict[str, float]: ...
