"""Differential tests: the Cython core against the reference rules checker.

For every board side 1..10, every game type ("komi", "nokomi", "double") and every
scoring ("standard", "longest", "square") this plays seeded random games on both a
``catena.Position`` and a reference position, and at EVERY ply compares

* the legal moves (names, the button included; also ``is_legal`` for every cell),
* the shown colour of every cell (core ``to_array`` vs reference ``colours()``),
* the ribbons as (cells, bounded) and the last placement's claims as (cells, owner),
* who is to move, who took the button, whether the game is over, the stone of the
  turn in double placement,

and at the end the outcome (winner, both scores, final button holder).  After every
push it also checks that ``pop`` restores the exact previous state and that pushing
again gives the same state.

The reference is tests/reference.py itself on sides 1-3 and, on the bigger boards
where it would take seconds to minutes per game, the same code made faster by
tests/_fastref.py (memoised geometry and legal cells, short-circuited R20 emptiness
tests; no rule is re-implemented there).

On a mismatch the message prints the rules, the moves played so far and a snippet
that replays them.  Rule numbers refer to docs/rules.md.
"""

import copy
import random

import pytest

import catena

from _fastref import cell_names, ref_position
from conftest import position_state, state_changes

GAME_TYPES = ("komi", "nokomi", "double")
SCORINGS = ("standard", "longest", "square")
KOMI_MAX = {"standard": 15, "longest": 15, "square": 1000}      # R22
COLOUR = {1: "black", 2: "white"}

# Games per (size, game type, scoring) case, and the fewest plies a case must compare.
# Bigger boards have longer games and a slower reference, so they get fewer games.
GAMES = {1: 12, 2: 20, 3: 20, 4: 16, 5: 10, 6: 6, 7: 4, 8: 3, 9: 2, 10: 1}
MIN_PLIES = {1: 12, 2: 60, 3: 150, 4: 200, 5: 200, 6: 180, 7: 150, 8: 150, 9: 120, 10: 80}
# The verbatim reference on small boards; the memoised one (same results) above.
FAST_REF_FROM = 4
REQUIRED_TOTAL = 10_000
CASES = [(s, g, c) for s in range(1, 11) for g in GAME_TYPES for c in SCORINGS]
assert len(GAME_TYPES) * len(SCORINGS) * sum(MIN_PLIES.values()) >= REQUIRED_TOTAL

PLIES = {}      # case -> plies compared (filled by test_core_matches_reference)


class Mismatch(AssertionError):
    pass


def _context(size, game_type, scoring, komi, moves, seed):
    args = f"{size}, {game_type!r}, {scoring!r}, {komi}"
    return (f"\n  rules: size={size} game_type={game_type!r} scoring={scoring!r} komi={komi}"
            f" (game seed {seed!r})"
            f"\n  moves so far ({len(moves)}): {' '.join(moves) or '(none)'}"
            f"\n  replay:\n    import catena, sys; sys.path.insert(0, 'tests')"
            f"\n    from reference import RefPosition"
            f"\n    pos, ref = catena.Position({args}), RefPosition({args})"
            f"\n    for m in {moves!r}: pos.push(m); ref.play(m)")


def core_colours(pos, names):
    arr = pos.to_array()
    return {names[i]: COLOUR[int(v)] for i, v in enumerate(arr) if v}


