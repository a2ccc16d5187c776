"""The core's incremental state always equals the state recomputed from the stones alone
(``Position._consistency_errors``, the ``pos_is_ok`` of engines), after every push and pop,
on every side and variant."""

import random

import pytest

import catena


@pytest.mark.parametrize("size", range(1, 11))
def test_incremental_state_matches_a_fresh_computation(size):
    """Counts, ribbon ends, legality (R7), bounded flags (R9), claims, keys: after every move."""
    plies = 0
    for game_type in catena.GAME_TYPES:
        for scoring in catena.SCORINGS:
            rng = random.Random(f"{size}-{game_type}-{scoring}")
            for _ in range(max(1, 12 // size)):
                pos = catena.Position(size, game_type, scoring, 0)
                while not pos.is_game_over():
                    pos.push(rng.choice(pos.legal_moves()))
                    plies += 1
                    assert pos._consistency_errors() == [], [m.name for m in pos.move_stack]
                    if rng.random() < 0.25:
                        move = pos.pop()
                        assert pos._consistency_errors() == [], [m.name for m in pos.move_stack]
                        pos.push(move)
    assert plies >= 9


def test_longest_ribbon_solver_key_does_not_depend_on_move_order():
    """Two orders of the same stones give the same solver state, bounded ribbons included."""
    first = catena.Position(2, "komi", "longest")
    for name in ["A1", "C3", "B1", "B3"]:
        first.push(name)
    second = catena.Position(2, "komi", "longest")
    for name in ["B1", "B3", "A1", "C3"]:
        second.push(name)
    assert first.to_array().tolist() == second.to_array().tolist()
    assert first._consistency_errors() == second._consistency_errors() == []
