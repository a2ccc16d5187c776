"""Tests of the learned move prior (catena.prior, catena._prior, MCTS(prior_weight=...)).

The features are checked against a slow reference written from the rules (docs/rules.md
R3, R7, R9-R12) and the public Position API only; every random choice is seeded.
"""

import random
import subprocess
import sys

import numpy
import pytest

import catena
from catena import _prior, prior
from catena._geometry import cell_coordinates, cell_name, symmetries

DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))      # R3, in turning order


# ---------------------------------------------------------------- the reference


def _code_under(code, turn, mirror):
    digits = [(code // 5 ** d) % 5 for d in range(6)]
    return sum(digits[(((2 - d) % 6 if mirror else d) + turn) % 6] * 5 ** d for d in range(6))


CANONICAL = sorted({min(_code_under(c, k % 6, k >= 6) for k in range(12)) for c in range(5 ** 6)})
CLASS_OF_CANONICAL = {code: i for i, code in enumerate(CANONICAL)}


def reference_pattern_class(code):
    return CLASS_OF_CANONICAL[min(_code_under(code, k % 6, k >= 6) for k in range(12))]


def hex_distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq - dr))


def bounded_score(pos):
    """Standard scoring: stones of bounded ribbons, Black's minus White's."""
    total = 0
    for ribbon in pos.ribbons():
        if ribbon.bounded:
            total += ribbon.length if ribbon.black else -ribbon.length
    return total


def legal_cells(pos):
    return len(pos.legal_moves()) - (pos.button is None)


def bucket(value, edges):
    """The index of the first edge that ``value`` is at most (len(edges) beyond them)."""
    for i, edge in enumerate(edges):
        if value <= edge:
            return i
    return len(edges)


def reference_features(pos, move):
    """The features of ``move`` (a Move) of ``pos``, from the rules."""
    layout = _prior.layout()
    offset = layout["offsets"]
    n = pos.size
    coords = cell_coordinates(n)
    at = {c: i for i, c in enumerate(coords)}
    stack = pos.move_stack
    last = stack[-1].index if stack else None
    before = stack[-2].index if len(stack) > 1 else None
    if move.name == "button":
        out = [offset[g + 1] - 1 for g in range(7)]
        out[3] = offset[3] + 8 + legal_cells(pos) % 2
        return out
    mover = pos.to_move
    col, row = coords[move.index]
    code, touched, length, own = 0, 0, 1, 1
    ribbons = pos.ribbons()
    for d, (dc, dr) in enumerate(DIRECTIONS):
        y = at.get((col + dc, row + dr))
        if y is None:
            state = 0
        elif pos.stone_at(y) is None:
            state = 1 if pos.is_legal(y) else 2
        else:
            state = 3 if pos.stone_at(y) == mover else 4
            name = cell_name(y, n)
            ribbon = next(r for r in ribbons if name in r.cells)
            touched += 1
            length += ribbon.length
            own += ribbon.black if mover == "black" else ribbon.white
        code += state * 5 ** d
    out = [reference_pattern_class(code)]
    length_bucket = bucket(length, (1, 3, 5, 8))
    out.append(offset[1] + (touched * 5 + length_bucket) * 7 + max(-3, min(3, 2 * own - length)) + 3)
    after = pos.copy()
    after.push(move)
    sign = 1 if mover == "black" else -1
    if after.last_claims():
        gain = sign * (bounded_score(after) - bounded_score(pos))
        out.append(offset[2] + 1 + bucket(gain, (-6, -3, -1, 0, 2, 5)))
    else:
        out.append(offset[2])
    if after.is_game_over():
        out.append(offset[3] + 7)
    else:
        out.append(offset[3] + bucket(legal_cells(pos) - legal_cells(after), (1, 2, 3, 4, 5, 7)))
    here = coords[move.index]
    near_last = last is not None and last < len(coords) and hex_distance(here, coords[last]) == 1
    near_before = before is not None and before < len(coords) and hex_distance(here, coords[before]) == 1
    if near_last or near_before:
        near = (1 if near_last else 0) | (2 if near_before else 0)
    else:
        near = 4 if last is not None and last < len(coords) and hex_distance(here, coords[last]) == 2 else 0
    out.append(offset[4] + near)
    centre = (n, n)
    out.append(offset[5] + min(n - 1 - hex_distance(here, centre), 3))
    stones = sum(1 for i, c in enumerate(coords) if hex_distance(here, c) == 2 and pos.stone_at(i) is not None)
    out.append(offset[6] + min(stones, 4))
    return out


