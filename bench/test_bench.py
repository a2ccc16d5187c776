"""pytest-benchmark benchmarks: ``pytest bench/ --benchmark-only`` (not part of the tests).

The speed targets of the project are read off these and off ``python -m catena bench``;
none of them is asserted in a test.
"""

import pytest

import catena
from catena.benchmark import midgame


@pytest.fixture(scope="module")
def middle():
    return midgame(6)


@pytest.mark.parametrize("size", [6, 10])
def test_random_playouts(benchmark, size):
    pos = catena.Position(size=size)
    stats = benchmark(catena.random_playouts, pos, 1000, seed=1)
    assert stats.games == 1000


def test_perft_empty_side6_depth3(benchmark):
    assert benchmark(catena.perft, catena.Position(), 3) == 752580


def test_perft_middle_game_depth3(benchmark, middle):
    assert benchmark(catena.perft, middle, 3) > 0


def test_legal_moves(benchmark, middle):
    assert benchmark(middle.legal_moves)


def test_push_pop(benchmark, middle):
    move = middle.legal_moves()[0]

    def push_pop():
        middle.push(move)
        middle.pop()

    benchmark(push_pop)


def test_copy(benchmark, middle):
    benchmark(middle.copy)
