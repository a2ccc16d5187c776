"""Throughput report and the fixed "signature" benchmark.

``python -m catena bench`` prints one table: per board side, random playouts
from the empty board (per wall and per CPU second of the process), perft from
the empty board and from a fixed middle-game position, the C position's size and
Python call costs on the side-6 middle game.  ``python bench/report.py`` (in a
source checkout) adds machine instructions per placement counted by valgrind
(bench/callgrind.py, developer tooling that is not installed).

The signature is a fixed set of perft runs and seeded playouts whose totals
must not change unless the engine's behaviour does (tests/test_signature.py).
"""

from __future__ import annotations

import random
import statistics
import time
import timeit
from typing import Callable, Dict, Optional

from catena._position import Position, perft, position_bytes, random_playouts

SIZES = range(2, 11)
PERFT_DEPTH_EMPTY = {2: 6, 3: 5, 4: 4, 5: 4, 6: 4, 7: 3, 8: 3, 9: 3, 10: 3}
PERFT_DEPTH_MIDGAME = {2: 2, 3: 4, 4: 4, 5: 4, 6: 4, 7: 3, 8: 3, 9: 3, 10: 3}


def midgame(size: int = 6, plies: int | None = None, seed: int = 2026,
            game_type: str = "komi") -> Position:
    """A fixed middle-game position: ``plies`` seeded random stones from the empty
    board (a third of the cells by default), never the button."""
    pos = Position(size=size, game_type=game_type)
    rng = random.Random(seed)
    for _ in range(pos_cells(size) // 3 if plies is None else plies):
        stones = [m for m in pos.legal_moves() if not m.is_button]
        if not stones:
            break
        pos.push(rng.choice(stones))
    return pos


def pos_cells(size: int) -> int:
    return 3 * size * (size - 1) + 1


def _timed(fn, repeat: int):
    """Median (wall seconds, CPU seconds, result) of ``repeat`` runs of ``fn``."""
    runs = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu, result))
    runs.sort(key=lambda run: run[0])
    return runs[len(runs) // 2]


def playout_rates(size: int, games: int, repeat: int = 3) -> dict[str, float]:
    """Random playouts from the empty board: games and placements per wall and CPU second."""
    pos = Position(size=size)
    wall, cpu, stats = _timed(lambda: random_playouts(pos, games, seed=1), repeat)
    return {"playouts_wall": games / wall, "playouts_cpu": games / cpu,
            "placements_wall": stats.placements / wall, "placements_cpu": stats.placements / cpu}


def perft_rate(pos: Position, depth: int, repeat: int = 3) -> float:
    """Perft nodes per CPU second."""
    wall, cpu, nodes = _timed(lambda: perft(pos, depth), repeat)
    return nodes / max(cpu, 1e-9)


def mcts_rate(size: int, iterations: int, threads: int = 1, rave: bool = True) -> float:
    """MCTS iterations per wall second from the empty board (a fresh tree each run)."""
    from catena._mcts import MCTS

    def run():
        return MCTS(seed=1, threads=threads, rave=rave).search(Position(size=size), iterations=iterations)

    result = _timed(run, 3)[2]
    return result.iterations / result.seconds


def solver_rate(size: int, max_seconds: float | None) -> float:
    """Exact-solver nodes per second of wall time from the empty board (stopped at
    ``max_seconds``), on two threads: the project machine's cores, the solver's default there."""
    from catena.solver import solve

    result = solve(Position(size=size), max_seconds=max_seconds, tt_mb=64, threads=2)
    return result.nodes / result.seconds


def python_call_costs(number: int = 100_000) -> dict[str, float]:
    """Nanoseconds per call on the side-6 middle-game position, median of five runs."""
    pos = midgame(6)
    move = pos.legal_moves()[0]

    def push_pop():
        pos.push(move)
        pos.pop()

    costs = {}
    for name, fn in (("legal_moves", pos.legal_moves), ("push_pop", push_pop), ("copy", pos.copy)):
        costs[name] = statistics.median(timeit.repeat(fn, number=number, repeat=5)) / number * 1e9
    return costs


# -- the signature -----------------------------------------------------------

SIGNATURE_PERFT = [        # (side, game type, middle-game plies, depth)
    (3, "komi", 0, 5), (3, "nokomi", 0, 5), (3, "double", 0, 5),
    (4, "komi", 6, 4), (4, "double", 6, 4),
    (6, "komi", 30, 3), (6, "double", 30, 3),
    (10, "nokomi", 90, 2),
]
SIGNATURE_PLAYOUTS = [     # (side, game type, scoring, komi, games, seed)
    (2, "double", "standard", 0, 500, 11), (4, "komi", "longest", 3, 500, 12),
    (6, "komi", "standard", 5, 1000, 13), (6, "nokomi", "square", 0, 500, 14),
    (6, "double", "square", 0, 500, 15), (10, "komi", "standard", 0, 200, 16),
]


def signature() -> dict[str, int]:
    """Totals of a fixed set of perft runs and seeded playouts (behaviour, not speed)."""
    nodes = 0
    for size, game_type, plies, depth in SIGNATURE_PERFT:
        nodes += perft(midgame(size, plies, game_type=game_type), depth)
    placements = black_wins = draws = games = 0
    for size, game_type, scoring, komi, n, seed in SIGNATURE_PLAYOUTS:
        stats = random_playouts(Position(size, game_type, scoring, komi), n, seed=seed)
        games += stats.games
        placements += stats.placements
        black_wins += stats.black_wins
        draws += stats.draws
    return {"perft_nodes": nodes, "playouts": games, "placements": placements,
            "black_wins": black_wins, "draws": draws}


# -- the report ---------------------------------------------------------------

PlacementCosts = Callable[[int, int], Optional[Dict[str, float]]]


def report(quick: bool = False, callgrind: Optional[PlacementCosts] = None, out=print,
           progress: Optional[bool] = None) -> None:
    """Print the benchmark table (``quick`` runs fewer games, for a smoke test), with a
    progress bar on stderr over its measurements: when stderr is a terminal if
    ``progress`` is None, always if True, never if False.

    ``callgrind(size, playouts)`` adds the rows of instructions and branch mispredicts per
    placement (bench/callgrind.py's ``placement_costs``: None where valgrind is missing)."""
    from catena._interrupt import noting_ctrl_c
    from catena.progress import bar

    repeat = 1 if quick else 3
    rows: dict[str, dict[int, str]] = {}
    steps = len(SIZES) + 3 + 2 + 1 + (2 if callgrind else 0) + 1
    shown_when = None if progress is None else not progress        # None: when stderr is a terminal
    with noting_ctrl_c() as ctrl_c, bar(steps, "bench", unit=" steps", disable=shown_when) as shown:
        def put(row: str, size: int, value: str) -> None:
            rows.setdefault(row, {})[size] = value

        def step(what: str) -> None:
            if ctrl_c.happened:                 # a search ended early on Ctrl-C: stop the report
                raise KeyboardInterrupt
            shown.set_postfix_str(what, refresh=False)
            shown.update()

        _measure(quick, callgrind, repeat, put, step)
    _print_table(rows, out)


def _measure(quick: bool, callgrind: Optional[PlacementCosts], repeat: int, put, step) -> None:
    """Run every measurement of the report, calling ``put(row, size, text)`` with each
    number and ``step(what)`` after each part."""
    for size in SIZES:
        games = max(200, 2_000_000 // pos_cells(size)) // (20 if quick else 1)
        rates = playout_rates(size, games, repeat)
        put("playouts/s (wall)", size, f"{rates['playouts_wall']:,.0f}")
        put("playouts/s (CPU)", size, f"{rates['playouts_cpu']:,.0f}")
        put("placements/s (wall)", size, f"{rates['placements_wall'] / 1e6:.2f} M")
        put("placements/s (CPU)", size, f"{rates['placements_cpu'] / 1e6:.2f} M")
        depth = PERFT_DEPTH_EMPTY[size] - (1 if quick else 0)
        put("perft empty: nodes/s (CPU)", size,
            f"{perft_rate(Position(size=size), depth, repeat) / 1e6:.1f} M (d{depth})")
        depth = PERFT_DEPTH_MIDGAME[size] - (1 if quick else 0)
        put("perft middle game: nodes/s (CPU)", size,
            f"{perft_rate(midgame(size), depth, repeat) / 1e6:.1f} M (d{depth})")
        put("position size (bytes)", size, str(position_bytes(size)))
        step(f"side {size}")
    its = 4_000 if quick else 100_000
    for size in (4, 6, 10):
        put("MCTS+RAVE iterations/s, 1 thread", size, f"{mcts_rate(size, its):,.0f}")
        put("MCTS+RAVE iterations/s, 2 threads", size, f"{mcts_rate(size, its, threads=2):,.0f}")
        put("plain UCT iterations/s, 1 thread", size, f"{mcts_rate(size, its, rave=False):,.0f}")
        step(f"MCTS side {size}")
    for size, limit in ((3, None), (4, 1.0 if quick else 5.0)):
        put("solver nodes/s, 2 threads", size, f"{solver_rate(size, limit) / 1e6:.2f} M")
        step(f"solver side {size}")
    costs = python_call_costs(10_000 if quick else 100_000)
    for name, label in (("legal_moves", "Python legal_moves() (ns)"),
                        ("push_pop", "Python push()+pop() (ns)"), ("copy", "Python copy() (ns)")):
        put(label, 6, f"{costs[name]:.0f}")
    step("Python calls")
    if callgrind:
        for size in (6, 10):
            costs = callgrind(size, 200 if quick else 20_000)
            put("instructions/placement (callgrind)", size,
                "no valgrind" if costs is None else f"{costs['instructions']:.0f}")
            put("mispredicts/placement (cachegrind)", size,
                "no valgrind" if costs is None else f"{costs['mispredicts']:.2f}")
            step(f"callgrind side {size}")
    sig = signature()
    put("signature (perft nodes, placements)", 6, f"{sig['perft_nodes']}, {sig['placements']}")
    step("signature")


def _print_table(rows: dict[str, dict[int, str]], out) -> None:
    sizes = list(SIZES)
    header = ["side"] + [str(s) for s in sizes]
    table = [header] + [[row] + [cells.get(s, "-") for s in sizes] for row, cells in rows.items()]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for i, line in enumerate(table):
        out(" | ".join(cell.ljust(widths[j]) if j == 0 else cell.rjust(widths[j])
                       for j, cell in enumerate(line)))
        if i == 0:
            out("-+-".join("-" * w for w in widths))