def compare(pos, ref, names, fail):
    """Compare everything at one ply; ``fail(what, core, reference)`` raises."""
    ref_legal = ref.legal_moves()
    core_list = [str(m) for m in pos.legal_moves()]
    core_legal = set(core_list)
    if core_legal != ref_legal:
        fail("legal moves", sorted(core_legal - ref_legal), sorted(ref_legal - core_legal),
             note="(core-only moves, reference-only moves)")
    if len(core_list) != len(core_legal):
        fail("legal moves listed twice", core_list, sorted(ref_legal))
    index = {n: i for i, n in enumerate(names)}
    order = [index[m] for m in core_list if m != "button"]
    if order != sorted(order) or ("button" in core_list and core_list[-1] != "button"):
        fail("legal_moves order (cells in index order, then the button)", core_list, None)
    for name in names:
        if pos.is_legal(name) != (name in ref_legal):
            fail(f"is_legal({name!r})", pos.is_legal(name), name in ref_legal)
    if pos.is_legal("button") != ("button" in ref_legal):
        fail("is_legal('button')", pos.is_legal("button"), "button" in ref_legal)

    ref_colours = ref.colours()
    colours = core_colours(pos, names)
    if colours != ref_colours:
        cells = sorted(set(colours) | set(ref_colours), key=index.get)
        fail("shown colours", {c: colours.get(c) for c in cells if colours.get(c) != ref_colours.get(c)},
             {c: ref_colours.get(c) for c in cells if colours.get(c) != ref_colours.get(c)})
    for name in names:
        if pos.stone_at(name) != ref_colours.get(name):
            fail(f"stone_at({name!r})", pos.stone_at(name), ref_colours.get(name))

    core_ribbons = pos.ribbons()
    ribbons = {(frozenset(r.cells), r.bounded) for r in core_ribbons}
    ref_ribbons = set(ref.ribbons())
    if ribbons != ref_ribbons or len(core_ribbons) != len(ribbons):
        fail("ribbons (cells, bounded)", sorted((sorted(c), b) for c, b in ribbons - ref_ribbons),
             sorted((sorted(c), b) for c, b in ref_ribbons - ribbons),
             note="(core-only, reference-only)")
    for r in core_ribbons:
        shown = [ref_colours[c] for c in r.cells]
        if (r.length, r.black, r.white) != (len(r.cells), shown.count("black"), shown.count("white")):
            fail("Ribbon length/black/white", r, shown)

    claims = {(frozenset(c.cells), c.owner) for c in pos.last_claims()}
    ref_claims = set(ref.last_claims())
    if claims != ref_claims:
        fail("last_claims (cells, owner)", sorted((sorted(c), o) for c, o in claims),
             sorted((sorted(c), o) for c, o in ref_claims))

    if pos.to_move != ref.to_move():
        fail("to_move", pos.to_move, ref.to_move())
    if pos.button != ref.button():
        fail("button", pos.button, ref.button())
    over = ref.is_over()
    if pos.is_game_over() != over:
        fail("is_game_over", pos.is_game_over(), over)
    if over != (not ref_legal):
        fail("reference: over iff no legal move", over, ref_legal)
    if pos.game_type == "double" and pos.stones_left != ref._stones_left:
        fail("stones_left (double placement)", pos.stones_left, ref._stones_left)
    if not over and pos.outcome() is not None:
        fail("outcome() before the end", pos.outcome(), None)


def compare_outcome(pos, ref, fail):
    out = pos.outcome()
    winner, black, white = ref.outcome()
    if out is None:
        fail("outcome at the end", None, (winner, black, white))
    if (out.winner, out.black_score, out.white_score) != (winner, black, white):
        fail("outcome (winner, black score, white score)",
             (out.winner, out.black_score, out.white_score), (winner, black, white))
    if out.button != ref._final_button():
        fail("outcome button (R15)", out.button, ref._final_button())


def check_pop(pos, move, fail):
    """Push ``move``; pop must restore the exact previous state and re-push the same
    next state."""
    before = position_state(pos)
    before_copy = pos.copy()
    pos.push(move)
    after = position_state(pos)
    popped = pos.pop()
    if str(popped) != move:
        fail("pop() returned", str(popped), move)
    restored = position_state(pos)
    if restored != before:
        fail(f"state after push({move!r}); pop()", state_changes(restored, before), None,
             note="{field: (after pop, before push)}")
    if not pos == before_copy:
        fail(f"Position == after push({move!r}); pop()", pos._key(), before_copy._key())
    pos.push(move)
    again = position_state(pos)
    if again != after:
        fail(f"state after push({move!r}); pop(); push({move!r})", state_changes(again, after), None,
             note="{field: (second push, first push)}")


