"""Command line: ``python -m catena [COMMAND] ...``, the commands in the table COMMANDS below.

``demo`` (the default) plays a game between two engine players on the side-6
board, printing every action and the board, and ends with the outcome.

The conventions every command shares: ``--help`` states each option's default;
a time limit is ``--seconds``; a bad argument is one line on stderr with exit
status 2; Ctrl-C (or SIGTERM) stops a long command with exit status 130 and one
line saying so (after saving what it can: ``play`` saves the game); progress bars
go to stderr, only when it is a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
import warnings

import catena
from catena import gtp, match, prior
from catena._geometry import check_size
from catena._interrupt import noting_ctrl_c, sigterm_as_ctrl_c
from catena._validate import integer, optional_integer, optional_real
from catena.players import MCTSPlayer
from catena.selfplay import seeded_players
from catena.text import plural

INTERRUPTED = 130             # the exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells use


def _demo_arguments(parser: argparse.ArgumentParser) -> None:
    _rules_arguments(parser)
    parser.add_argument("--iterations", type=int, default=5000, help="MCTS iterations per decision (default: 5000)")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed, for a game that can be replayed (default: none, a new game each time)")
    parser.add_argument("--boards", action="store_true", help="draw the board after every move")


def _demo(args) -> int:
    from catena.text import LEGEND, claims_text

    game = catena.Game(size=args.size, game_type=args.game_type, scoring=args.scoring)
    p1, p2 = seeded_players(args.iterations, args.seed)
    print(f"Catena demo: side {args.size}, game type {args.game_type}, {args.scoring} scoring; "
          f"two MCTS players, {args.iterations} iterations per decision")
    if args.boards:
        print(f"Board: {LEGEND}.")

    def show(game, player, kind, value):
        if ctrl_c.happened:                      # a search ended cleanly on Ctrl-C: stop the game here
            raise KeyboardInterrupt
        if kind == "komi":
            print(f"{player} chooses komi {value}")
        elif kind == "colour":
            print(f"{player} chooses to play {value}")
        else:
            pos = game.position
            colour = game.colour_of(player) or "black"      # no-komi opening: P1 plays Black
            claims = "; ".join(claims_text(pos))
            print(f"{pos.ply:3d}. {player} ({colour}) {value}" + (f"   [{claims}]" if claims else ""))
            if args.boards:
                print(pos)

    start = time.perf_counter()
    with noting_ctrl_c() as ctrl_c:
        result = game.play(p1, p2, on_action=show)
    print(game.position)
    print(f"Outcome: {result} ({time.perf_counter() - start:.1f} s)")
    return 0


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    _rules_arguments(parser)
    parser.add_argument("--human", choices=("P1", "P2"), default="P1",
                        help="which player you are: P1 chooses the komi (or places the first stone), "
                             "P2 then chooses a colour (default: P1)")
    parser.add_argument("--iterations", type=int, default=5000,
                        help="engine strength: iterations a move (default: 5000)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="engine strength: seconds a move, instead of --iterations (default: none)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the engine (default: none)")
    parser.add_argument("--save", default=None,
                        help="write the game record to this file (default: none; a game stopped before "
                             "its end is saved to catena-game-DATE-TIME.catena)")


def _play(args) -> int:
    from catena.terminal import TerminalGame

    game = catena.Game(size=args.size, game_type=args.game_type, scoring=args.scoring)
    engine = MCTSPlayer(iterations=None if args.seconds else args.iterations, seconds=args.seconds,
                        seed=args.seed)
    status = TerminalGame(game, engine, human=args.human).run()
    path = args.save
    if path is None and game.actions and not game.is_over():     # a stopped game is never lost
        path = _unused_name(time.strftime("catena-game-%Y%m%d-%H%M%S"), ".catena")
    if path is not None:
        from catena.record import write_game

        strength = f"{args.seconds} s" if args.seconds else f"{args.iterations} iterations"
        names = {args.human: "human", "P2" if args.human == "P1" else "P1": f"catena MCTS {strength}"}
        with open(path, "w") as handle:
            handle.write(write_game(game, P1=names["P1"], P2=names["P2"]))
    if status == INTERRUPTED:
        saved = f": the game is saved to {path}" if path is not None else " before the first move: nothing to save"
        print(f"stopped by Ctrl-C{saved}")
    elif path is not None:
        print(f"saved the game to {path}")
    return status


def _unused_name(stem: str, suffix: str) -> str:
    """``stem + suffix``, or with "-2", "-3", ... before the suffix if that file exists."""
    import os

    path, number = stem + suffix, 1
    while os.path.exists(path):
        number += 1
        path = f"{stem}-{number}{suffix}"
    return path


def _load_record(path: str) -> "catena.Game":
    """The game of the record in the file ``path``, or on standard input for ``-``."""
    from catena.record import read_game

    if path == "-":
        return read_game(sys.stdin.read()).game()
    with open(path) as handle:
        return read_game(handle.read()).game()


def _show_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record file, or - for standard input")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--ply", type=int, default=None, metavar="N",
                       help="the board after the first N moves (default: the final board)")
    which.add_argument("--every", action="store_true", help="print the board after every move")
    parser.add_argument("--svg", default=None,
                        help="also draw the board (the final one, or at --ply) to this SVG file (default: none)")
    parser.add_argument("--legal", action="store_true", help="mark the legal cells in the SVG")


def _show(args) -> int:
    game = _load_record(args.record)
    if game.position is None:
        print("the record stops before the komi is chosen: no board yet")
        return 0
    final = game.position
    moves = list(final.move_stack)
    if args.ply is not None and not 0 <= args.ply <= len(moves):
        raise ValueError(f"--ply must be 0 to {len(moves)} for this game (it has {len(moves)} moves), "
                         f"not {args.ply}")
    start = catena.Position(size=final.size, game_type=final.game_type, scoring=final.scoring, komi=final.komi)
    shown = start.copy()
    for move in moves[:len(moves) if args.ply is None else args.ply]:
        shown.push(move)
    if args.every:
        board = start.copy()
        print("the empty board:")
        print(board)
        for ply, move in enumerate(moves, 1):
            mover = board.to_move
            board.push(move)
            print(f"after move {ply}, {move} ({mover}):")
            print(board)
    else:
        if args.ply is not None:
            print(f"after move {args.ply} of {len(moves)}:")
        print(shown)
    if args.svg:
        from catena.svg import svg

        with open(args.svg, "w") as handle:
            handle.write(str(svg(shown, legal=args.legal)))
        print(f"wrote {args.svg}")
    return 0


def _selfplay_arguments(parser: argparse.ArgumentParser) -> None:
    _rules_arguments(parser)
    parser.add_argument("--games", type=int, default=10, help="how many games (default: 10)")
    parser.add_argument("--iterations", type=int, default=2000,
                        help="MCTS iterations per decision of both players (default: 2000)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the first game (default: none)")
    parser.add_argument("--out", default=None,
                        help="folder for the game records, game-0001.catena, ... (default: none, not written)")
    parser.add_argument("--npz", default=None, metavar="FILE",
                        help="write training arrays (observations, MCTS visit distributions, final "
                             "margin and result; catena.selfplay) to FILE instead of playing setups "
                             "(default: none)")
    parser.add_argument("--komi", type=int, default=0, help="komi of the --npz games (default: 0)")
    parser.add_argument("--force", action="store_true",
                        help="overwrite the game records (or the --npz file) that exist already "
                             "(without it they are refused before any game)")
    _ray_arguments(parser)


def _selfplay(args) -> int:
    import os

    from catena._interrupt import noting_ctrl_c
    from catena.progress import bar
    from catena.record import record_name
    from catena.selfplay import record_text, selfplay_game

    _refuse_overwriting(args)
    if args.ray is not None:
        return _selfplay_ray(args)
    if args.npz:
        return _selfplay_npz(args)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    wins = {"P1": 0, "P2": 0, None: 0}

    def stop_on_ctrl_c(*action) -> None:          # a search ends cleanly on Ctrl-C: stop here
        if ctrl_c.happened:
            raise KeyboardInterrupt

    played = 0
    try:
        with noting_ctrl_c() as ctrl_c, bar(args.games, "selfplay", unit=" games") as games:
            for index in range(args.games):
                game, outcome = selfplay_game(index, args.seed, args.size, args.game_type, args.scoring,
                                          args.iterations, on_action=stop_on_ctrl_c)
                wins[outcome.winner_player] += 1
                if args.out:
                    with open(os.path.join(args.out, record_name(index)), "w") as handle:
                        handle.write(record_text(game, args.iterations))
                played += 1
                games.set_postfix_str(f"P1 {wins['P1']}, P2 {wins['P2']}, draws {wins[None]}", refresh=False)
                games.update()
    except KeyboardInterrupt:
        print(f"stopped by Ctrl-C after {played} of {plural(args.games, 'game')}: P1 {wins['P1']}, "
              f"P2 {wins['P2']}, draws {wins[None]}")
        return INTERRUPTED
    print(f"{plural(args.games, 'game')}: P1 {wins['P1']}, P2 {wins['P2']}, draws {wins[None]}"
          + (f"; records in {args.out}" if args.out else ""))
    return 0


def _refuse_overwriting(args) -> None:
    """selfplay writes game-0001.catena ... or an .npz file: refuse to replace existing
    ones unless --force, before any game is played."""
    import os

    from catena.record import refuse_overwriting_records

    if args.force:
        return
    if args.npz and os.path.exists(args.npz):
        raise ValueError(f"{args.npz} exists: give --force to overwrite it, or another --npz file")
    if args.out and not args.npz:
        refuse_overwriting_records(args.out, args.games)


def _selfplay_ray(args) -> int:
    from catena import distributed
    from catena.progress import bar

    with bar(args.games, "selfplay on Ray", unit=" games") as games:
        def progress(done, total):
            games.n = done
            games.refresh()

        summary = distributed.selfplay(args.games, seed=args.seed, out=args.out, address=args.ray or None,
                                       workers=args.workers, npz=args.npz, size=args.size,
                                       game_type=args.game_type, scoring=args.scoring,
                                       iterations=args.iterations, komi=args.komi, progress=progress)
    sides = ("black", "white") if args.npz else ("P1", "P2")
    where = f"; arrays in {args.npz}" if args.npz else (f"; records in {args.out}" if args.out else "")
    stopped = "" if summary["games"] == args.games else f"stopped by Ctrl-C after {summary['games']} of "
    print(f"{stopped}{plural(summary['games'] if not stopped else args.games, 'game')}: {sides[0]} "
          f"{summary[sides[0]]}, {sides[1]} {summary[sides[1]]}, draws {summary['draws']}{where}")
    return 0 if not stopped else INTERRUPTED


def _selfplay_npz(args) -> int:
    from catena.progress import bar
    from catena.selfplay import selfplay_arrays, write_npz

    with bar(args.games, "selfplay", unit=" games") as games:
        def progress(done, total):
            games.update(done - games.n)

        data = selfplay_arrays(args.games, size=args.size, game_type=args.game_type, scoring=args.scoring,
                               komi=args.komi, iterations=args.iterations, seed=args.seed, progress=progress)
    write_npz(args.npz, data)
    played = len(set(data["game"].tolist()))
    stopped = "" if played == args.games else f" (stopped by Ctrl-C after {played} of {plural(args.games, 'game')})"
    print(f"{plural(played, 'game')}, {plural(len(data['policy']), 'position')} written to {args.npz}{stopped}")
    return 0 if played == args.games else INTERRUPTED


def _perft_arguments(parser: argparse.ArgumentParser) -> None:
    _rules_arguments(parser)
    _moves_argument(parser, "perft counts from the position after them")
    parser.add_argument("--depth", type=int, default=3, help="count up to this many moves (default: 3)")


def _perft(args) -> int:
    pos = catena.Position.from_moves(args.moves, args.size, args.game_type, args.scoring)
    for depth in range(args.depth + 1):
        start = time.perf_counter()
        nodes = catena.perft(pos, depth)
        seconds = time.perf_counter() - start
        print(f"perft({depth}) = {nodes}  ({seconds:.3f} s)")
    return 0


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    _position_arguments(parser, "solve starts after them")
    parser.add_argument("--record", default=None,
                        help="start from the end of this game record (default: none, the empty board)")
    parser.add_argument("--seconds", "--max-seconds", dest="seconds", type=float, default=None,
                        help="stop after this many seconds with the bounds proven so far (default: no limit)")
    parser.add_argument("--max-nodes", type=int, default=None,
                        help="stop after this many nodes with the bounds proven so far; without either "
                             "limit (or a checkpoint), positions estimated at more than half an hour are "
                             "refused (default: no limit)")
    parser.add_argument("--tt-mb", type=int, default=64,
                        help="transposition table size in MB (default: 64; with --ray, MB a worker)")
    parser.add_argument("--threads", type=int, default=None,
                        help="search threads (default: all cores; with --ray, threads a work unit, default 1)")
    parser.add_argument("--checkpoint", default=None,
                        help="save proven results to this file as the search goes; resume from it if it "
                             "exists (default: none)")
    parser.add_argument("--window", type=float, nargs=2, default=None, metavar=("LO", "HI"),
                        help="only prove value <= LO, value >= HI, or the exact value between "
                             "(default: the exact value)")
    parser.add_argument("--guess", type=float, default=None,
                        help="where the null-window searches start (default: a short MCTS's estimate on "
                             "positions of 27 legal cells or more, else 0)")
    _ray_arguments(parser)
    parser.add_argument("--unit-depth", type=int, default=None,
                        help="with --ray: split the tree into work units this many moves deep (default: "
                             "8 units a searcher)")


def _solve(args) -> int:
    from catena.checkpoint import check_writable, checkpoint_path
    from catena.effort import check_solvable
    from catena.errors import TooMuchWorkError
    from catena.progress import SolveProgress

    if args.record:
        position = _load_record(args.record).position
        if position is None:
            print("the record stops before the komi is chosen: nothing to solve")
            return 2
        pos = position.copy()
        for move in args.moves:
            pos.push(move)
    else:
        pos = _position_of(args)
    if args.checkpoint is not None:           # before the board and the bar: a path no save could use
        check_writable(checkpoint_path(args.checkpoint))
    if args.seconds is None and args.max_nodes is None:
        try:
            check_solvable(pos, limit_hint="give --seconds or --max-nodes to search with a limit "
                                           "and get proven bounds, or --checkpoint FILE to solve in pieces")
        except TooMuchWorkError as exc:
            if args.checkpoint is None:
                raise
            print(f"note: {exc}", file=sys.stderr)      # a checkpointed solve may run in pieces: say so, go on
    print(pos)
    try:
        with _warnings_as_lines():
            if args.ray is not None:
                return _solve_ray(args, pos)
            with SolveProgress(args.max_nodes, args.seconds) as progress:
                result = catena.solve(pos, max_seconds=args.seconds, max_nodes=args.max_nodes,
                                      tt_mb=args.tt_mb, progress=progress, threads=args.threads,
                                      checkpoint=args.checkpoint, guess=args.guess,
                                      window=None if args.window is None else tuple(args.window))
    except KeyboardInterrupt:        # a second Ctrl-C after the solve stopped (its checkpoint is saved)
        print("catena solve: stopped by Ctrl-C", file=sys.stderr)
        return INTERRUPTED
    return _print_solved(result, pos, args.window)


@contextlib.contextmanager
def _warnings_as_lines():
    """Show warnings (a checkpoint that could not be saved, say) as one line on stderr each."""
    def line(message, category, *_, **__) -> None:
        print(f"catena: warning: {message}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.showwarning = line
        yield


def _shrink_checkpoint_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("src", help="a checkpoint written by solve --checkpoint")
    parser.add_argument("dst", help="the smaller checkpoint to write, for the same solve to resume from")
    parser.add_argument("--min-nodes", type=int, default=1 << 20,
                        help="keep table entries that searched at least this many nodes (default: 1048576)")


def _shrink_checkpoint(args) -> int:
    from catena.solver import shrink_checkpoint

    try:
        kept, read = shrink_checkpoint(args.src, args.dst, args.min_nodes)
    except KeyboardInterrupt:
        print(f"catena: stopped by Ctrl-C: {args.dst} not written", file=sys.stderr)
        return 130
    floor = 1 << (args.min_nodes.bit_length() - 1)           # the table records work as a power of two
    print(f"{args.dst}: kept {kept:,} of {read:,} table entries (those of at least {floor:,} nodes)")
    return 0


def _solve_ray(args, pos) -> int:
    from catena import distributed
    from catena.progress import SolveProgress

    if args.max_nodes is not None:
        raise ValueError("--max-nodes is not for --ray: give --seconds, or --checkpoint and stop with Ctrl-C")
    with SolveProgress(None, args.seconds) as progress:
        result = distributed.solve(pos, address=args.ray or None, workers=args.workers, checkpoint=args.checkpoint,
                                   window=None if args.window is None else tuple(args.window), guess=args.guess,
                                   depth=args.unit_depth, tt_mb=args.tt_mb, max_seconds=args.seconds,
                                   threads=1 if args.threads is None else args.threads, progress=progress)
    return _print_solved(result, pos, args.window)


def _print_solved(result, pos, window=None) -> int:
    from catena.progress import bounds_text

    if result.stopped_by == "window":
        proves_upper = window is not None and result.upper <= window[0]
        proof = f"value <= {result.upper:+g}" if proves_upper else f"value >= {result.lower:+g}"
        print(f"proven: {proof} after {result.nodes:,} nodes, {result.seconds:.1f} s"
              + (f"; winner {result.winner}" if result.winner else ""))
        return 0
    if not result.solved:
        print(f"unsolved (stopped by {result.stopped_by}): value in {bounds_text(result.lower, result.upper)} "
              f"after {result.nodes:,} nodes, {result.seconds:.1f} s")
        return INTERRUPTED if result.stopped_by == "interrupt" else 1
    value = "" if result.value is None else f"value {result.value:+g} (Black - White), "
    print(f"{value}winner {result.winner}" + (f", best move {result.best_move}" if result.best_move else ""))
    end = pos.copy()
    for move in result.pv:
        end.push(move)
    walked = end.is_game_over()
    print("principal variation" + ("" if walked else " (its walk stopped by Ctrl-C)") + ": "
          + " ".join(str(m) for m in result.pv))
    print(f"{result.nodes:,} nodes in {result.seconds:.2f} s")
    return 0 if walked else INTERRUPTED


def _analyse_arguments(parser: argparse.ArgumentParser) -> None:
    _position_arguments(parser, "analyse the position after them")
    parser.add_argument("--seconds", type=float, default=None,
                        help="search time (default: none, 20000 iterations unless --iterations)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="search iterations (default: 20000 unless --seconds)")
    parser.add_argument("--exact", action=argparse.BooleanOptionalAction, default=None,
                        help="solve every move (default: when the position is small enough)")
    parser.add_argument("--top", type=int, default=None, help="print the best N moves only (default: all)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the search (default: none)")
    parser.add_argument("--threads", type=int, default=1, help="search threads (default: 1)")
    parser.add_argument("--svg", default=None,
                        help="draw the move values as a heatmap to this SVG file (default: none)")


def _analyse(args) -> int:
    from catena.analysis import analyse

    pos = _position_of(args)
    print(pos)

    from catena.progress import bar

    with bar(None, "solving every move", unit=" move", leave=False) as moves_bar:
        def solving(solved, moves, nodes):
            moves_bar.total = moves
            moves_bar.n = solved
            moves_bar.set_postfix_str(f"{nodes:,} nodes on this one")

        analysis = analyse(pos, seconds=args.seconds, iterations=args.iterations, exact=args.exact,
                           seed=args.seed, threads=args.threads, progress=solving)
    if analysis.stopped_by == "interrupt":
        proven = sum(line.proven for line in analysis.moves)
        print(f"stopped by Ctrl-C after {analysis.seconds:.1f} s: {plural(analysis.iterations, 'search iteration')}, "
              f"{proven} of {plural(len(analysis.moves), 'move')} proven")
        return INTERRUPTED
    print(analysis.table(limit=args.top))
    if analysis.exact is not None:
        print(f"exact value {analysis.exact:+g} (Black - White), every move proven")
    elif args.exact:
        print("the solving stopped before every move was proven")
    print("principal variation: " + " ".join(str(m) for m in analysis.pv))
    if analysis.solved_exactly:
        print(f"solved exactly (no search needed), {analysis.seconds:.2f} s")
    else:
        print(f"{plural(analysis.iterations, 'search iteration')}, {analysis.seconds:.2f} s")
    if args.svg:
        with open(args.svg, "w") as handle:
            handle.write(str(analysis.svg()))
        print(f"wrote {args.svg}")
    return 0


def _solved_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 3],
                        help="board sides to solve (default: 1 2 3; side 4 takes hours)")
    parser.add_argument("--out", default=None,
                        help="the Markdown file to write, e.g. docs/solved.md (default: standard output)")
    parser.add_argument("--tt-mb", type=int, default=64, help="transposition table size in MB (default: 64)")


def _solved(args) -> int:
    import os

    from catena.progress import bar
    from catena.solved import ROWS_PER_SIZE, solved_markdown

    if args.out is not None:
        folder = os.path.dirname(os.path.abspath(args.out))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise OSError(f"cannot write {args.out}: the folder {os.path.dirname(args.out) or '.'} does not exist "
                          f"or is not writable")
    try:
        with bar(ROWS_PER_SIZE * len(args.sizes), "solving", unit=" rows") as rows:
            def row_done(row: str) -> None:
                rows.set_postfix_str(row, refresh=False)
                rows.update()

            text = solved_markdown(sizes=tuple(args.sizes), tt_mb=args.tt_mb, progress=row_done)
    except KeyboardInterrupt:
        print(f"stopped by Ctrl-C: {'nothing' if args.out is None else args.out + ' not'} written")
        return INTERRUPTED
    if args.out is None:
        sys.stdout.write(text)
        return 0
    with open(args.out, "w") as handle:
        handle.write(text)
    print(f"wrote {args.out}")
    return 0


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="fewer games and iterations: a smoke test (about 5 s)")


def _bench(args) -> int:
    from catena.benchmark import report
    try:
        report(quick=args.quick)
    except KeyboardInterrupt:
        print("stopped by Ctrl-C")
        return INTERRUPTED
    return 0


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    parser.add_argument("--no-open", action="store_true", help="do not open the page in a web browser")


def _serve(args) -> int:
    try:
        from catena.web import serve
    except ImportError as exc:
        print(f'catena: serve needs Starlette and uvicorn: pip install "catena[web]" ({exc})', file=sys.stderr)
        return 2
    try:
        serve(args.host, args.port, open_browser=not args.no_open)
    except KeyboardInterrupt:
        print("stopped by Ctrl-C")
        return INTERRUPTED
    return 0


def _check_args(args) -> None:
    """Refuse bad numbers before any work starts (ValueError, reported as one line)."""
    if "size" in args:
        check_size(args.size)
    positive = {"iterations": 1, "games": 1, "max_nodes": 1, "tt_mb": 1, "workers": 1, "top": 1, "min_nodes": 1}
    maximum = {"max_nodes": 1 << 62, "min_nodes": 1 << 62}      # 64-bit counts in the core
    for name, minimum in positive.items():
        if name in args:
            optional_integer(getattr(args, name), f"--{name.replace('_', '-')}", minimum, maximum.get(name))
    if "depth" in args:
        integer(args.depth, "--depth", minimum=0)
    for name in ("seconds", "timeout"):
        if name in args:
            optional_real(getattr(args, name), f"--{name.replace('_', '-')}", positive=True)
    for size in getattr(args, "sizes", ()):
        check_size(size)


def _rules_arguments(p: argparse.ArgumentParser) -> None:
    """The rules' options that most commands share."""
    p.add_argument("--size", type=int, default=6, help="board side, 1 to 10 (default: 6)")
    p.add_argument("--game-type", default="komi", choices=catena.GAME_TYPES,
                   help="komi: P1 sets the komi, P2 picks a colour; nokomi: P1 places a black stone, "
                        "P2 picks a colour; double: two stones a turn (default: komi; docs/rules.md)")
    p.add_argument("--scoring", default="standard", choices=catena.SCORINGS,
                   help="standard: stones owned; longest: longest ribbon wins; square: squares of "
                        "ribbon lengths (default: standard)")


