"""How the solver's work grows with the legal cells left: the model behind catena.effort.

    python bench/solver_growth.py [--side 4] [--source random|mcts] [--cells 14 16 ... 30] [--per 6]
                                  [--max-nodes N] [--max-seconds S] [--tt-mb 256] [--threads 1]
                                  [--game-type komi] [--scoring standard] [--project 37 61] [--json FILE]

Positions of one game type and scoring (komi 0) on side ``--side``, played until ``k`` legal
cells remain, each solved exactly from an empty table.  ``--source random`` plays seeded
random moves (as bench/solver_side4.py); ``--source mcts`` plays a lightly randomised
self-play: each move drawn from the root visits of a short seeded MCTS
(``--mcts-iterations``) raised to the power ``1 / --temperature``, so the positions stay
near an even game, as the empty board is.  Position ``i`` of ``k`` comes from the first seed
at or after ``1000 * k + i`` whose game reaches ``k`` legal cells.

A solve stopped by ``--max-nodes`` or ``--max-seconds`` counts as a lower bound: a median
that such a solve could raise is printed as ">= N" and left out of the fit.  Prints a
Markdown table (the median nodes and seconds per ``k``, the median of the values' sizes)
and the least-squares fit of the exact medians, ``nodes = NODES_AT_K0 * GROWTH ** (k - K0)``
with K0 the least ``k`` measured; ``--project`` prints the fit at other cell counts.
``--json`` writes every solve (label, moves, value, nodes, seconds) to FILE.
"""

import argparse
import json
import math
import random
import statistics
import sys
import time

import catena

from solver_side4 import position


def mcts_moves(size, game_type, scoring, cells, seed, iterations, temperature):
    """Moves of the lightly randomised MCTS self-play of the module docstring on side ``size``
    until ``cells`` legal cells remain (None if the game ends first)."""
    rng = random.Random(seed)
    pos = catena.Position(size, game_type, scoring, 0)
    moves = []
    while not pos.is_game_over():
        legal = sum(1 for move in pos.legal_moves() if not move.is_button)
        if legal == cells:
            return moves
        if legal < cells:
            return None
        result = catena.MCTS(seed=rng.getrandbits(32)).search(pos, iterations=iterations)
        choices = [(move, visits) for move, visits in result.visits.items() if visits > 0]
        if choices:
            move = rng.choices([move for move, _ in choices],
                               [visits ** (1 / temperature) for _, visits in choices])[0]
        else:                                    # the root was proven before any iteration
            move = result.best_move
        pos.push(move)
        moves.append(move.name)
    return None


def positions(args, cells):
    """The ``--per`` positions of ``cells`` legal cells: (label, Position) each."""
    out, seed = [], 1000 * cells
    while len(out) < args.per:
        if args.source == "random":
            pos, seed = position(args.game_type, args.scoring, cells, seed, args.side)
        else:
            while (moves := mcts_moves(args.side, args.game_type, args.scoring, cells, seed,
                                       args.mcts_iterations, args.temperature)) is None:
                seed += 1
            pos = catena.Position(args.side, args.game_type, args.scoring, 0)
            for move in moves:
                pos.push(move)
        out.append((f"{args.game_type}/{args.scoring}/{cells}@{seed}", pos))
        seed += 1
    return out


