"""Observation tensors and the board symmetries on tensors, action ids and policies."""

import random

import numpy
import pytest

import catena
from catena import Move, Position
from catena.observation import PLANES, transform_action, transform_policy, transform_tensor


def random_game_prefixes(seed, sizes=(1, 2, 3, 4, 6), count=60):
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice(sizes)
        game_type = rng.choice(catena.GAME_TYPES)
        scoring = rng.choice(catena.SCORINGS)
        pos = Position(size, game_type, scoring, rng.choice([0, 5]) if game_type == "komi" else 0)
        stop = rng.randrange(3 * size * size + 2)
        while not pos.is_game_over() and pos.ply < stop:
            pos.push(rng.choice(pos.legal_moves()))
        yield pos


def grid_of(size):
    """Each cell's (row, column) position on the tensor grid."""
    return [(int(name[1:]) - 1, ord(name[0]) - 65) for name in catena.cells(size)]


def test_shape_dtype_and_off_board_zeros():
    for size in range(1, 11):
        obs = Position(size=size).observation_tensor()
        assert obs.shape == catena.observation_shape(size) == (PLANES, 2 * size - 1, 2 * size - 1)
        assert obs.dtype == numpy.float32
        board = numpy.zeros(obs.shape[1:], dtype=bool)
        for row, column in grid_of(size):
            board[row, column] = True
        assert not obs[:, ~board].any()
        assert (obs[4] == board).all()
        assert int(board.sum()) == 3 * size * (size - 1) + 1        # R1


def test_planes_follow_the_position():
    for pos in random_game_prefixes("planes"):
        obs = pos.observation_tensor()
        mover = pos.to_move
        mask = pos.legal_action_mask()
        bounded = {cell for ribbon in pos.ribbons() if ribbon.bounded for cell in ribbon.cells}
        for index, (row, column) in enumerate(grid_of(pos.size)):
            name = catena.cells(pos.size)[index]
            shown = pos.stone_at(index)
            assert obs[0, row, column] == (shown == mover)
            assert obs[1, row, column] == (shown is not None and shown != mover)
            assert obs[2, row, column] == mask[index]
            assert obs[3, row, column] == (name in bounded)
        row, column = grid_of(pos.size)[0]
        assert obs[5, row, column] == (pos.button == mover)
        assert obs[6, row, column] == (pos.button is not None and pos.button != mover)
        assert obs[7, row, column] == (pos.game_type == "double" and pos.stones_left == 2)
        assert obs[8, row, column] == numpy.float32(pos.komi / (1000 if pos.scoring == "square" else 15))
        assert obs[9, row, column] == (mover == "white")


@pytest.mark.parametrize("k", range(12))
def test_symmetries_commute_with_the_observation(k):
    for pos in random_game_prefixes(f"sym{k}", count=25):
        twin = Position(pos.size, pos.game_type, pos.scoring, pos.komi)
        for move in pos.move_stack:
            twin.push(transform_action(move.index, k, pos.size))
        assert (transform_tensor(pos.observation_tensor(), k) == twin.observation_tensor()).all()
        mask = pos.legal_action_mask()
        assert (transform_policy(mask, k, pos.size) == twin.legal_action_mask()).all()
        batch = numpy.stack([pos.observation_tensor()] * 2)
        assert (transform_tensor(batch, k)[1] == twin.observation_tensor()).all()


def test_action_symmetries_match_catena_symmetries_and_fix_the_button():
    for size in (1, 3, 6):
        table = catena.symmetries(size)
        ncells = len(table[0])
        for k in range(12):
            assert [transform_action(c, k, size) for c in range(ncells)] == list(table[k])
            assert transform_action(ncells, k, size) == ncells
            policy = numpy.arange(ncells + 1.0)
            moved = transform_policy(policy, k, size)
            assert all(moved[transform_action(a, k, size)] == policy[a] for a in range(ncells + 1))
    assert transform_action(Move("F6").index, 5) == Move("F6").index           # the centre


def test_bad_symmetry_arguments_raise():
    obs = Position(size=2).observation_tensor()
    for bad in (-1, 12):
        with pytest.raises(ValueError, match=f"the symmetry must be 0 to 11, not {bad}"):
            transform_tensor(obs, bad)
    for bad in (True, 1.0):
        with pytest.raises(TypeError, match="the symmetry must be an int"):
            transform_tensor(obs, bad)
    with pytest.raises(ValueError):
        transform_tensor(numpy.zeros((4, 4)), 0)
    with pytest.raises(ValueError):
        transform_policy(numpy.zeros(5), 0, size=2)
    with pytest.raises(ValueError):
        transform_action(8, 0, size=2)