def _position_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """A position as the rules, White's komi and moves from the empty board (solve, analyse);
    :func:`_position_of` makes it."""
    _rules_arguments(p)
    p.add_argument("--komi", type=int, default=0, help="White's komi (default: 0)")
    _moves_argument(p, what)


def _position_of(args: argparse.Namespace) -> catena.Position:
    return catena.Position.from_moves(args.moves, args.size, args.game_type, args.scoring, args.komi)


def _ray_arguments(p) -> None:
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run on Ray (docs/distributed.md): a cluster's head address such as HEAD:6379, "
                        "or none for a local Ray on this machine's cores (put moves before --ray; "
                        "default: no Ray)")
    p.add_argument("--workers", type=int, default=None, help="with --ray: how many workers (default: all CPUs)")


def _moves_argument(p, what: str) -> None:
    p.add_argument("moves", nargs="*", help=f"moves from the empty board, e.g. B2 button C3 ({what}; "
                                            f"default: none)")


COMMANDS = {    # name: (help, its arguments, what runs it)
    "demo": ("a game between two engine players (the default)", _demo_arguments, _demo),
    "play": ("play against the engine in the terminal", _play_arguments, _play),
    "show": ("replay a game record and draw its board", _show_arguments, _show),
    "selfplay": ("engine against engine, N games, records written", _selfplay_arguments, _selfplay),
    "perft": ("count the move tree from the empty board or from given moves", _perft_arguments, _perft),
    "solve": ("solve a position exactly, with a progress bar", _solve_arguments, _solve),
    "shrink-checkpoint": ("copy a solve's checkpoint keeping only its expensive proofs (docs/side4.md)",
                          _shrink_checkpoint_arguments, _shrink_checkpoint),
    "analyse": ("every legal move's search values and, when small, exact values", _analyse_arguments, _analyse),
    "solved": ("solve the small boards and print the tables of docs/solved.md", _solved_arguments, _solved),
    "bench": ("print the throughput table", _bench_arguments, _bench),
    "serve": ('a web page to play against the engine and analyse (pip install "catena[web]")',
              _serve_arguments, _serve),
    "gtp": ("a GTP engine on standard input and output (docs/gtp.md)", gtp.add_arguments, gtp.main),
    "match": ("two engines over an opening suite: Elo and SPRT", match.add_arguments, match.main),
    "train-prior": ("fit the search's move prior on seeded self-play (docs/strength.md)",
                    prior.add_arguments, prior.main),
}


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command: each declares its own options, whose help states the default."""
    parser = argparse.ArgumentParser(prog="catena", description="The board game Catena.")
    parser.add_argument("--version", action="version", version=f"catena {catena.__version__}")
    sub = parser.add_subparsers(dest="command")
    for name, (help_text, add_arguments, _run) in COMMANDS.items():
        add_arguments(sub.add_parser(name, help=help_text))
    return parser


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "demo")
    args = build_parser().parse_args(argv)
    try:
        _check_args(args)
        with sigterm_as_ctrl_c():
            return COMMANDS[args.command][2](args)
    except (ValueError, TypeError, OSError) as exc:
        print(f"catena: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:                    # a command with nothing of its own to report
        print(f"catena {args.command}: stopped by Ctrl-C", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