def median(solves):
    """The median nodes of ``solves`` and whether it is exact: a solve stopped by a limit has
    at least its nodes, so the median is a lower bound if one of those is at or below it."""
    ranked = sorted(solves, key=lambda solve: solve["nodes"])
    middle = statistics.median(solve["nodes"] for solve in ranked)
    return middle, not any(solve["stopped_by"] for solve in ranked[:len(ranked) // 2 + 1])


def fit(points):
    """Least squares of log nodes on cells: (nodes at the least cells, growth per cell, the growth's
    factor of one standard error: the slope's, or 1 with only two points)."""
    first = min(cells for cells, _ in points)
    xs = [cells - first for cells, _ in points]
    ys = [math.log(nodes) for _, nodes in points]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread
    intercept = mean_y - slope * mean_x
    if len(points) < 3:
        return math.exp(intercept), math.exp(slope), 1.0
    residual = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys)) / (len(points) - 2)
    return math.exp(intercept), math.exp(slope), math.exp(math.sqrt(residual / spread))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--side", type=int, default=4, help="board side (default 4)")
    parser.add_argument("--source", choices=("random", "mcts"), default="random",
                        help="how the positions are reached (default random)")
    parser.add_argument("--cells", type=int, nargs="+", default=list(range(14, 31, 2)))
    parser.add_argument("--per", type=int, default=6, help="positions per legal-cell count")
    parser.add_argument("--max-nodes", type=int, default=None, help="stop each solve after this many nodes")
    parser.add_argument("--max-seconds", type=float, default=None, help="stop each solve after this long")
    parser.add_argument("--tt-mb", type=int, default=256)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--game-type", default="komi")
    parser.add_argument("--scoring", default="standard")
    parser.add_argument("--mcts-iterations", type=int, default=1000, help="MCTS iterations a move (--source mcts)")
    parser.add_argument("--temperature", type=float, default=0.5,
                        help="moves drawn with probability visits ** (1 / T) (--source mcts)")
    parser.add_argument("--project", type=int, nargs="*", default=[], help="print the fit at these cell counts")
    parser.add_argument("--json", default=None, help="write every solve to this file")
    args = parser.parse_args(argv)
    if args.per < 1 or args.temperature <= 0 or args.mcts_iterations < 1:
        parser.error("--per and --mcts-iterations must be at least 1 and --temperature above 0")
    board_cells = 3 * args.side * (args.side - 1) + 1
    if not all(1 <= cells <= board_cells for cells in args.cells):   # else no game ever reaches them
        parser.error(f"--cells must lie between 1 and the {board_cells} cells of side {args.side}")
    print(f"side {args.side}, {args.game_type}/{args.scoring}, {args.source} play, {args.threads} thread(s), "
          f"{args.tt_mb} MB, limits: {args.max_nodes or 'none'} nodes, {args.max_seconds or 'none'} s")
    print("| legal cells k | positions | median nodes | median seconds | median CPU s | slowest seconds "
          "| median abs value | stopped by a limit |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    medians, record = [], []
    for cells in args.cells:
        solves = []
        for label, pos in positions(args, cells):
            start, cpu = time.perf_counter(), time.process_time()
            result = catena.solve(pos, max_nodes=args.max_nodes, max_seconds=args.max_seconds, tt_mb=args.tt_mb,
                                  threads=args.threads)
            solve = {"label": label, "side": args.side, "source": args.source, "cells": cells,
                     "moves": [move.name for move in pos.move_stack],
                     "value": result.value if result.solved else None, "lower": result.lower,
                     "upper": result.upper, "nodes": result.nodes,
                     "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu,
                     "stopped_by": None if result.solved else result.stopped_by}
            solves.append(solve)
            print(f"  {label}: {'value ' + format(result.value, '+g') if result.solved else 'stopped, bounds '}"
                  f"{'' if result.solved else f'[{result.lower:+g}, {result.upper:+g}]'} "
                  f"{result.nodes:,} nodes, {solve['seconds']:.1f} s", file=sys.stderr, flush=True)
        record.extend(solves)
        nodes, exact = median(solves)
        if exact:
            medians.append((cells, nodes))
        values = [abs(solve["value"]) for solve in solves if solve["value"] is not None]
        stopped = sum(1 for solve in solves if solve["stopped_by"])
        print(f"| {cells} | {len(solves)} | {'' if exact else '>= '}{nodes:,.0f} "
              f"| {statistics.median(s['seconds'] for s in solves):.2f} "
              f"| {statistics.median(s['cpu_seconds'] for s in solves):.2f} | {max(s['seconds'] for s in solves):.2f} "
              f"| {statistics.median(values) if values else '-'} | {stopped} |", flush=True)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
    if len(medians) < 2:
        print("\nfit: fewer than two exact medians")
        return
    at_first, growth, error = fit(medians)
    first = min(cells for cells, _ in medians)
    print(f"\nfit of the exact medians ({', '.join(str(cells) for cells, _ in medians)} legal cells): "
          f"NODES_AT_{first} = {at_first:,.0f}, GROWTH = {growth:.2f} (one standard error: "
          f"{growth / error:.2f} to {growth * error:.2f})")
    for cells in args.project:
        # the band of the growth's standard error, pivoting about the middle of the measured cells
        middle = statistics.fmean(cells for cells, _ in medians)
        at_middle = at_first * growth ** (middle - first)
        low, high = (at_middle * (growth * factor) ** (cells - middle) for factor in (1 / error, error))
        print(f"  at {cells} legal cells: {at_first * growth ** (cells - first):.2g} nodes "
              f"({min(low, high):.2g} to {max(low, high):.2g})")


if __name__ == "__main__":
    main()
