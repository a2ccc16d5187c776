"""Tests of MCTS playing for points: margins, Score Bounded MCTS, exact endgames, and the
setup decisions made from the margin.  Exact values come from ``catena.solve``; the
points set is ``catena.points`` (seeded positions, every legal move solved).

Rule numbers refer to docs/rules.md: R16 (standard score), R22 (komi ranges), R24
(longest ribbon: no margin), R25 (square scoring), R19 (double placement's two stones).
"""

import random

import pytest
from test_mcts import random_endgame

import catena
from catena import MCTS, Game, Position
from catena.players import MCTSPlayer
from catena.points import build_points_set, measure

SIGN = {"black": 1, "white": -1}


def solved(pos):
    return catena.solve(pos).value


def move_values(pos):
    """Exact margin (Black minus White) after each legal move."""
    values = {}
    for move in pos.legal_moves():
        after = pos.copy()
        after.push(move)
        values[move] = solved(after)
    return values


# ---------------------------------------------------------------- the points set


@pytest.fixture(scope="module")
def points():
    return build_points_set(seed=5, openings=4, endgames=6, sizes=(4, 5, 6), legal=(10, 16))


def test_points_set_is_what_it_claims(points):
    """The set holds side-3 openings and endgames of the asked legal-cell counts, with the
    exact value of every legal move (spot-checked against a fresh solve)."""
    assert [p.size for p in points].count(3) == 4
    for entry in points:
        pos = entry.position()
        assert set(entry.values) == {m.name for m in pos.legal_moves()}
        assert entry.to_move == pos.to_move
        if entry.size > 3:
            assert 10 <= sum(m.name != "button" for m in pos.legal_moves()) <= 16
    entry = points[-1]
    pos = entry.position()
    move = sorted(entry.values)[0]
    pos.push(move)
    assert solved(pos) == entry.values[move]


def test_default_search_plays_for_points(points):
    """Default MCTS at 10,000 iterations: >= 90% optimal moves, <= 0.25 points lost per move,
    never a thrown result."""
    def choose(pos):
        return MCTS(seed=len(pos.move_stack)).search(pos, iterations=10_000).best_move
    report = measure(points, choose)
    assert report.optimal >= 0.9, report
    assert report.points_lost <= 0.25, report
    assert report.thrown == 0, report


def test_score_utility_beats_win_only_without_the_solver(points):
    """With the exact solver off, the score utility alone loses fewer points than the
    win-only search at equal iterations (on the endgames, where margins differ most)."""
    endgames = [p for p in points if p.size > 3]

    def chooser(**options):
        return lambda pos: MCTS(seed=len(pos.move_stack), exact_cells=0, **options).search(
            pos, iterations=5000).best_move
    for_points = measure(endgames, chooser())
    for_win = measure(endgames, chooser(score_weight=0))
    assert for_points.points_lost < for_win.points_lost, (for_points, for_win)


# ---------------------------------------------------------------- side 3 against perfect play


@pytest.mark.parametrize("komi", [0, 10, 11])
@pytest.mark.parametrize("colour", ["black", "white"])
def test_side3_against_the_solver_loses_no_points(komi, colour):
    """From the empty side-3 board, MCTS (10,000 iterations a move) against the exact solver's
    moves ends with the board's exact value: 0 points lost."""
    pos = Position(3, "komi", "standard", komi)
    value = solved(pos)
    engine = MCTSPlayer(iterations=10_000, seed=komi)
    while not pos.is_game_over():
        if pos.to_move == colour:
            move = engine.choose_move(pos.copy())
        else:
            move = catena.solve(pos).best_move
        pos.push(move)
    outcome = pos.outcome()
    assert outcome.black_score - outcome.white_score == value, (pos, value)


def test_the_trap_after_b4_a1_at_komi_10():
    """After B4 A1 at komi 10 Black wins by half a point with best play; Black's move keeps the win."""
    pos = Position(3, "komi", "standard", 10)
    pos.push("B4")
    pos.push("A1")
    assert solved(pos) == 0.5
    for seed in range(3):
        result = MCTS(seed=seed).search(pos, iterations=10_000)
        after = pos.copy()
        after.push(result.best_move)
        assert solved(after) == 0.5
        assert result.exact == 0.5 and result.winner == "black"


# ---------------------------------------------------------------- margins in the result


