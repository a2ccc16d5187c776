"""One batch of the fuzz test (tests/test_fuzz.py runs each batch in its own process).

Hypothesis draws sequences of calls over the public surface, with arguments that are
mostly wrong: bools, floats, NaN, huge ints, str, bytes, non-ASCII names, foreign
moves, uninitialised objects.  Each call must return or raise a clear exception
(ValueError, TypeError, IndexError, AttributeError, RuntimeError, MemoryError), and
every position must stay sound (``_consistency_errors`` is empty).  A crash kills only
this process, and faulthandler prints where it happened.

    python tests/_fuzz_child.py BATCH EXAMPLES
    python tests/_fuzz_child.py --atheris -max_total_time=600    # coverage-guided, with atheris
"""

import faulthandler
import math
import pickle
import sys

if __name__ == "__main__" and sys.argv[1:2] == ["--atheris"]:
    import atheris
    with atheris.instrument_imports(include=["catena"]):     # coverage of catena's Python layer
        import catena
        import catena.players

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import catena
from catena import MCTS, Game, Move, Position
from catena.players import FlatMonteCarloPlayer, MCTSPlayer, RandomPlayer

CLEAR = (ValueError, TypeError, IndexError, AttributeError, RuntimeError, MemoryError)

# -- arguments ---------------------------------------------------------------

odd_numbers = st.one_of(
    st.booleans(), st.none(), st.integers(), st.integers(-3, 12),
    st.sampled_from([2 ** 31, 2 ** 63, -2 ** 63, 2 ** 64 + 5, 10 ** 30]),
    st.floats(allow_nan=True, allow_infinity=True), st.fractions(max_denominator=5),
    st.binary(max_size=3), st.text(max_size=3), st.complex_numbers(max_magnitude=3),
)
names = st.one_of(
    st.sampled_from(["A1", "B2", "C3", "F6", "button", "BUTTON", " e5 ", "ı6", "İ1", "Ｆ6", "F\u0666",
                     "K6", "J10", "A01", "Z9", "", " ", "\x00", "A" + "9" * 40, "\u212a1"]),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUabcık0123456789 button", max_size=5),
)
anything = st.one_of(odd_numbers, names, st.lists(st.integers(0, 5), max_size=2))


def arg(valid):
    """Mostly a valid value (so calls get past their first argument), else anything."""
    return st.integers(0, 3).flatmap(lambda k: anything if k == 0 else valid)


sizes = arg(st.integers(1, 4))
kinds = arg(st.sampled_from(catena.GAME_TYPES + catena.SCORINGS))


def clamp(value, high):
    """Keep a valid count small so that a batch stays quick; leave every other value as it is."""
    if isinstance(value, int) and not isinstance(value, bool) and value > high:
        return high
    if isinstance(value, float) and not math.isnan(value) and value > high:
        return float(high)
    return value


# -- the world the calls act on ------------------------------------------------

class World:
    def __init__(self):
        self.positions = [Position(3), Position(1), Position(2, "double"), Position(4, "nokomi", "square"),
                          Position(5, komi=3)]
        self.games = [Game(2), Game(3, "nokomi"), Game(2, "double", "longest")]
        self.mcts = MCTS(seed=1, tree_nodes=20_000)
        self.moves = [Move("A1", 3), Move("button", 1), Move.__new__(Move), Move("F6")]

    def pick(self, items, i):
        return items[i % len(items)]


def move_like(world, data):
    return data.draw(st.one_of(
        names, anything, names,
        st.sampled_from(world.moves),
        st.integers(0, 4).map(lambda i: world.pick(world.positions, i).legal_moves()[:1] or ["A1"]).map(
            lambda moves: moves[0]),
    ))


OPERATIONS = []


def operation(function):
    OPERATIONS.append(function)
    return function


@operation
def new_position(world, data, pos):
    args = data.draw(st.tuples(sizes, arg(st.sampled_from(catena.GAME_TYPES)),
                               arg(st.sampled_from(catena.SCORINGS)), arg(st.integers(0, 3))))
    world.positions.append(Position(*args))


