"""Tests of the Monte Carlo tree search (``catena.MCTS``); the players built on it are in
test_players.py.

Rule numbers (R1..R25) refer to docs/rules.md.  Every random choice is
seeded, so the suite is reproducible.  The oracle for game values is ``minimax_winner``
of tests/conftest.py: an exhaustive search (every legal move of every node is evaluated,
no pruning) over ``Position.push``/``pop``, returning only the winner.

Parity fact used in the comments: a finished game never ties.  In the button games the
half point of the button breaks ties (R16, R24, R25); in double placement the number
of stones is 1 + 2k (R19, R20), so the stones (standard), the sum of squared lengths
(square) and the unpaired lengths (longest) always decide.
"""

import copy
import random

import pytest

import catena
from catena import MCTS, CatenaError, IllegalMoveError, Position, SearchResult

from conftest import minimax_winner

GAME_TYPES = ("komi", "nokomi", "double")
SCORINGS = ("standard", "longest", "square")
KOMI_MAX = {"standard": 15, "longest": 15, "square": 1000}      # R22


# ---------------------------------------------------------------- helpers


def other(colour):
    return "white" if colour == "black" else "black"


def winner_name(result):
    """The winner a SearchResult reports, in Outcome's terms (None for a draw)."""
    return None if result.winner == "draw" else result.winner


def make(size, moves, game_type="komi", scoring="standard", komi=0):
    pos = Position(size, game_type, scoring, komi)
    for m in moves.split():
        pos.push(m)
    return pos


def state(pos):
    """What a search must leave unchanged in the position it was given."""
    return (pos.zobrist, pos.ply, [m.name for m in pos.move_stack], pos.to_array().tolist(),
            pos.to_move, pos.stones_left, pos.button)


def random_midgame(size, game_type, scoring, komi, rng, plies):
    """Up to ``plies`` seeded random legal moves from the empty board, never ending the game."""
    pos = Position(size, game_type, scoring, komi)
    for _ in range(plies):
        pos.push(rng.choice(pos.legal_moves()))
        if pos.is_game_over():
            pos.pop()
            break
    return pos


def random_endgame(size, game_type, scoring, komi, rng, max_legal):
    """Random play from the empty board until at most ``max_legal`` moves are legal (game on)."""
    while True:
        pos = Position(size, game_type, scoring, komi)
        while not pos.is_game_over() and len(pos.legal_moves()) > max_legal:
            pos.push(rng.choice(pos.legal_moves()))
        if not pos.is_game_over():
            return pos


def move_values(pos, memo=None):
    """{move: minimax winner after the move} for every legal move of ``pos``."""
    pos = pos.copy()
    out = {}
    for move in pos.legal_moves():
        pos.push(move)
        out[move] = minimax_winner(pos, memo)
        pos.pop()
    return out


def immediate(pos):
    """Sets of moves that (win now, lose now, let the opponent win with the next move).

    "Now" means the move ends the game (R14, R20) and the mover wins (or loses)."""
    pos = pos.copy()
    mover = pos.to_move
    win, lose, allow = set(), set(), set()
    for move in pos.legal_moves():
        pos.push(move)
        if pos.is_game_over():
            (win if pos.outcome().winner == mover else lose).add(move)
        elif pos.to_move != mover:
            for reply in pos.legal_moves():
                pos.push(reply)
                ends = pos.is_game_over() and pos.outcome().winner == other(mover)
                pos.pop()
                if ends:
                    allow.add(move)
                    break
        pos.pop()
    return win, lose, allow


def tie_claims(pos, move):
    """Play ``move`` on a copy; return (copy, [(claim, black, white)]) for the claims of that
    stone whose ribbon had equal colour counts (R12's tie).  Counts are taken before the
    move with ``ribbons()`` (the ribbons the claim is made of) plus the new stone."""
    mover = pos.to_move
    before = pos.ribbons()
    after = pos.copy()
    after.push(move)
    cell = after.peek().name
    ties = []
    for claim in after.last_claims():
        cells = set(claim.cells)
        black = sum(r.black for r in before if set(r.cells) <= cells)
        white = sum(r.white for r in before if set(r.cells) <= cells)
        if cell in cells:
            black, white = (black + 1, white) if mover == "black" else (black, white + 1)
        assert black + white == len(cells)
        if black == white:
            ties.append((claim, black, white))
    return after, ties


def check_result(pos, result, budget, threads=1):
    """The invariants of any search of a fresh tree of ``pos``."""
    legal = pos.legal_moves()
    assert isinstance(result, SearchResult)
    assert result.best_move in legal and pos.is_legal(result.best_move)
    assert set(result.visits) == set(legal)            # the root has one child per legal move
    assert set(result.values) == set(legal)
    assert all(isinstance(v, int) and v >= 0 for v in result.visits.values())
    assert all(0.0 <= v <= 1.0 for v in result.values.values())
    assert 0.0 <= result.value <= 1.0
    assert sum(result.visits.values()) == result.iterations   # each iteration visits one child
    if result.proven:
        assert result.winner in ("black", "white", "draw")
        assert result.iterations <= budget * threads
    else:
        assert result.winner is None
        assert result.iterations == budget * threads
    assert result.seconds >= 0
    # the principal variation is a legal line from pos (whose turn it is included)
    assert len(result.pv) >= 1
    line = pos.copy()
    for move in result.pv:
        assert move in line.legal_moves(), (result.pv, move)
        line.push(move)
    top = max(result.visits.values())
    if threads == 1 and list(result.visits.values()).count(top) == 1:
        assert result.pv[0] == result.best_move