def random_position(size, seed, plies=None):
    rng = random.Random(seed)
    pos = catena.Position(size=size, komi=rng.randrange(0, 4))
    plies = rng.randrange(0, 3 * size * (size - 1)) if plies is None else plies
    for _ in range(plies):
        if pos.is_game_over():
            break
        pos.push(rng.choice(pos.legal_moves()))
    return pos


# ---------------------------------------------------------------- features


def test_pattern_classes_are_the_neighbourhoods_up_to_symmetry():
    assert _prior.layout()["patterns"] == len(CANONICAL) == 1505    # bracelets of 6 beads, 5 colours
    rng = random.Random(3)
    for code in [rng.randrange(5 ** 6) for _ in range(300)] + [0, 5 ** 6 - 1]:
        assert _prior.pattern_class(code) == reference_pattern_class(code)
        for k in range(12):
            assert _prior.pattern_class(_code_under(code, k % 6, k >= 6)) == _prior.pattern_class(code)
    with pytest.raises(ValueError):
        _prior.pattern_class(5 ** 6)


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_features_agree_with_the_reference(size):
    checked = 0
    for seed in range(12):
        pos = random_position(size, 1000 * size + seed)
        if pos.is_game_over():
            continue
        moves, table = _prior.features(pos)
        assert sorted(moves) == sorted(m.index for m in pos.legal_moves())
        assert table.shape == (len(moves), 7)
        by_index = {m.index: m for m in pos.legal_moves()}
        for move, row in zip(moves, table.tolist()):
            assert row == reference_features(pos, by_index[move]), (pos.move_stack, by_index[move])
            checked += 1
    assert checked > 10


def test_features_leave_the_position_unchanged():
    pos = random_position(5, 7, plies=20)
    before = (pos.to_string(), pos.zobrist, [m.index for m in pos.legal_moves()], pos.ribbons())
    _prior.features(pos)
    assert (pos.to_string(), pos.zobrist, [m.index for m in pos.legal_moves()], pos.ribbons()) == before


@pytest.mark.parametrize("size", [4, 6])
def test_features_are_invariant_under_the_board_symmetries(size):
    for seed in range(4):
        pos = random_position(size, 50 + seed)
        if pos.is_game_over():
            continue
        moves, table = _prior.features(pos)
        features_of = dict(zip(moves, table.tolist()))
        ncells = len(cell_coordinates(size))
        for image in symmetries(size)[1:]:
            mapped = catena.Position(size=size, komi=pos.komi)
            for m in pos.move_stack:
                mapped.push(m.index if m.index == ncells else image[m.index])
            mapped_moves, mapped_table = _prior.features(mapped)
            for move, row in zip(mapped_moves, mapped_table.tolist()):
                original = move if move == ncells else image.index(move)
                assert row == features_of[original]


# ---------------------------------------------------------------- training and the shipped file


def test_training_is_reproducible_from_a_seed():
    first, summary = prior.train(12, seed=5, sides=(4,))
    second, _ = prior.train(12, seed=5, sides=(4,))
    assert numpy.array_equal(first, second)
    assert summary["positions"] == 12
    assert first.shape == (_prior.layout()["features"],)
    assert numpy.any(first != 0)                         # the fit moved some weights
    third, _ = prior.train(12, seed=6, sides=(4,))
    assert not numpy.array_equal(first, third)


