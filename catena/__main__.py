"""Command line: ``python -m catena [demo|play|selfplay|solve|solved|perft|bench] ...``.

``demo`` (the default) plays a game between two engine players on the side-6
board, printing every action and the board, and ends with the outcome.
"""

from __future__ import annotations

import argparse
import sys
import time

import catena
from catena._geometry import check_size
from catena._validate import integer, optional_integer, optional_real
from catena.players import MCTSPlayer


def _engines(iterations: int, seed):
    """Two MCTS players for engine-against-engine games, seeded apart when seeded."""
    return (MCTSPlayer(iterations=iterations, seed=seed),
            MCTSPlayer(iterations=iterations, seed=None if seed is None else seed + 1))


def _demo(args) -> int:
    game = catena.Game(size=args.size, game_type=args.game_type, scoring=args.scoring)
    p1, p2 = _engines(args.iterations, args.seed)
    print(f"Catena demo: side {args.size}, game type {args.game_type}, {args.scoring} scoring; "
          f"two MCTS players, {args.iterations} iterations per decision")

    def show(game, player, kind, value):
        if kind == "komi":
            print(f"{player} chooses komi {value}")
        elif kind == "colour":
            print(f"{player} chooses to play {value}")
        else:
            pos = game.position
            colour = game.colour_of(player) or "black"      # no-komi opening: P1 plays Black
            claims = "; ".join(f"{'-'.join(c.cells)} claimed by {c.owner}" for c in pos.last_claims())
            print(f"{pos.ply:3d}. {player} ({colour}) {value}" + (f"   [{claims}]" if claims else ""))
            if args.boards:
                print(pos)

    start = time.perf_counter()
    result = game.play(p1, p2, on_action=show)
    print(game.position)
    winner = "draw" if result.winner is None else f"{result.winner_player} ({result.winner}) wins"
    scores = ""
    if result.outcome.black_score is not None:
        scores = f": black {result.outcome.black_score:g}, white {result.outcome.white_score:g}"
    print(f"Outcome: {winner}{scores} ({time.perf_counter() - start:.1f} s)")
    return 0


def _play(args) -> int:
    from catena.terminal import TerminalGame

    game = catena.Game(size=args.size, game_type=args.game_type, scoring=args.scoring)
    engine = MCTSPlayer(iterations=None if args.seconds else args.iterations, seconds=args.seconds,
                        seed=args.seed)
    status = TerminalGame(game, engine, human=args.human).run()
    if args.save:
        from catena.record import write_game

        strength = f"{args.seconds} s" if args.seconds else f"{args.iterations} iterations"
        names = {args.human: "human", "P2" if args.human == "P1" else "P1": f"catena MCTS {strength}"}
        with open(args.save, "w") as handle:
            handle.write(write_game(game, P1=names["P1"], P2=names["P2"]))
        print(f"saved the game to {args.save}")
    return status


def _load_record(path: str) -> "catena.Game":
    from catena.record import read_game

    with open(path) as handle:
        return read_game(handle.read()).game()


def _show(args) -> int:
    game = _load_record(args.record)
    if game.position is None:
        print("the record stops before the komi is chosen: no board yet")
        return 0
    print(game.position)
    if args.svg:
        from catena.svg import svg

        with open(args.svg, "w") as handle:
            handle.write(str(svg(game.position, legal=args.legal)))
        print(f"wrote {args.svg}")
    return 0