# ---------------------------------------------------------------- 1. determinism


def _fingerprint(result):
    return (result.best_move, result.visits, result.values, result.pv, result.value,
            result.iterations, result.proven, result.winner)


DETERMINISM_POSITIONS = [
    ("side 6 empty", lambda: Position(6)),
    ("side 5 nokomi midgame", lambda: random_midgame(5, "nokomi", "longest", 0, random.Random(1), 12)),
    ("side 4 double midgame", lambda: random_midgame(4, "double", "square", 0, random.Random(2), 9)),
]


@pytest.mark.parametrize("options", [dict(), dict(threads=2), dict(rave=False), dict(rave=False, threads=2),
                                     dict(expand_visits=4, c=0.5, rave_k=50.0)],
                         ids=["rave", "rave-2threads", "uct", "uct-2threads", "options"])
@pytest.mark.parametrize("name,build", DETERMINISM_POSITIONS, ids=[p[0] for p in DETERMINISM_POSITIONS])
def test_same_seed_same_search(name, build, options):
    """Same seed, options and iteration budget give the same best move, visits, values and pv."""
    pos = build()
    first = MCTS(seed=12345, **options).search(pos, iterations=1500)
    second = MCTS(seed=12345, **options).search(pos.copy(), iterations=1500)
    assert _fingerprint(first) == _fingerprint(second)


def test_same_seed_same_reused_search():
    """Determinism holds through tree reuse: search, advance, search again gives the same results."""
    def run():
        mcts = MCTS(seed=7)
        pos = Position(5)
        out = []
        for _ in range(3):
            result = mcts.search(pos, iterations=800)
            out.append(_fingerprint(result))
            mcts.advance(result.best_move)
            pos.push(result.best_move)
        return out, mcts.tree_size
    assert run() == run()


@pytest.mark.parametrize("seed", range(4))
def test_continued_search_equals_one_longer_search(seed):
    """Searching the same position twice continues the tree: 500 + 700 iterations equal 1200.
    Exactly so without the endgame solver, whose node allowance is a share of each search's
    budget (a leaf solve cut short in the first search may finish in one longer search);
    with it, the continued tree still holds all 1,200 playouts."""
    pos = random_midgame(4, "komi", "standard", 1, random.Random(seed), 6)
    for exact_cells in (0, 14):
        mcts = MCTS(seed=99, exact_cells=exact_cells)
        mcts.search(pos, iterations=500)
        continued = mcts.search(pos, iterations=700)
        once = MCTS(seed=99, exact_cells=exact_cells).search(pos, iterations=1200)
        assert continued.iterations == 700 and once.iterations == 1200
        assert sum(continued.visits.values()) == sum(once.visits.values()) == 1200
        if exact_cells == 0:
            assert (continued.visits, continued.values, continued.pv, continued.best_move) == \
                (once.visits, once.values, once.pv, once.best_move)


@pytest.mark.parametrize("options", [dict(), dict(rave=False), dict(threads=2)], ids=["rave", "uct", "2threads"])
def test_different_seeds_differ(options):
    """Different seeds give different searches (visit counts) of the same position."""
    pos = Position(6)
    prints = {tuple(sorted((m.index, v) for m, v in
                           MCTS(seed=seed, **options).search(pos, iterations=2000).visits.items()))
              for seed in range(6)}
    assert len(prints) == 6


# ---------------------------------------------------------------- 2. legality