def test_fit_prefers_the_feature_that_wins():
    # two moves a position, feature 0 always wins against feature 1 (same group)
    layout = _prior.layout()
    rest = [layout["offsets"][g] for g in range(1, 7)]
    table = numpy.array([[0] + rest, [1] + rest], dtype=numpy.int32)
    weights = prior.fit([(table, 0)] * 20)
    assert weights[0] > 1.0 > -1.0 > weights[1]


def test_the_shipped_file_loads_with_the_layout(tmp_path):
    weights = prior.shipped_weights()
    assert weights.shape == (_prior.layout()["features"],) and weights.dtype == numpy.float32
    assert numpy.all(numpy.isfinite(weights)) and numpy.any(weights != 0)
    path = tmp_path / "bad.npz"
    numpy.savez(path, version=numpy.int32(99), weights=weights)
    with pytest.raises(prior.PriorFileError, match="layout 99"):
        prior.read_weights(str(path))
    numpy.savez(path, version=numpy.int32(1), weights=weights[:10])
    with pytest.raises(prior.PriorFileError, match="shape"):
        prior.read_weights(str(path))


def test_the_wheel_and_the_sdist_carry_the_weights():
    import pathlib
    try:
        import tomllib
    except ImportError:                  # Python 3.10: pytest brings tomli there
        import tomli as tomllib

    root = pathlib.Path(__file__).resolve().parent.parent
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "catena.data" in setuptools["packages"]
    assert "*.npz" in setuptools["package-data"]["catena.data"]
    assert "catena/data/*.npz" in (root / "MANIFEST.in").read_text()
    assert (root / "catena" / "data" / prior.SHIPPED).stat().st_size <= 1 << 20


def test_probabilities_are_a_distribution():
    pos = random_position(5, 11, plies=15)
    p = _prior.probabilities(pos)
    assert set(p) == {m.index for m in pos.legal_moves()}
    assert abs(sum(p.values()) - 1) < 1e-9 and min(p.values()) > 0


# ---------------------------------------------------------------- the prior in the search


@pytest.mark.parametrize("bad", [-0.1, 101, float("nan"), "1", None])
def test_bad_prior_weights_raise(bad):
    with pytest.raises((ValueError, TypeError)):
        catena.MCTS(prior_weight=bad)


def test_prior_weight_survives_a_copy():
    import copy
    assert copy.copy(catena.MCTS(seed=1, prior_weight=2.5)).prior_weight == 2.5


def test_a_heavy_prior_sends_the_visits_to_its_favourite_moves():
    """The prior's five favourites get more of the visits with a heavy weight (the
    search's own favourite, whatever the prior thinks of it, keeps many)."""
    pos = random_position(6, 21, plies=30)
    probability = _prior.probabilities(pos)
    top = sorted(probability, key=probability.get)[-5:]

    def top_visits(weight):
        result = catena.MCTS(seed=1, exact_cells=0, prior_weight=weight).search(pos, iterations=3000)
        return sum(n for m, n in result.visits.items() if m.index in top)

    assert top_visits(100) > 1.5 * top_visits(0)
    assert top_visits(0) == top_visits(0)                # seeded: the difference is the prior's


# ---------------------------------------------------------------- python -m catena train-prior


def test_train_prior_writes_a_weights_file_that_loads(tmp_path):
    out = tmp_path / "tiny.npz"
    proc = subprocess.run([sys.executable, "-m", "catena", "train-prior", "--positions", "10", "--seed", "3",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"wrote {out}: 10 positions")
    assert prior.read_weights(str(out)).shape == (_prior.layout()["features"],)


def test_train_prior_refuses_a_bad_size(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "catena", "train-prior", "--positions", "0"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--positions" in proc.stderr
    assert not list(tmp_path.iterdir())
