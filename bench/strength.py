"""Middlegame strength against exact values: a set of positions from lightly randomised
MCTS self-play with 21 to 29 legal cells on sides 4, 5 and 6, each solved exactly, and
how often a player picks an optimal move there and how many points it gives away.

    python bench/strength.py build [--per-side 16] [--seed 1] [--out bench/strength_set.json]
                                   [--sides 4 5 6] [--append] [--max-solve-seconds S] [--all-moves]
    python bench/strength.py measure [--set bench/strength_set.json] [--seconds 1]
                                     [--iterations N] [--seed 1] [--option name=value ...]
                                     [--verbose]
    python bench/strength.py timing [--set bench/strength_set.json]

``build`` plays seeded self-play games (``MCTSPlayer`` at ``--game-iterations`` a move,
the first two stones and a share ``--noise`` of the later ones random), keeps one
position per game whose legal cell count (the button aside) is drawn from 21 to 29,
and solves it exactly with ``catena.solve`` (one thread): the position's value is the
best move's.  A move's own exact value is solved when a measurement first picks it and
kept in the set's file (``--all-moves`` solves every move at once: a position of 29
legal cells takes minutes a move on this machine, so the committed set is filled lazily;
every move scored is scored against its exact value all the same).  The
komi of each side is its fair komi (``catena.match.estimate_fair_komi``: exact on side
4, a seeded search on 5 and 6).  ``measure`` scores ``catena.MCTSPlayer(iterations=None,
seconds=1, seed=1)`` (or the options given) on one thread, a fresh player for each
position: the share of optimal moves and the mean points lost per move, per side and
overall (``--option root_solve_share=0.5`` and any other MCTS option).  ``timing``
solves each position once more and prints the solver's nodes and seconds by legal-cell
count.  docs/strength.md has the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Callable

import catena
from catena.match import estimate_fair_komi

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SET = os.path.join(HERE, "strength_set.json")
SIDES = (4, 5, 6)
LEGAL = (21, 29)
FORMAT = 1


def legal_cells(pos: catena.Position) -> int:
    """Legal cells of ``pos``, the button aside."""
    return len(pos.legal_moves()) - (pos.button is None)


def exact_value(pos: catena.Position, tt_mb: int = 64,
                max_seconds: float | None = None) -> tuple[float | None, str | None]:
    """The exact margin (Black minus White) of ``pos`` and a best move (one solver
    thread); (None, None) if ``max_seconds`` ran out first."""
    if pos.is_game_over():
        outcome = pos.outcome()
        assert outcome is not None and outcome.margin is not None
        return outcome.margin, None
    result = catena.solve(pos, tt_mb=tt_mb, threads=1, max_seconds=max_seconds)
    if result.value is None:
        return None, None
    return result.value, None if result.best_move is None else result.best_move.name


def move_value(pos: catena.Position, move: str, tt_mb: int = 64) -> float:
    """The exact margin after ``move``."""
    after = pos.copy()
    after.push(move)
    value = exact_value(after, tt_mb)[0]
    assert value is not None
    return value


@dataclass
class Entry:
    """A set position: its moves from the empty board, its exact value, and the exact
    value after each move solved so far (margins are Black minus White)."""

    size: int
    komi: int
    moves: tuple[str, ...]
    to_move: str
    best: float
    values: dict[str, float]
    legal_cells: int

    def position(self) -> catena.Position:
        pos = catena.Position(self.size, "komi", "standard", self.komi)
        for name in self.moves:
            pos.push(name)
        return pos

    def lost(self, move: str) -> float:
        """Points ``move`` gives away against the best move (solved now if not yet known)."""
        if move not in self.values:
            self.values[move] = move_value(self.position(), move)
        sign = 1 if self.to_move == "black" else -1
        return sign * (self.best - self.values[move])


def selfplay_position(size: int, komi: int, rng: random.Random, game_iterations: int,
                      noise: float) -> catena.Position | None:
    """One lightly randomised self-play game up to a position with a drawn number of
    legal cells in LEGAL (None if the game skips past it)."""
    wanted = rng.randint(*LEGAL)
    player = catena.MCTSPlayer(iterations=game_iterations, seed=rng.getrandbits(32))
    pos = catena.Position(size, "komi", "standard", komi)
    while not pos.is_game_over():
        cells = legal_cells(pos)
        if cells == wanted:
            return pos
        if cells < wanted:
            return None
        stones = [m for m in pos.legal_moves() if m.name != "button"]
        if pos.ply < 2 or rng.random() < noise:
            move = rng.choice(stones)
        else:
            move = player.choose_move(pos)
        pos.push(move)
    return None


def build(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    entries = load(args.out)[0] if args.append else []
    start = time.perf_counter()
    for size in args.sides:
        komi = estimate_fair_komi(size, seed=args.seed)
        found = 0
        while found < args.per_side:
            pos = selfplay_position(size, komi, rng, args.game_iterations, args.noise)
            if pos is None:
                continue
            began = time.perf_counter()
            best, best_move = exact_value(pos, args.tt_mb, args.max_solve_seconds)
            if best is None:
                print(f"side {size}: {legal_cells(pos)} legal cells, not solved in {args.max_solve_seconds} s: "
                      f"skipped", flush=True)
                continue
            values = {} if best_move is None else {best_move: best}
            if args.all_moves:
                values = {m.name: move_value(pos, m.name, args.tt_mb) for m in pos.legal_moves()}
            entries.append(Entry(size, komi, tuple(m.name for m in pos.move_stack), pos.to_move, best,
                                 values, legal_cells(pos)))
            found += 1
            print(f"side {size} komi {komi}: {found}/{args.per_side}, {legal_cells(pos)} legal cells, "
                  f"solved in {time.perf_counter() - began:.1f} s ({time.perf_counter() - start:.0f} s in all)",
                  flush=True)
            save(args.out, entries, {"seed": args.seed, "game_iterations": args.game_iterations,
                                     "noise": args.noise, "max_solve_seconds": args.max_solve_seconds})
    print(f"{len(entries)} positions written to {args.out}")
    return 0


def save(path: str, entries: list[Entry], how: dict[str, object]) -> None:
    with open(path + ".tmp", "w") as out:
        json.dump({"format": FORMAT, "how": how, "positions": [asdict(e) for e in entries]},
                  out, indent=0, sort_keys=True)
        out.write("\n")
    os.replace(path + ".tmp", path)


def load(path: str) -> tuple[list[Entry], dict[str, object]]:
    with open(path) as src:
        data = json.load(src)
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a strength set of format {FORMAT}")
    return [Entry(**{**e, "moves": tuple(e["moves"])}) for e in data["positions"]], data["how"]


def score(points: list[Entry], choose: Callable[[catena.Position], catena.Move],
          progress: bool = False) -> dict[object, tuple[int, float, float]]:
    """Per side and overall ("all"): (positions, share of optimal moves, mean points lost)."""
    rows: dict[object, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for i, entry in enumerate(points):
        move = choose(entry.position()).name
        lost = entry.lost(move)
        for key in (entry.size, "all"):
            rows[key][0] += 1
            rows[key][1] += lost == 0
            rows[key][2] += lost
        if progress:
            print(f"  {i + 1}/{len(points)} side {entry.size}, {entry.legal_cells} legal cells: {move} loses "
                  f"{lost + 0.0:g}", file=sys.stderr, flush=True)
    return {key: (int(n), opt / n, lost / n) for key, (n, opt, lost) in rows.items()}


def parse_option(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    for kind in (int, float):
        try:
            return name, kind(value)
        except ValueError:
            pass
    return name, {"True": True, "False": False, "None": None}.get(value, value)


def measure(args: argparse.Namespace) -> int:
    points, how = load(args.set)
    options = dict(parse_option(o) for o in args.option)

    def choose(pos: catena.Position) -> catena.Move:
        player = catena.MCTSPlayer(iterations=args.iterations, seconds=args.seconds, seed=args.seed, **options)
        return player.choose_move(pos)

    budget = (f"{args.iterations} iterations" if args.iterations else "") + (
        f" {args.seconds:g} s" if args.seconds else "")
    began = time.perf_counter()
    try:
        rows = score(points, choose, progress=args.verbose)
    finally:                      # keep the moves solved so far, even on Ctrl-C
        save(args.set, points, how)
    print(f"MCTSPlayer({budget.strip()}, seed={args.seed}, {options}): "
          f"{time.perf_counter() - began:.0f} s")
    print("| side | positions | optimal moves | points lost per move |")
    print("| --- | --- | --- | --- |")
    for key in (*SIDES, "all"):
        if key in rows:
            n, optimal, lost = rows[key]
            print(f"| {key} | {n} | {optimal:.0%} | {lost:.2f} |")
    return 0


def timing(args: argparse.Namespace) -> int:
    """Solver cost of the set's positions (the root, one thread), by legal-cell count."""
    points, _ = load(args.set)
    by_cells: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for entry in points:
        pos = entry.position()
        began = time.perf_counter()
        result = catena.solve(pos, tt_mb=args.tt_mb, threads=1)
        by_cells[legal_cells(pos)].append((result.nodes, time.perf_counter() - began))
    print("| legal cells | positions | median nodes | max nodes | median seconds | max seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    for cells in sorted(by_cells):
        runs = sorted(by_cells[cells])
        secs = sorted(s for _, s in runs)
        print(f"| {cells} | {len(runs)} | {runs[len(runs) // 2][0]:,} | {runs[-1][0]:,} | "
              f"{secs[len(secs) // 2]:.2f} | {secs[-1]:.2f} |")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="play, sample and solve a set")
    b.add_argument("--per-side", type=int, default=16)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--game-iterations", type=int, default=1000)
    b.add_argument("--noise", type=float, default=0.1, help="share of random stones after the first two")
    b.add_argument("--tt-mb", type=int, default=64)
    b.add_argument("--all-moves", action="store_true", help="solve every legal move now")
    b.add_argument("--sides", type=int, nargs="+", default=list(SIDES))
    b.add_argument("--append", action="store_true", help="add to the positions of --out")
    b.add_argument("--max-solve-seconds", type=float, default=None,
                   help="skip a position whose solve takes longer (biases the set to easier positions)")
    b.add_argument("--out", default=DEFAULT_SET)
    m = sub.add_parser("measure", help="score a player on a set")
    m.add_argument("--set", default=DEFAULT_SET)
    m.add_argument("--seconds", type=float, default=1.0)
    m.add_argument("--iterations", type=int, default=None)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--option", action="append", default=[], help="an MCTS option, name=value")
    m.add_argument("--verbose", action="store_true")
    t = sub.add_parser("timing", help="the solver's cost on a set by legal-cell count")
    t.add_argument("--set", default=DEFAULT_SET)
    t.add_argument("--tt-mb", type=int, default=64)
    args = parser.parse_args()
    if args.command == "measure" and args.seconds <= 0:
        args.seconds = None
    return {"build": build, "measure": measure, "timing": timing}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