@operation
def push(world, data, pos):
    pos.push(move_like(world, data))


@operation
def push_legal(world, data, pos):
    moves = pos.legal_moves()
    if moves:
        pos.push(moves[data.draw(st.integers(0, len(moves) - 1))])


@operation
def pop(world, data, pos):
    pos.pop()


@operation
def queries(world, data, pos):
    pos.is_legal(move_like(world, data))
    pos.peek(), pos.outcome(), pos.score(), pos.ribbons(), pos.last_claims(), pos.to_array()
    str(pos), repr(pos), pos.zobrist, pos.to_move, pos.button, pos.stones_left, pos.move_stack
    assert isinstance(pos == world.pick(world.positions, data.draw(st.integers(0, 9))), bool)
    pos.stone_at(data.draw(arg(st.integers(-1, 30))))


@operation
def copies(world, data, pos):
    import copy
    for other in (pos.copy(), copy.deepcopy(pos), pickle.loads(pickle.dumps(pos))):
        assert other == pos and other._consistency_errors() == []
    world.positions.append(pos.copy())


@operation
def geometry(world, data, pos):
    size = data.draw(sizes)
    call = data.draw(st.integers(0, 5))
    value = data.draw(arg(st.one_of(st.integers(-2, 300), names)))
    if call == 0:
        catena.cells(size)
    elif call == 1:
        catena.cell_name(value, size)
    elif call == 2:
        catena.parse_cell(value, size)
    elif call == 3:
        catena.neighbours(value, size)
    elif call == 4:
        catena.symmetries(size)
    else:
        catena.position_bytes(size)


@operation
def moves(world, data, pos):
    move = Move(data.draw(names), data.draw(sizes))
    world.moves.append(move)
    shared = world.pick(pos.legal_moves() or world.moves, data.draw(st.integers(0, 50)))
    shared.__init__(data.draw(names), data.draw(sizes))        # must refuse: moves are immutable


@operation
def perft(world, data, pos):
    depth = clamp(data.draw(arg(st.integers(-1, 3))), 3 if pos.size <= 4 else 2)
    catena.perft(pos, depth)


@operation
def playouts(world, data, pos):
    catena.random_playouts(pos, clamp(data.draw(arg(st.integers(0, 30))), 30),
                           seed=data.draw(arg(st.one_of(st.none(), st.integers()))),
                           button_probability=data.draw(arg(st.floats(0, 1))))


@operation
def search(world, data, pos):
    if data.draw(st.booleans()):
        options = data.draw(st.dictionaries(
            st.sampled_from(["seed", "c", "threads", "rave", "rave_k", "expand_visits", "tree_nodes"]),
            arg(st.integers(1, 3000)), max_size=2))
        if "tree_nodes" in options:
            options["tree_nodes"] = clamp(options["tree_nodes"], 50_000)
        if "threads" in options:
            options["threads"] = clamp(options["threads"], 2)
        world.mcts = MCTS(**options)
    iterations = clamp(data.draw(arg(st.integers(1, 300))), 300)
    seconds = clamp(data.draw(arg(st.none())), 0.02)
    result = world.mcts.search(pos, iterations=iterations, seconds=seconds)
    assert result.best_move in pos.legal_moves()
    world.mcts.advance(data.draw(st.one_of(st.just(result.best_move), anything)))


@operation
def solve(world, data, pos):
    max_nodes = clamp(data.draw(arg(st.integers(1, 3000))), 3000)
    catena.solve(pos, max_seconds=clamp(data.draw(arg(st.none())), 0.05),
                 max_nodes=3000 if max_nodes is None else max_nodes,       # no unlimited solves
                 tt_mb=clamp(data.draw(arg(st.integers(1, 4))), 4),
                 sym_stones=data.draw(arg(st.one_of(st.none(), st.integers(0, 10)))))


