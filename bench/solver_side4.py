"""Side-4 solver benchmark: this build against another build of catena, in the same run.

    python bench/solver_side4.py --old PATH [--cells 22 24 26 28] [--per 1] [--tt-mb 256]
                                 [--new-args '{"threads": 2}'] [--old-args '{}']

Positions come from seeded random play on side 4 until ``k`` legal cells remain, for game
types komi and double and scorings standard, square and longest.  Each position is solved by
a worker process of each build (``PYTHONPATH=PATH`` for the old one, this checkout for the
new one), one after the other, so machine noise hits both alike.  The values must agree;
the table gives wall seconds and nodes of each and the ratio.  Build the old one in place
in its own folder outside this repository (``python3 setup.py build_ext --inplace``).
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = [(g, s) for g in ("komi", "double") for s in ("standard", "square", "longest")]


def position_moves(game_type, scoring, cells, seed):
    """Moves of seeded random play on side 4 until ``cells`` legal cells remain (None if the game ends first)."""
    import catena
    rng = random.Random(seed)
    pos = catena.Position(4, game_type, scoring, 0)
    moves = []
    while not pos.is_game_over():
        legal = [m for m in pos.legal_moves() if m.name != "button"]
        if len(legal) == cells:
            return moves
        if len(legal) < cells:
            return None
        move = rng.choice(list(pos.legal_moves()))
        pos.push(move)
        moves.append(move.name)
    return None


def position(game_type, scoring, cells, seed):
    """The side-4 position of that seeded random play with ``cells`` legal cells, from the first
    seed at or after ``seed`` whose game has them: (position, seed)."""
    import catena
    while (moves := position_moves(game_type, scoring, cells, seed)) is None:
        seed += 1
    pos = catena.Position(4, game_type, scoring, 0)
    for move in moves:
        pos.push(move)
    return pos, seed


def positions(cell_counts, per):
    """(label, game_type, scoring, moves) for every variant, legal-cell count and seed."""
    out = []
    for game_type, scoring in VARIANTS:
        for cells in cell_counts:
            found, seed = 0, 0
            while found < per:
                moves = position_moves(game_type, scoring, cells, 1000 * cells + seed)
                seed += 1
                if moves is not None:
                    out.append((f"{game_type}/{scoring}/{cells}#{found}", game_type, scoring, moves))
                    found += 1
    return out


def worker():
    """Solve the positions sent on stdin, one JSON line each; answer one JSON line each."""
    import catena
    for line in sys.stdin:
        job = json.loads(line)
        pos = catena.Position(4, job["game_type"], job["scoring"], 0)
        for move in job["moves"]:
            pos.push(move)
        start = time.perf_counter()
        result = catena.solve(pos, **job["args"])
        seconds = time.perf_counter() - start
        value = result.value if job["scoring"] != "longest" else result.winner
        print(json.dumps({"value": value, "nodes": result.nodes, "seconds": seconds}), flush=True)


def start_worker(path):
    env = dict(os.environ, PYTHONPATH=path)
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=path)


def ask(proc, job):
    proc.stdin.write(json.dumps(job) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--old", help="folder of the other build (its PYTHONPATH)")
    parser.add_argument("--cells", type=int, nargs="+", default=[22, 24, 26, 28])
    parser.add_argument("--per", type=int, default=1, help="positions per variant and cell count")
    parser.add_argument("--tt-mb", type=int, default=256)
    parser.add_argument("--old-args", default="{}", help="extra solve() keywords of the old build (JSON)")
    parser.add_argument("--new-args", default="{}", help="extra solve() keywords of this build (JSON)")
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    if not args.old:
        parser.error("--old PATH is required")
    sys.path.insert(0, HERE)
    old, new = start_worker(os.path.abspath(args.old)), start_worker(HERE)
    old_args = dict(json.loads(args.old_args), tt_mb=args.tt_mb)
    new_args = dict(json.loads(args.new_args), tt_mb=args.tt_mb)
    print(f"old: {args.old} {old_args}\nnew: {HERE} {new_args}\n")
    print("| position | value | old s | new s | ratio | old nodes | new nodes |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ratios = []
    old_total = new_total = 0.0
    for label, game_type, scoring, moves in positions(args.cells, args.per):
        job = {"game_type": game_type, "scoring": scoring, "moves": moves}
        a = ask(old, dict(job, args=old_args))
        b = ask(new, dict(job, args=new_args))
        if a["value"] != b["value"]:
            print(f"VALUES DIFFER at {label}: old {a['value']}, new {b['value']}")
            return 1
        ratio = a["seconds"] / max(b["seconds"], 1e-9)
        ratios.append(ratio)
        old_total += a["seconds"]
        new_total += b["seconds"]
        print(f"| {label} | {a['value']} | {a['seconds']:.2f} | {b['seconds']:.2f} | {ratio:.1f}x | "
              f"{a['nodes']:,} | {b['nodes']:,} |", flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\ntotal: old {old_total:.1f} s, new {new_total:.1f} s ({old_total / new_total:.2f}x); "
          f"geometric mean ratio {geo:.2f}x, least {min(ratios):.2f}x over {len(ratios)} positions")
    old.stdin.close()
    new.stdin.close()
    old.wait()
    new.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
