"""Observation tensors for learning code, and the 12 board symmetries applied to them.

A cell (column c, row r) sits at ``[plane, r - 1, c - 1]`` of a (2n-1) x (2n-1)
grid; grid points off the hexagon are zero in every plane.  On this grid the six
neighbours of a cell (R3) are six of the eight around it in a 3 x 3 window, so
ordinary convolutions see the hex geometry.  Planes, from the mover's view:

====  ==============================================================
 0    the mover's stones, as shown (claims applied)
 1    the opponent's stones, as shown
 2    legal cells for the mover (``legal_action_mask`` without the button)
 3    stones of bounded ribbons, whose colour is final (R10, R12)
 4    the board: 1 on every cell
 5    the mover took the button (whole board)
 6    the opponent took the button
 7    two stones left this turn: the first stone of a double-placement turn
 8    komi divided by its largest value for the scoring (15 or 1000, R22)
 9    the mover is White, who gets the komi
====  ==============================================================

>>> import catena
>>> pos = catena.Position(size=2); pos.push("B2")
>>> obs = pos.observation_tensor()
>>> obs.shape == catena.observation_shape(2), obs.dtype
(True, dtype('float32'))
>>> obs[1]                      # White to move: Black's stone on B2 is the opponent's
array([[0., 0., 0.],
       [0., 1., 0.],
       [0., 0., 0.]], dtype=float32)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy
import numpy.typing

from catena._geometry import cells, check_action, check_size, symmetries
from catena._position import KOMI_RANGES
from catena._validate import choice, integer

if TYPE_CHECKING:
    from catena._position import Position

PLANES = 10
Tensor = numpy.typing.NDArray[numpy.float32]


def observation_shape(size: int = 6) -> tuple[int, int, int]:
    """The shape of ``Position.observation_tensor()`` on the board of side ``size``.

    >>> observation_shape(6)
    (10, 11, 11)
    """
    side = 2 * check_size(size) - 1
    return (PLANES, side, side)


@lru_cache(maxsize=None)
def _grid_index(size: int) -> numpy.typing.NDArray[numpy.intp]:
    """For each cell, its position in the flattened (2n-1) x (2n-1) grid."""
    side = 2 * size - 1
    return numpy.array([(int(name[1:]) - 1) * side + ord(name[0]) - 65 for name in cells(size)],
                       dtype=numpy.intp)


@lru_cache(maxsize=None)
def _grid_permutation(size: int, k: int) -> numpy.typing.NDArray[numpy.intp]:
    """Gather indices over the flattened grid: image[p] = original[perm[p]] under symmetry k."""
    grid = _grid_index(size)
    perm = numpy.arange((2 * size - 1) ** 2, dtype=numpy.intp)
    perm[grid[list(symmetries(size)[k])]] = grid
    return perm


def observation_tensor(pos: Position, perspective: str | None = None) -> Tensor:
    """The observation planes of ``pos`` (what ``Position.observation_tensor`` returns)
    seen by the colour ``perspective``, the mover when None (as for the adapters,
    which observe for either player: planes 0, 1, 5, 6 and 9 are that colour's).

    >>> import catena
    >>> pos = catena.Position(size=2); pos.push("B2")
    >>> int(observation_tensor(pos, "black")[0].sum()), int(observation_tensor(pos, "white")[0].sum())
    (1, 0)
    """
    choice(perspective, "perspective", ("black", "white", None))
    viewer = perspective or pos.to_move
    _, shown, bounded = pos._cell_layers()
    side = 2 * pos.size - 1
    colours = numpy.frombuffer(shown, dtype=numpy.uint8)
    own = 1 if viewer == "black" else 2
    button = pos.button
    # one row per plane over the cells, then one scatter onto the grid
    values = numpy.empty((PLANES, len(colours)), dtype=numpy.float32)
    values[0] = colours == own
    values[1] = colours == 3 - own
    values[2] = pos.legal_action_mask()[:-1]
    values[3] = numpy.frombuffer(bounded, dtype=numpy.uint8)
    values[4:] = numpy.array([[1.0], [button is not None and button == viewer],
                              [button is not None and button != viewer],
                              [pos.game_type == "double" and pos.stones_left == 2],
                              [pos.komi / KOMI_RANGES[pos.scoring][1]], [own == 2]], dtype=numpy.float32)
    planes = numpy.zeros((PLANES, side * side), dtype=numpy.float32)
    planes[:, _grid_index(pos.size)] = values
    return planes.reshape(PLANES, side, side)


def transform_tensor(tensor: numpy.typing.NDArray[numpy.generic], k: int) -> numpy.typing.NDArray[numpy.generic]:
    """``tensor`` under board symmetry ``k`` (0..11, as in ``catena.symmetries``).

    The last two axes are the (2n-1) x (2n-1) grid, so a batch or a single plane
    works too.  The observation of the transformed position is the transformed
    observation.

    >>> import catena
    >>> pos = catena.Position(size=2); pos.push("A1")
    >>> image = catena.Move.from_index(transform_action(0, 1, 2), 2)
    >>> twin = catena.Position(size=2); twin.push(image)
    >>> bool((transform_tensor(pos.observation_tensor(), 1) == twin.observation_tensor()).all())
    True
    """
    tensor = numpy.asarray(tensor)
    if tensor.ndim < 2 or tensor.shape[-1] != tensor.shape[-2] or tensor.shape[-1] % 2 == 0:
        raise ValueError(f"expected a (..., 2n-1, 2n-1) grid, not shape {tensor.shape}")
    size = (tensor.shape[-1] + 1) // 2
    flat = tensor.reshape(tensor.shape[:-2] + (-1,))
    return flat[..., _grid_permutation(check_size(size), _check_symmetry(k))].reshape(tensor.shape)


def transform_action(action: int, k: int, size: int = 6) -> int:
    """The image of action id ``action`` under board symmetry ``k``; the button stays.

    >>> transform_action(0, 1, size=2), transform_action(7, 1, size=2)
    (2, 7)
    """
    size = check_size(size)
    table = symmetries(size)[_check_symmetry(k)]
    action = check_action(action, len(table), size)
    return action if action == len(table) else table[action]


def transform_policy(policy: numpy.typing.NDArray[numpy.generic], k: int,
                     size: int = 6) -> numpy.typing.NDArray[numpy.generic]:
    """A vector over action ids (last axis: cells, then the button) under symmetry ``k``.

    >>> transform_policy(numpy.arange(8), 1, size=2)
    array([1, 4, 0, 3, 6, 2, 5, 7])
    """
    policy = numpy.asarray(policy)
    size = check_size(size)
    table = symmetries(size)[_check_symmetry(k)]
    if policy.shape[-1:] != (len(table) + 1,):
        raise ValueError(f"expected {len(table) + 1} action ids on the last axis, not shape {policy.shape}")
    out = numpy.empty_like(policy)
    out[..., list(table) + [len(table)]] = policy
    return out


def _check_symmetry(k: int) -> int:
    return integer(k, "the symmetry", 0, 11)