@pytest.mark.parametrize("scoring", SCORINGS)
@pytest.mark.parametrize("game_type", GAME_TYPES)
@pytest.mark.parametrize("size", range(1, 11))
def test_search_is_legal_everywhere(size, game_type, scoring):
    """On every side, game type and scoring the best move and the pv are legal, visits cover the legal moves."""
    rng = random.Random(f"{size}-{game_type}-{scoring}")
    komi = 0 if game_type != "komi" else rng.choice((0, 1, KOMI_MAX[scoring] // 3))
    cells = 3 * size * (size - 1) + 1
    positions = [Position(size, game_type, scoring, komi)]
    if size >= 2:
        positions += [random_midgame(size, game_type, scoring, komi, rng, rng.randint(1, max(1, cells // 2)))
                      for _ in range(2)]
        positions.append(random_endgame(size, game_type, scoring, komi, rng, 3))
    budget = 300 if size <= 6 else 150
    for i, pos in enumerate(positions):
        assert not pos.is_game_over()
        before = state(pos)
        legal = pos.legal_moves()
        for options in (dict(), dict(rave=False), dict(expand_visits=2, threads=2)):
            threads = options.get("threads", 1)
            result = MCTS(seed=i, **options).search(pos, iterations=budget)
            assert state(pos) == before                  # the search works on its own copy
            check_result(pos, result, budget, threads)
            if (not options.get("rave", True) and threads == 1 and not result.proven
                    and result.iterations >= len(legal)):
                # plain UCT tries every child once before it repeats one
                assert min(result.visits.values()) >= 1


def test_double_placement_pv_follows_turns():
    """In double placement the pv replays with the right stones per turn (1, then 2 each) (R19)."""
    rng = random.Random(5)
    for plies in (0, 1, 2, 3, 6, 9):
        pos = random_midgame(5, "double", "standard", 0, rng, plies)
        result = MCTS(seed=plies).search(pos, iterations=3000)
        line = pos.copy()
        movers = []
        for move in result.pv:
            movers.append(line.to_move)
            line.push(move)
        # from the position's turn state, the movers of the line are runs of two (R19)
        expected, who, left = [], pos.to_move, pos.stones_left
        for _ in result.pv:
            expected.append(who)
            left -= 1
            if left == 0:
                who, left = other(who), 2
        assert movers == expected


# ---------------------------------------------------------------- 3. solver


def test_minimax_memo_agrees_with_plain_minimax():
    """The test oracle: memoised minimax equals the plain exhaustive one on small boards."""
    for size in (1, 2):
        for game_type in GAME_TYPES:
            for scoring in SCORINGS:
                for komi in ((0, 1, 3) if game_type == "komi" else (0,)):
                    pos = Position(size, game_type, scoring, komi)
                    assert minimax_winner(pos.copy()) == minimax_winner(pos.copy(), {})
    rng = random.Random(17)
    for _ in range(10):
        pos = random_endgame(3, rng.choice(GAME_TYPES), "standard", 0, rng, 6)
        assert minimax_winner(pos.copy()) == minimax_winner(pos.copy(), {})


TINY_BOARDS = [(size, game_type, scoring, komi)
               for size in (1, 2) for game_type in GAME_TYPES for scoring in SCORINGS
               for komi in ((0, 1, 2, 3, 5) if game_type == "komi" else (0,))]


@pytest.mark.parametrize("size,game_type,scoring,komi", TINY_BOARDS)
def test_tiny_empty_boards_are_solved(size, game_type, scoring, komi):
    """Sides 1 and 2 from the empty board: MCTS proves the root, with minimax's winner and a winning move."""
    pos = Position(size, game_type, scoring, komi)
    memo = {}
    value = minimax_winner(pos.copy(), memo)
    values = move_values(pos, memo)
    assert value is not None                      # no draws (parity, see the module docstring)
    for options in (dict(), dict(rave=False)):
        result = MCTS(seed=3, **options).search(pos, iterations=50_000)
        assert result.proven, (size, game_type, scoring, komi)
        assert winner_name(result) == value
        if value == pos.to_move:
            assert values[result.best_move] == value
        check_result(pos, result, 50_000)


def test_side1_facts():
    """F2 through the search: side 1, komi 0, Black places A1 and wins; with komi 1 White wins."""
    result = MCTS(seed=1).search(Position(1), iterations=100)
    assert result.proven and result.winner == "black" and result.best_move.name == "A1"
    result = MCTS(seed=1).search(Position(1, komi=1), iterations=100)
    assert result.proven and result.winner == "white"


def _endgame_sample(count_per_cell, sizes, max_legal, seed):
    rng = random.Random(seed)
    sample = []
    for game_type in GAME_TYPES:
        for size in sizes:
            for _ in range(count_per_cell):
                scoring = rng.choice(SCORINGS)
                komi = 0 if game_type != "komi" else rng.choice((0, 1, 2, 4) if scoring != "square" else (0, 3, 20))
                sample.append(random_endgame(size, game_type, scoring, komi, rng, rng.randint(3, max_legal)))
    return sample


ENDGAMES = _endgame_sample(4, (3, 4, 5), 7, seed=2024)


def test_endgame_sample_is_varied():
    """The endgame sample has 36 positions: all game types, both stones of a double turn."""
    assert len(ENDGAMES) == 36
    assert {p.game_type for p in ENDGAMES} == set(GAME_TYPES)
    assert {p.stones_left for p in ENDGAMES if p.game_type == "double"} == {1, 2}
    assert {p.size for p in ENDGAMES} == {3, 4, 5}


@pytest.mark.parametrize("threads", [1, 2])
def test_endgames_solved_like_minimax(threads):
    """Endgames (<= 7 legal moves, sides 3-5): proven with minimax's winner, best move wins when a win exists."""
    wins = losses = 0
    for i, pos in enumerate(ENDGAMES):
        memo = {}
        value = minimax_winner(pos.copy(), memo)
        values = move_values(pos, memo)
        result = MCTS(seed=i, threads=threads, rave=i % 2 == 0).search(pos, iterations=30_000)
        where = (pos, result.best_move, result.winner, value)
        assert result.proven, where
        assert winner_name(result) == value, where
        if value == pos.to_move:
            wins += 1
            assert values[result.best_move] == value, where
        else:
            losses += 1
    assert wins >= 10 and losses >= 5                     # the sample tests both kinds


@pytest.mark.parametrize("threads", [1, 2])
def test_proven_results_match_minimax_under_small_budgets(threads):
    """Whatever the budget, a proven root has minimax's winner, and a proven win's best move wins."""
    rng = random.Random(5)
    proven = 0
    for i in range(300):
        size = rng.choice((3, 4, 5))
        game_type = rng.choice(GAME_TYPES)
        scoring = rng.choice(SCORINGS)
        pos = random_endgame(size, game_type, scoring, 0, rng, rng.randint(6, 10))
        memo = {}
        value = minimax_winner(pos.copy(), memo)
        values = None
        for budget in (30, 100, 300):
            result = MCTS(seed=i, threads=threads).search(pos, iterations=budget)
            if not result.proven:
                continue
            proven += 1
            assert winner_name(result) == value, (pos, budget, result.winner)
            if value == pos.to_move:
                values = values or move_values(pos, memo)
                assert values[result.best_move] == value, (
                    f"{pos!r}: MCTS(seed={i}, threads={threads}) with {budget} iterations proves a "
                    f"{result.winner} win but plays {result.best_move}, which loses")
    assert proven >= 200


def test_two_threads_proven_win_plays_the_winning_move():
    """With two trees, a root proven won by one tree still yields that tree's winning move."""
    # Double placement, side 3, Black to play both stones of a turn: B4, C2 and D5 win,
    # the other five moves lose (minimax).
    pos = make(3, "E4 E3 E5 D2 A2 A3 B2", game_type="double", scoring="square")
    values = move_values(pos, {})
    assert minimax_winner(pos.copy()) == "black" and pos.to_move == "black"
    assert {m.name for m, v in values.items() if v == "black"} == {"B4", "C2", "D5"}
    wrong = []
    for seed in range(20):
        for budget in (20, 30, 50):
            result = MCTS(seed=seed, threads=2).search(pos, iterations=budget)
            if result.proven:
                assert result.winner == "black"
                if values[result.best_move] != "black":
                    wrong.append((seed, budget, result.best_move.name, result.iterations))
    assert not wrong, f"proven black win, but a losing best_move (seed, budget, move, iterations): {wrong}"


# ---------------------------------------------------------------- 4. win in one, loss in one


def _win_in_one_sample():
    """Seeded endgames (sides 4-6, >= 3 legal moves) where some, not all, moves end the game with a win."""
    rng = random.Random(8)
    sample = []
    while len(sample) < 24:
        size = rng.choice((4, 5, 6))
        game_type = GAME_TYPES[len(sample) % 3]
        scoring = rng.choice(SCORINGS)
        pos = random_endgame(size, game_type, scoring, 0, rng, rng.randint(3, 9))
        if len(pos.legal_moves()) < 3:
            continue
        win, _, _ = immediate(pos)
        if win and len(win) < len(pos.legal_moves()):
            sample.append((pos, win))
    return sample


def best_moves(pos):
    """(moves that keep the best result, moves that keep the best margin) of ``pos`` by
    ``catena.solve`` after each move; under longest ribbon (no margin) both are the first."""
    sign = 1 if pos.to_move == "black" else -1
    rank = {"black": 1, "draw": 0, "white": -1}
    values = {}
    for move in pos.legal_moves():
        after = pos.copy()
        after.push(move)
        result = catena.solve(after)
        values[move] = (sign * rank[result.winner], sign * (result.value or 0))
    top = max(values.values())
    return {m for m, v in values.items() if v[0] == top[0]}, {m for m, v in values.items() if v == top}


def test_plays_win_in_one():
    """Where some moves end the game with a win for the mover (and others don't), MCTS plays for
    the win (score_weight=0) one of them; playing for points, a move with the best exact margin."""
    # hand-built: side 1, placing A1 wins (F2); taking the button loses
    pos = Position(1)
    assert immediate(pos)[0] == {catena.Move("A1", size=1)}
    for options in (dict(), dict(rave=False)):
        assert MCTS(seed=0, **options).search(pos, iterations=50).best_move.name == "A1"
    for i, (pos, _win) in enumerate(_win_in_one_sample()):
        winning, best = best_moves(pos)
        for options in (dict(), dict(rave=False), dict(threads=2), dict(score_weight=0)):
            result = MCTS(seed=i, **options).search(pos, iterations=2000)
            assert result.proven and result.winner == pos.to_move
            wanted = winning if options.get("score_weight") == 0 else best
            assert result.best_move in wanted, (pos, options, result.best_move, wanted)


def _loss_in_one_sample():
    """Seeded endgames where the mover can force a win, yet some moves lose at once or let the
    opponent win with the next move (and no move wins at once)."""
    rng = random.Random(9)
    sample = []
    while len(sample) < 18:
        size = rng.choice((3, 4, 5))
        game_type = GAME_TYPES[len(sample) % 3]
        scoring = rng.choice(SCORINGS)
        pos = random_endgame(size, game_type, scoring, 0, rng, rng.randint(3, 9))
        win, lose, allow = immediate(pos)
        bad = lose | allow
        if win or not bad or len(bad) == len(pos.legal_moves()):
            continue
        if minimax_winner(pos.copy(), {}) != pos.to_move:
            continue
        sample.append((pos, bad))
    return sample


def test_avoids_loss_in_one():
    """Where some moves hand the opponent an immediate win and the mover can still win, MCTS avoids them."""
    for i, (pos, bad) in enumerate(_loss_in_one_sample()):
        for options in (dict(), dict(rave=False)):
            result = MCTS(seed=i, **options).search(pos, iterations=3000)
            assert result.best_move not in bad, (pos, options, result.best_move, bad)


def _tie_rule_sample(wanted=5):
    """Seeded search for positions (standard scoring, >= 3 legal moves) where one move ends the
    game and loses only because a newly bounded ribbon with equal colour counts goes to the
    opponent of the placer (R12): were the tied ribbons the mover's, the mover would win.
    Another move wins at once."""
    rng = random.Random(12)
    found = []
    for _ in range(20_000):
        size = rng.choice((3, 4, 5, 6))
        game_type = rng.choice(GAME_TYPES)
        pos = random_endgame(size, game_type, "standard", 0, rng, rng.randint(3, 8))
        if len(pos.legal_moves()) < 3:
            continue
        mover = pos.to_move
        win, lose, _ = immediate(pos)
        if not win:
            continue
        for move in sorted(lose, key=lambda m: m.index):
            after, ties = tie_claims(pos, move)
            if not ties or any(claim.owner != other(mover) for claim, _, _ in ties):
                continue
            outcome = after.outcome()
            mine, theirs = ((outcome.black_score, outcome.white_score) if mover == "black"
                            else (outcome.white_score, outcome.black_score))
            swing = sum(len(claim.cells) for claim, _, _ in ties)
            assert outcome.winner == other(mover) and mine < theirs
            if mine + swing > theirs - swing:             # the tie rule decides the game
                found.append((pos, move, win, ties))
                break
        if len(found) >= wanted and len({p.game_type for p, *_ in found}) >= 2:
            break
    return found


def test_tie_rule_decides_the_win():
    """A move that loses only by R12's tie rule is avoided and a winning move is played instead."""
    sample = _tie_rule_sample()
    assert len(sample) >= 3, "too few tie-rule positions found"
    assert len({pos.game_type for pos, *_ in sample}) >= 2
    for i, (pos, trap, win, ties) in enumerate(sample):
        for claim, black, white in ties:                  # the brute-force view of the tie
            assert black == white and claim.owner == other(pos.to_move)
        winning, best = best_moves(pos)
        assert win <= winning
        for options in (dict(), dict(rave=False), dict(score_weight=0)):
            for seed in range(3):
                result = MCTS(seed=100 * i + seed, **options).search(pos, iterations=2000)
                assert result.best_move != trap, (pos, trap)
                # for the win: a winning move; for points: one with the best margin
                wanted = winning if options.get("score_weight") == 0 else best
                assert result.best_move in wanted, (pos, result.best_move, wanted)


# ---------------------------------------------------------------- 5. tree reuse


@pytest.mark.parametrize("rave", [True, False])
@pytest.mark.parametrize("size", [4, 6])
def test_advance_keeps_the_subtree(size, rave):
    """advance(best) keeps the child's subtree: its visits carry into the next search, the tree shrinks."""
    pos = random_midgame(size, "komi", "standard", 0, random.Random(size), 4)
    mcts = MCTS(seed=21, rave=rave)
    first = mcts.search(pos, iterations=4000)
    assert not first.proven
    before = mcts.tree_size[0]
    move = first.best_move
    child_visits = first.visits[move]
    assert child_visits > 10
    mcts.advance(move)
    after = mcts.tree_size[0]
    assert 1 < after < before
    pos.push(move)
    tiny = 10
    second = mcts.search(pos, iterations=tiny)
    assert second.iterations == tiny
    # The child's first visit ended at the child (its playout started there); every later
    # visit went on to one of its children, which are now the root's children.
    assert sum(second.visits.values()) - tiny == child_visits - 1
    assert mcts.tree_size[0] >= after
    check_reused = MCTS(seed=21, rave=rave).search(pos, iterations=tiny)
    assert sum(check_reused.visits.values()) == tiny      # a fresh tree has only the new visits


def test_advance_keeps_subtrees_of_both_threads():
    """With two trees, advance keeps both subtrees (each tree's child lost only its first visit)."""
    pos = Position(5)
    mcts = MCTS(seed=4, threads=2)
    first = mcts.search(pos, iterations=3000)
    move = first.best_move
    mcts.advance(move)
    assert len(mcts.tree_size) == 2 and all(n > 1 for n in mcts.tree_size)
    pos.push(move)
    second = mcts.search(pos, iterations=5)
    assert sum(second.visits.values()) - 2 * 5 == first.visits[move] - 2


def test_advance_to_an_unvisited_child_and_through_the_button():
    """advance works for any legal move, including the button and a child never visited."""
    pos = Position(4)
    mcts = MCTS(seed=2, rave=False)
    result = mcts.search(pos, iterations=30)            # 38 moves: some children unvisited
    unvisited = [m for m, v in result.visits.items() if v == 0]
    assert unvisited
    mcts.advance(unvisited[0])
    assert mcts.tree_size == [1]
    pos.push(unvisited[0])
    again = mcts.search(pos, iterations=40)
    assert sum(again.visits.values()) == 40
    mcts.advance("button")
    pos.push("button")
    result = mcts.search(pos, iterations=200)
    assert result.best_move in pos.legal_moves()
    assert catena.Move("button", size=4) not in result.visits


def test_advance_rejects_illegal_moves_and_changes_nothing():
    """advance with an illegal or malformed move raises, and the tree and its root stay as they were."""
    pos = make(4, "D4 D5 button")
    mcts = MCTS(seed=8)
    first = mcts.search(pos, iterations=1000)
    size = mcts.tree_size
    for bad, exc in (("D4", IllegalMoveError),         # occupied
                     ("button", IllegalMoveError),     # taken already (R13)
                     ("E5", IllegalMoveError),         # triangle with D4, D5 (R7)
                     ("Z9", IllegalMoveError),         # not on the board
                     (catena.Move("A1", size=5), IllegalMoveError),
                     (None, TypeError), (True, TypeError), (3.0, TypeError),
                     (38, ValueError), (-1, ValueError),          # action ids 0 to 37 on side 4
                     (catena.parse_cell("D4", 4), IllegalMoveError)):     # D4's action id
        with pytest.raises(exc):
            mcts.advance(bad)
        assert mcts.tree_size == size
    # the root is still pos: the next search continues the same tree
    second = mcts.search(pos, iterations=100)
    assert sum(second.visits.values()) == sum(first.visits.values()) + 100
    assert mcts.tree_size[0] >= size[0]


def test_searching_another_position_resets_the_tree():
    """A search of a position other than the root starts a fresh tree (the same as a new MCTS)."""
    a = random_midgame(5, "komi", "standard", 0, random.Random(1), 5)
    b = random_midgame(5, "komi", "standard", 0, random.Random(2), 5)
    mcts = MCTS(seed=31)
    mcts.search(a, iterations=2000)
    result = mcts.search(b, iterations=500)
    fresh = MCTS(seed=31).search(b, iterations=500)
    assert _fingerprint(result) == _fingerprint(fresh)
    assert sum(result.visits.values()) == 500
    # after advance, searching a position other than the advanced one also resets
    mcts.advance(result.best_move)
    result = mcts.search(a, iterations=300)
    assert _fingerprint(result) == _fingerprint(MCTS(seed=31).search(a, iterations=300))
    # same stones but other rules (komi) is another position too
    c = Position(5, komi=1)
    for m in a.move_stack:
        c.push(m)
    result = mcts.search(c, iterations=300)
    assert sum(result.visits.values()) == 300


def test_advance_to_the_end_of_the_game():
    """advance through a game's last move empties the trees; a new search then works."""
    pos = random_endgame(3, "komi", "standard", 0, random.Random(6), 2)
    mcts = MCTS(seed=1)
    while True:
        result = mcts.search(pos, iterations=100)
        mcts.advance(result.best_move)
        pos.push(result.best_move)
        if pos.is_game_over():
            break
    assert mcts.tree_size == []
    with pytest.raises(IllegalMoveError):
        mcts.advance(Position(3).legal_moves()[0])
    with pytest.raises(CatenaError):
        mcts.search(pos, iterations=10)
    assert mcts.search(Position(4), iterations=100).iterations == 100


# ---------------------------------------------------------------- 6. threads


@pytest.mark.parametrize("rave", [True, False])
def test_two_threads_merge_two_trees(rave):
    """threads=2 runs the budget per thread: 2x the iterations, merged visits summing to them."""
    pos = Position(6)
    budget = 2500
    two = MCTS(seed=77, threads=2, rave=rave, tree_nodes=400_000)
    result = two.search(pos, iterations=budget)
    assert result.iterations == 2 * budget
    assert sum(result.visits.values()) == 2 * budget
    assert len(two.tree_size) == 2 and all(1 < n <= 200_000 for n in two.tree_size)
    # thread 0 is the single-thread tree of the same seed; thread 1 adds to it
    one = MCTS(seed=77, rave=rave).search(pos, iterations=budget)
    assert all(result.visits[m] >= one.visits[m] for m in one.visits)
    assert result.pv[0] == result.best_move              # the pv: the merged choice, then thread 0's line
    if result.best_move == one.best_move:
        assert result.pv == one.pv
    check_result(pos, result, budget, threads=2)


def test_threads_with_seconds_budget():
    """A time budget with two threads returns merged statistics and reasonable timing."""
    result = MCTS(seed=1, threads=2).search(Position(6), seconds=0.2)
    assert result.iterations > 0 and sum(result.visits.values()) == result.iterations
    assert 0.15 <= result.seconds < 5


def test_tree_too_small_for_the_root_still_searches():
    """A per-thread tree too small for the root's children is refused or still searches every root move."""
    pos = Position(10)                                   # 271 cells and the button
    try:
        mcts = MCTS(seed=1, threads=4, tree_nodes=1000)   # 250 nodes per tree
        result = mcts.search(pos, iterations=500)
    except (ValueError, CatenaError):
        return
    assert set(result.visits) == set(pos.legal_moves()), (
        f"best_move {result.best_move} after {result.iterations} iterations with "
        f"{len(result.visits)} root moves searched")


# ---------------------------------------------------------------- 9. bad input


def _still_works(mcts, pos=None):
    pos = pos or Position(4)
    result = mcts.search(pos, iterations=200)
    assert result.best_move in pos.legal_moves() and result.iterations > 0


@pytest.mark.parametrize("kwargs,exc", [
    (dict(threads=0), ValueError), (dict(threads=-2), ValueError), (dict(threads=1.0), TypeError),
    (dict(threads="2"), TypeError), (dict(seed=-1), ValueError), (dict(seed=1.5), TypeError),
    (dict(seed="7"), TypeError), (dict(c=-0.1), ValueError), (dict(c=float("nan")), ValueError),
    (dict(rave_k=0), ValueError), (dict(rave_k=-5), ValueError), (dict(rave_k=float("nan")), ValueError),
    (dict(expand_visits=0), ValueError), (dict(tree_nodes=10), ValueError), (dict(tree_nodes=1e6), TypeError),
])
def test_bad_constructor_arguments(kwargs, exc):
    """Bad MCTS settings raise a TypeError or ValueError naming the setting."""
    with pytest.raises(exc) as info:
        MCTS(**kwargs)
    assert next(iter(kwargs)) in str(info.value)
    _still_works(MCTS(seed=1))


def test_tree_nodes_old_name_still_works_with_a_deprecation_warning():
    """``max_nodes`` (the tree capacity's old name, easily confused with solve's node budget) still
    sets ``tree_nodes``, warns, and refuses to be given with the new name."""
    with pytest.warns(DeprecationWarning, match=r"MCTS\(max_nodes=\.\.\.\) is now tree_nodes") as caught:
        old = MCTS(seed=1, max_nodes=50_000)
    assert caught[0].filename == __file__               # the warning points at the caller
    assert old.tree_nodes == 50_000
    with pytest.warns(DeprecationWarning, match="tree_nodes"):
        assert old.max_nodes == 50_000
    with pytest.raises(TypeError, match="not both"):
        MCTS(tree_nodes=60_000, max_nodes=50_000)
    with pytest.raises(ValueError, match="tree_nodes"), pytest.warns(DeprecationWarning):
        MCTS(max_nodes=10)
    new = MCTS(seed=1, tree_nodes=50_000)
    assert new.tree_nodes == 50_000
    pos = Position(size=4)
    assert (old.search(pos, iterations=300).visits == new.search(pos, iterations=300).visits)


@pytest.mark.parametrize("kwargs,exc,words", [
    (dict(iterations=0), ValueError, "iterations"),
    (dict(iterations=-5), ValueError, "iterations"),
    (dict(iterations=2.0), TypeError, "iterations"),
    (dict(iterations=True), TypeError, "iterations"),
    (dict(iterations="100"), TypeError, "iterations"),
    (dict(), ValueError, "budget"),
    (dict(iterations=None, seconds=None), ValueError, "budget"),
    (dict(seconds=0), ValueError, "seconds"),
    (dict(seconds=-1.0), ValueError, "seconds"),
    (dict(seconds=float("nan")), ValueError, "seconds"),
    (dict(iterations=10, seconds=0), ValueError, "seconds"),
])
def test_bad_budgets(kwargs, exc, words):
    """Bad search budgets raise a clear error; the MCTS and its tree are unchanged and still work."""
    pos = Position(4)
    mcts = MCTS(seed=5)
    first = mcts.search(pos, iterations=300)
    size = mcts.tree_size
    with pytest.raises(exc) as info:
        mcts.search(pos, **kwargs)
    assert words in str(info.value)
    assert mcts.tree_size == size
    second = mcts.search(pos, iterations=100)                # the tree continues
    assert sum(second.visits.values()) == sum(first.visits.values()) + 100


def test_search_of_a_finished_game():
    """Searching a finished game raises CatenaError; the MCTS still works afterwards."""
    mcts = MCTS(seed=1)
    done = make(1, "A1")
    assert done.is_game_over()
    with pytest.raises(CatenaError, match="finished"):
        mcts.search(done, iterations=10)
    pos = Position(4)
    first = mcts.search(pos, iterations=100)
    over = Position(2)
    while not over.is_game_over():
        over.push(over.legal_moves()[0])
    with pytest.raises(CatenaError):
        mcts.search(over, iterations=10)
    again = mcts.search(pos, iterations=100)                 # the tree survived
    assert sum(again.visits.values()) == sum(first.visits.values()) + 100


@pytest.mark.parametrize("bad", ["D4", 3, [], None], ids=["name", "int", "list", "None"])
def test_search_of_a_non_position(bad):
    """Searching something that is not a Position raises TypeError."""
    mcts = MCTS(seed=1)
    with pytest.raises(TypeError):
        mcts.search(bad, iterations=10)
    _still_works(mcts)


def test_advance_before_any_search():
    """advance before any search raises CatenaError saying a search is needed; the MCTS then works."""
    mcts = MCTS(seed=1)
    with pytest.raises(CatenaError, match="search"):
        mcts.advance("D4")
    assert mcts.tree_size == []
    _still_works(mcts)


# ---------------------------------------------------------------- the solver in the middlegame


def _middlegame(seed):
    """A side-3 position after two random stones: 16 to 18 legal cells, beyond the
    endgame root of exact_cells=4 (10 cells) and cheap for the solver."""
    rng = random.Random(seed)
    pos = Position(size=3)
    for _ in range(2):
        pos.push(rng.choice([m for m in pos.legal_moves() if m.name != "button"]))
    return pos


@pytest.mark.parametrize("seed", range(6))
def test_a_middlegame_root_the_solver_can_finish_in_the_budget_is_played_exactly(seed):
    """A root with more legal cells than the endgame's, but one the solver finishes within
    its share of the budget, is solved: the search reports catena.solve's value and plays a
    move that keeps it (seed 4: the search alone played B1, two points worse)."""
    pos = _middlegame(seed)
    result = MCTS(seed=seed, exact_cells=4).search(pos, iterations=5000)
    value = catena.solve(pos).value
    assert result.exact == value
    after = pos.copy()
    after.push(result.best_move)
    assert catena.solve(after).value == value
    assert result.iterations < 5000                    # the solved root ended the search


def test_a_middlegame_root_beyond_the_budget_is_left_to_the_search():
    """A budget too small for the root's solve runs every iteration and proves nothing."""
    result = MCTS(seed=1, exact_cells=4).search(_middlegame(1), iterations=300)
    assert result.iterations == 300 and result.exact is None


def test_with_two_threads_the_first_tree_solves_the_middlegame_root():
    """Under root parallelism one tree solves the root (the other searches meanwhile) and
    the summed result is still exact, with a move that keeps the value."""
    pos = _middlegame(4)
    result = MCTS(seed=4, exact_cells=4, threads=2).search(pos, iterations=5000)
    value = catena.solve(pos).value
    assert result.exact == value
    after = pos.copy()
    after.push(result.best_move)
    assert catena.solve(after).value == value


def _cells(pos):
    return sum(1 for m in pos.legal_moves() if m.name != "button")


def _side4_middlegame(legal, seed):
    """A side-4 position of seeded random stones with ``legal`` legal cells."""
    rng = random.Random(seed)
    while True:
        pos = Position(size=4)
        while not pos.is_game_over() and _cells(pos) > legal:
            pos.push(rng.choice([m for m in pos.legal_moves() if m.name != "button"]))
        if _cells(pos) == legal:
            return pos


def test_under_a_time_budget_the_middlegame_root_gets_the_solvers_own_speed():
    """Half a second is worth about 2 M solver nodes at the root, not the leaves'
    allowance of 0.5 M (with which a root of 26 legal cells, an estimated 10 M nodes, was
    out of reach): the root is tried, its first slice of 200,000 nodes spent unless it is
    solved sooner (the leaves, at most one legal cell, spend about 50,000 in the time).
    The solve starts after a tenth of the time, the search's mean margin its first guess,
    so some iterations ran even when the root is solved."""
    pos = _side4_middlegame(26, 1)
    result = MCTS(seed=1, exact_cells=1).search(pos, seconds=0.5)
    assert result.exact is not None or result.solver_nodes >= 200_000
    assert result.iterations > 0


def test_an_unsolved_middlegame_root_plays_the_move_that_proved_its_bound():
    """The root solve runs out of nodes having proven that Black gets at least some
    points (14.5 of the exact 20.5 here); the solver's table move is checked to keep that
    (_secure_hint) and played, since the search expects no more of its own choice."""
    pos = _side4_middlegame(27, 5)
    mcts = MCTS(seed=1)
    result = mcts.search(pos, iterations=100_000)
    stats, lower, upper = mcts._root_stats()
    assert result.exact is None and pos.to_move == "black" and lower == 29 < upper   # half points: 14.5
    assert stats[result.best_move.index][3] == lower
    after = pos.copy()
    after.push(result.best_move)
    assert catena.solve(after).value >= lower / 2


def test_several_playouts_a_leaf_back_up_each_playout():
    """leaf_playouts=k: an iteration is one descent and k playouts from its leaf, each a
    visit; the search still proves what it proves with one (the whole side-3 board), and the
    option survives a copy."""
    pos = _middlegame(2)
    one = MCTS(seed=1, exact_cells=0).search(pos, iterations=500)
    three = MCTS(seed=1, exact_cells=0, leaf_playouts=3).search(pos, iterations=500)
    assert sum(one.visits.values()) == 500 and sum(three.visits.values()) == 1500
    assert three.iterations == 500
    assert MCTS(seed=1, leaf_playouts=2).search(Position(size=3), iterations=10_000).exact == 10.5
    assert copy.copy(MCTS(leaf_playouts=4)).leaf_playouts == 4 and MCTS().leaf_playouts == 1
    with pytest.raises(ValueError, match="leaf_playouts"):
        MCTS(leaf_playouts=0)


def test_a_search_reports_its_solver_nodes():
    """``solver_nodes`` counts one search's exact solves, not the tree's earlier ones."""
    mcts = MCTS(seed=1)
    first = mcts.search(Position(size=3), iterations=10_000)
    assert first.exact is not None and first.solver_nodes > 0
    again = mcts.search(Position(size=3), iterations=10)      # the root is settled already
    assert again.solver_nodes == 0
    assert MCTS(seed=1, exact_cells=0).search(Position(size=3), iterations=500).solver_nodes == 0


def test_a_root_share_of_zero_turns_the_middlegame_root_solve_off():
    """MCTS(root_solve_share=0) is the search before the middlegame root solve: every
    iteration runs and the root is not proven; the option survives a copy."""
    mcts = MCTS(seed=4, exact_cells=4, root_solve_share=0.0)
    result = mcts.search(_middlegame(4), iterations=5000)
    assert result.iterations == 5000 and result.exact is None
    assert copy.copy(mcts).root_solve_share == 0.0 and MCTS().root_solve_share == 0.85
    with pytest.raises(ValueError, match="root_solve_share"):
        MCTS(root_solve_share=0.95)