@pytest.mark.parametrize("game_type,scoring", [("komi", "standard"), ("komi", "square"),
                                               ("double", "standard"), ("nokomi", "square"),
                                               ("double", "square")])
def test_proven_margins_are_exact(game_type, scoring):
    """On endgames of every variant with a margin, a solved root reports the solver's value as
    ``exact`` and ``score``, every solved move's ``scores`` entry is its exact value, and the
    move played has the best margin for the mover (in won and lost positions alike)."""
    rng = random.Random(f"{game_type}-{scoring}")
    for i in range(6):
        pos = random_endgame(rng.choice((4, 5)), game_type, scoring, 0, rng, rng.randint(6, 12))
        values = move_values(pos)
        sign = SIGN[pos.to_move]
        best = max(sign * v for v in values.values())
        result = MCTS(seed=i).search(pos, iterations=3000)
        assert result.exact is not None, pos
        assert result.exact == result.score == sign * best == solved(pos)
        assert sign * values[result.best_move] == best
        assert set(result.scores) == set(pos.legal_moves())
        assert result.scores[result.best_move] == result.exact


def test_lost_positions_lose_by_the_least():
    """Where the mover loses whatever it plays, it plays a move that loses by the least."""
    rng = random.Random(4)
    found = 0
    while found < 6:
        pos = random_endgame(rng.choice((4, 5, 6)), "komi", "standard", 0, rng, rng.randint(8, 14))
        values = move_values(pos)
        sign = SIGN[pos.to_move]
        best = max(sign * v for v in values.values())
        if best > 0 or len({sign * v for v in values.values()}) < 2:
            continue
        found += 1
        result = MCTS(seed=found).search(pos, iterations=2000)
        assert sign * values[result.best_move] == best, (pos, result.best_move, values)


def test_longest_ribbon_has_no_margin():
    """Under longest-ribbon scoring (R24) the search is win/loss only: no score, no scores, no exact."""
    pos = random_endgame(4, "komi", "longest", 2, random.Random(3), 10)
    result = MCTS(seed=1).search(pos, iterations=2000)
    assert result.score is None and result.scores == {} and result.exact is None
    assert result.proven and result.winner == catena.solve(pos).winner


def test_unsolved_search_reports_expected_margins():
    """On the side-6 board (nothing proven) every move has an expected margin within the
    board's range, and ``score`` is the chosen move's."""
    pos = Position(6)
    result = MCTS(seed=3).search(pos, iterations=3000)
    assert result.exact is None and not result.proven
    assert set(result.scores) == set(pos.legal_moves())
    assert all(abs(s) <= 91.5 for s in result.scores.values())
    assert result.score == result.scores[result.best_move]


def test_score_weight_zero_stops_at_the_winner():
    """score_weight=0 is the win-only search: it stops once the winner is proven, where
    playing for points goes on to the exact margin."""
    rng = random.Random(11)
    pos = random_endgame(5, "komi", "standard", 0, rng, 14)
    win_only = MCTS(seed=1, score_weight=0, exact_cells=0).search(pos, iterations=200_000)
    for_points = MCTS(seed=1, exact_cells=0).search(pos, iterations=200_000)
    assert win_only.proven and for_points.exact == solved(pos)
    assert win_only.iterations <= for_points.iterations


@pytest.mark.parametrize("bad, error", [(-0.1, ValueError), (101, ValueError), (float("nan"), ValueError),
                                        ("1", TypeError), (None, TypeError), (True, TypeError)])
def test_bad_score_weight(bad, error):
    with pytest.raises(error, match="score_weight"):
        MCTS(score_weight=bad)


def test_bad_exact_cells():
    with pytest.raises(ValueError, match="exact_cells"):
        MCTS(exact_cells=-1)
    with pytest.raises(TypeError):
        MCTS(exact_cells=2.5)


# ---------------------------------------------------------------- setup decisions


def test_komi_bid_and_colour_from_the_margin():
    """On side 3 (standard: Black's exact margin 10.5 at komi 0) MCTSPlayer bids komi 10, the
    fair komi, and as P2 at komi 10 takes Black, at komi 11 White."""
    player = MCTSPlayer(iterations=10_000, seed=1)
    game = Game(size=3)
    assert player.choose_komi(game) == catena.fair_komi(3) == 10
    for komi, colour in ((10, "black"), (11, "white")):
        game = Game(size=3)
        game.choose_komi(komi)
        assert MCTSPlayer(iterations=10_000, seed=2).choose_colour(game) == colour
