"""The solver's techniques of docs/side4.md ("Stronger pruning", issue 49): each one kept leaves
every value as it was, checked against brute force (tests/conftest.py) where that is affordable
and against the solver without the technique on bigger side-4 positions, in every game type."""

import random

import pytest

import catena
from catena import Position
from catena.solver import GUESS_NODES_PER_ITERATION, SolverParams, _first_guess

from conftest import minimax_value

GAME_TYPES = ("komi", "nokomi", "double")
COMBOS = [(g, s) for g in GAME_TYPES for s in ("standard", "longest", "square")]
SIGN = {"black": 1, "white": -1, "draw": 0}
TT_MB = 16


def value_of(result, scoring):
    assert result.solved, result
    return SIGN[result.winner] if scoring == "longest" else result.value


def legal_cells(pos):
    return sum(not m.is_button for m in pos.legal_moves())


def midgame(size, game_type, scoring, seed, cells):
    """Seeded random play until at most ``cells`` legal cells remain."""
    rng = random.Random(seed)
    pos = Position(size, game_type, scoring, 0)
    while not pos.is_game_over() and legal_cells(pos) > cells:
        pos.push(rng.choice(pos.legal_moves()))
    return pos


# ---------------------------------------------------------------- longest ribbon: +1, 0 or -1

LONGEST = [pos for game_type in GAME_TYPES for size, seeds, cells in ((3, range(8), 9), (4, range(4), 10))
           for seed in seeds
           if not (pos := midgame(size, game_type, "longest", 100 * size + seed, cells)).is_game_over()]


@pytest.mark.parametrize("threads", [1, 2])
def test_longest_ribbon_values_match_brute_force(threads):
    """Longest-ribbon solves, which start from the bounds -1 and +1, give the brute force's winner."""
    assert len(LONGEST) >= 30
    for pos in LONGEST:
        result = catena.solve(pos, tt_mb=TT_MB, threads=threads)
        assert value_of(result, "longest") == minimax_value(pos, {}), f"{pos!r}"


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_longest_ribbon_bounds_are_proven_from_the_start(game_type):
    """A longest-ribbon value lies in [-1, +1] before any search: a solve stopped at once says so
    (it said nothing before), and a solve never needs a null window outside that range."""
    result = catena.solve(Position(4, game_type, "longest", 0), max_nodes=1, threads=1)
    assert not result.solved and (result.lower, result.upper) == (-1, 1)


# ---------------------------------------------------------------- MTD(f)'s first guess

GUESS_CELLS = 22
PARAMS = SolverParams(guess_cells=GUESS_CELLS, guess_iterations=5000)   # smaller than the default's, for speed

def guessed_positions():
    """Two side-4 positions with 22 or 23 legal cells (GUESS_CELLS) of each game type and
    scoring the guess serves, from the first seeds whose random play stops there."""
    out = []
    for game_type, scoring in COMBOS:
        seed, found = 0, 0
        while scoring != "longest" and found < 2:
            pos = midgame(4, game_type, scoring, 31 * seed + 7, GUESS_CELLS + 1)
            seed += 1
            if legal_cells(pos) >= GUESS_CELLS:
                out.append(pos)
                found += 1
    return out


GUESSED = guessed_positions()


def test_first_guess_when_it_applies():
    """A short seeded MCTS's margin (the same each time) for positions with enough legal cells,
    None under longest ribbon, for smaller positions and for a solve limited to too few nodes
    for the guess to pay (50 a guess iteration)."""
    assert {(p.game_type, p.scoring) for p in GUESSED} == {c for c in COMBOS if c[1] != "longest"}
    for pos in GUESSED:
        assert legal_cells(pos) >= GUESS_CELLS
        guess = _first_guess(pos, PARAMS, None, None)
        assert isinstance(guess, float) and guess == _first_guess(pos, PARAMS, None, None)
        assert _first_guess(pos, SolverParams(), None, None) is None               # fewer than 27 legal cells
        enough = GUESS_NODES_PER_ITERATION * PARAMS.guess_iterations
        assert _first_guess(pos, PARAMS, enough - 1, None) is None
        assert _first_guess(pos, PARAMS, enough, None) == guess
    assert _first_guess(midgame(4, "komi", "standard", 5, GUESS_CELLS - 1), PARAMS, None, None) is None
    assert _first_guess(midgame(4, "komi", "longest", 5, 30), PARAMS, None, None) is None


@pytest.mark.parametrize("threads", [1, 2])
def test_first_guess_keeps_values(threads):
    """A solve from the MCTS's guess gives the value of a solve from 0, and a solve given no guess
    starts from it (the same nodes as given it, on one thread)."""
    for pos in GUESSED:
        guessed = catena.solve(pos, tt_mb=TT_MB, threads=threads, params=PARAMS)
        plain = catena.solve(pos, tt_mb=TT_MB, threads=threads, guess=0)
        assert value_of(guessed, pos.scoring) == value_of(plain, pos.scoring), f"{pos!r}"
        if threads == 1:
            given = catena.solve(pos, tt_mb=TT_MB, threads=1, guess=_first_guess(pos, PARAMS, None, None))
            assert given.nodes == guessed.nodes, f"{pos!r}"