@operation
def players(world, data, pos):
    kind = data.draw(st.integers(0, 2))
    if kind == 0:
        player = RandomPlayer(seed=data.draw(arg(st.integers())))
    elif kind == 1:
        player = FlatMonteCarloPlayer(playouts=clamp(data.draw(arg(st.integers(1, 5))), 5),
                                      seed=data.draw(arg(st.integers())))
    else:
        player = MCTSPlayer(iterations=clamp(data.draw(arg(st.integers(1, 200))), 200),
                            seconds=clamp(data.draw(arg(st.none())), 0.02), seed=data.draw(arg(st.integers())))
    if pos.size <= 3 or kind != 1:
        player.choose_move(pos)


@operation
def game(world, data, pos):
    g = world.pick(world.games, data.draw(st.integers(0, 9)))
    call = data.draw(st.integers(0, 6))
    if call == 0:
        world.games.append(Game(data.draw(sizes), data.draw(kinds), data.draw(kinds)))
    elif call == 1:
        g.choose_komi(data.draw(arg(st.integers(-1, 16))))
    elif call == 2:
        g.choose_colour(data.draw(arg(st.sampled_from(["black", "white"]))))
    elif call == 3:
        g.push(move_like(world, data) if g.position is None or not g.position.legal_moves()
               else data.draw(st.sampled_from(g.position.legal_moves())))
    elif call == 4:
        g.pop()
    elif call == 5:
        g.phase, g.to_act, g.outcome(), g.actions, repr(g)
        g.colour_of(data.draw(arg(st.sampled_from(["P1", "P2"])))),
        g.player_of(data.draw(arg(st.sampled_from(["black", "white"]))))
    else:
        text = catena.write_game(g, **data.draw(st.dictionaries(st.sampled_from(["P1", "Event", "x y"]),
                                                                  arg(st.text(max_size=5)), max_size=2)))
        assert catena.read_game(text).game().actions == g.actions


@operation
def records(world, data, pos):
    text = data.draw(st.one_of(
        st.text(max_size=80),
        st.sampled_from(['[Size "3"]\n[GameType "komi"]\n\nkomi 2 colour white 1. B2 C3\n',
                         '[Size "2"]\n[GameType "double"]\n\n1. A1 B2\n'])
        .flatmap(lambda t: st.integers(0, len(t)).flatmap(
            lambda i: st.text(max_size=4).map(lambda junk: t[:i] + junk + t[i:]))),
        anything))
    try:
        record = catena.read_game(text)
    except catena.RecordError:
        return
    record.game()


@operation
def pictures(world, data, pos):
    options = data.draw(st.dictionaries(st.sampled_from(["size", "coordinates", "last_move", "legal"]),
                                        arg(st.one_of(st.booleans(), st.integers(1, 900))), max_size=2))
    if "size" in options:
        options["size"] = clamp(options["size"], 2000)
    catena.svg(pos, **options)


@operation
def uninitialised(world, data, pos):
    blank = Position.__new__(Position)
    world.pick(OPERATIONS, data.draw(st.integers(0, 50)))(world, data, blank)


# -- the batch ---------------------------------------------------------------

def sequences(**options):
    """The property: any sequence of calls on a fresh world ends cleanly."""
    @settings(deadline=None, database=None, suppress_health_check=list(HealthCheck), **options)
    @given(st.data())
    def calls(data):
        world = World()
        for _ in range(data.draw(st.integers(1, 25))):
            op = data.draw(st.sampled_from(OPERATIONS))
            pos = world.pick(world.positions, data.draw(st.integers(0, 20)))
            try:
                op(world, data, pos)
            except CLEAR:                   # RecordError and CatenaError are ValueErrors
                pass
            assert pos._consistency_errors() == [], (op.__name__, pos._consistency_errors())
    return calls


def run(batch, examples):
    seed(batch)(sequences(max_examples=examples))()


def run_atheris(argv):
    """Coverage-guided fuzzing: atheris (libFuzzer) feeds bytes to the same call sequences."""
    import atheris
    atheris.Setup(argv, sequences().hypothesis.fuzz_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    faulthandler.enable()
    if sys.argv[1] == "--atheris":
        run_atheris([sys.argv[0]] + sys.argv[2:])
    else:
        run(int(sys.argv[1]), int(sys.argv[2]))
        print("clean")
