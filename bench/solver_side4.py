"""Side-4 solver benchmark: this build against another build of catena, in the same run.

    python bench/solver_side4.py --old PATH [--cells 22 24 26 28] [--per 1] [--tt-mb 256]
                                 [--new-args '{"threads": 2}'] [--old-args '{}'] [--set FILE]
    python bench/solver_side4.py --make-set FILE --cells 24 28 32 --max-nodes 20000000

Positions come from seeded random play on side 4 until ``k`` legal cells remain, for game
types komi and double (and nokomi with ``--nokomi``) and scorings standard, square and
longest.  ``--make-set`` keeps, for each variant and ``k``, the first such position that this
build solves on one thread within ``--max-nodes`` and writes them to FILE (JSON), a set of
positions that stays fixed however the solver changes; ``--set FILE`` benchmarks that set.
A ``"params"`` object in ``--new-args`` / ``--old-args`` becomes ``SolverParams(**params)``,
so one build can be compared with itself tuned otherwise.  Each position is solved by
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
ALL_VARIANTS = [(g, s) for g in ("komi", "nokomi", "double") for s in ("standard", "square", "longest")]


def position_moves(game_type, scoring, cells, seed, size=4):
    """Moves of seeded random play on side ``size`` until ``cells`` legal cells remain (None if the game ends
    first)."""
    import catena
    rng = random.Random(seed)
    pos = catena.Position(size, game_type, scoring, 0)
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


def position(game_type, scoring, cells, seed, size=4):
    """The position of that seeded random play on side ``size`` with ``cells`` legal cells, from the
    first seed at or after ``seed`` whose game has them: (position, seed)."""
    import catena
    while (moves := position_moves(game_type, scoring, cells, seed, size)) is None:
        seed += 1
    pos = catena.Position(size, game_type, scoring, 0)
    for move in moves:
        pos.push(move)
    return pos, seed


def positions(cell_counts, per, variants=VARIANTS):
    """(label, game_type, scoring, moves) for every variant, legal-cell count and seed."""
    out = []
    for game_type, scoring in variants:
        for cells in cell_counts:
            found, seed = 0, 0
            while found < per:
                moves = position_moves(game_type, scoring, cells, 1000 * cells + seed)
                seed += 1
                if moves is not None:
                    out.append((f"{game_type}/{scoring}/{cells}#{found}", game_type, scoring, moves))
                    found += 1
    return out


def make_set(path, cell_counts, max_nodes, tt_mb, tries):
    """Write the set of ``--make-set`` (see the module docstring) to ``path``: for each variant
    and ``k``, the first of ``tries`` seeds solved within ``max_nodes``; if none is, the same
    with one legal cell fewer (at most three times)."""
    import catena
    out = []
    for game_type, scoring in ALL_VARIANTS:
        for wanted in cell_counts:
            found = False
            for cells in range(wanted, wanted - 4, -1):
                # nokomi plays on as komi at komi 0 once its first stone is down: other seeds
                seed, tried = 1000 * cells + (500 if game_type == "nokomi" else 0), 0
                while tried < tries and not found:
                    moves = position_moves(game_type, scoring, cells, seed)
                    seed += 1
                    if moves is None:
                        continue
                    tried += 1
                    pos = catena.Position(4, game_type, scoring, 0)
                    for move in moves:
                        pos.push(move)
                    result = catena.solve(pos, tt_mb=tt_mb, threads=1, max_nodes=max_nodes)
                    print(f"{game_type}/{scoring}/{cells}@{seed - 1}: {result.nodes:,} nodes, "
                          f"{'solved' if result.solved else 'too long'}", flush=True)
                    if result.solved:
                        found = True
                        out.append({"label": f"{game_type}/{scoring}/{cells}@{seed - 1}", "game_type": game_type,
                                    "scoring": scoring, "moves": moves})
                if found:
                    break
    with open(path, "w") as handle:
        json.dump(out, handle, indent=1)
        handle.write("\n")


def worker():
    """Solve the positions sent on stdin, one JSON line each; answer one JSON line each."""
    import catena
    for line in sys.stdin:
        job = json.loads(line)
        pos = catena.Position(4, job["game_type"], job["scoring"], 0)
        for move in job["moves"]:
            pos.push(move)
        args = dict(job["args"])
        if "params" in args:
            args["params"] = catena._solver.SolverParams(**args["params"])
        start, cpu = time.perf_counter(), time.process_time()
        result = catena.solve(pos, **args)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        value = result.value if job["scoring"] != "longest" else result.winner
        print(json.dumps({"value": value, "nodes": result.nodes, "seconds": seconds, "cpu": cpu}), flush=True)


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
    parser.add_argument("--nokomi", action="store_true", help="game type nokomi too")
    parser.add_argument("--set", help="benchmark the positions of this file (made by --make-set)")
    parser.add_argument("--make-set", metavar="FILE", help="write a set of positions (see above)")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="--make-set: one-thread node limit")
    parser.add_argument("--tries", type=int, default=4, help="--make-set: seeds tried per legal-cell count")
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    if args.make_set:
        make_set(args.make_set, args.cells, args.max_nodes, args.tt_mb, args.tries)
        return 0
    if not args.old:
        parser.error("--old PATH is required")
    sys.path.insert(0, HERE)
    old, new = start_worker(os.path.abspath(args.old)), start_worker(HERE)
    old_args = dict(json.loads(args.old_args), tt_mb=args.tt_mb)
    new_args = dict(json.loads(args.new_args), tt_mb=args.tt_mb)
    print(f"old: {args.old} {old_args}\nnew: {HERE} {new_args}\n")
    print("| position | value | old s | new s | ratio | old CPU s | new CPU s | old nodes | new nodes |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    ratios = []
    old_total = new_total = 0.0
    if args.set:
        with open(args.set) as handle:
            jobs = [(j["label"], j["game_type"], j["scoring"], j["moves"]) for j in json.load(handle)]
    else:
        jobs = positions(args.cells, args.per, ALL_VARIANTS if args.nokomi else VARIANTS)
    old_nodes = new_nodes = 0
    old_cpu = new_cpu = 0.0
    node_ratios = []
    for label, game_type, scoring, moves in jobs:
        job = {"game_type": game_type, "scoring": scoring, "moves": moves}
        a = ask(old, dict(job, args=old_args))
        b = ask(new, dict(job, args=new_args))
        if a["value"] != b["value"]:
            print(f"VALUES DIFFER at {label}: old {a['value']}, new {b['value']}")
            return 1
        ratio = a["seconds"] / max(b["seconds"], 1e-9)
        ratios.append(ratio)
        node_ratios.append(a["nodes"] / max(b["nodes"], 1))
        old_total += a["seconds"]
        new_total += b["seconds"]
        old_nodes += a["nodes"]
        new_nodes += b["nodes"]
        old_cpu += a.get("cpu", 0.0)
        new_cpu += b.get("cpu", 0.0)
        print(f"| {label} | {a['value']} | {a['seconds']:.2f} | {b['seconds']:.2f} | {ratio:.1f}x | "
              f"{a.get('cpu', 0.0):.2f} | {b.get('cpu', 0.0):.2f} | {a['nodes']:,} | {b['nodes']:,} |", flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\ntotal: old {old_total:.1f} s, new {new_total:.1f} s ({old_total / new_total:.2f}x), CPU old "
          f"{old_cpu:.1f} s, new {new_cpu:.1f} s ({old_cpu / max(new_cpu, 1e-9):.2f}x); "
          f"geometric mean ratio {geo:.2f}x, least {min(ratios):.2f}x over {len(ratios)} positions; "
          f"nodes old {old_nodes:,}, new {new_nodes:,} ({old_nodes / max(new_nodes, 1):.2f}x; geometric mean "
          f"{math.exp(sum(math.log(r) for r in node_ratios) / len(node_ratios)):.2f}x)")
    old.stdin.close()
    new.stdin.close()
    old.wait()
    new.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