def play_game(size, game_type, scoring, seed, fast):
    """One seeded random game on both implementations; returns the plies compared."""
    rng = random.Random(seed)
    komi = rng.randint(0, KOMI_MAX[scoring]) if game_type == "komi" else 0
    button_bias = rng.choice((0.0, 0.0, 0.1, 0.4))
    names = catena.cells(size)
    pos = catena.Position(size, game_type, scoring, komi)
    ref = ref_position(size, game_type, scoring, komi, fast=fast)
    moves = []

    def fail(what, core, reference, note=""):
        raise Mismatch(f"core and reference disagree on {what} {note}"
                       f"\n  core:      {core!r}\n  reference: {reference!r}"
                       + _context(size, game_type, scoring, komi, moves, seed))

    while True:
        compare(pos, ref, names, fail)
        legal = sorted(ref.legal_moves())
        if not legal:
            break
        if "button" in legal and rng.random() < button_bias:
            move = "button"
        else:
            move = rng.choice(legal)
        check_pop(pos, move, fail)        # leaves ``move`` pushed on the core
        ref.play(move)
        moves.append(move)
    compare_outcome(pos, ref, fail)
    if [str(m) for m in pos.move_stack] != moves:
        fail("move_stack", [str(m) for m in pos.move_stack], moves)
    return len(moves)


def test_cell_names_agree():
    for size in range(1, 11):
        assert list(catena.cells(size)) == cell_names(size), size


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_the_fast_reference_answers_as_the_reference(game_type):
    """tests/_fastref.py only remembers what it computed: along seeded side-4 games it
    answers every query as tests/reference.py does."""
    rng = random.Random(game_type)
    for _ in range(3):
        slow, fast = (ref_position(4, game_type, "square", 0, fast=f) for f in (False, True))
        while True:
            legal = slow.legal_moves()
            assert fast.legal_moves() == legal
            assert set(fast.ribbons()) == set(slow.ribbons())
            assert fast.colours() == slow.colours() and fast.is_over() == slow.is_over()
            if not legal:
                break
            move = rng.choice(sorted(legal))
            slow.play(move)
            fast.play(move)
            assert fast.last_claims() == slow.last_claims()
        assert fast.outcome() == slow.outcome()


@pytest.mark.parametrize("size,game_type,scoring", CASES)
def test_core_matches_reference(size, game_type, scoring):
    plies = 0
    for game in range(GAMES[size]):
        plies += play_game(size, game_type, scoring, f"{size}-{game_type}-{scoring}-{game}",
                           fast=size >= FAST_REF_FROM)
    PLIES[(size, game_type, scoring)] = plies
    assert plies >= MIN_PLIES[size], (
        f"only {plies} plies compared for {(size, game_type, scoring)}, want {MIN_PLIES[size]}")


def test_total_plies_compared():
    """At least REQUIRED_TOTAL positions compared over the whole run (each case also
    has its own minimum, and those minima add up to more than REQUIRED_TOTAL)."""
    total = sum(PLIES.values())
    print(f"\ndifferential: {total} plies compared in {len(PLIES)} cases")
    if len(PLIES) == len(CASES):
        assert total >= REQUIRED_TOTAL, total
    for case, plies in PLIES.items():
        assert plies >= MIN_PLIES[case[0]], (case, plies)


# ------------------------------------------------------------ every game of side 2

@pytest.mark.parametrize("game_type,scoring,komi", [
    ("komi", "longest", 2), ("nokomi", "standard", 0), ("double", "square", 0)])
def test_every_game_of_side_2(game_type, scoring, komi):
    """The whole game tree of side 2, compared at every node and every end."""
    names = catena.cells(2)
    pos = catena.Position(2, game_type, scoring, komi)
    moves = []
    nodes = [0]

    def fail(what, core, reference, note=""):
        raise Mismatch(f"core and reference disagree on {what} {note}"
                       f"\n  core:      {core!r}\n  reference: {reference!r}"
                       + _context(2, game_type, scoring, komi, moves, None))

    def walk(ref):
        compare(pos, ref, names, fail)
        nodes[0] += 1
        legal = sorted(ref.legal_moves())
        if not legal:
            compare_outcome(pos, ref, fail)
        for move in legal:
            child = copy.deepcopy(ref)
            child.play(move)
            pos.push(move)
            moves.append(move)
            walk(child)
            moves.pop()
            pos.pop()

    walk(ref_position(2, game_type, scoring, komi))
    assert nodes[0] == 1 + sum(catena.perft(catena.Position(2, game_type), d) for d in range(1, 8))