def _selfplay(args) -> int:
    import os

    from catena.record import write_game

    if args.out:
        os.makedirs(args.out, exist_ok=True)
    wins = {"P1": 0, "P2": 0, None: 0}
    start = time.perf_counter()
    for index in range(args.games):
        seed = None if args.seed is None else args.seed + 2 * index
        game = catena.Game(size=args.size, game_type=args.game_type, scoring=args.scoring)
        p1, p2 = _engines(args.iterations, seed)
        outcome = game.play(p1, p2)
        wins[outcome.winner_player] += 1
        if args.out:
            path = os.path.join(args.out, f"game-{index + 1:04d}.catena")
            with open(path, "w") as handle:
                handle.write(write_game(game, P1=f"catena MCTS {args.iterations}",
                                        P2=f"catena MCTS {args.iterations}"))
        done = index + 1
        bar = "#" * (30 * done // args.games)
        sys.stderr.write(f"\r[{bar:<30}] {done}/{args.games}  P1 {wins['P1']}  P2 {wins['P2']}"
                         f"  draws {wins[None]}  {time.perf_counter() - start:.0f} s")
        sys.stderr.flush()
    sys.stderr.write("\n")
    print(f"{args.games} games: P1 {wins['P1']}, P2 {wins['P2']}, draws {wins[None]}"
          + (f"; records in {args.out}" if args.out else ""))
    return 0


def _perft(args) -> int:
    pos = catena.Position(size=args.size, game_type=args.game_type, scoring=args.scoring)
    for depth in range(args.depth + 1):
        start = time.perf_counter()
        nodes = catena.perft(pos, depth)
        seconds = time.perf_counter() - start
        print(f"perft({depth}) = {nodes}  ({seconds:.3f} s)")
    return 0


def _progress_bar(nodes, seconds, lower, upper):
    bounds = f"[{'-inf' if lower is None else f'{lower:+g}'}, {'+inf' if upper is None else f'{upper:+g}'}]"
    sys.stderr.write(f"\r  {seconds:7.1f} s  {nodes:>15,} nodes  {nodes / max(seconds, 1e-9) / 1e6:5.2f} M/s"
                     f"  value in {bounds}   ")
    sys.stderr.flush()


def _solve(args) -> int:
    if args.record:
        position = _load_record(args.record).position
        if position is None:
            print("the record stops before the komi is chosen: nothing to solve")
            return 2
        pos = position.copy()
    else:
        pos = catena.Position(size=args.size, game_type=args.game_type, scoring=args.scoring,
                              komi=args.komi)
    for move in args.moves:
        pos.push(move)
    print(pos)
    result = catena.solve(pos, max_seconds=args.max_seconds, max_nodes=args.max_nodes, tt_mb=args.tt_mb,
                          progress=_progress_bar)
    sys.stderr.write("\n")
    if not result.solved:
        print(f"unsolved (stopped by {result.stopped_by}): value in [{result.lower}, {result.upper}] "
              f"after {result.nodes:,} nodes, {result.seconds:.1f} s")
        return 1
    value = "" if result.value is None else f"value {result.value:+g} (Black - White), "
    print(f"{value}winner {result.winner}, best move {result.best_move}")
    print("principal variation: " + " ".join(str(m) for m in result.pv))
    print(f"{result.nodes:,} nodes in {result.seconds:.2f} s")
    return 0


def _solved(args) -> int:
    from catena.solved import write_solved_markdown
    write_solved_markdown(args.out, sizes=tuple(args.sizes), tt_mb=args.tt_mb)
    print(f"wrote {args.out}")
    return 0


def _bench(args) -> int:
    from catena.benchmark import report
    report(quick=args.quick, callgrind=not args.no_callgrind)
    return 0


def _check_args(args) -> None:
    """Refuse bad numbers before any work starts (ValueError, reported as one line)."""
    if "size" in args:
        check_size(args.size)
    positive = {"iterations": 1, "games": 1, "max_nodes": 1, "tt_mb": 1}
    for name, minimum in positive.items():
        if name in args:
            optional_integer(getattr(args, name), f"--{name.replace('_', '-')}", minimum)
    if "depth" in args:
        integer(args.depth, "--depth", minimum=0)
    for name in ("seconds", "max_seconds"):
        if name in args:
            optional_real(getattr(args, name), f"--{name.replace('_', '-')}", positive=True)
    for size in getattr(args, "sizes", ()):
        check_size(size)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="catena", description="The board game Catena.")
    sub = parser.add_subparsers(dest="command")

    def common(p):
        p.add_argument("--size", type=int, default=6, help="board side, 1 to 10 (default 6)")
        p.add_argument("--game-type", default="komi", choices=catena.GAME_TYPES)
        p.add_argument("--scoring", default="standard", choices=catena.SCORINGS)

    demo = sub.add_parser("demo", help="a game between two engine players (the default)")
    common(demo)
    demo.add_argument("--iterations", type=int, default=5000, help="MCTS iterations per decision")
    demo.add_argument("--seed", type=int, default=None)
    demo.add_argument("--boards", action="store_true", help="draw the board after every move")
    play = sub.add_parser("play", help="play against the engine in the terminal")
    common(play)
    play.add_argument("--human", choices=("P1", "P2"), default="P1", help="which player you are")
    play.add_argument("--iterations", type=int, default=5000, help="engine strength: iterations a move")
    play.add_argument("--seconds", type=float, default=None, help="engine strength: seconds a move")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--save", default=None, help="write the game record to this file")
    show = sub.add_parser("show", help="replay a game record and draw its board")
    show.add_argument("record", help="a game record file")
    show.add_argument("--svg", default=None, help="also draw the board to this SVG file")
    show.add_argument("--legal", action="store_true", help="mark the legal cells in the SVG")
    selfplay = sub.add_parser("selfplay", help="engine against engine, N games, records written")
    common(selfplay)
    selfplay.add_argument("--games", type=int, default=10)
    selfplay.add_argument("--iterations", type=int, default=2000)
    selfplay.add_argument("--seed", type=int, default=None)
    selfplay.add_argument("--out", default=None, help="folder for the game records")
    perft = sub.add_parser("perft", help="count the move tree from the empty board")
    common(perft)
    perft.add_argument("--depth", type=int, default=3)

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv.insert(0, "demo")
    solve = sub.add_parser("solve", help="solve a position exactly, with a progress bar")
    common(solve)
    solve.add_argument("--komi", type=int, default=0)
    solve.add_argument("moves", nargs="*", help="moves from the empty board, e.g. B2 button C3")
    solve.add_argument("--record", default=None, help="start from the end of this game record")
    solve.add_argument("--max-seconds", type=float, default=None)
    solve.add_argument("--max-nodes", type=int, default=None)
    solve.add_argument("--tt-mb", type=int, default=64, help="transposition table size (MB)")
    solved = sub.add_parser("solved", help="solve the small boards and write docs/solved.md")
    solved.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 3])
    solved.add_argument("--out", default="docs/solved.md")
    solved.add_argument("--tt-mb", type=int, default=64)
    bench = sub.add_parser("bench", help="print the throughput table")
    bench.add_argument("--quick", action="store_true", help="fewer games: a smoke test")
    bench.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")

    args = parser.parse_args(argv)
    try:
        _check_args(args)
        return {"demo": _demo, "play": _play, "show": _show, "selfplay": _selfplay, "perft": _perft,
                "bench": _bench, "solve": _solve, "solved": _solved}[args.command](args)
    except (ValueError, TypeError, OSError) as exc:
        print(f"catena: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
